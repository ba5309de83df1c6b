package jsonl

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// restyleRef is restyle as it was before its fast paths for runs of
// escapes and non-ASCII text (and decodeEscapeRef, hex4Ref the same),
// the definition restyle is held to, byte for byte.
//
// restyleRef appends b from i up to the first '"' that is not escaped (or the
// end of b), re-escaped to the style, and returns the index it stopped at.
func restyleRef(dst, body []byte, i int, st Style) ([]byte, int) {
	start := i
	for i < len(body) {
		if st == GoStyle {
			i = skipGoEscRef(body, i)
		} else {
			i = skipPythonEscRef(body, i)
		}
		if i >= len(body) {
			break
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
			// the character; the value is unchanged.
			r, n := decodeEscapeRef(body[i:])
			if n == 0 {
				i += 2
				continue
			}
			var enc [4]byte
			switch {
			case r >= 0x20 && r < 0x7f && r != '"' && r != '\\' && (st == PythonStyle || (r != '<' && r != '>' && r != '&')):
				enc[0] = byte(r)
				dst = append(dst, body[start:i]...)
				dst = append(dst, enc[0])
			case st == GoStyle && r >= 0x80 && r != 0x2028 && r != 0x2029 && utf8.ValidRune(r):
				m := utf8.EncodeRune(enc[:], r)
				dst = append(dst, body[start:i]...)
				dst = append(dst, enc[:m]...)
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
			r, size = utf8.DecodeRune(body[i:])
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

// decodeEscape decodes the escape at the start of b (\/ or \uXXXX, a
// surrogate pair as one rune) and returns the rune and the bytes it took;
// n is 0 when b holds no such escape. A lone surrogate is returned as is,
// so the caller keeps its spelling.
func decodeEscapeRef(b []byte) (r rune, n int) {
	if len(b) >= 2 && b[1] == '/' {
		return '/', 2
	}
	r, ok := hex4Ref(b)
	if !ok {
		return 0, 0
	}
	if r >= 0xD800 && r < 0xDC00 {
		if lo, ok := hex4Ref(b[6:]); ok && lo >= 0xDC00 && lo < 0xE000 {
			return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), 12
		}
		return r, 6
	}
	return r, 6
}

// hex4 reads \uXXXX at the start of b.
func hex4Ref(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// skipGoEscRef and skipPythonEscRef are swar.SkipGoEsc and
// swar.SkipPythonEsc a byte at a time: the first '"', a '\\' but that
// of an escape copied as it is, or a byte the style may write otherwise.
func skipGoEscRef(b []byte, i int) int {
	return skipEscRef(b, i, func(c byte) bool { return c == '<' || c == '>' || c == '&' || c >= 0x80 })
}

func skipPythonEscRef(b []byte, i int) int {
	return skipEscRef(b, i, func(c byte) bool { return c >= 0x7f })
}

func skipEscRef(b []byte, i int, stop func(byte) bool) int {
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\\':
			if i+1 >= len(b) || b[i+1] == 'u' || b[i+1] == '/' || b[i+1] == '\\' {
				return i
			}
			i++
		case c == '"' || stop(c):
			return i
		}
	}
	return len(b)
}

// restyleAgrees holds restyle to restyleRef on b from i, in both styles.
func restyleAgrees(t *testing.T, b []byte, i int) {
	t.Helper()
	for _, st := range []Style{GoStyle, PythonStyle} {
		got, gotEnd := restyle([]byte("x"), b, i, st)
		want, wantEnd := restyleRef([]byte("x"), b, i, st)
		if gotEnd != wantEnd || !bytes.Equal(got, want) {
			t.Fatalf("restyle(%q, %d, style %d) = %q, %d; want %q, %d", b, i, st, got, gotEnd, want, wantEnd)
		}
	}
}

// restylePieces are what restyle treats apart: the escapes it re-spells
// or keeps (surrogate pairs, lone halves, bad digits at each place, one
// cut short), non-ASCII text of each length, bad UTF-8, and the bytes
// Go or Python escape.
var restylePieces = []string{
	`\u003c`, `\u003E`, `\u0026`, `\u0041`, `\u0022`, `\u005c`, `\u005C`, `\u001f`, `\u007f`, `\u0080`, `\u00e9`, `\u2014`,
	`\u2028`, `\u2029`, `\uFFFF`, `\ud83d\ude00`, `\uD83D\uDE00`, `\ud800\udc00`, `\udbff\udfff`, `\uDB40\uDC01`, `\udbff`, `\ud83d`, `\ude00`, `\ud83d\u0041`, `\ud83d\ud83d`,
	`\ud83d\ude0`, `\ug03c`, `\u0g3c`, `\u00gc`, `\u003g`, `\u00`, `\u`, `\/`, `\\`, `\n`, `\"`, `\t`, "\\",
	"\"", "a", "<", ">", "&", "\x7f", "é", "—", "😀", "\u2028", "\u2029", "\xe2\x80", "\xff", "\xc3", "\xed\xa0\x80", "\xe0\x80\x80",
}

func TestRestyleAsRef(t *testing.T) {
	// Each piece, alone and in runs, at every place around the edges of
	// the scanners' 16-byte blocks and words, with the end of b or a
	// piece after it.
	for n := 0; n <= 34; n++ {
		for _, p := range restylePieces {
			for _, q := range append([]string{"", "bcd"}, restylePieces...) {
				for _, k := range []int{1, 2, 5} {
					b := []byte(strings.Repeat("a", n) + strings.Repeat(p, k) + q)
					restyleAgrees(t, b, 0)
					restyleAgrees(t, b, min(n, len(b)))
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 100000 {
		var sb strings.Builder
		for range rng.IntN(16) {
			if rng.IntN(4) == 0 {
				sb.WriteString(strings.Repeat("x", rng.IntN(20)))
			}
			sb.WriteString(restylePieces[rng.IntN(len(restylePieces))])
		}
		b := []byte(sb.String())
		restyleAgrees(t, b, 0)
		restyleAgrees(t, b, rng.IntN(len(b)+1))
	}
}

// decodeRune is utf8.DecodeRune at every byte of sequences of one to four
// bytes after a non-ASCII byte.
func TestDecodeRune(t *testing.T) {
	tails := []byte{0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff}
	for c := 0x80; c < 0x100; c++ {
		for _, x := range tails {
			for _, y := range tails {
				for _, z := range tails {
					b := []byte{byte(c), x, y, z}
					for n := 1; n <= 4; n++ {
						r, size := decodeRune(b[:n], 0)
						wr, wsize := utf8.DecodeRune(b[:n])
						if r != wr || size != wsize {
							t.Fatalf("decodeRune(% x) = %U, %d; want %U, %d", b[:n], r, size, wr, wsize)
						}
					}
				}
			}
		}
	}
}
