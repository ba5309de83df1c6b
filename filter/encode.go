package filter

import (
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strconv"
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
}

func (e *encoder) append(dst []byte, v any) []byte {
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
