package inspect

import (
	"bytes"
	"slices"
	"strings"

	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// ParseProtocol reads a protocol name as the CLI spells it; "auto" is nil:
// each line's own protocol (protocol.Detect).
func ParseProtocol(s string) (*protocol.Protocol, error) {
	if s == "auto" {
		return nil, nil
	}
	return protocol.Lookup(s)
}

// event is one decoded line, placed in its run.
type event struct {
	num   int
	proto *protocol.Protocol
	obj   *protocol.Object
	typ   string
	step  protocol.Step
}

// lines is what every inspect command does with a line: decode it with
// the one decoder, name its protocol (as given, or detected) and place it
// in its run with the one tracker.
type lines struct {
	as     *protocol.Protocol
	dec    protocol.Decoder
	obj    protocol.Object
	runs   protocol.Tracker
	ev     event
	protos []string // names of the protocols seen, in order
}

// read decodes l. It returns nil and nil for a blank line, nil and the
// problem for a bad one.
func (ls *lines) read(l jsonl.Line) (*event, *protocol.LineError) {
	if jsonl.IsBlank(l.Bytes) {
		return nil, nil
	}
	// A copy, and obj.Keep: values taken from the line are kept (names,
	// ids, messages) after the reader reuses its buffer.
	ls.obj.Keep = true
	if _, err := ls.dec.DecodeLayouts(bytes.Clone(l.Bytes), &ls.obj, protocol.Layouts); err != nil {
		return nil, err
	}
	ev := &ls.ev
	ev.num, ev.obj, ev.typ = l.Num, &ls.obj, ls.obj.Str("type")
	ev.proto = ls.as
	if ev.proto == nil {
		ev.proto = protocol.Detect(&ls.obj)
	}
	if !slices.Contains(ls.protos, ev.proto.Name) {
		ls.protos = append(ls.protos, ev.proto.Name)
	}
	ev.step = ls.runs.Event(ev.proto, &ls.obj, l.Num)
	return ev, nil
}

// protocols names the protocols seen, "" when none.
func (ls *lines) protocols() string { return strings.Join(ls.protos, ", ") }

// prefixOr is the field prefix of an event's diagnostics: its type, or
// "event".
func prefixOr(typ string) string {
	if typ == "" {
		return "event"
	}
	return typ
}
