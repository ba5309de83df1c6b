package swar

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// restylePythonNaive is RestylePython's definition (RespellPython's with
// canon), a byte at a time: the same stops, looked for in the same blocks
// of sixteen bytes (from where the last stop left off), with the same
// limits.
func restylePythonNaive(dst, src []byte, i int, canon bool) ([]byte, int) {
	const hexd = "0123456789abcdef"
	room := func() bool { return i+17 <= len(src) && len(dst)+17 <= cap(dst) }
	carry := false // the block's first byte is the second of an escape
	for {
		if !room() {
			if carry {
				dst, i = append(dst, src[i]), i+1
			}
			return dst, i
		}
		k, esc := -1, carry
		for j := 0; j < 16 && k < 0; j++ {
			switch c := src[i+j]; {
			case esc:
				esc = false
			case c == '\\' && (src[i+j+1] == 'u' || src[i+j+1] == '/' || src[i+j+1] == '\\'):
				k = j
			case c == '\\':
				esc = true
			case c == '"' || c >= 0x7f || canon && c < 0x20:
				k = j
			}
		}
		if k < 0 {
			dst, i, carry = append(dst, src[i:i+16]...), i+16, esc
			continue
		}
		dst, i, carry = append(dst, src[i:i+k]...), i+k, false
		if !room() {
			return dst, i
		}
		switch c := src[i]; {
		case c == '\\' && src[i+1] == 'u':
			hi, lo := strings.IndexByte(hexd, src[i+4]|0x20), strings.IndexByte(hexd, src[i+5]|0x20)
			if string(src[i+2:i+4]) != "00" || hi < 0 || lo < 0 || !isHexDigit(src[i+4]) || !isHexDigit(src[i+5]) {
				return dst, i
			}
			if r := byte(hi<<4 | lo); r >= 0x20 && r < 0x7f && r != '"' && r != '\\' {
				dst = append(dst, r)
			} else if canon && r < 0x7f {
				return dst, i
			} else if canon {
				dst = append(dst, '\\', 'u', '0', '0', hexd[r>>4], hexd[r&15])
			} else {
				dst = append(dst, src[i:i+6]...)
			}
			i += 6
		case c == '\\' && src[i+1] == '/':
			return dst, i
		case c == '\\':
			dst, i = append(dst, src[i:i+2]...), i+2
		case c >= 0x80:
			r, n := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError || n == 4 {
				return dst, i
			}
			dst = append(dst, '\\', 'u', hexd[r>>12], hexd[r>>8&15], hexd[r>>4&15], hexd[r&15])
			i += n
		default: // '"', 0x7f, a control character (canon)
			return dst, i
		}
	}
}

func isHexDigit(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }

// restyleAgrees holds RestylePython and RespellPython to their
// definition on src from i, with dst of a few lengths and capacities: the
// same bytes and stop, and nothing before len(dst) changed.
func restyleAgrees(t *testing.T, src []byte, i int) {
	t.Helper()
	for _, canon := range []bool{false, true} {
		for _, room := range []int{0, 16, 17, 18, 40, 6*len(src) + 17} {
			dst := make([]byte, 3, 3+room)
			copy(dst, "abc")
			want, wantJ := restylePythonNaive(append(make([]byte, 0, cap(dst)), dst...), src, i, canon)
			if !blocks {
				want, wantJ = dst, i
			}
			name, f := "RestylePython", RestylePython
			if canon {
				name, f = "RespellPython", RespellPython
			}
			got, gotJ := f(dst, src, i)
			if gotJ != wantJ || !bytes.Equal(got, want) || string(dst) != "abc" {
				t.Fatalf("%s(%q, %d) with room %d = %q, %d; want %q, %d", name, src, i, room, got, gotJ, want, wantJ)
			}
		}
	}
}

// restylePieces are what RestylePython treats apart, and what it leaves.
var restylePieces = []string{
	`\u003c`, `\u003E`, `\u0026`, `\u0041`, `\u0022`, `\u005c`, `\u005C`, `\u001f`, `\u007f`, `\u007F`, `\u007e`, `\u0020`, `\u0080`, `\u00e9`, `\u00FF`, `\u00Ab`, `\u000a`, `\u0000`,
	`\u2014`, `\ud83d\ude00`, `\u0g3c`, `\u00gc`, `\u003g`, `\u00`, `\u`, `\u0:3c`, `\u00/0`, `\u00:`, `\u00@`, `\u00G`, "\\u00\xe9",
	`\/`, `\\`, `\n`, `\"`, `\t`, `\x`, "\\", "\"", "a", "<", "\x7f", "\x00",
	"é", "ß", "—", "中", "\uffff", "😀", "\u0800", "\xe2\x80", "\xff", "\xc3", "\xc0\x80", "\xc1\xbf", "\xed\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80", "\xe0\x80\x80", "\xe0\xa0\x80", "\xf0\x9f\x98", "\x80",
}

func TestRestylePython(t *testing.T) {
	for n := 0; n <= 34; n++ {
		for _, p := range restylePieces {
			for _, q := range append([]string{"", strings.Repeat("z", 20)}, restylePieces...) {
				for _, k := range []int{1, 2, 5} {
					b := []byte(strings.Repeat("a", n) + strings.Repeat(p, k) + q + strings.Repeat("y", n%17))
					restyleAgrees(t, b, 0)
					restyleAgrees(t, b, min(n, len(b)))
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for range 50000 {
		var sb strings.Builder
		for range rng.IntN(24) {
			if rng.IntN(3) == 0 {
				sb.WriteString(strings.Repeat("x", rng.IntN(40)))
			}
			sb.WriteString(restylePieces[rng.IntN(len(restylePieces))])
		}
		b := []byte(sb.String())
		restyleAgrees(t, b, 0)
		restyleAgrees(t, b, rng.IntN(len(b)+1))
	}
}
