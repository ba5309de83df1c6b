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
