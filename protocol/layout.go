package protocol

import (
	"bytes"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// A producer writes each kind of event the same way: the same keys in the
// same order, the same separators, some values always the same. Zero
// writes a reasoning delta as
//
//	{"delta":"…","runId":"…","schemaVersion":2,"type":"reasoning"}
//
// and such lines are most of a stream (EvoScientist's thinking and text
// likewise). A Layout is one such way of
// writing: the bytes of the line but for some string values. A line in
// the layout is checked by comparing those bytes and validating the
// strings, instead of being scanned member by member; it is split into
// the members Decoder.Decode gives it (TestLayoutAsDecode,
// FuzzLayoutAsDecode). Any other line is left to Decode.

// LayoutField is one member of a layout: its key, and its value as raw
// JSON, or "" for a string that varies from line to line.
type LayoutField struct {
	Key, Raw string
}

// Layout is a way of writing a line; see NewLayout.
type Layout struct {
	lits    [][]byte // the bytes before, between and after the varying strings
	members []Member // the line's members, those of the varying strings without a value
	slots   []int    // for each varying string, its member
	lens    uint64   // the members' Object.lens
}

// NewLayout returns the layout of a line of fields, in this order,
// written in style st (jsonl.GoStyle: no spaces; jsonl.PythonStyle: ", "
// and ": "). Keys must be distinct and need no escapes; fixed values must
// be valid JSON as st writes them. It panics otherwise: layouts are made
// from constants.
func NewLayout(st jsonl.Style, fields ...LayoutField) *Layout {
	sep, colon := ",", ":"
	if st == jsonl.PythonStyle {
		sep, colon = ", ", ": "
	}
	l := &Layout{}
	var lit, sample []byte
	lit = append(lit, '{')
	sample = append(sample, '{')
	for i, f := range fields {
		if i > 0 {
			lit = append(lit, sep...)
			sample = append(sample, sep...)
		}
		if !jsonl.PlainString(f.Key) {
			panic("protocol: layout key needs escapes: " + f.Key)
		}
		key := `"` + f.Key + `"` + colon
		lit = append(lit, key...)
		sample = append(sample, key...)
		if f.Raw == "" {
			l.lits = append(l.lits, lit)
			l.slots = append(l.slots, i)
			lit = nil
			sample = append(sample, `""`...)
			continue
		}
		lit = append(lit, f.Raw...)
		sample = append(sample, f.Raw...)
	}
	l.lits = append(l.lits, append(lit, '}'))
	sample = append(sample, '}')
	// The members as the decoder makes them, fixed values included.
	var d Decoder
	var o Object
	if err := d.Decode(sample, &o); err != nil || o.Dup != "" || o.Len() != len(fields) {
		panic("protocol: bad layout " + string(sample))
	}
	l.members, l.lens = append(l.members, o.Members()...), o.lens
	for _, s := range l.slots {
		l.members[s].raw = ""
	}
	return l
}

// Decode reports whether b is a line in the layout, and if it is, splits
// it into o as Decoder.Decode does (o is reused; its values point into b).
// When it is not, o is left as it was.
func (l *Layout) Decode(b []byte, o *Object) bool {
	first, last := l.lits[0], l.lits[len(l.lits)-1]
	switch {
	case len(l.slots) == 0:
		if !bytes.Equal(b, first) {
			return false
		}
	case len(b) < len(first)+len(last) || !bytes.HasPrefix(b, first) || !bytes.HasSuffix(b, last):
		return false
	}
	// The varying strings: at most a few, found before o is touched.
	var at [8]struct {
		start, end int
		esc, ascii bool
	}
	if len(l.slots) > len(at) {
		return false
	}
	i := len(first)
	for k := range l.slots {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		end, esc, ascii, why := stringEnd(b, i)
		if why != rNone {
			return false
		}
		at[k].start, at[k].end, at[k].esc, at[k].ascii = i, end, esc, ascii
		i = end
		lit := l.lits[k+1]
		if k+1 == len(l.lits)-1 {
			// The end of the line, compared above.
			if i != len(b)-len(lit) {
				return false
			}
		} else if !bytes.HasPrefix(b[i:], lit) {
			return false
		}
		i += len(lit)
	}
	raw := unsafe.String(unsafe.SliceData(b), len(b))
	o.reset(raw)
	// The keys are distinct (NewLayout's line was decoded so): the
	// members go in as they are, and then the strings of this line.
	o.addAll(l.members, l.lens)
	for k, j := range l.slots {
		s, m := at[k], &o.members[j]
		m.raw, m.typ, m.esc, m.ascii = raw[s.start:s.end], gjson.String, s.esc, s.ascii
	}
	o.seal()
	return true
}

// DecodeLayouts is Decode for a line that may be in one of ls: such a
// line is split by its layout, into the same Object. k is the index of
// its layout in ls, -1 for a line in none.
func (d *Decoder) DecodeLayouts(b []byte, o *Object, ls []TypeLayout) (k int, err *LineError) {
	for k := range ls {
		if ls[k].Layout.Decode(b, o) {
			return k, nil
		}
	}
	return -1, d.Decode(b, o)
}

// TypeLayout is the layout of one event type of a protocol.
type TypeLayout struct {
	Protocol *Protocol
	Type     string
	Layout   *Layout
}

// Layouts are the layouts in which the producers write their commonest
// events, the lines most of a stream is made of:
//   - Zero (schema version 2: sorted keys, no spaces): reasoning and text
//     deltas, and tool results without the optional fields;
//   - EvoScientist (Python's json.dumps: ", " and ": "): thinking and text.
var Layouts = []TypeLayout{
	zeroLayout("reasoning", LayoutField{Key: "delta"}),
	zeroLayout("text", LayoutField{Key: "delta"}),
	zeroLayout("tool_result", LayoutField{Key: "id"}, LayoutField{Key: "name"}, LayoutField{Key: "output"}),
	{EvoSci, "thinking", NewLayout(jsonl.PythonStyle, LayoutField{Key: "type", Raw: `"thinking"`}, LayoutField{Key: "content"}, LayoutField{Key: "id", Raw: "0"})},
	{EvoSci, "text", NewLayout(jsonl.PythonStyle, LayoutField{Key: "type", Raw: `"text"`}, LayoutField{Key: "content"})},
}

// zeroLayout is the layout of a Zero event of type typ with the varying
// strings before (and, for a tool result, after) runId that fields are.
func zeroLayout(typ string, fields ...LayoutField) TypeLayout {
	fields = append(fields, LayoutField{Key: "runId"}, LayoutField{Key: "schemaVersion", Raw: "2"})
	if typ == "tool_result" {
		// truncated is always there; false but for a cut output
		fields = append(fields, LayoutField{Key: "status"}, LayoutField{Key: "truncated", Raw: "false"})
	}
	return TypeLayout{ZeroV2, typ, NewLayout(jsonl.GoStyle, append(fields, LayoutField{Key: "type", Raw: `"` + typ + `"`})...)}
}
