package jsonl

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/zevo/zevo/redact"
)

// Object builds one JSON object in a producer's style, for the dialects'
// encoders: every string and value goes through the redactor (nil: none),
// a value under a sensitive key becomes the marker, and the members are
// written in the order added or, Sorted, by key (as Go re-marshals a map,
// which is how Zero writes its events).
type Object struct {
	Style  Style
	Redact *redact.Redactor
	Sorted bool
	kv     []objMember
	// unsorted: kv is to be sorted before it is written (add).
	unsorted bool
	buf      []byte
	err      error
	// sens caches redact.SensitiveKey by key: an encoder asks about the
	// same few keys on every line.
	sens *[64][2]sensSlot
	// memo holds short strings Str rendered, with their rendering.
	memo      *[128]memoSlot
	memoFor   *redact.Redactor // the redactor and style memo's renderings are of
	memoStyle Style
}

type objMember struct {
	key        string
	start, end int
}

// Reset empties o for the next object, keeping its settings.
func (o *Object) Reset() {
	o.kv, o.buf, o.err, o.unsorted = o.kv[:0], o.buf[:0], nil, false
}

// Err is the first error of a Raw value, if any.
func (o *Object) Err() error { return o.err }

// add records the member just appended at buf[start:]. Its key is not
// copied: a key's bytes do not change while the object builds. Sorted,
// the member goes after those with keys up to its own, so that the
// members stay in the order a stable sort by key gives.
func (o *Object) add(key string, start int) {
	m := objMember{key, start, len(o.buf)}
	o.kv = append(o.kv, m)
	if !o.Sorted {
		return
	}
	i := len(o.kv) - 1
	if o.unsorted || i > insertMax && keyAfter(o.kv[i-1].key, key) {
		// Many members out of order (an object of a million keys in
		// reverse): sorted once, stably, when written, not moved one by
		// one here, which takes time growing with their square.
		o.unsorted = true
		return
	}
	for ; i > 0 && keyAfter(o.kv[i-1].key, key); i-- {
		o.kv[i] = o.kv[i-1]
	}
	o.kv[i] = m
}

// keyAfter is a > b, told by the first bytes when they differ (most
// keys), without a call to compare the strings.
func keyAfter(a, b string) bool {
	if len(a) > 0 && len(b) > 0 && a[0] != b[0] {
		return a[0] > b[0]
	}
	return a > b
}

// insertMax is the number of members past which add no longer keeps
// them in order as they come.
const insertMax = 64

// sensitiveKey is redact.SensitiveKey, remembered for the keys asked
// before: a table of buckets by a hash of the key's length and bytes at
// its ends and middle, each holding the last two keys there (copies)
// with their answers.
func (o *Object) sensitiveKey(key string) bool {
	if key == "" {
		return redact.SensitiveKey(key)
	}
	if o.sens == nil {
		o.sens = new([64][2]sensSlot)
	}
	b := &o.sens[(len(key)*31+int(key[0])*7+int(key[len(key)-1])*131+int(key[len(key)/2])*17)&63]
	if b[0].set && b[0].key == key {
		return b[0].sensitive
	}
	if b[1].set && b[1].key == key {
		b[0], b[1] = b[1], b[0]
		return b[0].sensitive
	}
	b[1] = b[0]
	b[0] = sensSlot{key: strings.Clone(key), sensitive: redact.SensitiveKey(key), set: true}
	return b[0].sensitive
}

type sensSlot struct {
	key            string
	sensitive, set bool
}

func (o *Object) sensitive(key string) bool {
	if o.Redact == nil || !o.sensitiveKey(key) {
		return false
	}
	start := len(o.buf)
	o.buf = AppendString(o.buf, redact.Marker, o.Style)
	o.add(key, start)
	return true
}

// Str adds a string member, redacted.
func (o *Object) Str(key, s string) {
	if o.sensitive(key) {
		return
	}
	start := len(o.buf)
	if o.Redact != nil {
		if len(s) <= memoText {
			o.buf = o.memoString(o.buf, s)
			o.add(key, start)
			return
		}
		s = o.Redact.String(s)
	}
	o.buf = AppendString(o.buf, s, o.Style)
	o.add(key, start)
}

// StrSpelled is Str of the text whose JSON spelling is body (the inside
// of a valid JSON string): respelled in o's style (AppendRespelled) when
// there is no redaction, else unescaped and redacted as Str does.
func (o *Object) StrSpelled(key, body string) {
	if o.Redact != nil {
		o.Str(key, string(AppendUnescapedKeep(nil, body)))
		return
	}
	start := len(o.buf)
	o.buf = AppendRespelled(o.buf, body, o.Style)
	o.add(key, start)
}

// memoText is the length up to which the strings Str redacts are
// remembered with their rendering: the type, the run's id, a status, a
// tool's name repeat from line to line.
const memoText = 40

type memoSlot struct {
	n, m uint8
	s    [memoText]byte
	out  [2 * memoText]byte
}

// memoString appends s as Str writes it (redacted, in o's style), from
// the table of the strings rendered before when s is there (by its
// bytes), else rendered and put there when its rendering fits.
func (o *Object) memoString(dst []byte, s string) []byte {
	if s == "" {
		return AppendString(dst, o.Redact.String(s), o.Style)
	}
	if o.memo == nil || o.memoFor != o.Redact || o.memoStyle != o.Style {
		o.memo, o.memoFor, o.memoStyle = new([128]memoSlot), o.Redact, o.Style
	}
	e := &o.memo[(len(s)*31+int(s[0])*7+int(s[len(s)-1])*131+int(s[len(s)/2])*17)&127]
	if int(e.n) == len(s) && string(e.s[:e.n]) == s {
		return append(dst, e.out[:e.m]...)
	}
	start := len(dst)
	dst = AppendString(dst, o.Redact.String(s), o.Style)
	if out := dst[start:]; len(out) <= len(e.out) {
		e.n, e.m = uint8(len(s)), uint8(len(out))
		copy(e.s[:], s)
		copy(e.out[:], out)
	}
	return dst
}

// StrOmit adds a string member unless it is empty (Go's omitempty).
func (o *Object) StrOmit(key, s string) {
	if s != "" {
		o.Str(key, s)
	}
}

// Int adds an integer member.
func (o *Object) Int(key string, n int64) {
	start := len(o.buf)
	o.buf = strconv.AppendInt(o.buf, n, 10)
	o.add(key, start)
}

// Bool adds a boolean member.
func (o *Object) Bool(key string, b bool) {
	start := len(o.buf)
	o.buf = strconv.AppendBool(o.buf, b)
	o.add(key, start)
}

// Float adds a number member as Go's encoding/json writes a float64 (the
// only producer whose floats an encoder writes).
func (o *Object) Float(key string, f float64) {
	b, err := json.Marshal(f)
	if err != nil {
		if o.err == nil {
			o.err = err
		}
		return
	}
	start := len(o.buf)
	o.buf = append(o.buf, b...)
	o.add(key, start)
}

// Raw adds a member whose value is the JSON value raw, restyled and
// redacted (AppendValue).
func (o *Object) Raw(key string, raw []byte) {
	if o.sensitive(key) {
		return
	}
	start := len(o.buf)
	b, err := AppendValue(o.buf, raw, o.Style, o.Redact)
	if err != nil {
		o.buf = o.buf[:start]
		if o.err == nil {
			o.err = err
		}
		return
	}
	o.buf = b
	o.add(key, start)
}

// Has reports whether key was added.
func (o *Object) Has(key string) bool {
	for _, m := range o.kv {
		if m.key == key {
			return true
		}
	}
	return false
}

// appendKey is AppendString of an encoder's key: its keys are short and
// plain ASCII, written as they are without AppendString's scan of them.
func appendKey(dst []byte, key string, st Style) []byte {
	plain := &goPlainByte
	if st == PythonStyle {
		plain = &pythonPlainByte
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c >= 0x80 || !plain[c] {
			return AppendString(dst, key, st)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, key...)
	return append(dst, '"')
}

// AppendTo appends the object to dst.
func (o *Object) AppendTo(dst []byte) []byte {
	// Sorted: add keeps the members in order, or leaves them to this.
	if o.unsorted {
		slices.SortStableFunc(o.kv, func(a, b objMember) int { return strings.Compare(a.key, b.key) })
		o.unsorted = false
	}
	dst = append(dst, '{')
	for i, m := range o.kv {
		if i > 0 {
			dst = append(dst, ',')
			if o.Style == PythonStyle {
				dst = append(dst, ' ')
			}
		}
		dst = appendKey(dst, m.key, o.Style)
		dst = append(dst, ':')
		if o.Style == PythonStyle {
			dst = append(dst, ' ')
		}
		dst = append(dst, o.buf[m.start:m.end]...)
	}
	return append(dst, '}')
}
