package translate

import (
	"fmt"

	"github.com/zevo/zevo/jsonl"
)

// event is one decoded input line: its top-level object, split, and what
// translation needs to know of it.
type event struct {
	jsonl.LineObject
	proto *jsonl.Protocol // as zero.Detect names the line
	kind  Format          // Zero or EvoSci, after undoing a kept prefix
	typ   string          // without the "zero." / "evosci." prefix
	// rawTyp and runID are Str("type") and Str("runId") as the runs need
	// them (runID only where ev.proto is Zero's), read while decoding.
	rawTyp, runID string
	prefix        bool // the line was a kept event of the other protocol
	// layout is 1 + the index in zero.PairLayouts of the layout the line
	// was taken in, and whose checks it skipped; 0 for another line.
	layout int
	name   string // input name and line number, for diagnostics
	num    int
}

func (e *event) diag(format string, a ...any) *jsonl.Diagnostic {
	return e.problem(fmt.Sprintf(format, a...))
}

// problem is the error diagnostic msg about the event's line.
func (e *event) problem(msg string) *jsonl.Diagnostic {
	return &jsonl.Diagnostic{File: e.name, Line: e.num, Severity: jsonl.SevError, Message: msg}
}
