package jsonl

import (
	"unsafe"

	"github.com/zevo/zevo/internal/swar"
)

// AppendRespelled appends, quoted, the text whose JSON spelling is body
// (the inside of a valid JSON string, escapes and all) exactly as
// AppendString writes that text in style st: what
// AppendString(dst, string(AppendUnescaped(nil, body)), st) appends,
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
	var tmp [64]byte
	n := len(b)
	for i := 0; i < n; {
		// The run the style writes as it is.
		j := i
		if st == PythonStyle {
			j = swar.PlainPython(b, i)
		} else {
			j = swar.PlainGo(b, i)
		}
		dst = append(dst, b[i:j]...)
		if i = j; i >= n {
			break
		}
		if b[i] == '\\' && i+1 < n {
			switch b[i+1] {
			case '"', '\\', 'n', 't', 'r', 'b', 'f':
				// Written alike by every style.
				dst = append(dst, b[i], b[i+1])
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
		// What is left up to the next byte written as it is (not part of
		// an escape): unescaped, and written as AppendString writes it.
		k := i
		for k < n && (k == i || b[k] >= 0x80 || !plain[b[k]]) {
			if k-i >= len(tmp)/2 && b[k]&0xC0 != 0x80 {
				break // a long stretch (text not in ASCII): in pieces, at a character's start
			}
			if b[k] == '\\' {
				k += escapeLen(b[k:])
			} else {
				k++
			}
		}
		if k > n {
			k = n
		}
		text := AppendUnescaped(tmp[:0], body[i:k])
		start := len(dst)
		dst = appendString(dst, unsafe.String(unsafe.SliceData(text), len(text)), st, true)
		// (appendString quotes what it writes: the quotes go.)
		copy(dst[start:], dst[start+1:len(dst)-1])
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
