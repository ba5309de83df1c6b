package jsonl

import (
	"bytes"
	"encoding/binary"
	"unsafe"

	"github.com/tidwall/gjson"
)

// A producer writes each kind of event the same way: the same keys in the
// same order, the same separators, some values always the same, as in a
// streamed text delta
//
//	{"delta":"…","runId":"…","schemaVersion":2,"type":"reasoning"}
//
// and such lines are most of a stream. A Layout is one such way of
// writing: the bytes of the line but for some string values. A line in
// the layout is checked by comparing those bytes and validating the
// strings, instead of being scanned member by member; it is split into
// the members Decoder.Decode gives it (TestLayoutAsDecode,
// FuzzLayoutAsDecode). Any other line is left to Decode. The layouts
// themselves are facts of a dialect, in its folder.

// LayoutField is one member of a layout: its key, and its value as raw
// JSON, or "" for a string that varies from line to line, or AnyValue for
// any JSON value.
type LayoutField struct {
	Key, Raw string
}

// AnyValue is the Raw of a LayoutField whose value may be any JSON value
// (tool arguments, token counts).
const AnyValue = "*"

// Layout is a way of writing a line; see NewLayout.
type Layout struct {
	lits    [][]byte     // the bytes before, between and after the varying values
	members []LineMember // the line's members, those of the varying values without one
	slots   []int        // for each varying value, its member
	anyv    []bool       // for each varying value, whether it is AnyValue, not a string
	strings bool         // no varying value is AnyValue (Strings)
	lens    uint64       // the members' LineObject.lens
	// The line's first and last bytes (up to 8 each) as words, under
	// their masks: most lines are told apart from a layout by them
	// alone, without a call.
	head, headMask, tail, tailMask uint64
}

// NewLayout returns the layout of a line of fields, in this order,
// written in style st (GoStyle: no spaces; PythonStyle: ", "
// and ": "). Keys must be distinct and need no escapes; fixed values must
// be valid JSON as st writes them. It panics otherwise: layouts are made
// from constants.
func NewLayout(st Style, fields ...LayoutField) *Layout {
	sep, colon := ",", ":"
	if st == PythonStyle {
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
		if !PlainString(f.Key) {
			panic("jsonl: layout key needs escapes: " + f.Key)
		}
		key := `"` + f.Key + `"` + colon
		lit = append(lit, key...)
		sample = append(sample, key...)
		if f.Raw == "" || f.Raw == AnyValue {
			l.lits = append(l.lits, lit)
			l.slots = append(l.slots, i)
			l.anyv = append(l.anyv, f.Raw == AnyValue)
			lit = nil
			sample = append(sample, `""`...)
			continue
		}
		lit = append(lit, f.Raw...)
		sample = append(sample, f.Raw...)
	}
	l.lits = append(l.lits, append(lit, '}'))
	sample = append(sample, '}')
	var w [8]byte
	first, last := l.lits[0], l.lits[len(l.lits)-1]
	n := copy(w[:], first)
	l.head, l.headMask = binary.LittleEndian.Uint64(w[:]), ^uint64(0)>>(64-8*n)
	w = [8]byte{}
	n = copy(w[8-min(8, len(last)):], last[len(last)-min(8, len(last)):])
	l.tail, l.tailMask = binary.LittleEndian.Uint64(w[:]), ^uint64(0)<<(64-8*n)
	// The members as the decoder makes them, fixed values included.
	var d Decoder
	var o LineObject
	if err := d.Decode(sample, &o); err != nil || o.Dup != "" || o.Len() != len(fields) {
		panic("jsonl: bad layout " + string(sample))
	}
	if len(l.slots) > maxSlots {
		panic("jsonl: a layout of more than 8 varying values")
	}
	l.members, l.lens = append(l.members, o.Members()...), o.lens
	l.strings = true
	for k, s := range l.slots {
		l.members[s].raw = ""
		l.strings = l.strings && !l.anyv[k]
	}
	return l
}

// maxSlots is the most varying values a layout may have: their places
// are found in an array on the stack before the LineObject is touched.
const maxSlots = 8

// Strings reports a layout whose varying values are all strings: its
// lines' members have the same JSON types every time.
func (l *Layout) Strings() bool { return l.strings }

// Index is the place of key among the members of the layout's lines
// (LineObject.Members), -1 when it has none.
func (l *Layout) Index(key string) int {
	for i, m := range l.members {
		if m.Key == key {
			return i
		}
	}
	return -1
}

// Decode reports whether b is a line in the layout, and if it is, splits
// it into o as Decoder.Decode does (o is reused; its values point into b).
// When it is not, o is left as it was.
func (l *Layout) Decode(b []byte, o *LineObject) bool {
	var d Decoder
	return d.decodeLayout(l, b, o)
}

// decodeLayout is l.Decode, with d for the values that are not strings.
func (d *Decoder) decodeLayout(l *Layout, b []byte, o *LineObject) bool {
	if len(b) >= 8 && (binary.LittleEndian.Uint64(b)&l.headMask != l.head || binary.LittleEndian.Uint64(b[len(b)-8:])&l.tailMask != l.tail) {
		return false
	}
	first, last := l.lits[0], l.lits[len(l.lits)-1]
	switch {
	case len(l.slots) == 0:
		if !bytes.Equal(b, first) {
			return false
		}
	case len(b) < len(first)+len(last) || !bytes.HasPrefix(b, first) || !bytes.HasSuffix(b, last):
		return false
	}
	// The varying values: at most a few, found before o is touched.
	var at [maxSlots]struct {
		start, end int
		typ        gjson.Type
		esc        bool
	}
	i := len(first)
	for k := range l.slots {
		if i >= len(b) {
			return false
		}
		a := &at[k]
		switch c := b[i]; {
		case c == '"':
			end, esc, why := scanString(b, i)
			if why != rNone {
				return false
			}
			a.start, a.end, a.typ, a.esc = i, end, gjson.String, esc
		case !l.anyv[k] || c == ' ' || c == '\t' || c == '\n' || c == '\r':
			// not a string where the layout has one; or white space,
			// which Decode leaves out of the value
			return false
		default:
			end, ok := d.value(b, i, 1)
			if !ok {
				return false
			}
			a.start, a.end, a.typ, a.esc = i, end, TypeOf(c), false
		}
		i = at[k].end
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
		m.raw, m.typ, m.esc = raw[s.start:s.end], s.typ, s.esc
	}
	o.seal()
	return true
}

// DecodeLayouts is Decode for a line that may be in one of ls: such a
// line is split by its layout, into the same LineObject. k is the index of
// its layout in ls, -1 for a line in none.
func (d *Decoder) DecodeLayouts(b []byte, o *LineObject, ls []TypeLayout) (k int, err *LineError) {
	for k := range ls {
		if d.decodeLayout(ls[k].Layout, b, o) {
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
