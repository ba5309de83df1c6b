package translate

import (
	"strings"
	"testing"
)

// TestNegativeZeroCountsKeptAsSpelled: a token count written -0 is 0,
// and is written back as -0 in either direction, as the producer wrote
// it; a count beside it that is no count is still reported.
func TestNegativeZeroCountsKeptAsSpelled(t *testing.T) {
	for _, c := range []struct {
		to   Format
		in   string
		want string
	}{
		{Zero, `{"type": "usage_stats", "input_tokens": -0, "output_tokens": 1}`,
			`{"completionTokens":1,"promptTokens":-0,"runId":"R","schemaVersion":2,"totalTokens":1,"type":"usage"}`},
		{Zero, `{"type": "usage_stats", "input_tokens": 2, "output_tokens": -0}`,
			`{"completionTokens":-0,"promptTokens":2,"runId":"R","schemaVersion":2,"totalTokens":2,"type":"usage"}`},
		{EvoSci, `{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":-0,"completionTokens":-0,"totalTokens":-0}`,
			`{"type": "usage_stats", "input_tokens": -0, "output_tokens": -0}`},
	} {
		out, diags, _ := run(t, Options{To: c.to, RunID: "R"}, []byte(c.in+"\n"))
		if !strings.Contains(string(out), c.want+"\n") || len(diags) != 0 {
			t.Errorf("--to %s %s: wrote\n%s%q, want the line\n%s", c.to, c.in, out, diags, c.want)
		}
	}
	_, diags, _ := run(t, Options{To: Zero, RunID: "R"},
		[]byte(`{"type": "usage_stats", "input_tokens": -0, "output_tokens": 1.5}`+"\n"))
	if len(diags) != 1 || !strings.Contains(diags[0], "output_tokens") {
		t.Errorf("a count of 1.5 beside a -0: diagnostics %q, want one about output_tokens", diags)
	}
}

// TestLoneSurrogatesKeptAsEscaped: a string with a lone surrogate escape
// (which JSON readers read as U+FFFD) is written with the escape as it
// was, to every target; a pair stays one character.
func TestLoneSurrogatesKeptAsEscaped(t *testing.T) {
	in := `{"type": "text", "content": "a\udc00b"}
{"type": "text", "content": "\ud83d\ude00 \ud800"}
{"type": "done", "content": "\ud800", "response": "\ud800"}
`
	for _, c := range []struct {
		to   Format
		want []string
	}{
		{Zero, []string{`"delta":"a\udc00b"`, `"delta":"😀 \ud800"`, `"text":"\ud800"`}},
		{EvoSci, []string{`"content": "a\udc00b"`, `"content": "\ud83d\ude00 \ud800"`}},
	} {
		out, diags, _ := run(t, Options{To: c.to, RunID: "R"}, []byte(in))
		for _, w := range c.want {
			if !strings.Contains(string(out), w) || len(diags) != 0 {
				t.Errorf("--to %s: wrote\n%s%q, want %s in it", c.to, out, diags, w)
			}
		}
		if strings.Contains(string(out), "\ufffd") || strings.Contains(string(out), `\ufffd`) {
			t.Errorf("--to %s: wrote U+FFFD:\n%s", c.to, out)
		}
	}
}

// TestDroppedRunNotWritten: a run made only of lines Zero has no room
// for is not written at all when they are dropped (no empty run_start …
// run_end), nor does it use up a run id; kept, it is written with them.
func TestDroppedRunNotWritten(t *testing.T) {
	in := `{"type": "summarization_start"}
{"type": "summarization", "content": "s"}
`
	for _, to := range []Format{Zero, Zero1} {
		out, diags, st := run(t, Options{To: to, RunID: "R"}, []byte(in))
		if len(out) != 0 || len(diags) != 0 || st.Unmapped != 2 {
			t.Errorf("--to %s, dropped: wrote\n%s%q, %d unmapped; want nothing, 2 unmapped", to, out, diags, st.Unmapped)
		}
		out, _, _ = run(t, Options{To: to, RunID: "R", Unmapped: Keep}, []byte(in))
		if !strings.Contains(string(out), `"type":"run_start"`) || !strings.Contains(string(out), `"type":"evosci.summarization"`) {
			t.Errorf("--to %s, kept: wrote\n%s", to, out)
		}
	}
	// The run after it is the first written: it takes the first run id.
	out, _, _ := run(t, Options{To: Zero, RunID: "R"}, []byte(in+`{"schemaVersion":2,"type":"text","runId":"r1","delta":"a"}
{"type": "text", "content": "b"}
{"type": "usage_stats", "input_tokens": 1, "output_tokens": 2}
{"type": "done", "content": "b", "response": "b"}
`))
	want := `{"provider":"evoscientist","runId":"R","schemaVersion":2,"type":"run_start"}
{"delta":"b","runId":"R","schemaVersion":2,"type":"text"}
{"completionTokens":2,"promptTokens":1,"runId":"R","schemaVersion":2,"totalTokens":3,"type":"usage"}`
	if !strings.Contains(string(out), want) {
		t.Errorf("the run after a dropped one: wrote\n%s\nwant in it\n%s", out, want)
	}
}

// TestEvoScientistToolEffectAsEveryDialectKnowsIt: an EvoScientist
// call of a tool its own table does not list (bash) takes the effect the
// dialects' tables know it by (shell), as the other commands read it,
// where the direct engine wrote "unknown".
func TestEvoScientistToolEffectAsEveryDialectKnowsIt(t *testing.T) {
	out, diags, _ := run(t, Options{To: Zero, RunID: "R"}, []byte(`{"type": "tool_call", "name": "bash", "args": {"command": "ls"}, "id": "c1"}`+"\n"))
	if !strings.Contains(string(out), `"name":"bash","runId":"R","schemaVersion":2,"sideEffect":"shell","type":"tool_call"`) || len(diags) != 0 {
		t.Errorf("wrote\n%s%q", out, diags)
	}
}
