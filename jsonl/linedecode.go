package jsonl

import (
	"fmt"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/internal/swar"
)

// The line policy, the same for every command:
//   - a line must be one JSON object, UTF-8, nested at most MaxDepth
//     levels (the object itself is level 1);
//   - positions are bytes of the line, counted from 1;
//   - the first problem from the left is the one reported;
//   - bare NaN, Infinity and -Infinity outside strings (Python writes
//     them) are read as null and listed in LineObject.NonFinite, for the
//     caller to warn about;
//   - of duplicate top-level keys the last wins; the first key seen twice
//     is in LineObject.Dup;
//   - the byte order mark is removed at the start of an input (Reader);
//     on any other line it is an error.

// LineError is why a line is not a JSON object. Its text reads
// "WHAT at byte N: DETAIL", e.g. "not valid JSON at byte 32: the line ends
// inside a value"; every command prints it after FILE:LINE: .
type LineError struct {
	What string // "not valid JSON", "invalid UTF-8" or "not a JSON object"
	// Byte is the position of the problem, counted from 1 (one past the
	// last byte when the line ends too early); 0 when the problem is the
	// line as a whole.
	Byte   int
	Detail string
}

func (e *LineError) Error() string {
	s := e.What
	if e.Byte > 0 {
		s += " at byte " + strconv.Itoa(e.Byte)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// reason is why the scanner stopped, kept to word the error; it costs
// nothing on a good line.
type reason uint8

const (
	rNone       reason = iota
	rEnd               // the line ends inside a value
	rUnexpected        // a byte that cannot come here
	rControl           // a control character inside a string
	rEscape            // a bad escape inside a string
	rUTF8              // invalid UTF-8
	rDepth             // nested too deep
	rTrailing          // something after the value
)

// Decoder checks lines and splits their top-level objects, in one pass and
// without decoding strings. Its zero value is ready; it is not safe for
// concurrent use.
type Decoder struct {
	stack []byte // open containers below the top level
	why   reason
	at    int // index of the problem
}

// Decode checks line b and splits it into o (which is reused). b must stay
// unchanged while o is used: o's values point into it, unless NaN was
// repaired. A blank line is an error; callers skip blank lines first.
func (d *Decoder) Decode(b []byte, o *LineObject) *LineError {
	raw := unsafe.String(unsafe.SliceData(b), len(b))
	o.reset(raw)
	defer o.seal()
	valid, object := d.line(b, raw, o)
	if !valid {
		first := d.error(b)
		if d.why == rUTF8 || d.why == rDepth {
			return first
		}
		fixed, n := ReplaceNonFinite(b, func(dst []byte, tok string, _ int) []byte {
			o.NonFinite = append(o.NonFinite, tok)
			return append(dst, "null"...)
		})
		if n == 0 {
			return first
		}
		tokens := o.NonFinite
		o.reset(string(fixed))
		if valid, object = d.line(fixed, o.Raw, o); !valid {
			o.NonFinite = tokens[:0]
			return first
		}
		o.NonFinite = tokens
	}
	if !object {
		return &LineError{What: "not a JSON object", Detail: describe(b)}
	}
	return nil
}

// error words the problem the scanner stopped at.
func (d *Decoder) error(b []byte) *LineError {
	at := d.at
	e := &LineError{What: "not valid JSON", Byte: at + 1}
	switch d.why {
	case rEnd:
		e.Detail = "the line ends inside a value"
	case rControl:
		e.Detail = fmt.Sprintf("control character %U in a string (it must be escaped)", b[at])
	case rEscape:
		e.Detail = "invalid escape " + quoteBytes(b[at:min(at+6, len(b))]) + " in a string"
	case rUTF8:
		e.What = "invalid UTF-8"
	case rDepth:
		e.Detail = fmt.Sprintf("nested deeper than %d levels", MaxDepth)
	case rTrailing:
		e.Detail = QuoteChar(b, at) + " after the end of the value"
	default:
		if r, n := utf8.DecodeRune(b[at:]); r == utf8.RuneError && n == 1 {
			e.What, e.Detail = "invalid UTF-8", ""
		} else if at == 0 && len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
			e.Detail = "a byte order mark, allowed only at the start of the input"
		} else {
			e.Detail = "unexpected " + QuoteChar(b, at)
		}
	}
	return e
}

func quoteBytes(b []byte) string { return strconv.QuoteToASCII(string(b)) }

// describe names the kind of JSON value a valid line holds.
func describe(b []byte) string {
	switch b[skipSpace(b, 0)] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// failAt fails at i: the line ended, or an unexpected byte.
func (d *Decoder) failAt(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return d.fail(i, rEnd)
	}
	return d.fail(i, rUnexpected)
}

func (d *Decoder) fail(i int, why reason) (int, bool) {
	d.at, d.why = i, why
	return i, false
}

// line scans b (raw is the same bytes as a string). valid reports JSON;
// object that it is an object, whose members are then in o.
func (d *Decoder) line(b []byte, raw string, o *LineObject) (valid, object bool) {
	d.why = rNone
	i := skipSpace(b, 0)
	if i < len(b) && b[i] == '{' {
		i, valid = d.members(b, raw, i+1, o)
		object = valid
	} else {
		i, valid = d.value(b, i, 0)
	}
	if !valid {
		return false, false
	}
	if i = skipSpace(b, i); i != len(b) {
		d.fail(i, rTrailing)
		return false, false
	}
	return true, object
}

// members scans the top-level object from after its '{'.
func (d *Decoder) members(b []byte, raw string, i int, o *LineObject) (int, bool) {
	i = skipSpace(b, i)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) {
			return d.fail(i, rEnd)
		}
		if b[i] != '"' {
			return d.fail(i, rUnexpected)
		}
		end, esc, why := scanString(b, i)
		if why != rNone {
			return d.fail(end, why)
		}
		var m LineMember
		if esc {
			m.Key = gjson.Parse(raw[i:end]).Str
		} else {
			m.Key = raw[i+1 : end-1]
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return d.failAt(b, i)
		}
		i = skipSpace(b, i+1)
		start := i
		if i >= len(b) {
			return d.fail(i, rEnd)
		}
		c := b[i]
		if c == '"' {
			if end, m.esc, why = scanString(b, i); why != rNone {
				return d.fail(end, why)
			}
			i = end
			m.raw, m.typ = raw[start:i], gjson.String
		} else {
			var ok bool
			if i, ok = d.value(b, i, 1); !ok {
				return i, false
			}
			m.raw, m.typ = raw[start:i], TypeOf(c)
		}
		o.put(&m, true)
		i = skipSpace(b, i)
		if i >= len(b) {
			return d.fail(i, rEnd)
		}
		switch b[i] {
		case '}':
			return i + 1, true
		case ',':
			i = skipSpace(b, i+1)
		default:
			return d.fail(i, rUnexpected)
		}
	}
}

// value scans one JSON value starting at or after i (after white space),
// nested in depth containers, and returns the index just past it.
func (d *Decoder) value(b []byte, i, depth int) (int, bool) {
	stack := d.stack[:0]
	var ok bool
	for {
		// A value starts here.
		i = skipSpace(b, i)
		if i >= len(b) {
			return d.fail(i, rEnd)
		}
		switch c := b[i]; c {
		case '{', '[':
			if depth+len(stack) >= MaxDepth {
				return d.fail(i, rDepth)
			}
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				i++
				break
			}
			stack = append(stack, c)
			if c == '{' {
				if i, ok = d.key(b, i); !ok {
					return i, false
				}
			}
			continue
		case '"':
			var why reason
			if i, _, why = scanString(b, i); why != rNone {
				return d.fail(i, why)
			}
		case 't':
			if !hasAt(b, i, "true") {
				return d.fail(i, rUnexpected)
			}
			i += 4
		case 'f':
			if !hasAt(b, i, "false") {
				return d.fail(i, rUnexpected)
			}
			i += 5
		case 'n':
			if !hasAt(b, i, "null") {
				return d.fail(i, rUnexpected)
			}
			i += 4
		default:
			if i, ok = d.number(b, i); !ok {
				return i, false
			}
		}
		// A value ended: close containers until one goes on.
		for {
			if len(stack) == 0 {
				d.stack = stack // keep what it grew to
				return i, true
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return d.fail(i, rEnd)
			}
			top := stack[len(stack)-1]
			if b[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if b[i] != ',' {
				return d.fail(i, rUnexpected)
			}
			i++
			if top == '{' {
				if i, ok = d.key(b, skipSpace(b, i)); !ok {
					return i, false
				}
			}
			break
		}
	}
}

// key scans `"name" :` at i and returns the index after the colon.
func (d *Decoder) key(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return d.failAt(b, i)
	}
	i, _, why := scanString(b, i)
	if why != rNone {
		return d.fail(i, why)
	}
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return d.failAt(b, i)
	}
	return i + 1, true
}

func hasAt(b []byte, i int, lit string) bool {
	return len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanString validates the JSON string opening at i and returns the index
// just past its closing quote and whether it holds escapes; or the index
// of the problem and why.
func scanString(b []byte, i int) (end int, esc bool, why reason) {
	i++
	for {
		// Past the plain text and the escapes valid as they are: all but
		// \\, \/ and the \u of a surrogate or with a bad digit.
		j, e, _ := swar.StringStopEsc(b, i)
		i, esc = j, esc || e
		if i >= len(b) {
			return i, esc, rEnd
		}
		if b[i] < 0x20 {
			return i, esc, rControl
		}
		if b[i] >= 0x80 {
			// Non-ASCII can only be valid inside strings: the line's
			// UTF-8 is checked here, in the same pass.
			n := utf8Len(b, i)
			if n == 0 {
				return i, esc, rUTF8
			}
			i += n
			continue
		}
		if b[i] == '"' {
			return i + 1, esc, rNone
		}
		esc = true
		if i+1 >= len(b) {
			return i + 1, esc, rEnd
		}
		switch b[i+1] {
		case '"', '\\', 'b', 'f', 'n', 'r', 't':
			i += 2
		case '/':
			i += 2
		case 'u':
			for k := 2; k < 6; k++ {
				if i+k >= len(b) {
					return i + k, esc, rEnd
				}
				if !isHex(b[i+k]) {
					return i, esc, rEscape
				}
			}
			i += 6
		default:
			return i, esc, rEscape
		}
	}
}

// utf8Len is the length of the valid UTF-8 sequence at b[i] (not ASCII),
// 0 when there is none: two- and three-byte ones decided here, the rest
// by utf8.DecodeRune.
func utf8Len(b []byte, i int) int {
	c := b[i]
	switch {
	case c >= 0xC2 && c < 0xE0 && i+1 < len(b) && b[i+1]&0xC0 == 0x80:
		return 2
	case c&0xF0 == 0xE0 && i+2 < len(b) && b[i+1]&0xC0 == 0x80 && b[i+2]&0xC0 == 0x80:
		r := rune(c&0x0F)<<12 | rune(b[i+1]&0x3F)<<6 | rune(b[i+2]&0x3F)
		if r >= 0x800 && (r < 0xD800 || r > 0xDFFF) {
			return 3
		}
		return 0
	}
	r, n := utf8.DecodeRune(b[i:])
	if r == utf8.RuneError && n == 1 {
		return 0
	}
	return n
}

// number scans a JSON number at i (validNumber), and where it stops
// short of a digit the number needs, says why (digit).
func (d *Decoder) number(b []byte, i int) (int, bool) {
	j, ok := validNumber(b, i)
	if !ok {
		return d.digit(b, j)
	}
	return j, true
}

// digit checks that a digit is at i.
func (d *Decoder) digit(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return d.fail(i, rEnd)
	}
	if b[i] < '0' || b[i] > '9' {
		return d.fail(i, rUnexpected)
	}
	return i, true
}
