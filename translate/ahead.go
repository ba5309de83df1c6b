package translate

import (
	"unsafe"

	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
	"github.com/zevo/zevo/redact"
)

// Stream's reading goroutine renders the long values of each event in the
// target's style (redaction included) while the translating goroutine
// writes the events before it: the same work, moved to where a core is
// free. out.raw and templated then copy a value rendered ahead instead of
// rendering it. Nothing about a value's rendering depends on the run, so
// the output is the same byte for byte (TestShortcutsChangeNothing).
// Options.Plain turns it off.

// aheadMin is the length from which a value is rendered ahead: shorter
// ones cost less to render than to look up.
const aheadMin = 24

// ahead is one value of an event rendered ahead: raw is the member's
// value (compared by address and length), and the rendering is
// event.aheadBuf[start:end] (in its batch's arena), or raw itself when same.
type ahead struct {
	raw        string
	start, end int
	same       bool
}

// aheadStyle is what the reading goroutine needs to render ahead.
type aheadStyle struct {
	on       bool
	to       Format
	st       jsonl.Style
	rd       *redact.Redactor
	keep     bool // --unmapped keep: unmapped events are written too
	bigValue int  // out.bigValue: such values are left to out.raw
}

func (t *Translator) aheadStyle() aheadStyle {
	// The event path's own targets read no value rendered ahead.
	a := aheadStyle{on: !t.opt.Plain && !eventOnly(t.opt.To), to: t.opt.To, st: jsonl.GoStyle, rd: t.opt.Redactor,
		keep: t.opt.Unmapped == Keep, bigValue: t.opt.bigValue}
	if t.opt.To == EvoSci {
		a.st = jsonl.PythonStyle
	}
	return a
}

// renderAhead renders the long string, object and array values of ev, a
// line of the input that translation will rewrite.
func (p *preparer) renderAhead(ev *event) {
	if p.aheadArena == nil {
		return // Line, or the translating goroutine: nothing runs ahead
	}
	a := &p.ahead
	if !a.on || p.slot >= p.level-shareLevels || ev.prefix || a.to == EvoSci && ev.kind == EvoSci {
		return // events passed through as they are
	}
	if !a.keep && p.dropped(ev) {
		return
	}
	for i := range ev.Members() {
		m := &ev.Members()[i]
		raw := m.Raw()
		if len(raw) < aheadMin || len(raw) >= a.bigValue || raw[0] != '"' && raw[0] != '{' && raw[0] != '[' {
			continue
		}
		if a.to == EvoSci && m.Key == "runId" {
			continue // EvoScientist has no run ids: not written (but kept, by keepFields)
		}
		b := unsafe.Slice(unsafe.StringData(raw), len(raw))
		arena := p.aheadArena
		start := len(*arena)
		buf, err := jsonl.AppendValue(*arena, b, a.st, a.rd)
		if err != nil {
			*arena = buf[:start]
			continue // rendered, and reported, by the translating goroutine
		}
		if string(buf[start:]) == raw {
			// Kept as it is: the line's own bytes serve.
			*arena = buf[:start]
			ev.ahead = append(ev.ahead, ahead{raw: raw, same: true})
			continue
		}
		// The arena may move as it grows: the event keeps the array its
		// values are in.
		*arena, ev.aheadBuf = buf, buf
		ev.ahead = append(ev.ahead, ahead{raw: raw, start: start, end: len(buf)})
	}
}

// dropped reports an event the table drops (unmapped), as the
// translation will; for a line in a layout, asked of the tables once.
func (p *preparer) dropped(ev *event) bool {
	if ev.layout > 0 {
		if p.layoutDropped == nil {
			p.layoutDropped = make([]int8, len(protocol.Layouts))
		}
		if d := p.layoutDropped[ev.layout-1]; d != 0 {
			return d > 0
		}
	}
	rules := p.tables.Between("evosci", "zero").Events
	if ev.kind == Zero {
		rules = p.tables.Between("zero", "evosci").Events
		if p.ahead.to != EvoSci {
			rules = nil // Zero to Zero: every event is written
		}
	}
	r, ok := rules[ev.typ]
	drop := rules != nil && (!ok || r.Unmapped)
	if ev.layout > 0 {
		p.layoutDropped[ev.layout-1] = -1
		if drop {
			p.layoutDropped[ev.layout-1] = 1
		}
	}
	return drop
}
