package translate

import (
	"fmt"
	"strconv"

	"github.com/zevo/zevo/internal/termsafe"
	"github.com/zevo/zevo/protocol"
)

// event is one decoded input line: its top-level object, split, and what
// translation needs to know of it.
type event struct {
	protocol.Object
	proto *protocol.Protocol // as protocol.Detect names the line
	kind  Format             // Zero or EvoSci, after undoing a kept prefix
	typ   string             // without the "zero." / "evosci." prefix
	// rawTyp and runID are Str("type") and Str("runId") as the runs need
	// them (runID only where ev.proto is Zero's), read while decoding.
	rawTyp, runID string
	prefix        bool // the line was a kept event of the other protocol
	// layout is 1 + the index in protocol.Layouts of the layout the line
	// was taken in, and whose checks it skipped; 0 for another line.
	layout int
	name   string // input name and line number, for diagnostics
	num    int
}

func (e *event) where() string { return termsafe.String(e.name) + ":" + strconv.Itoa(e.num) }

func (e *event) diag(format string, a ...any) *Diagnostic {
	return &Diagnostic{Where: e.where(), Msg: fmt.Sprintf(format, a...)}
}
