package translate

import (
	"fmt"
	"strings"
	"testing"

	model "github.com/zevo/zevo/event"
)

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
// EvoScientist with a key written twice is written as every command
// reads it, each key once with its last value (docs/guarantees.md,
// duplicate keys). Every other line is passed through byte for byte.
func TestEventPathPassesRepeatedKeysLastWins(t *testing.T) {
	in := `{"type": "text", "content": "a", "content": "b"}
{"type": "done", "content": "x", "response": "x"}
`
	want := `{"type":"text","content":"b"}` + "\n" + `{"type": "done", "content": "x", "response": "x"}` + "\n"
	for _, plain := range []bool{false, true} {
		out, diags, _ := run(t, Options{To: EvoSci, Plain: plain}, []byte(in))
		if string(out) != want || len(diags) != 0 {
			t.Errorf("plain %v: wrote\n%s%q, want\n%s", plain, out, diags, want)
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

// TestEventPathUnknownTypeAmongZeroLinesAsToday: a line without
// schemaVersion whose type no dialect claims, among Zero lines, is
// EvoScientist's (Zero writes schemaVersion on every line), as today's
// translate reads it: it cuts the Zero run around it and is written as
// an unmapped EvoScientist line, not reported as a Zero line without
// schemaVersion and runId.
func TestEventPathUnknownTypeAmongZeroLinesAsToday(t *testing.T) {
	in := `{"schemaVersion":2,"type":"run_start","runId":"r1"}
{"schemaVersion":2,"type":"text","runId":"r1","delta":"a"}
{"type":"t1","content":"x"}
{"schemaVersion":2,"type":"text","runId":"r1","delta":"b"}
{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}
`
	for _, to := range []Format{Zero, EvoSci} {
		for _, um := range []Unmapped{Keep, Drop} {
			if to == Zero && um == Drop {
				// A run of dropped lines alone: today's writes no
				// run, the event path an empty one (not this test's).
				continue
			}
			opt := Options{To: to, RunID: "R", Unmapped: um}
			today, tdiags, _ := run(t, opt, []byte(in))
			opt.Plain = true
			events, ediags, _ := run(t, opt, []byte(in))
			if cutWords(today) != cutWords(events) || fmt.Sprint(tdiags) != fmt.Sprint(ediags) {
				t.Errorf("--to %s (unmapped %d): the event path writes\n%s%q\ntoday's\n%s%q", to, um, events, ediags, today, tdiags)
			}
		}
	}
}

// TestEventPathBadLineTakesItsPlaceInRuns: a line today's translate finds
// bad but that is still an object of its input (an unknown
// schemaVersion) is written not at all and reported, yet takes its place
// in the runs: it cuts the EvoScientist run before it and starts a Zero
// one, which the next EvoScientist line cuts in turn.
func TestEventPathBadLineTakesItsPlaceInRuns(t *testing.T) {
	in := `{"type": "text", "content": "a"}
{"schemaVersion": 3, "type": "text", "runId": "r", "delta": "unknown version"}
{"type": "text", "content": "b"}
{"type": "done", "content": "end", "response": "end"}
`
	for _, to := range []Format{Zero, Zero1, EvoSci} {
		for _, um := range []Unmapped{Keep, Drop} {
			opt := Options{To: to, RunID: "R", Unmapped: um}
			today, tdiags, _ := run(t, opt, []byte(in))
			opt.Plain = true
			events, ediags, _ := run(t, opt, []byte(in))
			if cutWords(today) != cutWords(events) || fmt.Sprint(tdiags) != fmt.Sprint(ediags) {
				t.Errorf("--to %s (unmapped %d): the event path writes\n%s%q\ntoday's\n%s%q", to, um, events, ediags, today, tdiags)
			}
		}
	}
}

// TestEventPathRunEndAloneEndsARunAsToday: a Zero run_end right after
// its run's run_end is a run of its own (every command counts it), and
// EvoScientist ends it with its done as today, not with nothing.
func TestEventPathRunEndAloneEndsARunAsToday(t *testing.T) {
	in := `{"schemaVersion":2,"type":"run_start","runId":"r1"}
{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}
{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}
`
	for _, um := range []Unmapped{Keep, Drop} {
		bothPaths(t, Options{To: EvoSci, RunID: "R", Unmapped: um}, in)
	}
}

// cutWords is out with the run model's word for a run cut by another
// dialect's line in today's, an accepted difference.
func cutWords(out []byte) string {
	return strings.ReplaceAll(string(out), "the run was cut short: "+model.CutOtherDialect.String(), "the run was cut short: a line of another protocol came")
}
