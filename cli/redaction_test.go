package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plantedLog holds a secret, each spelled so that Zero's rules catch it
// and each containing "planted", in every place a command may show: an
// unknown event type, a model, a tool name, tool arguments and output, an
// error code and message, a warning, a line that is not JSON (quoted
// by its diagnostic), a run's id and its status.
const plantedLog = `{"schemaVersion":2,"type":"run_start","runId":"run_20260101000000_abcdef","model":"m sk-plantedMODEL0123456789"}
{"schemaVersion":2,"type":"x.sk-plantedTYPE0123456789","runId":"run_20260101000000_abcdef","data":1}
{"schemaVersion":2,"type":"tool_call","runId":"run_20260101000000_abcdef","id":"c1","name":"t.sk-plantedTOOL0123456789","args":{"password":"plantedPASSWORD"}}
{"schemaVersion":2,"type":"tool_result","runId":"run_20260101000000_abcdef","id":"c1","name":"t.sk-plantedTOOL0123456789","status":"error","output":"Bearer plantedBEARER0123456789"}
{"schemaVersion":2,"type":"warning","runId":"run_20260101000000_abcdef","message":"retry with api_key=plantedAPIKEY0123"}
{"schemaVersion":2,"type":"error","runId":"run_20260101000000_abcdef","code":"E.sk-plantedCODE0123456789","message":"failed: Bearer plantedBEARER0123456789 api_key=plantedAPIKEY0123","recoverable":false}
Authorization: Bearer plantedLINE0123456789abcdef
{"schemaVersion":2,"type":"run_end","runId":"run_20260101000000_abcdef","status":"error","exitCode":3}
{"schemaVersion":2,"type":"run_start","runId":"sk-plantedRUNID0123456789"}
{"schemaVersion":2,"type":"run_end","runId":"sk-plantedRUNID0123456789","status":"x sk-plantedSTATUS0123456789","exitCode":1}
`

// plantedEvo is plantedLog's EvoScientist counterpart.
const plantedEvo = `{"type": "text", "content": "hi"}
{"type": "x.sk-plantedTYPE0123456789", "data": 1}
{"type": "tool_call", "id": "c1", "name": "t.sk-plantedTOOL0123456789", "args": {"password": "plantedPASSWORD"}}
{"type": "tool_result", "id": "c1", "name": "t.sk-plantedTOOL0123456789", "content": "Bearer plantedBEARER0123456789", "success": false}
{"type": "subagent_start", "name": "s.sk-plantedSUB0123456789", "description": "api_key=plantedAPIKEY0123"}
{"type": "subagent_tool_call", "subagent": "s.sk-plantedSUB0123456789", "id": "c2", "name": "t.sk-plantedTOOL0123456789", "args": {}}
{"type": "interrupt", "action_requests": [{"name": "t.sk-plantedTOOL0123456789", "args": {"token": "plantedTOKEN"}}]}
{"type": "error", "message": "failed: Bearer plantedBEARER0123456789 api_key=plantedAPIKEY0123"}
Authorization: Bearer plantedLINE0123456789abcdef
{"type": "done", "response": "ok"}
`

// TestNoPlantedSecretInAnyOutputOrMessage: what a person or a collector
// sees (a command's output, a document, a table, a --json report, a
// diagnostic, an error message) holds none of the planted secrets, with
// every command's default redaction.
func TestNoPlantedSecretInAnyOutputOrMessage(t *testing.T) {
	dir := t.TempDir()
	for _, planted := range []string{plantedLog, plantedEvo} {
		checkNoPlantedSecret(t, dir, planted)
	}
}

func checkNoPlantedSecret(t *testing.T, dir, planted string) {
	log := filepath.Join(dir, "agent.jsonl")
	if err := os.WriteFile(log, []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	otelOut := filepath.Join(dir, "traces.json")
	for _, c := range []struct {
		args []string
		file string // an output file to read too
		// stderrOnly: the output is the stream's own data, written as it
		// is by default (translate --to evosci, jq); its messages are
		// still redacted.
		stderrOnly bool
	}{
		{args: []string{"view", "--color", "never"}},
		{args: []string{"view", "--full", "--color", "never"}},
		{args: []string{"view", "--format", "markdown"}},
		{args: []string{"view", "--format", "markdown", "--full"}},
		{args: []string{"view", "--format", "html"}},
		{args: []string{"view", "--format", "html", "--redact-extra"}},
		{args: []string{"stats"}},
		{args: []string{"stats", "--json"}},
		{args: []string{"stats", "--by", "tool"}},
		{args: []string{"stats", "--by", "model"}},
		{args: []string{"stats", "--by", "model", "--json"}},
		{args: []string{"stats", "--totals"}},
		{args: []string{"stats", "--redact-extra", "--json"}},
		{args: []string{"validate"}},
		{args: []string{"validate", "--json"}},
		{args: []string{"otel", "--clock", "synthetic"}},
		{args: []string{"otel", "--clock", "synthetic", "--output", otelOut}, file: otelOut},
		{args: []string{"translate", "--to", "zero"}},
		{args: []string{"translate", "--to", "zero", "--unmapped", "keep"}},
		{args: []string{"translate", "--to", "zero@1"}},
		{args: []string{"translate", "--to", "evosci", "--redact"}},
		{args: []string{"translate", "--to", "evosci"}, stderrOnly: true},
		{args: []string{"translate", "--to", "evosci", "--unmapped", "error"}, stderrOnly: true},
		{args: []string{"jq", "-c", "."}, stderrOnly: true},
		{args: []string{"jq", "-c", `.message, (.message | error)`}, stderrOnly: true},
		{args: []string{"translate", "--to", "evosci", "--jq", `.message, (.message | error)`}, stderrOnly: true},
	} {
		name := strings.Join(c.args, " ")
		for _, stdin := range []bool{false, true} {
			args, in := append(append([]string{}, c.args...), log), ""
			if stdin {
				args, in = c.args, planted
			}
			code, out, errs := run(t, in, args...)
			want := ExitDiagnostics
			if c.args[0] == "jq" {
				want = 5 // jq's code for input that is not JSON
			}
			if code != want {
				t.Errorf("%s (stdin %v): exit %d, want %d; stderr %q", name, stdin, code, want, errs)
			}
			if errs == "" && c.args[0] != "validate" {
				t.Errorf("%s (stdin %v): no diagnostic for the line that is not JSON", name, stdin)
			}
			if strings.Contains(errs, "planted") {
				t.Errorf("%s (stdin %v): a secret on stderr:\n%s", name, stdin, errs)
			}
			if c.file != "" {
				b, err := os.ReadFile(c.file)
				if err != nil {
					t.Fatal(err)
				}
				out += string(b)
			}
			if !c.stderrOnly && strings.Contains(out, "planted") {
				t.Errorf("%s (stdin %v): a secret in the output:\n%s", name, stdin, out)
			}
			if c.stderrOnly && !strings.Contains(out, "planted") {
				t.Errorf("%s (stdin %v): the stream's data was redacted by default", name, stdin)
			}
		}
	}
}

// TestNoRedactShowsSecretsEverywhere: --no-redact means the same in every
// command that reads text for a person: the secrets are shown as they are,
// in the output and in messages alike; with --redact-extra it is a usage
// error.
func TestNoRedactShowsSecretsEverywhere(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "agent.jsonl")
	if err := os.WriteFile(log, []byte(plantedLog), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"view", "--color", "never"},
		{"view", "--format", "markdown"},
		{"view", "--format", "html"},
		{"stats"},
		{"stats", "--json"},
		{"validate"},
		{"translate", "--to", "zero"},
	} {
		name := strings.Join(args, " ")
		code, out, errs := run(t, "", append(append(args, "--no-redact"), log)...)
		if code != ExitDiagnostics || !strings.Contains(out, "planted") {
			t.Errorf("%s --no-redact: exit %d, secrets not shown:\n%s\n%s", name, code, out, errs)
		}
		code, _, errs = run(t, "", append(append(args, "--no-redact", "--redact-extra"), log)...)
		if code != ExitUsage || !strings.Contains(errs, "contradict") {
			t.Errorf("%s --no-redact --redact-extra: exit %d, %q", name, code, errs)
		}
	}
}

// TestControlCharactersInFileNamesEscapedInDiagnostics: a file name with
// an escape and a newline is written escaped (\x1b, \n) in every FILE:LINE
// diagnostic and every "zevo: …" message of every command, so that it can
// neither drive the terminal nor forge a line of its own.
func TestControlCharactersInFileNamesEscapedInDiagnostics(t *testing.T) {
	dir := t.TempDir()
	base := "evil\x1b]0;owned\a\nforged:1: error.jsonl"
	log := filepath.Join(dir, base)
	if err := os.WriteFile(log, []byte("not json\n"+`{"type": "text", "content": "hi"}`+"\n{\"type\": 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "gone\x1b[2J\n.jsonl")
	escaped := `evil\x1b]0;owned\a\nforged:1: error.jsonl`
	for _, args := range [][]string{
		{"translate", "--to", "zero"},
		{"translate", "--to", "evosci", "--unmapped", "error"},
		{"jq", "-c", "."},
		{"validate"},
		{"validate", "--json"},
		{"stats"},
		{"stats", "--json"},
		{"view", "--color", "never"},
		{"view", "--format", "markdown"},
		{"view", "--format", "html"},
		{"otel", "--clock", "synthetic"},
	} {
		name := strings.Join(args, " ")
		code, out, errs := run(t, "", append(append([]string{}, args...), log, missing)...)
		if code == 0 {
			t.Errorf("%s: exit 0 despite the diagnostics", name)
		}
		msgs := errs
		if args[0] == "validate" && len(args) == 1 {
			msgs += out // validate's diagnostics are its output
		}
		if strings.ContainsAny(msgs, "\x1b\a") {
			t.Errorf("%s: a control character written raw:\n%q", name, msgs)
		}
		for _, l := range strings.Split(strings.TrimSuffix(msgs, "\n"), "\n") {
			if strings.HasPrefix(l, "forged") || strings.HasPrefix(l, ".jsonl") {
				t.Errorf("%s: a line forged by a file name: %q", name, l)
			}
		}
		if strings.Join(args, " ") != "validate --json" && !strings.Contains(msgs, escaped) {
			t.Errorf("%s: the bad line's diagnostic does not name %s:\n%q", name, escaped, msgs)
		}
		if !strings.Contains(errs, `gone\x1b[2J\n.jsonl`) {
			t.Errorf("%s: the file that cannot be opened is not named escaped:\n%q", name, errs)
		}
	}
}

// TestControlCharactersInFlagFileNamesEscaped: a file named by a flag
// (--pricing, --mapping, --output) is escaped in the error that names it.
func TestControlCharactersInFlagFileNamesEscaped(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "no\x1b[2J\nsuch", "f")
	for _, args := range [][]string{
		{"stats", "--pricing", bad, sampleZero},
		{"translate", "--to", "zero", "--mapping", bad, sampleZero},
		{"otel", "--output", bad, sampleZero},
		{"jq", "--from-file", bad, sampleZero},
	} {
		code, _, errs := run(t, "", args...)
		if code == 0 || strings.ContainsAny(errs, "\x1b") || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, `no\x1b[2J\nsuch`) {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}

// TestTranscriptRedactsUnknownTypeLabel: Markdown and HTML show an
// unknown event's type as its label, redacted as the text view shows it.
func TestTranscriptRedactsUnknownTypeLabel(t *testing.T) {
	in := `{"type": "text", "content": "hi"}` + "\n" + `{"type": "probe sk-plantedTYPE0123456789", "x": 1}` + "\n" + `{"type": "done", "response": "ok"}` + "\n"
	for _, format := range []string{"text", "markdown", "html"} {
		code, out, errs := run(t, in, "view", "--color", "never", "--format", format)
		if code != 0 || strings.Contains(out, "planted") || !strings.Contains(out, "probe") {
			t.Errorf("%s: exit %d, %q\n%s", format, code, errs, out)
		}
	}
}

// TestStatsRedactsErrorMessagesInTableAndJSON: an error message's secret
// is shown by neither the table nor errorEvents[].message, as view and
// otel show the same message; --no-redact shows it.
func TestStatsRedactsErrorMessagesInTableAndJSON(t *testing.T) {
	in := `{"type": "error", "message": "auth failed for sk-plantedERROR0123456789 (Bearer plantedBEARER0123456789)"}` + "\n"
	for _, args := range [][]string{{"stats"}, {"stats", "--json"}} {
		code, out, errs := run(t, in, args...)
		if code != 0 || strings.Contains(out, "planted") || !strings.Contains(out, "auth failed for [REDACTED] (Bearer [REDACTED])") {
			t.Errorf("%v: exit %d, %q\n%s", args, code, errs, out)
		}
		if _, out, _ := run(t, in, append(args, "--no-redact")...); !strings.Contains(out, "sk-plantedERROR0123456789") {
			t.Errorf("%v --no-redact: the message is not shown as it is:\n%s", args, out)
		}
	}
}

// TestMessagesHideURLPasswords: a URL's password in an error message is
// written as xxxxx, whatever the command.
func TestMessagesHideURLPasswords(t *testing.T) {
	for _, args := range [][]string{
		{"stats", "https://bob:hunter2pw@example.com/x.jsonl"},
		{"view", "https://bob:hunter2pw@example.com/x.jsonl"},
		{"translate", "--to", "zero", "https://bob:hunter2pw@example.com/x.jsonl"},
		{"stats", "--pricing", "http://bob:hunter2pw@example.com/p.json"},
	} {
		code, _, errs := run(t, "", args...)
		if code == 0 || strings.Contains(errs, "hunter2pw") || !strings.Contains(errs, "bob:xxxxx@example.com") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}
