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
	cur    decoded
	runs   protocol.Tracker
	ev     event
	protos []string // names of the protocols seen, in order
}

// decoded is a line decoded and its protocol named: what depends on no
// other line, so that another goroutine may do it (decode), ahead of
// place.
type decoded struct {
	num   int
	blank bool
	err   *protocol.LineError
	obj   protocol.Object
	proto *protocol.Protocol
	typ   string
}

// decode decodes l into d, with dec, as protocol as says (nil: the line's
// own).
func decode(dec *protocol.Decoder, as *protocol.Protocol, l jsonl.Line, d *decoded) {
	d.num, d.err, d.proto, d.typ = l.Num, nil, nil, ""
	if d.blank = jsonl.IsBlank(l.Bytes); d.blank {
		return
	}
	// A copy, and obj.Keep: values taken from the line are kept (names,
	// ids, messages) after the reader reuses its buffer.
	d.obj.Keep = true
	if _, d.err = dec.DecodeLayouts(bytes.Clone(l.Bytes), &d.obj, protocol.Layouts); d.err != nil {
		return
	}
	d.typ, d.proto = d.obj.Str("type"), as
	if d.proto == nil {
		d.proto = protocol.Detect(&d.obj)
	}
}

// read decodes l. It returns nil and nil for a blank line, nil and the
// problem for a bad one.
func (ls *lines) read(l jsonl.Line) (*event, *protocol.LineError) {
	decode(&ls.dec, ls.as, l, &ls.cur)
	return ls.place(&ls.cur)
}

// place puts a decoded line in its run; nil and nil for a blank line, nil
// and the problem for a bad one. The event is valid until the next call.
func (ls *lines) place(d *decoded) (*event, *protocol.LineError) {
	if d.blank || d.err != nil {
		return nil, d.err
	}
	ev := &ls.ev
	ev.num, ev.obj, ev.typ, ev.proto = d.num, &d.obj, d.typ, d.proto
	if !slices.Contains(ls.protos, ev.proto.Name) {
		ls.protos = append(ls.protos, ev.proto.Name)
	}
	ev.step = ls.runs.Event(ev.proto, &d.obj, d.num)
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

// ownFields reports an EvoScientist event that has only EvoScientist's
// fields for its type: a line no other dialect writes as it stands,
// unless the lines before it were another dialect's (a bare error is
// Codex's too). The registry need not be asked about it, which is most
// of an EvoScientist stream.
func (d *decoded) ownFields() bool {
	if d.blank || d.err != nil || d.proto == nil || d.proto.Family != protocol.FamilyEvoSci {
		return false
	}
	return protocol.EvoSci.OwnFields(d.typ, d.obj.Members())
}
