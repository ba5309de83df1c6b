package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A mapping table's sideEffects (--mapping FILE) name the effect of any
// agent's tool, over the shipped table: Claude Code's Bash is a shell
// command unless the user's table says otherwise.
func TestMappingSideEffectsReachOtherAgentsTools(t *testing.T) {
	capture := "../testdata/captures/claude/agent-harness-thinking-bash.jsonl"
	code, out, errs := run(t, "", "translate", "--to", "zero", capture)
	if code != 0 || !strings.Contains(out, `"name":"Bash","runId"`) || !strings.Contains(out, `"sideEffect":"shell"`) {
		t.Fatalf("without a table: exit %d, %s\n%s", code, errs, out)
	}
	table := filepath.Join(t.TempDir(), "effects.json")
	if err := os.WriteFile(table, []byte(`{"from": "evosci", "to": "zero", "sideEffects": {"Bash": "read"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = run(t, "", "translate", "--to", "zero", "--mapping", table, capture)
	if code != 0 || strings.Contains(out, `"sideEffect":"shell"`) || !strings.Contains(out, `"sideEffect":"read"`) {
		t.Errorf("with the table: exit %d, %s\n%s", code, errs, out)
	}
}
