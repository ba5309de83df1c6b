package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const secrets = `{"type": "tool_call", "name": "execute", "args": {"command": "curl -H 'Authorization: Bearer abcdefghijklmnopqrstuv' x", "password": "hunter2hunter2"}, "id": "c1"}
{"type": "tool_result", "name": "execute", "content": "api_key=sk-live-abcdefghijklmnopqrstuvwxyz", "success": true, "id": "c1"}
{"type": "done", "content": "ok", "response": "ok"}
`

func TestViewRedacts(t *testing.T) {
	code, out, errs := run(t, secrets, "view", "--full")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, secret := range []string{"abcdefghijklmnopqrstuv", "hunter2", "sk-live"} {
		if strings.Contains(out, secret) {
			t.Errorf("view shows %q:\n%s", secret, out)
		}
	}
	if strings.Count(out, "[REDACTED]") < 3 || !strings.Contains(out, "Bearer [REDACTED]") || !strings.Contains(out, "api_key=[REDACTED]") {
		t.Errorf("redaction not shown:\n%s", out)
	}
	_, out, _ = run(t, secrets, "view", "--full", "--no-redact")
	for _, secret := range []string{"Bearer abcdefghijklmnopqrstuv", "hunter2hunter2", "api_key=sk-live-abcdefghijklmnopqrstuvwxyz"} {
		if !strings.Contains(out, secret) {
			t.Errorf("--no-redact hides %q:\n%s", secret, out)
		}
	}
}

func TestViewColor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	_, out, _ := run(t, secrets, "view", "--color", "always")
	if !strings.Contains(out, "\x1b[") {
		t.Errorf("--color always (through a pipe, NO_COLOR set) has no colour:\n%q", out)
	}
	for _, args := range [][]string{{"view", "--color", "never"}, {"view"}} {
		if _, out, _ := run(t, secrets, args...); strings.Contains(out, "\x1b") {
			t.Errorf("%v: colour off a terminal:\n%q", args, out)
		}
	}
	if code, _, errs := run(t, secrets, "view", "--color", "sometimes"); code != ExitUsage || !strings.Contains(errs, `"sometimes"`) {
		t.Errorf("--color sometimes: exit %d %s", code, errs)
	}
}

var zeroRunIDFormat = regexp.MustCompile(`^run_\d{14}_[0-9a-f]{6}$`)

// runIDs translates to Zero and returns the run ids of the output.
func runIDs(t *testing.T, stdin string, args ...string) []string {
	t.Helper()
	code, out, errs := run(t, stdin, append([]string{"translate", "--to", "zero", "--jq", ".runId"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var ids []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		id := strings.Trim(l, `"`)
		if !zeroRunIDFormat.MatchString(id) {
			t.Fatalf("run id %q is not in Zero's format", id)
		}
		if len(ids) == 0 || ids[len(ids)-1] != id {
			ids = append(ids, id)
		}
	}
	return ids
}

// TestRunIDsFromFiles: translating the same file gives the same run ids;
// another file, other ids; standard input, Zero's time and random ids.
func TestRunIDsFromFiles(t *testing.T) {
	data, err := os.ReadFile(sampleEvo)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "copy-of-a.jsonl")
	os.WriteFile(a, data, 0o644)
	os.WriteFile(c, data, 0o644)
	os.WriteFile(b, append([]byte(`{"type": "text", "content": "one more"}`+"\n"), data...), 0o644)
	first := runIDs(t, "", a)
	if len(first) != 3 || first[0] == first[1] || first[1] == first[2] {
		t.Fatalf("want 3 distinct runs, got %v", first)
	}
	if again := runIDs(t, "", a); strings.Join(again, " ") != strings.Join(first, " ") {
		t.Errorf("the same file gave %v, then %v", first, again)
	}
	if copied := runIDs(t, "", c); strings.Join(copied, " ") != strings.Join(first, " ") {
		t.Errorf("the same content under another name gave %v, then %v", first, copied)
	}
	if other := runIDs(t, "", b); other[0] == first[0] {
		t.Errorf("another file gave the same ids %v", other)
	}
	s1, s2 := runIDs(t, string(data)), runIDs(t, string(data))
	if s1[0] == s2[0] || s1[0] == first[0] {
		t.Errorf("standard input is live: want new ids each time, got %v, %v", s1, s2)
	}
}

// TestFlagsAnywhere: flags after, between and before FILEs mean the same.
func TestFlagsAnywhere(t *testing.T) {
	for _, tc := range []struct{ moved, usual []string }{
		{[]string{"stats", sampleEvo, "--json"}, []string{"stats", "--json", sampleEvo}},
		{[]string{"stats", sampleEvo, "--totals", sampleZero, "--as", "evosci"}, []string{"stats", "--totals", "--as", "evosci", sampleEvo, sampleZero}},
		{[]string{"validate", sampleZero, "--json", "--allow-unfinished"}, []string{"validate", "--json", "--allow-unfinished", sampleZero}},
		{[]string{"view", sampleEvo, "--full", "--color", "always"}, []string{"view", "--full", "--color", "always", sampleEvo}},
		{[]string{"translate", sampleEvo, "--to", "zero", "--jq", `select(.type == "usage")`}, []string{"translate", "--to", "zero", "--jq", `select(.type == "usage")`, sampleEvo}},
		{[]string{sampleZero, "--to", "evosci", "--unmapped", "keep"}, []string{"--to", "evosci", "--unmapped", "keep", sampleZero}},
		// A flag's value is never taken for a FILE, nor a FILE for a flag.
		{[]string{"translate", "--full-name-run", "--to", "evosci", sampleZero}, nil},
	} {
		code, out, errs := run(t, "", tc.moved...)
		if tc.usual == nil {
			if code != ExitUsage {
				t.Errorf("%v: exit %d, want %d", tc.moved, code, ExitUsage)
			}
			continue
		}
		wcode, wout, werrs := run(t, "", tc.usual...)
		if code != wcode || out != wout || errs != werrs || wout == "" {
			t.Errorf("%v: exit %d, %d bytes, stderr %q\n%v: exit %d, %d bytes, stderr %q", tc.moved, code, len(out), errs, tc.usual, wcode, len(wout), werrs)
		}
	}
}

// --redact-extra adds translate's stronger patterns to view's redaction,
// in every format; with --no-redact it is a usage error.
func TestViewRedactExtra(t *testing.T) {
	const ghToken = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	in := `{"type": "tool_result", "name": "execute", "content": "token ` + ghToken + `", "success": true, "id": "c1"}
{"type": "done", "content": "ok", "response": "ok"}
`
	for _, format := range []string{"text", "markdown", "html"} {
		_, plain, _ := run(t, in, "view", "--full", "--format", format)
		if !strings.Contains(plain, ghToken) {
			t.Fatalf("--format %s: Zero's rules alone already hide the token: test input does not tell", format)
		}
		code, out, errs := run(t, in, "view", "--full", "--format", format, "--redact-extra")
		if code != 0 {
			t.Fatalf("--format %s --redact-extra: exit %d: %s", format, code, errs)
		}
		if strings.Contains(out, ghToken) || !strings.Contains(out, "[REDACTED]") {
			t.Errorf("--format %s --redact-extra shows the token:\n%s", format, out)
		}
	}
	if code, _, errs := run(t, in, "view", "--redact-extra", "--no-redact"); code != 2 || !strings.Contains(errs, "contradict") {
		t.Errorf("--redact-extra --no-redact: exit %d, %q", code, errs)
	}
}
