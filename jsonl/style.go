package jsonl

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/zevo/zevo/internal/swar"
	"github.com/zevo/zevo/redact"
)

// Style is the serialization of one producer, so that zevo's output reads
// like the real thing.
type Style uint8

const (
	// GoStyle is Go's encoding/json (Zero): no spaces, <, > and & escaped
	// as \u003c, \u003e, \u0026, U+2028 and U+2029 escaped, other non-ASCII
	// written as UTF-8.
	GoStyle Style = iota
	// PythonStyle is Python's json.dumps defaults (EvoScientist): ", " and
	// ": " separators, every non-ASCII character escaped as \uXXXX.
	PythonStyle
)

// MaxDepth is the deepest nesting of arrays and objects a value may have.
const MaxDepth = 10000

// ErrDepth reports a value nested deeper than MaxDepth.
var ErrDepth = errors.New("JSON nested deeper than 10000 levels")

var errSyntax = errors.New("malformed JSON value")

// AppendValue appends the JSON value raw to dst in style st, with
// white space removed and separators of the style. Escapes already in raw
// are kept as they are, so the value is unchanged. With rd not nil, rd's
// redaction is applied: values under sensitive keys become "[REDACTED]",
// secrets inside strings are replaced.
func AppendValue(dst, raw []byte, st Style, rd *redact.Redactor) ([]byte, error) {
	return appendValue(dst, raw, st, rd, true)
}

// appendValue is AppendValue; with oneScan, a string value is restyled
// while its end is found and, with rd, taken back and redacted only when
// rd may change it, instead of finding its end first (the plain path,
// kept for tests of this one).
func appendValue(dst, raw []byte, st Style, rd *redact.Redactor, oneScan bool) ([]byte, error) {
	var stackBuf [64]byte
	stack := stackBuf[:0] // '{' or '[' per open container
	expectKey := false
	i := 0
	for i < len(raw) {
		c := raw[i]
		switch c {
		case ' ', '\t', '\r', '\n':
			i++
		case '{', '[':
			if len(stack) >= MaxDepth {
				return dst, ErrDepth
			}
			stack = append(stack, c)
			dst = append(dst, c)
			expectKey = c == '{'
			i++
		case '}', ']':
			if len(stack) == 0 {
				return dst, errSyntax
			}
			stack = stack[:len(stack)-1]
			dst = append(dst, c)
			expectKey = false
			i++
		case ',':
			if st == PythonStyle {
				dst = append(dst, ',', ' ')
			} else {
				dst = append(dst, ',')
			}
			expectKey = len(stack) > 0 && stack[len(stack)-1] == '{'
			i++
		case ':':
			if st == PythonStyle {
				dst = append(dst, ':', ' ')
			} else {
				dst = append(dst, ':')
			}
			i++
		case '"':
			if !expectKey && (rd == nil || oneScan) {
				// The common case: restyle while looking for the end.
				mark := len(dst)
				dst = append(dst, '"')
				var end int
				if dst, end = restyle(dst, raw, i+1, st); end >= len(raw) {
					return dst, errSyntax
				}
				if rd == nil || !rd.MayMatch(raw[i+1:end]) {
					dst = append(dst, '"')
					i = end + 1
					continue
				}
				dst = dst[:mark] // a secret may be here: the path below
			}
			end, err := stringEnd(raw, i)
			if err != nil {
				return dst, err
			}
			body := raw[i+1 : end]
			i = end + 1
			if expectKey {
				expectKey = false
				dst = appendStringBody(dst, body, st)
				if rd != nil && keyIsSensitive(body) {
					// Write the separator, the marker, and skip the value.
					for i < len(raw) && raw[i] != ':' {
						i++
					}
					if i == len(raw) {
						return dst, errSyntax
					}
					i++
					next, err := skipValue(raw, i)
					if err != nil {
						return dst, err
					}
					i = next
					if st == PythonStyle {
						dst = append(dst, ':', ' ')
					} else {
						dst = append(dst, ':')
					}
					dst = append(dst, `"`+redact.Marker+`"`...)
				}
				continue
			}
			if rd != nil && rd.MayMatch(body) {
				s, ok := decodeBody(body)
				if ok {
					if r := rd.String(s); r != s {
						dst = AppendString(dst, r, st)
						continue
					}
				}
			}
			dst = appendStringBody(dst, body, st)
		default:
			// number or literal: copy up to the next delimiter
			j := i
			for j < len(raw) {
				b := raw[j]
				if b == ',' || b == '}' || b == ']' || b == ':' || b == ' ' || b == '\t' || b == '\r' || b == '\n' || b == '"' {
					break
				}
				j++
			}
			if j == i {
				return dst, errSyntax
			}
			dst = append(dst, raw[i:j]...)
			i = j
		}
	}
	if len(stack) != 0 {
		return dst, errSyntax
	}
	return dst, nil
}

// Unchanged reports, for raw holding one JSON value, whether AppendValue
// would write it exactly as it is: true only for a string with nothing the
// style re-spells and, with rd, nothing to redact. It lets a large value be
// copied as it is, without first building its restyled form.
func Unchanged(raw []byte, st Style, rd *redact.Redactor) bool {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return false
	}
	body := raw[1 : len(raw)-1]
	for i := 0; i < len(body); i += 2 {
		if st == GoStyle {
			i = swar.SkipGoEsc(body, i)
		} else {
			i = swar.SkipPythonEsc(body, i)
		}
		if i >= len(body) {
			break
		}
		// Only escapes other than \u and \/ are copied as they are.
		if body[i] != '\\' || i+1 >= len(body) || body[i+1] == 'u' || body[i+1] == '/' {
			return false
		}
	}
	return oneString(body) && (rd == nil || !rd.MayMatch(body))
}

// oneString reports whether body, between two quotes, has no quote of its
// own that is not escaped.
func oneString(body []byte) bool {
	for i := 0; ; i += 2 {
		i = swar.QuoteOrBackslash(body, i)
		if i >= len(body) {
			return true
		}
		if body[i] == '"' {
			return false
		}
	}
}

// stringEnd returns the index of the closing quote of the string opening at i.
func stringEnd(raw []byte, i int) (int, error) {
	for j := i + 1; ; j += 2 {
		j = swar.QuoteOrBackslash(raw, j)
		if j >= len(raw) {
			return 0, errSyntax
		}
		if raw[j] == '"' {
			return j, nil
		}
	}
}

// skipValue returns the index just past the JSON value starting at or after i.
func skipValue(raw []byte, i int) (int, error) {
	depth := 0
	for i < len(raw) {
		switch raw[i] {
		case ' ', '\t', '\r', '\n':
			i++
			continue
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		case '"':
			end, err := stringEnd(raw, i)
			if err != nil {
				return 0, err
			}
			i = end + 1
		case ',', ':':
			if depth == 0 {
				return i, nil
			}
			i++
			continue
		default:
			for i < len(raw) && raw[i] != ',' && raw[i] != '}' && raw[i] != ']' && raw[i] != ' ' && raw[i] != '\n' && raw[i] != '\t' && raw[i] != '\r' {
				i++
			}
		}
		if depth <= 0 {
			if depth < 0 {
				return 0, errSyntax
			}
			return i, nil
		}
	}
	return 0, errSyntax
}

func keyIsSensitive(body []byte) bool {
	for _, c := range body {
		if c == '\\' {
			s, ok := decodeBody(body)
			return ok && redact.SensitiveKey(s)
		}
	}
	return redact.SensitiveKey(string(body))
}

// decodeBody decodes a JSON string body (between the quotes).
func decodeBody(body []byte) (string, bool) {
	plain := true
	for _, c := range body {
		if c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return string(body), true
	}
	q := make([]byte, 0, len(body)+2)
	q = append(q, '"')
	q = append(q, body...)
	q = append(q, '"')
	var s string
	if err := json.Unmarshal(q, &s); err != nil {
		return "", false
	}
	return s, true
}

// DecodeString decodes a JSON string literal (with its quotes).
func DecodeString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	return decodeBody(raw[1 : len(raw)-1])
}

const hexDigits = "0123456789abcdef"

// appendStringBody appends the raw JSON string body, quoted, re-escaped to
// the style where the style escapes more than the source did.
func appendStringBody(dst, body []byte, st Style) []byte {
	dst = append(dst, '"')
	dst, _ = restyle(dst, body, 0, st)
	return append(dst, '"')
}

// restyle appends b from i up to the first '"' that is not escaped (or the
// end of b), re-escaped to the style, and returns the index it stopped at.
func restyle(dst, body []byte, i int, st Style) ([]byte, int) {
	start := i
	for i < len(body) {
		if st == PythonStyle && len(body)-i >= restyleBlocks {
			// Long text: sixteen bytes at a time and its common stops
			// without a return here; this loop reads the rest.
			dst = append(dst, body[start:i]...)
			if cap(dst)-len(dst) < restyleBlocks {
				dst = slices.Grow(dst, len(body)-i+restyleBlocks)
			}
			dst, i = swar.RestylePython(dst, body, i)
			if start = i; i >= len(body) {
				break
			}
		}
		// Past a stop the next byte is often another: the '\\' of the
		// next escape (Go's \u003chtml\u003e\n) or of a run of non-ASCII
		// text. It is looked at here, not by a call to the scanner.
		if c := body[i]; c != '\\' && c < 0x7f {
			if st == GoStyle {
				i = swar.SkipGoEsc(body, i)
			} else {
				i = swar.SkipPythonEsc(body, i)
			}
			if i >= len(body) {
				break
			}
		}
		c := body[i]
		if c == '"' {
			break
		}
		if c == '\\' {
			if i+1 >= len(body) {
				i = len(body)
				break
			}
			if body[i+1] != 'u' && body[i+1] != '/' {
				i += 2
				continue
			}
			// Re-spell \/ and \uXXXX as the target's encoder would write
			// the character; the value is unchanged. A \u that is not
			// the first half of a surrogate pair is read here, the rest
			// by decodeEscape.
			var r rune
			n := 0
			if body[i+1] == 'u' && i+6 <= len(body) {
				if v, ok := swar.Hex4(body, i+2); ok && (v < 0xD800 || v >= 0xDC00) {
					r, n = v, 6
				}
			}
			if n == 0 {
				if r, n = decodeEscape(body[i:]); n == 0 {
					i += 2
					continue
				}
			}
			switch {
			case r >= 0x20 && r < 0x7f && r != '"' && r != '\\' && (st == PythonStyle || (r != '<' && r != '>' && r != '&')):
				dst = append(dst, body[start:i]...)
				dst = append(dst, byte(r))
			case st == GoStyle && r >= 0x80 && r != 0x2028 && r != 0x2029 && utf8.ValidRune(r):
				dst = append(dst, body[start:i]...)
				dst = utf8.AppendRune(dst, r)
			default:
				i += n
				continue
			}
			i += n
			start = i
			continue
		}
		if st == GoStyle {
			switch {
			case c == '<' || c == '>' || c == '&':
				dst = append(dst, body[start:i]...)
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
				i++
				start = i
			case c == 0xE2 && i+2 < len(body) && body[i+1] == 0x80 && (body[i+2] == 0xA8 || body[i+2] == 0xA9):
				dst = append(dst, body[start:i]...)
				dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[body[i+2]&0xF])
				i += 3
				start = i
			default:
				i++
			}
			continue
		}
		if c < 0x7f {
			i++
			continue
		}
		dst = append(dst, body[start:i]...)
		r, size := rune(c), 1
		if c >= 0x80 {
			r, size = decodeRune(body, i)
		}
		dst = AppendRuneEscape(dst, r)
		i += size
		start = i
	}
	if i > len(body) {
		i = len(body)
	}
	return append(dst, body[start:i]...), i
}

// restyleBlocks is the length of text from which restyle hands it to
// swar.RestylePython, and the room it makes for it.
const restyleBlocks = 32

// decodeRune is utf8.DecodeRune(b[i:]) for b[i] >= 0x80, with the two-
// and three-byte forms (all of the text's non-ASCII but emoji) read here.
func decodeRune(b []byte, i int) (rune, int) {
	c := b[i]
	switch {
	case c >= 0xC2 && c < 0xE0 && i+1 < len(b) && b[i+1]&0xC0 == 0x80:
		return rune(c&0x1F)<<6 | rune(b[i+1]&0x3F), 2
	case c&0xF0 == 0xE0 && i+2 < len(b) && b[i+1]&0xC0 == 0x80 && b[i+2]&0xC0 == 0x80:
		r := rune(c&0x0F)<<12 | rune(b[i+1]&0x3F)<<6 | rune(b[i+2]&0x3F)
		if r >= 0x800 && (r < 0xD800 || r > 0xDFFF) {
			return r, 3
		}
	}
	return utf8.DecodeRune(b[i:])
}

// surrogateAt is the surrogate whose WTF-8 bytes are at s[i]
// (AppendUnescapedKeep's), and 3; 0, 0 when there is none.
func surrogateAt(s string, i int) (rune, int) {
	if i+2 < len(s) && s[i] == 0xED && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80 {
		return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), 3
	}
	return 0, 0
}

// decodeEscape decodes the escape at the start of b (\/ or \uXXXX, a
// surrogate pair as one rune) and returns the rune and the bytes it took;
// n is 0 when b holds no such escape. A lone surrogate is returned as is,
// so the caller keeps its spelling.
func decodeEscape(b []byte) (r rune, n int) {
	if len(b) >= 2 && b[1] == '/' {
		return '/', 2
	}
	r, ok := hex4(b)
	if !ok {
		return 0, 0
	}
	if r >= 0xD800 && r < 0xDC00 {
		if lo, ok := hex4(b[6:]); ok && lo >= 0xDC00 && lo < 0xE000 {
			return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), 12
		}
		return r, 6
	}
	return r, 6
}

// hex4 reads \uXXXX at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	return swar.Hex4(b, 2)
}

// AppendRuneEscape appends r as \uXXXX, a surrogate pair above the BMP,
// as Python's json.dumps (and jq -a) spell non-ASCII characters.
func AppendRuneEscape(dst []byte, r rune) []byte {
	if r >= 0x10000 {
		r -= 0x10000
		dst = appendU4(dst, 0xD800+(r>>10))
		return appendU4(dst, 0xDC00+(r&0x3FF))
	}
	return appendU4(dst, r)
}

func appendU4(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
}

// AppendString appends s as a JSON string in style st.
func AppendString(dst []byte, s string, st Style) []byte {
	return appendString(dst, s, st, true)
}

// appendString is AppendString; with skip, runs of bytes written as they
// are are found eight at a time (appendWords; without, byte by byte: the
// plain path, kept for tests of the other).
func appendString(dst []byte, s string, st Style, skip bool) []byte {
	if skip {
		return appendWords(dst, s, st)
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		var esc string
		switch {
		case c == '"':
			esc = `\"`
		case c == '\\':
			esc = `\\`
		case c == '\n':
			esc = `\n`
		case c == '\r':
			esc = `\r`
		case c == '\t':
			esc = `\t`
		case c == '\b':
			esc = `\b`
		case c == '\f':
			esc = `\f`
		case c < 0x20 || (st == GoStyle && (c == '<' || c == '>' || c == '&')) || (st == PythonStyle && c == 0x7f):
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			i++
			start = i
			continue
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if st == PythonStyle || r == utf8.RuneError && size == 1 || r == 0x2028 || r == 0x2029 {
				dst = append(dst, s[start:i]...)
				if r == utf8.RuneError && size == 1 {
					// A lone surrogate kept (AppendUnescapedKeep) is
					// written as its escape, any other bad byte as U+FFFD.
					if r, size = surrogateAt(s, i); size == 0 {
						r, size = 0xFFFD, 1
					}
				}
				dst = AppendRuneEscape(dst, r)
				start = i + size
			}
			i += size
			continue
		default:
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = append(dst, esc...)
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendWords is appendString with skip. Most strings written are short
// (text deltas, ids, names) and most of their bytes are written as they
// are: each word of eight is stored in dst as it is tested, what follows
// a stop in it written over next, so that a run costs no copy of its own
// and no call to a scanner. A string's last bytes are the top of its
// last word, shifted down, followed by spaces (written as they are).
func appendWords(dst []byte, s string, st Style) []byte {
	dst = append(dst, '"')
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	n := len(b)
	for i := 0; i < n; {
		if n < 8 {
			// Too short for a word: byte by byte.
			plain := &goPlainByte
			if st == PythonStyle {
				plain = &pythonPlainByte
			}
			for i < n && b[i] < 0x80 && plain[b[i]] {
				dst = append(dst, b[i])
				i++
			}
		} else {
			for i < n {
				if cap(dst)-len(dst) < 8 {
					dst = slices.Grow(dst, n-i+8)
				}
				var x uint64
				r := n - i
				if r >= 8 {
					x, r = binary.LittleEndian.Uint64(b[i:]), 8
				} else {
					x = binary.LittleEndian.Uint64(b[n-8:])>>(64-8*r) | spaces<<(8*r)
				}
				w := len(dst)
				binary.LittleEndian.PutUint64(dst[w:w+8], x)
				var m uint64
				if st == PythonStyle {
					m = swar.MaskPlainPython(x)
				} else {
					m = swar.MaskPlainGo(x)
				}
				if m != 0 {
					// The first flagged byte is a stop, and one of s: the
					// spaces after s are flagged only past one.
					k := bits.TrailingZeros64(m) >> 3
					dst, i = dst[:w+k], i+k
					break
				}
				dst, i = dst[:w+r], i+r
			}
		}
		if i >= n {
			break
		}
		dst, i = appendStop(dst, s, i, st)
	}
	return append(dst, '"')
}

// spaces is a word of spaces.
const spaces = 0x2020202020202020

// appendStop appends the byte (or character) at s[i], one that style st
// does not write as it is, as appendString writes it, and returns the
// index past it.
func appendStop(dst []byte, s string, i int, st Style) ([]byte, int) {
	switch c := s[i]; {
	case c == '"':
		return append(dst, '\\', '"'), i + 1
	case c == '\\':
		return append(dst, '\\', '\\'), i + 1
	case c == '\n':
		return append(dst, '\\', 'n'), i + 1
	case c == '\r':
		return append(dst, '\\', 'r'), i + 1
	case c == '\t':
		return append(dst, '\\', 't'), i + 1
	case c == '\b':
		return append(dst, '\\', 'b'), i + 1
	case c == '\f':
		return append(dst, '\\', 'f'), i + 1
	case c < 0x80:
		// Another control character, Go's '<', '>' and '&', Python's 0x7f.
		return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF]), i + 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if st == PythonStyle || r == utf8.RuneError && size == 1 || r == 0x2028 || r == 0x2029 {
		if r == utf8.RuneError && size == 1 {
			// A lone surrogate kept (AppendUnescapedKeep) is written as
			// its escape, any other bad byte as U+FFFD.
			if r, size = surrogateAt(s, i); size == 0 {
				r, size = 0xFFFD, 1
			}
		}
		return AppendRuneEscape(dst, r), i + size
	}
	return append(dst, s[i:i+size]...), i + size
}

// goPlainByte and pythonPlainByte are the ASCII bytes each style writes
// as they are (swar.PlainGo's and swar.PlainPython's).
var goPlainByte, pythonPlainByte = func() (g, py [128]bool) {
	for c := 0x20; c < 0x80; c++ {
		g[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
		py[c] = c != '"' && c != '\\' && c != 0x7f
	}
	return
}()

// AppendInt appends n in decimal.
func AppendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// AppendUnescaped appends the text of body, the inside of a valid JSON
// string, with its escapes decoded. A \u escape of a surrogate that is not
// half of a pair becomes U+FFFD, as gjson and encoding/json decode it.
func AppendUnescaped(dst []byte, body string) []byte {
	return appendUnescaped(dst, body, false)
}

// AppendUnescapedKeep is AppendUnescaped, except that a lone surrogate
// is kept as the three bytes UTF-8's scheme gives it (WTF-8: no valid
// UTF-8), which AppendString writes back as its escape: a translation
// then loses nothing of such a string.
func AppendUnescapedKeep(dst []byte, body string) []byte {
	return appendUnescaped(dst, body, true)
}

func appendUnescaped(dst []byte, body string, keep bool) []byte {
	// The text is never longer than body: growing dst once, not append by
	// append, means no copy of all of it, which on a huge string is a
	// long stretch the scheduler cannot interrupt (copyPreemptible).
	// Plain text is copied a word at a time, whole words: what follows
	// a backslash in the word is written over next. The text written is
	// never longer than the body read, so a word at w fits when a word at
	// i is in the body.
	w := len(dst)
	dst = slices.Grow(dst, len(body))
	out := dst[:cap(dst)]
	n := len(body)
	for i := 0; i < n; {
		if i+8 <= n {
			x := *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.StringData(body)), i))
			*(*uint64)(unsafe.Pointer(&out[w])) = x
			v := x ^ 0x5c5c5c5c5c5c5c5c // a '\\' is a zero byte
			m := (v - 0x0101010101010101) &^ v & 0x8080808080808080
			if m == 0 {
				i, w = i+8, w+8
				continue
			}
			k := bits.TrailingZeros64(m) >> 3 // the first zero byte is found exactly
			i, w = i+k, w+k
		} else if body[i] != '\\' {
			out[w] = body[i]
			i, w = i+1, w+1
			continue
		}
		// An escape at i.
		if i+1 >= n {
			break
		}
		if e := unescapes[body[i+1]]; e != 0 {
			out[w] = e
			i, w = i+2, w+1
			continue
		}
		if body[i+1] != 'u' {
			i += 2
			continue
		}
		if i+6 <= n && body[i+2] == '0' && body[i+3] == '0' {
			// Most \u escapes: Go's \u003c, \u003e and \u0026.
			if h, l := hexDigit[body[i+4]], hexDigit[body[i+5]]; h|l >= 0 {
				if r := rune(h)<<4 | rune(l); r < utf8.RuneSelf {
					out[w] = byte(r)
					w++
				} else {
					w += utf8.EncodeRune(out[w:], r)
				}
				i += 6
				continue
			}
		}
		b := unsafe.Slice(unsafe.StringData(body[i:]), n-i)
		if r, ok := hex4(b); ok && r < 0xD800 {
			w += utf8.EncodeRune(out[w:], r)
			i += 6
			continue
		}
		// A lone surrogate decodes as itself, which EncodeRune writes
		// as U+FFFD.
		r, size := decodeEscape(b)
		if size == 0 {
			break
		}
		if keep && r >= 0xD800 && r < 0xE000 {
			out[w], out[w+1], out[w+2] = 0xED, byte(0x80|r>>6&0x3F), byte(0x80|r&0x3F)
			w, i = w+3, i+size
			continue
		}
		w += utf8.EncodeRune(out[w:], r)
		i += size
	}
	return out[:w]
}

// hexDigit is the value of a hex digit, -1 for any other byte.
var hexDigit = func() (t [256]int8) {
	for c := range t {
		t[c] = -1
		switch {
		case c >= '0' && c <= '9':
			t[c] = int8(c - '0')
		case c >= 'a' && c <= 'f':
			t[c] = int8(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			t[c] = int8(c - 'A' + 10)
		}
	}
	return t
}()

// unescapes are the bytes one-letter escapes stand for, by letter (0:
// none).
var unescapes = func() (t [256]byte) {
	for c := range t {
		t[c], _ = Unescape(byte(c))
	}
	return t
}()

// Unescape is the byte a one-letter JSON escape stands for: c is the
// letter after the backslash ('n' for \n); ok is false for 'u' and for
// what is no escape.
func Unescape(c byte) (b byte, ok bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// PlainString reports whether s is written as it is between quotes in
// both styles: printable ASCII without '"', '\\', '<', '>' or '&'.
func PlainString(s string) bool {
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	return swar.PlainGo(b, 0) == len(b) && swar.PlainPython(b, 0) == len(b)
}
