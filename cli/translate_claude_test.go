package cli

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/translate"
)

// zevo translate --to claude writes what `zevo validate --as claude`
// accepts, from Zero and from EvoScientist, the same bytes for the same
// file, redacted unless --no-redact, with what Claude Code's stream has
// no room for counted on stderr, or refused with --unmapped error.
func TestTranslateToClaudeCommand(t *testing.T) {
	for _, f := range []string{sampleZero, sampleEvo, sampleV1, seedZero, seedEvo} {
		code, out, stderr := run(t, "", "translate", "--to", "claude", f)
		if code != 0 || out == "" {
			t.Fatalf("%s: exit %d\n%s\n%s", f, code, out, stderr)
		}
		if vcode, vout, verr := run(t, out, "validate", "--as", "claude", "-"); vcode != 0 {
			t.Errorf("%s: validate --as claude exits %d:\n%s%s\n%s", f, vcode, vout, verr, out)
		}
		if _, again, _ := run(t, "", "translate", "--to", "claude-code", f); again != out {
			t.Errorf("%s: a second translation differs", f)
		}
		last := gjson.Parse(out[strings.LastIndexByte(strings.TrimSuffix(out, "\n"), '\n')+1:])
		if last.Get("type").Str != "result" {
			t.Errorf("%s: the output ends with %s", f, last.Raw)
		}
	}
	const secret = "sk-live-0123456789abcdef"
	_, out, stderr := run(t, "", "translate", "--to", "claude", sampleEvo)
	if strings.Contains(out, secret) || !strings.Contains(out, "[REDACTED]") {
		t.Errorf("not redacted:\n%s", out)
	}
	if !strings.Contains(stderr, "unmapped event(s) dropped: evosci.subagent_end=1") {
		t.Errorf("stderr %q", stderr)
	}
	if _, out, _ := run(t, "", "translate", "--to", "claude", "--no-redact", sampleEvo); !strings.Contains(out, secret) {
		t.Errorf("--no-redact redacts:\n%s", out)
	}
	if code, _, stderr := run(t, "", "translate", "--to", "claude", "--unmapped", "error", sampleZero); code == 0 || !strings.Contains(stderr, "has no claude counterpart") {
		t.Errorf("--unmapped error: exit %d, %q", code, stderr)
	}
	if code, _, stderr := run(t, "", "translate", "--to", "codex", sampleZero); code == 0 || !strings.Contains(stderr, "want "+translate.TargetNames()) {
		t.Errorf("--to codex: exit %d, %q", code, stderr)
	}
}

// zevo exec --to claude ends as Claude Code does: exit 0 after a success
// result, 1 after an error result (an agent's failure, a run cut short).
func TestExecToClaudeExitsAsClaudeCode(t *testing.T) {
	for mode, want := range map[string]int{"success-evosci": 0, "success-zero": 0, "error-zero": 1, "error-evosci": 1, "cut": 1} {
		r := runExecCmd(t, "", "exec", "--to", "claude", "--prompt", "x", "--", "AGENT", mode, "{prompt}")
		if r.code != want {
			t.Errorf("%s: exit %d, want %d\n%s\n%s", mode, r.code, want, r.stdout, r.stderr)
		}
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		first, last := gjson.Parse(lines[0]), gjson.Parse(lines[len(lines)-1])
		if first.Get("subtype").Str != "init" || last.Get("type").Str != "result" || last.Get("is_error").Bool() != (want != 0) {
			t.Errorf("%s: output\n%s", mode, r.stdout)
		}
	}
}
