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
// the same way), whatever the command then adds.
func TestBadLineNamedAlikeByEveryCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a\tb.jsonl")
	if err := os.WriteFile(file, []byte("{\"type\":\"text\",\"content\":\"hi\"}\nnope\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := jsonl.Diagnostic{File: file, Line: 2, Severity: jsonl.SevError, Message: "not valid JSON at byte 1: unexpected 'n'"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"translate", "--to", "zero"}, d.String()},
		{[]string{"view"}, "zevo: " + d.String()},
		{[]string{"stats"}, "zevo: " + d.String() + " (not counted)"},
		{[]string{"otel", "--output", filepath.Join(dir, "o.json")}, "zevo: " + d.String() + " (not exported)"},
	} {
		code, _, errs := run(t, "", append(c.args, file)...)
		if code != ExitDiagnostics || !strings.Contains("\n"+errs, "\n"+c.want+"\n") {
			t.Errorf("%s: exit %d, stderr %q; want a line %q", c.args[0], code, errs, c.want)
		}
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
