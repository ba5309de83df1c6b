package filter

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/zevo/zevo/internal/swar"
	"github.com/zevo/zevo/jsonl"
)

// decoder turns JSON text into the values gojq works on: nil, bool,
// json.Number (spelled as in the input, so no number is ever rounded),
// string, []any and map[string]any. It is faster than encoding/json for
// the small objects of agent logs because it interns keys and copies
// strings without escapes in one step.
type decoder struct {
	data []byte
	pos  int
	// exact is cleared when the value's text is not a faithful spelling of
	// the decoded value (a repeated key, invalid UTF-8, a Python NaN), so
	// the original bytes must not be written back for it.
	exact bool
	depth int
	keys  map[string]string
	// scratch holds an unescaped string before it is copied out.
	scratch []byte
	// arena, when not nil, receives the bytes of every string of a line,
	// so a line costs one allocation for all its strings instead of one
	// each. It is a fresh slice per line and never written twice, so the
	// strings made from it stay valid for as long as they are used.
	arena []byte
	// useArena: lines are decoded into an arena (the parallel path, where
	// no value outlives its line, so no arena is kept alive for long).
	useArena bool
	slab     []string // string headers for box
	// want, when not nil, holds the only keys of a top-level object whose
	// values the expression can see (see project.go); the values of the
	// others are checked but not built.
	want    map[string]bool
	skipped []string // keys skipped in the current top-level object
}

// skip checks the value of key k of a top-level object without building
// it. Whatever would make the line's text unfaithful (a repeated key,
// invalid UTF-8) is noticed as in a full decoding.
func (d *decoder) skip(k string) error {
	for _, s := range d.skipped {
		if s == k {
			d.exact = false
		}
	}
	d.skipped = append(d.skipped, k)
	d.skipSpace()
	if d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			return d.skipString()
		case c >= '0' && c <= '9' || c == '-' && (d.pos+1 >= len(d.data) || d.data[d.pos+1] != 'I'):
			return d.numberEnd()
		}
	}
	// Containers and literals: built and dropped; they are small in logs.
	_, err := d.value()
	return err
}

// escapedOrPlain decodes the string at the current position.
func (d *decoder) escapedOrPlain() (string, error) {
	start := d.pos + 1
	if end, ok := d.plainEnd(start); ok {
		d.pos = end + 1
		return d.text(d.data[start:end]), nil
	}
	return d.escaped()
}

// eface is the layout of an interface value holding a non-pointer type.
type eface struct {
	typ, data unsafe.Pointer
}

var stringType = func() unsafe.Pointer {
	var v any = "x"
	return (*eface)(unsafe.Pointer(&v)).typ
}()

// box returns s as an interface value. Converting a string to any
// allocates its header alone; with an arena the headers of a line's
// strings are allocated together in a slab instead, which is what the
// conversion would do, one allocation per line rather than per string.
// A slab is never appended to past its capacity, so the headers never
// move, and nothing writes to a header once it is boxed.
func (d *decoder) box(s string) any {
	if d.arena == nil {
		return s
	}
	if len(d.slab) == cap(d.slab) {
		d.slab = make([]string, 0, 16)
	}
	d.slab = append(d.slab, s)
	var v any
	e := (*eface)(unsafe.Pointer(&v))
	e.typ = stringType
	e.data = unsafe.Pointer(&d.slab[len(d.slab)-1])
	return v
}

// text returns b as a string, from the arena when there is room.
func (d *decoder) text(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	n := len(d.arena)
	if d.arena == nil || cap(d.arena)-n < len(b) {
		return string(b)
	}
	d.arena = append(d.arena, b...)
	return unsafe.String(&d.arena[n], len(b))
}

// syntaxError is a JSON syntax error at a byte offset of the line.
type syntaxError struct {
	msg string
	off int
}

// Error words e as every command words a bad line: "not valid JSON at
// byte N: DETAIL".
func (e *syntaxError) Error() string {
	return "not valid JSON at byte " + strconv.Itoa(e.off+1) + ": " + e.msg
}

// maxInterned bounds the key cache; keys of agent logs are a few dozen.
const (
	maxInterned   = 4096
	maxInternSize = 64
)

// reset prepares to decode the values of one line.
func (d *decoder) reset(b []byte) {
	d.data = b
	d.pos = 0
	d.arena = nil
	if d.useArena && len(b) >= 64 {
		// Unescaped strings are never longer than their JSON text but
		// for invalid UTF-8, which text copies out on its own. When most
		// values are skipped, a small arena does; text copies out what
		// does not fit.
		n := len(b)
		if d.want != nil {
			n = min(n, 1024)
		}
		d.arena = make([]byte, 0, n)
	}
}

// more skips white space and reports whether another value follows.
func (d *decoder) more() bool {
	d.skipSpace()
	return d.pos < len(d.data)
}

// next decodes the value at the current position (after more returned
// true) and returns it with its text.
func (d *decoder) next() (any, []byte, error) {
	d.exact = true
	d.depth = 0
	start := d.pos
	v, err := d.value()
	if err != nil {
		return nil, nil, err
	}
	if d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\r', '\n', '{', '[', '"':
		default:
			if c := d.data[d.pos-1]; c != '}' && c != ']' && c != '"' {
				return nil, nil, d.errorf(jsonl.QuoteChar(d.data, d.pos) + " after the end of the value")
			}
		}
	}
	return v, d.data[start:d.pos], nil
}

func (d *decoder) errorf(msg string) error { return &syntaxError{msg, d.pos} }

// endValue is the detail of text that ends inside a value.
const endValue = "the line ends inside a value"

// unexpected is the error of the byte at the current position, or of the
// end of the text.
func (d *decoder) unexpected() error {
	if d.pos >= len(d.data) {
		return d.errorf(endValue)
	}
	return d.errorf("unexpected " + jsonl.QuoteChar(d.data, d.pos))
}

// badEscape is the error of the escape at the current position.
func (d *decoder) badEscape() error {
	n := 2
	if d.pos+1 < len(d.data) && d.data[d.pos+1] == 'u' {
		n = 6
	}
	esc := d.data[d.pos:min(d.pos+n, len(d.data))]
	return d.errorf("invalid escape " + strconv.QuoteToASCII(string(esc)) + " in a string")
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\r', '\n':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value() (any, error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return nil, d.errorf(endValue)
	}
	switch c := d.data[d.pos]; c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		return d.str()
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	case 'n':
		return nil, d.literal("null")
	case 'N':
		// Python's json.dumps writes a float NaN as a bare NaN; read it as
		// jq's nan rather than losing the whole event.
		d.exact = false
		return math.NaN(), d.literal("NaN")
	case 'I':
		d.exact = false
		return math.Inf(1), d.literal("Infinity")
	default:
		if c == '-' || c >= '0' && c <= '9' {
			if c == '-' && d.pos+1 < len(d.data) && d.data[d.pos+1] == 'I' {
				d.pos++
				d.exact = false
				return math.Inf(-1), d.literal("Infinity")
			}
			return d.number()
		}
		return nil, d.unexpected()
	}
}

func (d *decoder) literal(word string) error {
	for i := range len(word) {
		if d.pos >= len(d.data) || d.data[d.pos] != word[i] {
			return d.unexpected()
		}
		d.pos++
	}
	return nil
}

func (d *decoder) number() (any, error) {
	start := d.pos
	if err := d.numberEnd(); err != nil {
		return nil, err
	}
	return json.Number(d.text(d.data[start:d.pos])), nil
}

// numberEnd checks the number at the current position and moves past it.
func (d *decoder) numberEnd() error {
	b := d.data
	i := d.pos
	if b[i] == '-' {
		i++
	}
	digits := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == digits || (b[digits] == '0' && i-digits > 1) {
		d.pos = digits
		if i > digits {
			d.pos++ // a digit after a leading zero
		}
		return d.unexpected()
	}
	if i < len(b) && b[i] == '.' {
		i++
		f := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == f {
			d.pos = i
			return d.unexpected()
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		e := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == e {
			d.pos = i
			return d.unexpected()
		}
	}
	d.pos = i
	return nil
}

func (d *decoder) object() (any, error) {
	d.depth++
	if d.depth > jsonl.MaxDepth {
		return nil, d.errorf("nested deeper than 10000 levels")
	}
	d.pos++ // {
	if d.depth == 1 {
		d.skipped = d.skipped[:0]
	}
	m := make(map[string]any, 8)
	n := 0
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		d.depth--
		return m, nil
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.errorf(endValue)
		}
		if d.data[d.pos] != '"' {
			return nil, d.unexpected()
		}
		k, err := d.key()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.unexpected()
		}
		d.pos++
		if d.want != nil && d.depth == 1 && !d.want[k] {
			if err := d.skip(k); err != nil {
				return nil, err
			}
		} else {
			v, err := d.value()
			if err != nil {
				return nil, err
			}
			m[k] = v
			n++
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.errorf(endValue)
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			d.depth--
			if len(m) != n {
				d.exact = false // a repeated key: the last one wins, as in jq
			}
			return m, nil
		default:
			return nil, d.unexpected()
		}
	}
}

func (d *decoder) array() (any, error) {
	d.depth++
	if d.depth > jsonl.MaxDepth {
		return nil, d.errorf("nested deeper than 10000 levels")
	}
	d.pos++ // [
	a := make([]any, 0, 4)
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		d.depth--
		return a, nil
	}
	for {
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.errorf(endValue)
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			d.depth--
			return a, nil
		default:
			return nil, d.unexpected()
		}
	}
}

// key decodes an object key, interned so that the keys repeated on every
// line of a log are allocated once.
func (d *decoder) key() (string, error) {
	start := d.pos + 1
	if end, ok := d.plainEnd(start); ok {
		d.pos = end + 1
		b := d.data[start:end]
		if len(b) > maxInternSize {
			return string(b), nil
		}
		if s, ok := d.keys[string(b)]; ok {
			return s, nil
		}
		s := string(b)
		if d.keys == nil {
			d.keys = make(map[string]string)
		}
		if len(d.keys) < maxInterned {
			d.keys[s] = s
		}
		return s, nil
	}
	return d.escaped()
}

func (d *decoder) str() (any, error) {
	if d.useArena {
		s, err := d.escapedOrPlain()
		if err != nil {
			return nil, err
		}
		return d.box(s), nil
	}
	start := d.pos + 1
	if end, ok := d.plainEnd(start); ok {
		d.pos = end + 1
		return d.box(d.text(d.data[start:end])), nil
	}
	return d.escaped()
}

// strStop marks the bytes that end a run of literal string text.
var strStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// plainEnd returns the index of the closing quote of a string body from
// start that needs no unescaping: no escapes or control characters, and
// valid UTF-8.
func (d *decoder) plainEnd(start int) (int, bool) {
	b := d.data
	var or byte
	i := start
	for i < len(b) && !strStop[b[i]] {
		or |= b[i]
		i++
	}
	if i == len(b) || b[i] != '"' || or >= 0x80 && !utf8.Valid(b[start:i]) {
		return 0, false
	}
	return i, true
}

// escaped decodes a string with escapes, control characters or invalid
// UTF-8 (replaced by U+FFFD, as jq does). Runs without escapes are copied
// in one step; the scratch buffer is reused.
func (d *decoder) escaped() (string, error) {
	out, err := d.unescape()
	if err != nil {
		return "", err
	}
	return d.text(out), nil
}

// unescape decodes the string at the current position into the scratch
// buffer, which it returns.
func (d *decoder) unescape() ([]byte, error) {
	b := d.data
	i := d.pos + 1
	out := d.scratch[:0]
	for {
		j := i
		var or byte
		for j < len(b) && !strStop[b[j]] {
			or |= b[j]
			j++
		}
		if or < 0x80 || utf8.Valid(b[i:j]) {
			out = append(out, b[i:j]...)
		} else {
			out = d.appendInvalid(out, b[i:j])
		}
		i = j
		if i >= len(b) {
			d.pos = i
			return nil, d.errorf(endValue)
		}
		c := b[i]
		if c == '"' {
			d.pos = i + 1
			d.scratch = out
			return out, nil
		}
		if c < 0x20 {
			d.pos = i
			return nil, d.errorf(fmt.Sprintf("control character %U in a string (it must be escaped)", c))
		}
		// a backslash
		if i+1 >= len(b) {
			d.pos = i
			return nil, d.errorf(endValue)
		}
		i++
		if e, ok := jsonl.Unescape(b[i]); ok {
			out = append(out, e)
			i++
			continue
		}
		switch b[i] {
		case 'u':
			r, ok := hex4(b, i+1)
			if !ok {
				d.pos = i - 1
				return nil, d.badEscape()
			}
			i += 4
			switch {
			case r < 0x80:
				out = append(out, byte(r))
			case r < 0x800:
				out = append(out, byte(0xC0|r>>6), byte(0x80|r&0x3F))
			case utf16.IsSurrogate(r):
				r2, ok := rune(0), false
				if i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
					r2, ok = hex4(b, i+3)
				}
				if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
					d.exact = false
				}
				out = utf8.AppendRune(out, r)
			default:
				out = append(out, byte(0xE0|r>>12), byte(0x80|r>>6&0x3F), byte(0x80|r&0x3F))
			}
		default:
			d.pos = i - 1
			return nil, d.badEscape()
		}
		i++
	}
}

// skipString checks the string at the current position as unescape
// does, with the same errors at the same places, without writing it out.
func (d *decoder) skipString() error {
	b := d.data
	i := d.pos + 1
	for {
		// Past the plain text and the escapes \", \n, \t, \r, \b, \f
		// and \u (not of a surrogate), which are valid as they are.
		i, _, _ = swar.StringStopEsc(b, i)
		if i < len(b) && b[i] >= 0x80 {
			if r, n := utf8.DecodeRune(b[i:]); r == utf8.RuneError && n == 1 {
				d.exact = false
				i++
			} else {
				i += n
			}
			continue
		}
		if i >= len(b) {
			d.pos = i
			return d.errorf(endValue)
		}
		c := b[i]
		if c == '"' {
			d.pos = i + 1
			return nil
		}
		if c < 0x20 {
			d.pos = i
			return d.errorf(fmt.Sprintf("control character %U in a string (it must be escaped)", c))
		}
		if i+1 >= len(b) {
			d.pos = i
			return d.errorf(endValue)
		}
		i++
		switch b[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			r, ok := hex4(b, i+1)
			if !ok {
				d.pos = i - 1
				return d.badEscape()
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok := rune(0), false
				if i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
					r2, ok = hex4(b, i+3)
				}
				if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
					i += 6
				} else {
					d.exact = false
				}
			}
		default:
			d.pos = i - 1
			return d.badEscape()
		}
		i++
	}
}

// appendInvalid appends text with invalid UTF-8, each bad byte replaced.
func (d *decoder) appendInvalid(out, text []byte) []byte {
	d.exact = false
	for len(text) > 0 {
		r, size := utf8.DecodeRune(text)
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, text[:size]...)
		}
		text = text[size:]
	}
	return out
}

var hexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c - 'a' + 10)
		t[c-'a'+'A'] = byte(c - 'a' + 10)
	}
	return t
}()

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	h := b[i : i+4]
	v0, v1, v2, v3 := hexVal[h[0]], hexVal[h[1]], hexVal[h[2]], hexVal[h[3]]
	if (v0|v1|v2|v3)&0xF0 != 0 {
		return 0, false
	}
	return rune(v0)<<12 | rune(v1)<<8 | rune(v2)<<4 | rune(v3), true
}
