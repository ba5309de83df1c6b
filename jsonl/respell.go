package jsonl

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/zevo/zevo/internal/swar"
)

// AppendRespelled appends, quoted, the text whose JSON spelling is body
// (the inside of a valid JSON string, escapes and all) exactly as
// AppendString writes that text in style st: what
// AppendString(dst, string(AppendUnescapedKeep(nil, body)), st) appends
// (a lone surrogate escape kept as its escape, as a translation keeps it),
// without unescaping the whole text first. Runs the style writes as
// they are are copied, as are the one-letter escapes it writes alike;
// the rest (a \u escape, a byte the style escapes) is unescaped and
// written a few bytes at a time (TestAppendRespelledIsUnescapeAndString).
func AppendRespelled(dst []byte, body string, st Style) []byte {
	b := unsafe.Slice(unsafe.StringData(body), len(body))
	plain := &goPlainByte
	if st == PythonStyle {
		plain = &pythonPlainByte
	}
	dst = append(dst, '"')
	var tmp [16]byte
	n := len(b)
	for i := 0; i < n; {
		if st == PythonStyle && n-i >= restyleBlocks {
			// Long text: sixteen bytes at a time, with the common
			// escapes and characters respelled without a return here
			// (swar.RespellPython); the rest is left to the loop below.
			if cap(dst)-len(dst) < restyleBlocks {
				dst = slices.Grow(dst, n-i+restyleBlocks)
			}
			if dst, i = swar.RespellPython(dst, b, i); i >= n {
				break
			}
		}
		// The run the style writes as it is, a word at a time, each word
		// copied whole as it is tested (what follows a stop in it is
		// written over next): short runs, as a rule, between the
		// escapes of a line of text.
		for i+8 <= n {
			if cap(dst)-len(dst) < 8 {
				dst = slices.Grow(dst, n-i+8)
			}
			x := binary.LittleEndian.Uint64(b[i:])
			w := len(dst)
			binary.LittleEndian.PutUint64(dst[w:w+8], x)
			var m uint64
			if st == PythonStyle {
				m = swar.MaskPlainPython(x)
			} else {
				m = swar.MaskPlainGo(x)
			}
			if m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				dst, i = dst[:w+k], i+k
				break
			}
			dst, i = dst[:w+8], i+8
		}
		for i < n && b[i] < 0x80 && plain[b[i]] {
			dst = append(dst, b[i])
			i++
		}
		if i >= n {
			break
		}
		c := b[i]
		if c >= 0x80 {
			// As appendString writes a character not in ASCII.
			r, size := utf8.DecodeRune(b[i:])
			if st == PythonStyle || r == utf8.RuneError && size == 1 || r == 0x2028 || r == 0x2029 {
				if r == utf8.RuneError && size == 1 {
					// As appendString: a lone surrogate's WTF-8 bytes
					// as its escape, any other bad byte as U+FFFD.
					if r, size = surrogateAt(body, i); size == 0 {
						r, size = 0xFFFD, 1
					}
				}
				dst = AppendRuneEscape(dst, r)
			} else {
				dst = append(dst, b[i:i+size]...)
			}
			i += size
			continue
		}
		if c == '\\' && i+1 < n {
			switch b[i+1] {
			case '"', '\\', 'n', 't', 'r', 'b', 'f':
				// Written alike by every style.
				dst = append(dst, c, b[i+1])
				i += 2
				continue
			case '/':
				dst = append(dst, '/')
				i += 2
				continue
			case 'u':
				if i+6 <= n && b[i+2] == '0' && b[i+3] == '0' {
					if h, l := hexDigit[b[i+4]], hexDigit[b[i+5]]; h|l >= 0 {
						if c := byte(h)<<4 | byte(l); c < 0x80 && plain[c] {
							dst = append(dst, c)
							i += 6
							continue
						}
					}
				}
			}
		}
		// Any other escape (a surrogate pair's two as one) or byte:
		// unescaped, and written as appendString writes it, without the
		// quotes it writes.
		k := i + 1
		if c == '\\' {
			k = i + escapeLen(b[i:])
		}
		text := AppendUnescapedKeep(tmp[:0], body[i:k])
		at := len(dst)
		dst = appendString(dst, unsafe.String(unsafe.SliceData(text), len(text)), st, true)
		copy(dst[at:], dst[at+1:len(dst)-1])
		dst = dst[:len(dst)-2]
		i = k
	}
	return append(dst, '"')
}

// escapeLen is the length of the escape at the start of b: a surrogate
// pair's two as one.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return len(b)
	}
	if b[1] != 'u' {
		return 2
	}
	if _, n := decodeEscape(b); n > 0 {
		return n
	}
	return min(6, len(b))
}
