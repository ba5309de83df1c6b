package translate

import (
	"fmt"

	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// event is one decoded input line: its top-level object, split, and what
// translation needs to know of it.
type event struct {
	jsonl.LineObject
	kind *model.Dialect // the source dialect, after undoing a kept prefix; nil: none
	typ  string         // without that prefix ("DIALECT.")
	// rawTyp is Str("type"), read while decoding.
	rawTyp string
	prefix bool // the line was a kept event of another source
	// layout is 1 + the index in zerotest.PairLayouts of the layout the line
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
