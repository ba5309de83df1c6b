package translate

import "testing"

// TestEventPathUnmappedWrongTypedLineAsToday: a line whose type the
// target has no counterpart for is unmapped whatever its fields hold
// (kept, dropped or reported as unmapped), not a wrong-typed line: an
// EvoScientist thinking line to Zero v1, which has no reasoning.
func TestEventPathUnmappedWrongTypedLineAsToday(t *testing.T) {
	in := `{"type":"thinking","content":["x"]}
{"type":"thinking","content":"ok"}
{"type":"done","content":"x","response":"x"}
`
	for _, to := range []Format{Zero1, Zero} {
		for _, um := range []Unmapped{Keep, Drop, Error} {
			bothPaths(t, Options{To: to, RunID: "R", Unmapped: um}, in)
		}
	}
}

// TestEventPathPassesRepeatedKeysLastWins: an EvoScientist line to
// EvoScientist with a key written twice is copied as it is today; the
// event path writes it as every command reads it, each key once with
// its last value (an accepted difference: docs/guarantees.md, duplicate
// keys). Every other line is passed through byte for byte on both.
func TestEventPathPassesRepeatedKeysLastWins(t *testing.T) {
	in := `{"type": "text", "content": "a", "content": "b"}
{"type": "done", "content": "x", "response": "x"}
`
	rest := `{"type": "done", "content": "x", "response": "x"}` + "\n"
	for _, events := range []bool{false, true} {
		opt := Options{To: EvoSci, eventPath: events}
		out, diags, _ := run(t, opt, []byte(in))
		want := in
		if New(opt, nil).ep.every {
			want = `{"type":"text","content":"b"}` + "\n" + rest
		}
		if string(out) != want || len(diags) != 0 {
			t.Errorf("event path %v: wrote\n%s%q, want\n%s", events, out, diags, want)
		}
	}
}

// TestEventPathKeptZeroInputBackAsToday: Zero's input lines (message,
// prompt) that an EvoScientist stream kept come back to Zero as Zero
// keeps its input, their type prefixed and in no run, not as output
// lines of a run zevo opens for them.
func TestEventPathKeptZeroInputBackAsToday(t *testing.T) {
	in := `{"type": "zero.message", "content": "Inspect this repo.", "role": "user", "schemaVersion": 2}
{"type": "zero.prompt", "content": "Return only blockers.", "schemaVersion": 2}
{"type": "text", "content": "x"}
{"type": "zero.prompt", "content": "and after", "schemaVersion": 2}
{"type": "done", "content": "x", "response": "x"}
`
	for _, to := range []Format{Zero, Zero1} {
		for _, um := range []Unmapped{Keep, Drop} {
			bothPaths(t, Options{To: to, RunID: "R", Unmapped: um}, in)
		}
	}
}
