package zerotest

import (
	"fmt"
	"github.com/zevo/zevo/dialects/evosci"
	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/jsonl"
	"strings"
	"testing"
)

// cut runs lines (one JSON object each, "" for an input boundary) through
// a Tracker and describes the runs as "PROTOCOL FIRST-LAST STATUS[ (CUT)]".
func cut(t *testing.T, lines ...string) string {
	t.Helper()
	var tr Tracker
	var d jsonl.Decoder
	var o jsonl.LineObject
	var runs []*Run
	for i, l := range lines {
		if l == "" {
			tr.End()
			tr = Tracker{}
			continue
		}
		if err := d.Decode([]byte(l), &o); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		s := tr.Event(Detect(&o), &o, i+1)
		if s.Closed != nil && s.Closed.Open() {
			t.Fatalf("line %d: closed run still open", i+1)
		}
		if s.Start {
			runs = append(runs, s.Run)
		}
		if s.End && s.Run.Open() || s.Late && s.Start {
			t.Fatalf("line %d: step %+v", i+1, s)
		}
	}
	tr.End()
	var out []string
	for _, r := range runs {
		s := fmt.Sprintf("%s %d-%d %s", r.Protocol.Name, r.FirstLine, r.LastLine, r.Status)
		if r.Cut != NotCut {
			s += " (" + r.Cut.String() + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

const (
	zStart = `{"schemaVersion":2,"type":"run_start","runId":"r1"}`
	zText  = `{"schemaVersion":2,"type":"text","runId":"r1","delta":"x"}`
	zEnd   = `{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}`
	zErr   = `{"schemaVersion":2,"type":"error","runId":"r2","message":"no provider"}`
	zEnd2  = `{"schemaVersion":2,"type":"run_end","runId":"r2","status":"error","exitCode":2}`
	zText2 = `{"schemaVersion":2,"type":"text","runId":"r2","delta":"y"}`
	z1Text = `{"schemaVersion":1,"type":"text","runId":"r1","delta":"x"}`
	eText  = `{"type": "text", "content": "x"}`
	eDone  = `{"type": "done", "content": "x", "response": "x"}`
	eErr   = `{"type": "error", "message": "boom"}`
	zIn    = `{"schemaVersion":2,"type":"prompt","content":"hi"}`
)

func TestRunRules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"nothing", nil, ""},
		{"zero run", []string{zStart, zText, zEnd}, "zero@2 1-3 success"},
		{"zero cut at end of input", []string{zStart, zText}, "zero@2 1-2 incomplete (the input ended inside the run)"},
		{"zero failure before run_start", []string{zErr, zEnd2}, "zero@2 1-2 error"},
		{"zero run_start inside a run", []string{zStart, zText, zStart, zEnd}, "zero@2 1-2 incomplete (a run_start came); zero@2 3-4 success"},
		{"zero other runId", []string{zStart, zText, zText2, zEnd2}, "zero@2 1-2 incomplete (an event of another runId came); zero@2 3-4 error"},
		{"zero event after run_end", []string{zStart, zEnd, zText}, "zero@2 1-2 success; zero@2 3-3 incomplete (the input ended inside the run)"},
		{"zero versions share a run", []string{zStart, z1Text, zEnd}, "zero@2 1-3 success"},
		{"zero run_end without status", []string{zStart, `{"schemaVersion":2,"type":"run_end","runId":"r1"}`}, "zero@2 1-2 ended"},
		{"evosci run", []string{eText, eText, eDone}, "evosci 1-3 done"},
		{"evosci two runs", []string{eText, eDone, eText, eDone}, "evosci 1-2 done; evosci 3-4 done"},
		{"evosci text error done", []string{eText, eErr, eDone}, "evosci 1-3 error"},
		{"evosci error then a new run", []string{eText, eErr, eText, eDone}, "evosci 1-2 error; evosci 3-4 done"},
		{"evosci done done", []string{eText, eDone, eDone}, "evosci 1-2 done; evosci 3-3 done"},
		{"evosci error error", []string{eErr, eErr}, "evosci 1-1 error; evosci 2-2 error"},
		{"evosci cut", []string{eText}, "evosci 1-1 incomplete (the input ended inside the run)"},
		{"evosci log then zero log", []string{eText, eDone, zStart, zText, zEnd}, "evosci 1-2 done; zero@2 3-5 success"},
		{"zero cut then evosci", []string{zStart, zText, eText, eDone}, "zero@2 1-2 incomplete (a line of another protocol came); evosci 3-4 done"},
		{"evosci cut then zero", []string{eText, zStart, zEnd}, "evosci 1-1 incomplete (a line of another protocol came); zero@2 2-3 success"},
		{"done after error of another protocol", []string{zErr, zEnd2, eDone}, "zero@2 1-2 error; evosci 3-3 done"},
		{"done after error across inputs", []string{eText, eErr, "", eDone}, "evosci 1-2 error; evosci 4-4 done"},
		{"two inputs", []string{zStart, zText, "", zText, zEnd}, "zero@2 1-2 incomplete (the input ended inside the run); zero@2 4-5 success"},
		{"zero input", []string{zIn, zIn}, "zero-input 1-2 input"},
		{"zero input then output", []string{zIn, zStart, zEnd}, "zero-input 1-1 input; zero@2 2-3 success"},
	} {
		if got := cut(t, tc.lines...); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// The late done of rule 7 belongs to the run the error ended.
func TestRunLateDone(t *testing.T) {
	var tr Tracker
	var d jsonl.Decoder
	var o jsonl.LineObject
	var steps []Step
	for i, l := range []string{eText, eErr, eDone} {
		if err := d.Decode([]byte(l), &o); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, tr.Event(Detect(&o), &o, i+1))
	}
	if !steps[1].End || !steps[2].Late || steps[2].Run != steps[0].Run || steps[2].Start || steps[2].End || tr.Runs() != 1 || tr.End() != nil {
		t.Errorf("steps %+v, runs %d", steps, tr.Runs())
	}
}

func TestDetect(t *testing.T) {
	for line, want := range map[string]*jsonl.Protocol{
		zStart: zero.V2, z1Text: zero.V1, zIn: zero.Input, eText: evosci.Protocol,
		`{"schemaVersion":"2","type":"text"}`:                zero.V2,
		`{"schemaVersion":3,"type":"text"}`:                  zero.V2,
		`{"schemaVersion":null,"type":"message"}`:            zero.Input,
		`{"type":"evosci.subagent_text","schemaVersion":2}`:  zero.V2,
		`{"type":"zero.checkpoint","checkpoint":{}}`:         evosci.Protocol,
		`{"type":"text","content":"schemaVersion"}`:          evosci.Protocol,
		`{"type":"text","args":{"schemaVersion":2}}`:         evosci.Protocol,
		`{"schem\u0061Version":2,"type":"text","runId":"r"}`: zero.V2,
	} {
		var d jsonl.Decoder
		var o jsonl.LineObject
		if err := d.Decode([]byte(line), &o); err != nil {
			t.Fatal(err)
		}
		if got := Detect(&o); got != want {
			t.Errorf("%s: %v, want %v", line, got, want)
		}
	}
}

// A run's id outlives the line buffer it was read from.
func TestRunIDOwnsItsBytes(t *testing.T) {
	var tr Tracker
	var d jsonl.Decoder
	var o jsonl.LineObject
	buf := []byte(zStart)
	if err := d.Decode(buf, &o); err != nil {
		t.Fatal(err)
	}
	s := tr.Event(Detect(&o), &o, 1)
	copy(buf, strings.Repeat("x", len(buf)))
	if s.Run.ID != "r1" {
		t.Errorf("run id %q after the buffer was reused", s.Run.ID)
	}
}

// A run outlives its lines: its status, decoded from escapes into memory
// the next line reuses, is a copy.
func TestRunStatusOutlivesItsLine(t *testing.T) {
	got := cut(t,
		`{"schemaVersion":2,"type":"run_start","runId":"r"}`,
		`{"schemaVersion":2,"type":"run_end","runId":"r","status":"succ\u0065ss"}`,
		`{"schemaVersion":2,"type":"run_start","runId":"q","model":"\u0078\u0078\u0078\u0078\u0078\u0078\u0078"}`,
		`{"schemaVersion":2,"type":"text","runId":"q","delta":"\u0079\u0079\u0079\u0079\u0079\u0079\u0079\u0079"}`,
	)
	if !strings.Contains(got, "zero@2 1-2 success") {
		t.Fatalf("runs: %s", got)
	}
}
