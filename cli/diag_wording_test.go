package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/jsonl"
)

// TestBadLineNamedAlikeByEveryCommand: a line that is not JSON is named
// by every command as jsonl.Diagnostic words it (the file's name escaped
// the same way), FILE:LINE first with no program prefix (a message
// about an input's line, not about zevo), whatever the command then adds.
// A message about the program itself (a file it cannot open) keeps the
// "zevo: " every command gives it.
func TestBadLineNamedAlikeByEveryCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a\tb.jsonl")
	if err := os.WriteFile(file, []byte("{\"type\":\"text\",\"content\":\"hi\"}\nnope\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.jsonl")
	d := jsonl.Diagnostic{File: file, Line: 2, Severity: jsonl.SevError, Message: "not valid JSON at byte 1: unexpected 'n'"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"translate", "--to", "zero"}, d.String()},
		{[]string{"view"}, d.String()},
		{[]string{"view", "--format", "markdown"}, d.String()},
		{[]string{"view", "--format", "html"}, d.String()},
		{[]string{"stats"}, d.String() + " (not counted)"},
		{[]string{"otel", "--output", filepath.Join(dir, "o.json")}, d.String() + " (not exported)"},
	} {
		code, _, errs := run(t, "", append(c.args, file)...)
		if code != ExitDiagnostics || !strings.Contains("\n"+errs, "\n"+c.want+"\n") {
			t.Errorf("%s: exit %d, stderr %q; want a line %q", c.args, code, errs, c.want)
		}
		_, _, errs = run(t, "", append(c.args, missing)...)
		if !strings.HasPrefix(errs, "zevo: ") || !strings.Contains(errs, "missing.jsonl") {
			t.Errorf("%s of a missing file: stderr %q; want a line \"zevo: …missing.jsonl…\"", c.args, errs)
		}
	}
	// jq's own parser reads "nope" as far as "no" (its byte 2), as jq
	// does; its diagnostic has the same form.
	jqd := d
	jqd.Message = "not valid JSON at byte 2: unexpected 'o'"
	if _, _, errs := run(t, "", "jq", ".", file); !strings.Contains("\n"+errs, "\n"+jqd.String()+"\n") {
		t.Errorf("jq: stderr %q; want a line %q", errs, jqd.String())
	}
	code, out, _ := run(t, "", "validate", file)
	if want := d.Labelled(); code != ExitDiagnostics || !strings.Contains("\n"+out, "\n"+want+"\n") {
		t.Errorf("validate: exit %d, output %q; want a line %q", code, out, want)
	}
}

// TestWrongTypedFieldWordedAlikeByEveryCommand: a field of the wrong type
// is worded one way (event.WrongType, validate's words) by every command
// that reports it, each diagnostic naming FILE:LINE.
func TestWrongTypedFieldWordedAlikeByEveryCommand(t *testing.T) {
	dir := t.TempDir()
	evo := filepath.Join(dir, "evo.jsonl")
	zero := filepath.Join(dir, "zero.jsonl")
	if err := os.WriteFile(evo, []byte(`{"type":"tool_call","id":"c1","name":"execute","args":{"command":"ls"}}`+"\n"+
		`{"type":"tool_result","id":"c1","name":"execute","content":"ok","success":"true"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(zero, []byte(`{"type":"run_start","schemaVersion":2,"runId":"run_1","sessionId":"s","cwd":"/w","provider":"p","model":"m"}`+"\n"+
		`{"type":"tool_result","schemaVersion":2,"runId":"run_1","id":"c1","name":"bash","status":"ok","output":"x","truncated":"no"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		file string
		want string
	}{
		{[]string{"validate"}, evo, evo + `:2: error: tool_result.success: want boolean, got string "true"`},
		{[]string{"translate", "--to", "zero"}, evo, evo + `:2: tool_result.success: want boolean, got string "true"`},
		{[]string{"translate", "--to", "claude"}, evo, evo + `:2: tool_result.success: want boolean, got string "true"`},
		{[]string{"validate"}, zero, zero + `:2: error: tool_result.truncated: want boolean, got string "no"`},
		{[]string{"translate", "--to", "evosci"}, zero, zero + `:2: tool_result.truncated: want boolean, got string "no"`},
		{[]string{"translate", "--to", "claude"}, zero, zero + `:2: tool_result.truncated: want boolean, got string "no"`},
	} {
		_, out, errs := run(t, "", append(c.args, c.file)...)
		if !strings.Contains("\n"+out+errs, "\n"+c.want+"\n") {
			t.Errorf("%s %s: stdout %q, stderr %q; want a line %q", c.args, filepath.Base(c.file), out, errs, c.want)
		}
	}
}
