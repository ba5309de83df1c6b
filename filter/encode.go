package filter

import (
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zevo/zevo/jsonl"
)

// encoder writes values as jq does with -c: no white space, object keys
// sorted (gojq's maps keep no order), numbers as spelled in the input
// when they come from it. Its key slices are reused.
type encoder struct {
	ascii bool       // escape every non-ASCII character (-a)
	keys  [][]string // per nesting depth
	depth int
	// indent is one level of indentation of the multi-line layout; nil
	// writes compact.
	indent []byte
	pal    *Palette // colours; nil: none
}

// newEncoder returns the encoder of results written as o says.
func newEncoder(o *Output) encoder {
	e := encoder{ascii: o.ASCII, pal: o.Colors}
	switch {
	case !o.Pretty:
	case o.Tab:
		e.indent = []byte{'\t'}
	default:
		e.indent = []byte(strings.Repeat(" ", o.Indent))
	}
	return e
}

// plain is the compact layout without colours.
func (e *encoder) plain() bool { return e.indent == nil && e.pal == nil }

func (e *encoder) append(dst []byte, v any) []byte {
	if !e.plain() {
		return e.appendStyled(dst, v, 0)
	}
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		if v {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case int:
		return strconv.AppendInt(dst, int64(v), 10)
	case json.Number:
		return append(dst, v...)
	case float64:
		return appendFloat(dst, v)
	case *big.Int:
		return v.Append(dst, 10)
	case string:
		return appendString(dst, v, e.ascii)
	case []any:
		dst = append(dst, '[')
		for i, x := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = e.append(dst, x)
		}
		return append(dst, ']')
	case map[string]any:
		if e.depth == len(e.keys) {
			e.keys = append(e.keys, nil)
		}
		keys := e.keys[e.depth][:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		e.keys[e.depth] = keys
		e.depth++
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, k, e.ascii)
			dst = append(dst, ':')
			dst = e.append(dst, v[k])
		}
		e.depth--
		clear(keys) // let the strings go
		return append(dst, '}')
	default:
		// gojq produces only the types above; anything else is a bug
		// in a custom function, shown rather than dropped.
		return appendString(dst, "<unsupported value>", e.ascii)
	}
}

// appendFloat formats f as jq does: integers without a fraction, the
// shortest spelling that reads back the same, NaN as null and the
// infinities as the largest finite doubles.
func appendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "null"...)
	case math.IsInf(f, 1):
		f = math.MaxFloat64
	case math.IsInf(f, -1):
		f = -math.MaxFloat64
	}
	if f == 0 && math.Signbit(f) {
		return append(dst, "-0"...)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e17 {
		return strconv.AppendInt(dst, int64(f), 10)
	}
	if a := math.Abs(f); a >= 1e-5 && a < 1e17 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	return strconv.AppendFloat(dst, f, 'e', -1, 64)
}

const hexDigits = "0123456789abcdef"

// mustEscape marks the bytes jq escapes in valid UTF-8.
var mustEscape = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'], t[0x7f] = true, true, true
	return t
}()

// appendString writes s as a JSON string the way jq does: only ", \ and
// control characters (and DEL) escaped, invalid UTF-8 replaced by U+FFFD;
// with ascii, every non-ASCII character as \uXXXX.
func appendString(dst []byte, s string, ascii bool) []byte {
	if ascii || !utf8.ValidString(s) {
		return appendStringSlow(dst, s, ascii)
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !mustEscape[c] {
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendEscape(dst, c)
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// appendStringSlow is appendString for invalid UTF-8 or ASCII output.
func appendStringSlow(dst []byte, s string, ascii bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x7f {
			i++
			continue
		}
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				if ascii {
					dst = append(dst, `\ufffd`...)
				} else {
					dst = append(dst, "\uFFFD"...)
				}
				i++
				start = i
				continue
			}
			if ascii {
				dst = append(dst, s[start:i]...)
				dst = jsonl.AppendRuneEscape(dst, r)
				i += size
				start = i
				continue
			}
			i += size
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendEscape(dst, c)
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// col starts colour k, when colouring.
func (e *encoder) col(dst []byte, k int) []byte {
	if e.pal == nil {
		return dst
	}
	return append(dst, e.pal[k]...)
}

func (e *encoder) reset(dst []byte) []byte {
	if e.pal == nil {
		return dst
	}
	return append(dst, colReset...)
}

// newline starts a line at nesting level, in the multi-line layout.
func (e *encoder) newline(dst []byte, level int) []byte {
	if e.indent == nil {
		return dst
	}
	dst = append(dst, '\n')
	for range level {
		dst = append(dst, e.indent...)
	}
	return dst
}

// The container layout, as jq 1.7 writes it: "[" (coloured) and a new
// line; elements separated by "," and a new line, the container's colour
// set again after each; a new line and "]". An object's key is written
// in the key colour and its colon in the object's. Without colours and
// indentation this is the compact layout.

func (e *encoder) open(dst []byte, k int, c byte, level int) []byte {
	return e.newline(append(e.col(dst, k), c), level+1)
}

func (e *encoder) sep(dst []byte, i, level int) []byte {
	if i == 0 {
		return dst
	}
	return e.newline(append(dst, ','), level+1)
}

func (e *encoder) key(dst, text []byte) []byte {
	dst = append(e.col(e.reset(dst), colKey), text...)
	dst = append(e.col(e.reset(dst), colObject), ':')
	if e.indent != nil {
		dst = append(dst, ' ')
	}
	return e.reset(dst)
}

func (e *encoder) close(dst []byte, k int, c byte, level int) []byte {
	dst = e.newline(dst, level)
	return e.reset(append(e.col(dst, k), c))
}

// appendStyled writes v in the multi-line layout or with colours.
func (e *encoder) appendStyled(dst []byte, v any, level int) []byte {
	switch v := v.(type) {
	case nil:
		return e.reset(append(e.col(dst, colNull), "null"...))
	case bool:
		if v {
			return e.reset(append(e.col(dst, colTrue), "true"...))
		}
		return e.reset(append(e.col(dst, colFalse), "false"...))
	case float64:
		if math.IsNaN(v) {
			return e.appendStyled(dst, nil, level)
		}
		return e.reset(appendFloat(e.col(dst, colNumber), v))
	case int, json.Number, *big.Int:
		dst = e.col(dst, colNumber)
		pal, ind := e.pal, e.indent
		e.pal, e.indent = nil, nil
		dst = e.append(dst, v)
		e.pal, e.indent = pal, ind
		return e.reset(dst)
	case string:
		return e.reset(appendString(e.col(dst, colString), v, e.ascii))
	case []any:
		if len(v) == 0 {
			return e.reset(append(e.col(dst, colArray), "[]"...))
		}
		dst = e.open(dst, colArray, '[', level)
		for i, x := range v {
			dst = e.sep(dst, i, level)
			dst = e.appendStyled(dst, x, level+1)
			dst = e.col(dst, colArray)
		}
		return e.close(dst, colArray, ']', level)
	case map[string]any:
		if len(v) == 0 {
			return e.reset(append(e.col(dst, colObject), "{}"...))
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = e.open(dst, colObject, '{', level)
		var kb []byte
		for i, k := range keys {
			dst = e.sep(dst, i, level)
			kb = appendString(kb[:0], k, e.ascii)
			dst = e.key(dst, kb)
			dst = e.appendStyled(dst, v[k], level+1)
			dst = e.col(dst, colObject)
		}
		return e.close(dst, colObject, '}', level)
	}
	return appendString(dst, "<unsupported value>", e.ascii)
}

// appendText writes the valid JSON text b in the encoder's layout,
// keeping its key order and the spelling of its strings and numbers.
func (e *encoder) appendText(dst, b []byte) []byte {
	dst, _ = e.text(dst, b, 0, 0)
	return dst
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index after the string starting at b[i].
func stringEnd(b []byte, i int) int {
	for i++; i < len(b) && b[i] != '"'; i++ {
		if b[i] == '\\' {
			i++
		}
	}
	return min(i+1, len(b))
}

// text writes the value at b[i] at nesting level and returns the index
// after it.
func (e *encoder) text(dst, b []byte, i, level int) ([]byte, int) {
	i = skipWS(b, i)
	if i >= len(b) {
		return dst, i
	}
	switch c := b[i]; c {
	case '{', '[':
		k, end := colObject, byte('}')
		if c == '[' {
			k, end = colArray, ']'
		}
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == end {
			dst = e.reset(append(e.col(dst, k), c, end))
			return dst, i + 1
		}
		dst = e.open(dst, k, c, level)
		for n := 0; i < len(b); n++ {
			dst = e.sep(dst, n, level)
			if c == '{' {
				i = skipWS(b, i)
				j := stringEnd(b, i)
				dst = e.key(dst, b[i:j])
				i = skipWS(b, j) + 1 // the colon
			}
			dst, i = e.text(dst, b, i, level+1)
			dst = e.col(dst, k)
			i = skipWS(b, i)
			if i >= len(b) || b[i] != ',' {
				break
			}
			i++
		}
		return e.close(dst, k, end, level), i + 1
	case '"':
		j := stringEnd(b, i)
		return e.reset(append(e.col(dst, colString), b[i:j]...)), j
	}
	j := i
	for j < len(b) && !strings.ContainsRune(" \t\r\n,]}", rune(b[j])) {
		j++
	}
	k := colNumber
	switch b[i] {
	case 'n':
		k = colNull
	case 't':
		k = colTrue
	case 'f':
		k = colFalse
	}
	return e.reset(append(e.col(dst, k), b[i:j]...)), j
}
