package event

import (
	"encoding/binary"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// Key is a field name a decoder looks up on every line, with what Line's
// lookups work out of a name each time worked out once: whether gjson
// reads it as a key rather than a path, its length and key bits (which
// tell most fields a line lacks), and its bytes as words, which tell a
// field's key from it in a few instructions rather than a call to
// compare strings. A decoder keeps its keys in package variables
// (NewKey); the lookups by Key answer as those by name
// (TestKeyLookupsAreTheNames).
type Key struct {
	name string
	// plain: gjson reads name as a key (plainKey).
	plain bool
	// lens is name's bit of Line.lens, bit its jsonl.KeyBit.
	lens, bit uint64
	// head and tail are name's first and last eight bytes (four, for a
	// name of four to seven bytes) as little-endian words: together
	// all of a name of four to sixteen bytes.
	head, tail uint64
}

// NewKey prepares name for the lookups by Key.
func NewKey(name string) *Key {
	k := &Key{name: name, plain: plainKey(name), lens: 1 << (len(name) & 63), bit: jsonl.KeyBit(name)}
	b := []byte(name)
	switch n := len(b); {
	case n >= 8 && n <= 16:
		k.head, k.tail = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4 && n < 8:
		k.head, k.tail = uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	}
	return k
}

// Name is the field name.
func (k *Key) Name() string { return k.name }

// is reports whether b, of name's length, is name.
func (k *Key) is(b []byte) bool {
	switch n := len(b); {
	case n >= 8 && n <= 16:
		return binary.LittleEndian.Uint64(b) == k.head && binary.LittleEndian.Uint64(b[n-8:]) == k.tail
	case n >= 4 && n < 8:
		return uint64(binary.LittleEndian.Uint32(b)) == k.head && uint64(binary.LittleEndian.Uint32(b[n-4:])) == k.tail
	}
	return string(b) == k.name
}

// findKey is find(k.name) for a checked line (checked): its key bits
// tell most fields it lacks, comparing no key.
func (l *Line) findKey(k *Key) *field {
	if l.lens&k.lens == 0 || l.keys&k.bit == 0 {
		return nil
	}
	fs := l.fields.List
	for i := range fs {
		if f := &fs[i]; len(f.Key) == len(k.name) && k.is(f.Key) {
			return f
		}
	}
	return nil
}

// HasKey is Has(k.Name()).
func (l *Line) HasKey(k *Key) bool {
	if !l.checked() {
		return l.Has(k.name)
	}
	return l.findKey(k) != nil
}

// GetKey is Get(k.Name()).
func (l *Line) GetKey(k *Key) gjson.Result {
	if !l.checked() || !k.plain {
		return l.Get(k.name)
	}
	if f := l.findKey(k); f != nil {
		return l.value(f)
	}
	return gjson.Result{}
}

// RawKey is GetKey(k).Raw, without the rest of the Result (a number's
// value), for a checked line (ok); not ok for any other line, whose
// field GetKey reads.
func (l *Line) RawKey(k *Key) (raw string, ok bool) {
	if !l.checked() || !k.plain {
		return "", false
	}
	if f := l.findKey(k); f != nil {
		start := cap(l.Bytes) - cap(f.Value)
		return l.str()[start : start+len(f.Value)], true
	}
	return "", true
}

// StrKey is Str(k.Name()).
func (l *Line) StrKey(k *Key) (string, gjson.Type) {
	if !l.checked() || !k.plain {
		return l.Str(k.name)
	}
	f := l.findKey(k)
	if f == nil {
		return "", gjson.Null // Get's zero Result
	}
	if f.Value[0] == '"' && !f.Esc {
		start := cap(l.Bytes) - cap(f.Value)
		return l.str()[start+1 : start+len(f.Value)-1], gjson.String
	}
	v := l.value(f)
	return v.Str, v.Type
}

// SpelledKey is Spelled(k.Name()).
func (l *Line) SpelledKey(k *Key) (body string, ok bool) {
	if !l.checked() || !k.plain {
		return l.Spelled(k.name)
	}
	f := l.findKey(k)
	if f == nil || f.Value[0] != '"' || !f.Esc {
		return "", false
	}
	start := cap(l.Bytes) - cap(f.Value)
	return l.str()[start+1 : start+len(f.Value)-1], true
}

// KindKey is Kind(k.Name()).
func (l *Line) KindKey(k *Key) gjson.Type {
	if !l.checked() || !k.plain {
		return l.Kind(k.name)
	}
	if f := l.findKey(k); f != nil {
		return TypeOf(f.Value[0])
	}
	return gjson.Null
}

// StrKey is Str(v, k.Name()).
func (p *Problems) StrKey(v *Line, k *Key) string {
	s, typ := v.StrKey(k)
	switch typ {
	case gjson.String:
		return s
	case gjson.Null:
		return ""
	}
	p.WrongType(k.name, "string", v.GetKey(k))
	return ""
}

// TextKey is Text(v, k.Name(), skip).
func (p *Problems) TextKey(v *Line, k *Key, skip bool) string {
	if !skip {
		return p.StrKey(v, k)
	}
	switch v.KindKey(k) {
	case gjson.String, gjson.Null:
		return ""
	}
	p.WrongType(k.name, "string", v.GetKey(k))
	return ""
}
