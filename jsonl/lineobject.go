package jsonl

import (
	"strconv"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// LineObject is one line's top-level JSON object, split into its members.
// Member values are raw slices of the line; a string value with escapes,
// or a number, is decoded only when Get asks for it, as most values are
// only copied.
type LineObject struct {
	// Raw is the line the members point into: the input line, or its
	// repaired copy when NonFinite is not empty.
	Raw string
	// NonFinite are the bare NaN, Infinity and -Infinity tokens of the
	// line (not JSON; Python writes them), read as null.
	NonFinite []string
	// Arena, when not nil, is where Get decodes strings, instead of a
	// buffer of the LineObject's own: the Objects of a batch of lines share
	// one, which their owner empties when it reuses them.
	Arena *[]byte
	// MemberArena, when not nil, is where the members of the line are
	// kept: the Objects of a batch of lines take consecutive places in
	// one array, which their owner empties when it reuses them. A line
	// with more members than the places left takes memory of its own.
	MemberArena *[]LineMember
	// Keep makes every decoded string last (fresh memory for each line's),
	// for a caller that keeps values of a line it does not reuse; by
	// default they are valid until the LineObject is used for another line.
	Keep bool
	// Dup is the first top-level key that occurs more than once ("" when
	// none); the last occurrence wins, as in Go and Python.
	Dup string

	members []LineMember
	text    []byte         // decoded strings' bytes, for this line only
	lens    uint64         // a bit per key length (mod 64): a key whose bit is clear is absent
	index   map[string]int // key → position in members, once there are many
}

// LineMember is one top-level member. It is kept small (56 bytes, not a
// gjson.Result's 80 and more): a line's members are written by one
// goroutine and read by another, and every byte of them crosses.
type LineMember struct {
	Key string
	raw string
	str string // a string's text, once decoded (escapes only)
	typ gjson.Type
	// esc: a string with escapes; decoded: str holds its text (or, for
	// a number, nothing: Num is parsed when asked).
	esc, decoded bool
}

// Value is the member's value; the Str of a string with escapes only
// once Get has decoded it, and Num only from Get.
func (m LineMember) Value() gjson.Result {
	v := gjson.Result{Type: m.typ, Raw: m.raw}
	if m.typ == gjson.String {
		if !m.esc {
			v.Str = m.raw[1 : len(m.raw)-1]
		} else if m.decoded {
			v.Str = m.str
		}
	}
	return v
}

// Type is the JSON type of the member's value.
func (m LineMember) Type() gjson.Type { return m.typ }

// Raw is the member's value as it is in the line.
func (m LineMember) Raw() string { return m.raw }

// indexAfter is the number of members from which an object indexes its
// keys: a line may hold a million of them, and finding each by a scan
// would take quadratic time.
const indexAfter = 32

func (o *LineObject) reset(raw string) {
	o.Raw, o.NonFinite, o.Dup = raw, o.NonFinite[:0], ""
	o.members, o.lens, o.index = o.members[:0], 0, nil
	if a := o.MemberArena; a != nil {
		if cap(*a)-len(*a) < 16 {
			*a = make([]LineMember, 0, max(2*cap(*a), 1024))
		}
		o.members = (*a)[len(*a):len(*a)]
	}
	if o.Keep || cap(o.text) > keepText {
		o.text = nil // or one huge line does not hold memory for the rest
	} else {
		// Cleared, so that a view kept past its line reads as zero
		// bytes, which tests notice, not as another line's text.
		clear(o.text)
		o.text = o.text[:0]
	}
}

// seal ends the line's use of MemberArena: the members' places are its.
func (o *LineObject) seal() {
	a := o.MemberArena
	if a == nil {
		return
	}
	n := len(o.members)
	if n > 0 && len(*a) < cap(*a) && unsafe.SliceData(o.members) == &(*a)[:len(*a)+1][len(*a)] {
		*a = (*a)[:len(*a)+n]
	}
	// A member added later goes to memory of its own, not to the next
	// line's places.
	o.members = o.members[:n:n]
}

// keepText is the capacity of decoded text an LineObject keeps for the next line.
const keepText = 64 << 10

// Members returns the members in input order (a duplicate key at its
// first place, with its last value), values as Peek returns them.
func (o *LineObject) Members() []LineMember { return o.members }

// Len is the number of distinct keys.
func (o *LineObject) Len() int { return len(o.members) }

// find returns the position of key in members, or -1.
func (o *LineObject) find(key string) int {
	if o.lens&(1<<(len(key)&63)) == 0 {
		return -1
	}
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	if key == "" {
		for i := range o.members {
			if o.members[i].Key == "" {
				return i
			}
		}
		return -1
	}
	// The first byte first: keys of one length (delta and runId) mostly
	// differ there, and the comparison of the rest is a call.
	for i := range o.members {
		if k := o.members[i].Key; len(k) == len(key) && k[0] == key[0] && k == key {
			return i
		}
	}
	return -1
}

// Has reports whether key is present.
func (o *LineObject) Has(key string) bool { return o.find(key) >= 0 }

// Get returns the value of a top-level key, strings decoded; the zero
// Result when it is absent. Like the line, a decoded string is valid until
// the LineObject is used for another line: keep a copy of what must last.
func (o *LineObject) Get(key string) gjson.Result {
	i := o.find(key)
	if i < 0 {
		return gjson.Result{}
	}
	m := &o.members[i]
	v := m.Value()
	switch {
	case m.typ == gjson.String && m.esc && !m.decoded:
		m.str, m.decoded = o.unescape(m.raw), true
		v.Str = m.str
	case m.typ == gjson.Number:
		v.Num, _ = strconv.ParseFloat(m.raw, 64)
	}
	return v
}

// Peek returns the value of a top-level key for its Type and Raw only: the
// Str of a string with escapes, and the Num of a number, may be missing.
func (o *LineObject) Peek(key string) gjson.Result {
	if i := o.find(key); i >= 0 {
		return o.members[i].Value()
	}
	return gjson.Result{}
}

// StrAt is Str of the member at place i of Members.
func (o *LineObject) StrAt(i int) string {
	m := &o.members[i]
	switch {
	case m.typ != gjson.String:
		return ""
	case !m.esc:
		return m.raw[1 : len(m.raw)-1]
	case !m.decoded:
		m.str, m.decoded = o.unescape(m.raw), true
	}
	return m.str
}

// Str returns a top-level string value, "" when absent or not a string.
func (o *LineObject) Str(key string) string {
	v := o.Get(key)
	if v.Type != gjson.String {
		return ""
	}
	return v.Str
}

// Lookup resolves a top-level name, or a gjson path (with '.', '#', …)
// against the whole line, for its Type and Raw as Peek.
func (o *LineObject) Lookup(path string) gjson.Result {
	if IsPath(path) {
		return gjson.Get(o.Raw, path)
	}
	return o.Peek(path)
}

// IsPath reports a gjson path (with '.', '#', …), not a top-level name.
func IsPath(s string) bool { return strings.ContainsAny(s, ".*?|#@\\") }

// Set sets a top-level member, replacing one of the same key in place.
func (o *LineObject) Set(key string, v gjson.Result) {
	m := LineMember{Key: key, raw: v.Raw, typ: v.Type}
	if v.Type == gjson.String {
		// The text as given: Raw need not be the same spelling.
		m.str, m.esc, m.decoded = v.Str, true, true
	}
	o.put(&m, false)
}

// put sets m; from the input, a key already there is a duplicate.
func (o *LineObject) put(m *LineMember, input bool) {
	if i := o.find(m.Key); i >= 0 {
		if input && o.Dup == "" {
			o.Dup = m.Key
		}
		o.members[i] = *m
		return
	}
	o.lens |= 1 << (len(m.Key) & 63)
	o.members = append(o.members, *m)
	switch {
	case o.index != nil:
		o.index[m.Key] = len(o.members) - 1
	case len(o.members) > indexAfter:
		o.reindex()
	}
}

// addAll appends ms, whose keys are distinct and not in the object (a
// layout's), and lens their bits: put without the search for duplicates.
func (o *LineObject) addAll(ms []LineMember, lens uint64) {
	o.lens |= lens
	o.members = append(o.members, ms...)
	if o.index != nil || len(o.members) > indexAfter {
		o.reindex()
	}
}

func (o *LineObject) reindex() {
	o.index = make(map[string]int, len(o.members))
	for i, m := range o.members {
		o.index[m.Key] = i
	}
}

// Del removes a top-level member.
func (o *LineObject) Del(key string) {
	if i := o.find(key); i >= 0 {
		o.members = append(o.members[:i], o.members[i+1:]...)
		if o.index != nil {
			o.reindex()
		}
	}
}

// unescape decodes raw, a valid JSON string with escapes, into o.text and
// returns a view of it. Growing o.text leaves earlier views on the old
// array, which stays as it was.
func (o *LineObject) unescape(raw string) string {
	buf := &o.text
	if o.Arena != nil {
		buf = o.Arena
	}
	start := len(*buf)
	*buf = AppendUnescaped(*buf, raw[1:len(raw)-1])
	return unsafe.String(unsafe.SliceData((*buf)[start:]), len(*buf)-start)
}
