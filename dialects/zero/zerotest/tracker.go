package zerotest

import (
	"strings"

	"github.com/zevo/zevo/dialects/evosci"
	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/jsonl"
)

// The run rules of the line-by-line readers, which event.Runs replaced:
// kept for the tests that hold event.Runs to them (agree_test.go here,
// inspect's runs_agree_test.go).

// The run rules, the same for every command (docs/runs.md says them for
// users):
//  1. Each input (file) is cut into runs on its own; a run still open at
//     its end is closed there, cut (CutEndOfInput).
//  2. Each line's protocol is detected on its own (Detect). A line of
//     another protocol family than the open run closes that run, cut
//     (CutOtherProtocol), and starts a new run.
//  3. Zero: run_start starts a run; a run still open is closed first, cut
//     (CutRunStart).
//  4. Zero: another event starts a run when none is open (run_start
//     missing: an error and run_end alone are how Zero reports a failure
//     before the run starts), or when its runId differs from the open
//     run's, which is then closed, cut (CutRunID).
//  5. Zero: run_end ends its run with its status ("ended" when it has
//     none).
//  6. EvoScientist: any event starts a run when none is open; done ends
//     it with status "done", error with status "error".
//  7. EvoScientist: a done right after the error that ended a run belongs
//     to that run (the protocol allows done after error); it starts
//     nothing and changes nothing. Every other event after an ended run
//     starts a new one.
//  8. Zero input events (message, prompt) form one run of their own,
//     status "input", closed by rule 1 or 2 without being cut.
// A cut run has status "incomplete".

// Cut says why a run was closed without an event of its own ending it.
type Cut uint8

const (
	NotCut           Cut = iota
	CutEndOfInput        // the input ended inside the run
	CutOtherProtocol     // a line of the other protocol came
	CutRunStart          // a Zero run_start came
	CutRunID             // a Zero event of another runId came
)

var cutNames = [...]string{"", "the input ended inside the run", "a line of another protocol came", "a run_start came", "an event of another runId came"}

func (c Cut) String() string { return cutNames[c] }

// Status of a run cut short.
const (
	StatusIncomplete = "incomplete"
	StatusInput      = "input"
)

// Run is one run of one input.
type Run struct {
	Protocol  *jsonl.Protocol // of its first line
	ID        string          // Zero's runId; "" for EvoScientist
	FirstLine int
	LastLine  int  // of its last event
	Started   bool // Zero: it has a run_start
	// Status is how the run ended: Zero's run_end status, "done" or
	// "error" for EvoScientist, StatusIncomplete when cut, StatusInput for
	// Zero input; "" while open.
	Status string
	Cut    Cut
}

// Open reports a run not closed yet.
func (r *Run) Open() bool { return r.Status == "" }

// Step is what one event does to the runs.
type Step struct {
	// Closed is the run closed (cut, or input) before this event, or nil.
	Closed *Run
	// Run is the run the event belongs to.
	Run *Run
	// Start: the event starts Run. End: it ends Run.
	Start, End bool
	// Late: a terminal event that belongs to Run, which had ended already
	// (rule 7); it changes nothing.
	Late bool
}

// Tracker cuts one input's events into runs. The zero value is ready;
// call Event for each event in order, and End at the end of the input.
type Tracker struct {
	cur  *Run // the open run, or nil
	last *Run // the run that ended with the previous event, for rule 7
	n    int
}

// Runs is the number of runs so far.
func (t *Tracker) Runs() int { return t.n }

// Event places the event o of protocol p (as Detect names it), on line,
// and reports what it does.
func (t *Tracker) Event(p *jsonl.Protocol, o *jsonl.LineObject, line int) Step {
	runID := ""
	if p.Family == zero.Family {
		runID = o.Str("runId")
	}
	return t.event(p, o.Str("type"), runID, o, line)
}

// event is Event, with the event's type and runId read.
func (t *Tracker) event(p *jsonl.Protocol, typ, runID string, o *jsonl.LineObject, line int) Step {
	if p.Family != zero.Family {
		runID = ""
	}
	last := t.last
	t.last = nil
	var s Step
	if p.Family == evosci.Family && t.cur == nil && typ == "done" && last != nil &&
		last.Protocol.Family == evosci.Family && last.Status == "error" {
		last.LastLine = line
		return Step{Run: last, Late: true}
	}
	if c := t.cur; c != nil {
		switch {
		case c.Protocol.Family != p.Family:
			s.Closed = t.close(CutOtherProtocol)
		case p.Family == zero.Family && typ == "run_start":
			s.Closed = t.close(CutRunStart)
		case p.Family == zero.Family && runID != c.ID:
			s.Closed = t.close(CutRunID)
		}
	}
	if t.cur == nil {
		t.n++
		// The id may point into the caller's line buffer: the run keeps a copy.
		runID = strings.Clone(runID)
		t.cur = &Run{Protocol: p, ID: runID, FirstLine: line, Started: typ == "run_start"}
		s.Start = true
	}
	r := t.cur
	r.LastLine = line
	s.Run = r
	switch {
	case p.Family == zero.Family && typ == "run_end":
		// A copy: the run outlives its last line.
		if r.Status = strings.Clone(o.Str("status")); r.Status == "" {
			r.Status = "ended"
		}
	case p.Family == evosci.Family && (typ == "done" || typ == "error"):
		r.Status = "error" // constants: the run outlives its last line
		if typ == "done" {
			r.Status = "done"
		}
	default:
		return s
	}
	s.End = true
	t.cur, t.last = nil, r
	return s
}

// close closes the open run: input runs as input, others cut.
func (t *Tracker) close(why Cut) *Run {
	r := t.cur
	t.cur = nil
	if r.Protocol.Family == zero.InputFamily {
		r.Status = StatusInput
		return r
	}
	r.Status, r.Cut = StatusIncomplete, why
	return r
}

// End closes the run open at the end of the input, if any, and returns it.
func (t *Tracker) End() *Run {
	t.last = nil
	if t.cur == nil {
		return nil
	}
	return t.close(CutEndOfInput)
}
