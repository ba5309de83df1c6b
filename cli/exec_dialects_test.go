package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// zevo exec --to zero drives a Zero client with an agent of another
// dialect: a stand-in replays a real Claude Code capture (whole, or
// killed in the middle of its run), a Codex one whose turn failed, and
// Zero's clients read what comes out; the exit status is the run's.
func TestExecDrivesZeroWithOtherAgents(t *testing.T) {
	claude, err := filepath.Abs("../testdata/captures/claude/agent-harness-thinking-bash.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	codex, _ := filepath.Abs("../testdata/captures/codex/agent-harness-unknown-model-turn-failed.jsonl")
	for _, c := range []struct {
		name   string
		script string
		file   string
		code   int
		status string
		types  string
	}{
		{"claude", `cat "$1"`, claude, 0, "success",
			"run_start reasoning usage tool_call tool_result reasoning usage text usage final run_end"},
		{"claude killed", `head -n 5 "$1"; kill -KILL $$`, claude, 4, "incomplete",
			"run_start reasoning usage tool_call error run_end"},
		{"codex turn failed", `cat "$1"; exit 1`, codex, 1, "error",
			"run_start warning error run_end"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runExecCmd(t, "", "exec", "--to", "zero", "--", "sh", "-c", c.script, "agent", c.file)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, c.code, r.stdout, r.stderr)
			}
			evs := checkZeroOutput(t, r.stdout, c.code)
			var types []string
			for _, ev := range evs {
				types = append(types, ev.Type)
			}
			if got := strings.Join(types, " "); got != c.types {
				t.Errorf("events %q, want %q\n%s", got, c.types, r.stdout)
			}
			if st := evs[len(evs)-1].Status; st != c.status {
				t.Errorf("run_end status %q, want %q", st, c.status)
			}
			if evs[0].Provider != "" && evs[0].SessionID == "" {
				t.Errorf("run_start without a session id: %+v", evs[0])
			}
		})
	}
}
