package event

import (
	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// Rules are the stream rules of one input's lines of a dialect that its
// schema cannot express (which line answers which, what a run must begin
// with), checked by validate after the run rules (runs.go) placed each
// event. A dialect without them (Dialect.NewRules nil) has the rules
// every dialect shares, in validate's own words. validate decodes with
// DecodeOptions.SkipText: a text the rules read must be one their
// dialect's decoder keeps under it (the shared rules read none).
type Rules interface {
	// Event checks one event, placed in its run as s says, after the
	// run s.Closed (if any) was given to Cut. f reads the fields of the
	// line numbered line, which the event comes from (or which comes
	// after it: the events a decoder ends with are of earlier lines, or,
	// at the end of the input, of none: line is the input's last, f
	// reads nothing).
	Event(ev *Event, s Step, f Fields, line int, c *Check)
	// Cut words the run r, of this dialect, closed before its end: by
	// ev, of any dialect, on the line numbered line, or by the end of the
	// input (ev nil, line the input's last line).
	Cut(r *Run, ev *Event, line int, c *Check)
	// Decoded words what the decoder found wrong (err) with the line
	// numbered line, which the schema accepts.
	Decoded(err error, line int, c *Check)
	// End checks what the input as a whole must hold; last is its last
	// line's number.
	End(last int, c *Check)
}

// Fields reads a line's top-level fields (as gjson reads them).
type Fields interface {
	Get(key string) gjson.Result
}

// Check is where Rules report problems.
type Check struct {
	// Report records one problem of the line numbered line, about field
	// (TYPE.path, "" for the line or the run).
	Report func(line int, sev jsonl.Severity, field, msg string)
	// Unfinished is the severity of a run cut short: an error, unless
	// the user accepts such runs (validate --allow-unfinished).
	Unfinished jsonl.Severity
}

// Name names a line in a diagnostic: its dialect's variant, else the
// dialect ("a line of NAME starts …").
func (ev *Event) Name() string {
	if ev.Variant != "" {
		return ev.Variant
	}
	return ev.Dialect
}
