package translate

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/zevo/zevo/jsonl"
)

// Lines of the event path (here Claude Code's and Codex's) and of the
// EvoScientist/Zero path in one input: a line of one path closes the run
// the other left open, as incomplete, in both directions, and every run
// of the output is framed.
func TestMixedInputClosesTheOtherPathsRun(t *testing.T) {
	evo := `{"type": "text", "content": "evo run"}` + "\n"
	claude := `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","model":"m","tools":[],"claude_code_version":"2.1.104","uuid":"u0"}
{"type":"assistant","message":{"id":"msg_1","model":"m","role":"assistant","content":[{"type":"text","text":"claude run"}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"u1"}
`
	codex := `{"type":"thread.started","thread_id":"t1"}
{"type":"turn.started"}
`
	zero := `{"schemaVersion":2,"type":"run_start","runId":"run_20260603100000_abc123"}
{"schemaVersion":2,"type":"text","runId":"run_20260603100000_abc123","delta":"zero run"}
`
	input := evo + claude + codex + zero + claude
	// With the shortcuts and on the plain path: the same runs.
	for _, plain := range []bool{false, true} {
		mixedRuns(t, Options{To: Zero, RunID: "R", Plain: plain}, input)
	}
}

func mixedRuns(t *testing.T, opt Options, input string) {
	t.Helper()
	out, diags, _ := run(t, opt, []byte(input))
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %q", diags)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		typ := jsonField(t, l, "type")
		if typ == "run_end" || typ == "run_start" {
			typ += ":" + jsonField(t, l, "runId")
			if s := jsonField(t, l, "status"); s != "" {
				typ += ":" + s
			}
		}
		got = append(got, typ)
	}
	want := "run_start:R text error run_end:R:incomplete " + // EvoScientist's, cut by Claude's
		"run_start:R.2 text error run_end:R.2:incomplete " + // Claude's, cut by Codex's
		"run_start:R.3 error run_end:R.3:incomplete " + // Codex's, cut by Zero's
		"run_start:run_20260603100000_abc123 text error run_end:run_20260603100000_abc123:incomplete " +
		"run_start:R.4 text error run_end:R.4:incomplete" // Claude's, cut by the end
	if strings.Join(got, " ") != want {
		t.Fatalf("plain %v: got\n%s\nwant\n%s\n%s", opt.Plain, strings.Join(got, " "), want, out)
	}
}

// --unmapped error names a line of the event path that the target has no
// event for, by its dialect and type; drop counts it.
func TestEventPathUnmappedLines(t *testing.T) {
	in := `{"type":"thread.started","thread_id":"t1"}
{"type":"turn.started"}
{"type":"turn.completed","usage":{"input_tokens":5,"cached_input_tokens":0,"output_tokens":1}}
`
	_, diags, st := run(t, Options{To: Zero, Unmapped: Error}, []byte(in))
	if len(diags) != 1 || !strings.Contains(diags[0], `in:2: codex event "turn.started" has no zero@2 counterpart`) {
		t.Fatalf("diagnostics %q", diags)
	}
	_, diags, st = run(t, Options{To: Zero}, []byte(in))
	if len(diags) != 0 || st.Unmapped != 1 || st.UnmappedTypes["codex.turn.started"] != 1 || st.Mapped != 2 {
		t.Fatalf("diagnostics %q, stats %+v", diags, st)
	}
}

// A line that is not JSON among the event path's lines is reported and
// starts no run of the other path.
func TestEventPathBadLine(t *testing.T) {
	in := `{"type":"thread.started","thread_id":"t1"}
{"type":"turn.started"
{"type":"turn.completed","usage":{"input_tokens":5,"cached_input_tokens":0,"output_tokens":1}}
`
	out, diags, _ := run(t, Options{To: Zero, RunID: "R"}, []byte(in))
	if len(diags) != 1 || !strings.HasPrefix(diags[0], "in:2:") {
		t.Fatalf("diagnostics %q", diags)
	}
	if n := strings.Count(string(out), `"type":"run_start"`); n != 1 || !strings.Contains(string(out), `"status":"success"`) {
		t.Fatalf("output:\n%s", out)
	}
}

// Ctrl-C during an event-path run ends it as Zero ends an interrupted run.
func TestEventPathInterrupt(t *testing.T) {
	data, err := os.ReadFile("../testdata/captures/codex/nightgauge-two-commands-0.153.4.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	var out strings.Builder
	tr := New(Options{To: Zero, RunID: "R", Now: fixedNow, Rand: zeroReader{}}, func(b []byte) error {
		out.Write(b)
		out.WriteByte('\n')
		return nil
	})
	feedLines(t, tr, []byte(strings.Join(lines[:4], "")), "in", nil, nil)
	if err := tr.Interrupt(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), `{"exitCode":130,"runId":"R","schemaVersion":2,"status":"interrupted","type":"run_end"}`+"\n") {
		t.Fatalf("output:\n%s", out.String())
	}
}

// jsonField is the string field key of the JSON object line ("" when absent).
func jsonField(t *testing.T, line, key string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("%v: %s", err, line)
	}
	s, _ := m[key].(string)
	return s
}

// BenchmarkEventPathClaude is the event path's speed on a real Claude
// Code capture, repeated.
func BenchmarkEventPathClaude(b *testing.B) {
	data, err := os.ReadFile("../testdata/captures/claude/yoke-thinking-three-bash-calls-2.1.104.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	in := []byte(strings.Repeat(string(data), 50))
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		tr := New(Options{To: Zero, RunID: "R", Redact: true}, func([]byte) error { return nil })
		if err := tr.Stream(bytes.NewReader(in), "in", nil, func() error { return nil }, func(*jsonl.Diagnostic) error { return nil }); err != nil {
			b.Fatal(err)
		}
		if err := tr.End("in"); err != nil {
			b.Fatal(err)
		}
	}
}

// --unmapped keep writes the event path's Other lines whole (redacted),
// their type prefixed with their dialect, in both targets.
func TestEventPathKeepsOtherLines(t *testing.T) {
	in := `{"type":"thread.started","thread_id":"t1"}
{"type":"turn.started","note":"sk-plantedsecret0123456789"}
{"type":"turn.completed","usage":{"input_tokens":5,"cached_input_tokens":0,"output_tokens":1}}
`
	out, _, st := run(t, Options{To: Zero, RunID: "R", Unmapped: Keep, Redact: true}, []byte(in))
	want := `{"note":"[REDACTED]","runId":"R","schemaVersion":2,"type":"codex.turn.started"}`
	if !strings.Contains(string(out), want+"\n") || st.Unmapped != 1 {
		t.Errorf("zero: want %s in\n%s(stats %+v)", want, out, st)
	}
	out, _, _ = run(t, Options{To: EvoSci, Unmapped: Keep}, []byte(in))
	want = `{"type": "codex.turn.started", "note": "sk-plantedsecret0123456789"}`
	if !strings.Contains(string(out), want+"\n") {
		t.Errorf("evosci: want %s in\n%s", want, out)
	}
}
