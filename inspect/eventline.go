package inspect

import (
	"bytes"
	"strconv"

	"github.com/zevo/zevo/dialects"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// What zevo view and the transcript documents share to read events.

// objectLine checks that l is one JSON object, as every inspect command
// reads a line, and returns a copy of it for the decoders (non-finite
// numbers, which Python's json writes, read as null). A blank line is nil
// and no problem.
func objectLine(dec *protocol.Decoder, o *protocol.Object, l jsonl.Line) ([]byte, *protocol.LineError) {
	if jsonl.IsBlank(l.Bytes) {
		return nil, nil
	}
	b := bytes.Clone(l.Bytes)
	if err := dec.Decode(b, o); err != nil {
		return nil, err
	}
	if len(o.NonFinite) > 0 {
		b = []byte(o.Raw)
	}
	return b, nil
}

// producer names a dialect's producer in text shown to people ("cut by
// Zero"): its Title; a dialect without one is named as it is called.
func producer(dialect string) string {
	if d, ok := dialects.ByName(dialect); ok && d.Title != "" {
		return d.Title
	}
	return dialect
}

// addUsage adds one usage event to a run's tokens: a message's counts
// add up, a run's total replaces what came before it.
func addUsage(t, u *model.Tokens) {
	if u == nil {
		return
	}
	if u.Scope == model.ScopeRun {
		*t = *u
		t.Scope = model.ScopeMessage
		return
	}
	t.Add(u)
}

// tokenCounts is "IN in · OUT out · TOTAL total", the prompt's tokens
// counted with its cache reads and writes.
func tokenCounts(t *model.Tokens) string {
	in := t.Input + t.CacheRead + t.CacheWrite
	return strconv.FormatInt(in, 10) + " in · " + strconv.FormatInt(t.Output, 10) + " out · " + strconv.FormatInt(t.Total(), 10) + " total"
}
