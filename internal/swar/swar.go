// Package swar finds bytes of interest in JSON text: sixteen at a time
// with SSE2 on amd64, eight at a time in portable Go (SWAR, SIMD within a
// register) elsewhere and for the last bytes.
package swar

import (
	"encoding/binary"
	"math/bits"
)

const (
	lo = 0x0101010101010101
	hi = 0x8080808080808080
)

// eq has the high bit set in each byte of x equal to c (and maybe in bytes
// after one that is): enough to know that a word needs a closer look.
func eq(x uint64, c byte) uint64 {
	y := x ^ (lo * uint64(c))
	return (y - lo) &^ y & hi
}

// The functions that stop at every non-ASCII byte test a word with hit and
// below, which leave out eq's and less's masking of the bytes >= 0x80: those
// bytes stop the scan anyway (x&hi), so the masking is work for nothing.

// hit has the high bit set in each byte of x equal to c (c < 0x80) and
// maybe in bytes >= 0x80 or after one that is equal: used with x&hi.
func hit(x uint64, c byte) uint64 { return (x ^ (lo * uint64(c))) - lo }

// below has the high bit set in each byte of x below n (n <= 128), maybe
// in bytes >= 0x80 or after one that is below: used with x&hi.
func below(x uint64, n byte) uint64 { return x - lo*uint64(n) }

// from7f has the high bit set in each byte of x that is 0x7f, maybe in
// bytes >= 0x80 or after one: with x&hi, it finds the bytes >= 0x7f.
func from7f(x uint64) uint64 { return x + lo }

// The scanners below share one property: in a word's mask (the high bit
// of each byte flagged), the lowest flagged byte is always a true stop,
// since a false flag comes only from a borrow or carry out of a lower
// byte that is itself flagged. So the first stop in a word is found from
// its mask, without looking at its bytes one by one.

// pad is the filler of a word read past the end of b: a space, which no
// scanner stops at, and which no borrow reaches unless a real byte below
// it is flagged first.
const pad = lo * ' '

// tail is the last bytes of b, from i (fewer than 8), followed by pad.
// In a b of eight bytes or more, they are the top of its last word,
// shifted down: no copy to a buffer (a call to memmove) for each string's
// last bytes.
func tail(b []byte, i int) uint64 {
	if n := len(b); n >= 8 {
		r := uint(n - i)
		return binary.LittleEndian.Uint64(b[n-8:])>>(64-8*r) | pad<<(8*r)
	}
	var w [8]byte
	binary.LittleEndian.PutUint64(w[:], pad)
	copy(w[:], b[i:])
	return binary.LittleEndian.Uint64(w[:])
}

// first is i plus the position of the lowest flagged byte of m (m != 0).
func first(i int, m uint64) int { return i + bits.TrailingZeros64(m)>>3 }

// Each scanner below is the same loop around its own mask function,
// written out: a shared loop taking the mask as a function value is not
// inlined, and the indirect call costs a fifth of the speed.

// stringStopUTF8 returns the index of the first byte at or after i that
// ends a plain run inside a JSON string, for a caller that validates UTF-8
// as it goes: '"', '\\', a control character or a non-ASCII byte; len(b)
// when there is none. Eight bytes at a time, the portable part of
// StringStopEsc.
func stringStopUTF8(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := maskStringStopUTF8(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return first(i, m)
		}
	}
	if i < len(b) {
		if m := maskStringStopUTF8(tail(b, i)); m != 0 {
			return first(i, m)
		}
	}
	return len(b)
}

func maskStringStopUTF8(x uint64) uint64 {
	return (hit(x, '"') | hit(x, '\\') | below(x, 0x20) | x) & hi
}

// QuoteOrBackslash returns the index of the first '"' or '\\' at or after
// i, or len(b).
func QuoteOrBackslash(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := maskQuoteOrBackslash(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return first(i, m)
		}
	}
	if i < len(b) {
		if m := maskQuoteOrBackslash(tail(b, i)); m != 0 {
			return first(i, m)
		}
	}
	return len(b)
}

func maskQuoteOrBackslash(x uint64) uint64 {
	return eq(x, '"') | eq(x, '\\')
}

// skipGo returns the index of the first byte at or after i that Go's
// encoding/json may write differently from the input ('\\', '<', '>',
// '&' or a non-ASCII byte) or that ends a string ('"'); len(b) when there
// is none. The portable part of SkipGoEsc.
func skipGo(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := maskSkipGo(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return first(i, m)
		}
	}
	if i < len(b) {
		if m := maskSkipGo(tail(b, i)); m != 0 {
			return first(i, m)
		}
	}
	return len(b)
}

func maskSkipGo(x uint64) uint64 {
	return (hit(x, '\\') | quoteAmp(x) | angle(x) | x) & hi
}

// quoteAmp is hit for '"' (0x22) and '&' (0x26) at once: they are the two
// bytes that OR 0x04 makes '&'.
func quoteAmp(x uint64) uint64 { return hit(x|lo*0x04, '&') }

// angle is hit for '<' (0x3c) and '>' (0x3e) at once: they are the two
// bytes that OR 0x02 makes '>'.
func angle(x uint64) uint64 { return hit(x|lo*0x02, '>') }

// skipPython returns the index of the first byte at or after i that
// Python's json.dumps may write differently ('\\' or a byte >= 0x7f) or
// that ends a string ('"'); len(b) when there is none. The portable part
// of SkipPythonEsc.
func skipPython(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := maskSkipPython(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return first(i, m)
		}
	}
	if i < len(b) {
		if m := maskSkipPython(tail(b, i)); m != 0 {
			return first(i, m)
		}
	}
	return len(b)
}

func maskSkipPython(x uint64) uint64 {
	return (hit(x, '\\') | hit(x, '"') | from7f(x) | x) & hi
}

// plainGo is PlainGo in portable Go, eight bytes at a time.
func plainGo(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := maskPlainGo(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return first(i, m)
		}
	}
	if i < len(b) {
		if m := maskPlainGo(tail(b, i)); m != 0 {
			return first(i, m)
		}
	}
	return len(b)
}

func maskPlainGo(x uint64) uint64 {
	return (hit(x, '\\') | quoteAmp(x) | angle(x) | below(x, 0x20) | x) & hi
}

// plainPython is PlainPython in portable Go, eight bytes at a time.
func plainPython(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := maskPlainPython(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return first(i, m)
		}
	}
	if i < len(b) {
		if m := maskPlainPython(tail(b, i)); m != 0 {
			return first(i, m)
		}
	}
	return len(b)
}

func maskPlainPython(x uint64) uint64 {
	return (hit(x, '"') | hit(x, '\\') | below(x, 0x20) | from7f(x) | x) & hi
}

// SkipRedact returns the index of the first byte at or after i that may
// end a word the default redaction patterns need ("sk-", "api", "bearer"): '-',
// 'i', 'I', 'r', 'R' or '\\'; len(b) when there is none.
func SkipRedact(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := maskSkipRedact(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return first(i, m)
		}
	}
	if i < len(b) {
		if m := maskSkipRedact(tail(b, i)); m != 0 {
			return first(i, m)
		}
	}
	return len(b)
}

func maskSkipRedact(x uint64) uint64 {
	l := x | (lo * 0x20)
	return eq(x, '-') | eq(x, '\\') | eq(l, 'i') | eq(l, 'r')
}

// mayHoldRedactWord is MayHoldRedactWord in portable Go, eight positions
// at a time: each word is a zero byte of the OR of the XORs of its bytes
// with the input shifted by 0, 1, 2 … bytes; the lowest zero byte zero
// flags is a true one, so a flag is a match.
func mayHoldRedactWord(b []byte) bool {
	const fold = lo * 0x20
	var tail [24]byte
	padded := false
	for i := 0; ; i += 8 {
		if i+13 > len(b) {
			// The last positions: in a copy followed by zero bytes,
			// which no word or escape has.
			if padded || i >= len(b) {
				return false
			}
			copy(tail[:], b[i:])
			b, i, padded = tail[:], 0, true
		}
		x0 := binary.LittleEndian.Uint64(b[i:])
		x1 := binary.LittleEndian.Uint64(b[i+1:])
		x2 := binary.LittleEndian.Uint64(b[i+2:])
		l0, l1, l2 := x0|fold, x1|fold, x2|fold
		if zero((x0^(lo*'s'))|(x1^(lo*'k'))|(x2^(lo*'-')))|
			zero((l0^(lo*'a'))|(l1^(lo*'p'))|(l2^(lo*'i')))|
			zero((l0^(lo*'b'))|(l1^(lo*'e'))|(l2^(lo*'a'))) != 0 {
			return true
		}
		if zero((x0^(lo*'\\'))|(x1^(lo*'u'))) != 0 && asciiEscape(b, i) {
			return true
		}
	}
}

// asciiEscape reports whether one of the escapes mayHoldRedactWord looks
// for starts at one of the 8 positions from i; b has 13 bytes from i.
func asciiEscape(b []byte, i int) bool {
	x0 := binary.LittleEndian.Uint64(b[i:])
	x1 := binary.LittleEndian.Uint64(b[i+1:])
	x2 := binary.LittleEndian.Uint64(b[i+2:])
	x3 := binary.LittleEndian.Uint64(b[i+3:])
	x4 := binary.LittleEndian.Uint64(b[i+4:])
	x5 := binary.LittleEndian.Uint64(b[i+5:])
	// \u004x to \u007x (the letters) and \u002d or \u002D ('-'): not
	// \u003c, \u003e and \u0026, which Go writes for every '<', '>', '&'.
	p := (x0 ^ (lo * '\\')) | (x1 ^ (lo * 'u')) | (x2 ^ (lo * '0')) | (x3 ^ (lo * '0'))
	return zero(p|(x4&(lo*0xFC)^(lo*'4'))) != 0 ||
		zero(p|(x4^(lo*'2'))|((x5|lo*0x20)^(lo*'d'))) != 0
}

// zero has the high bit set in each byte of v that is 0, and maybe in
// bytes after one that is: its lowest flagged byte is always a zero.
func zero(v uint64) uint64 { return (v - lo) &^ v & hi }

// hasRedactWord reports whether b starts with a word MayHoldRedactWord
// looks for.
func hasRedactWord(b []byte) bool {
	if len(b) >= 5 && b[0] == '\\' && b[1] == 'u' && b[2] == '0' && b[3] == '0' {
		// \u0040 to \u007f hold the letters, \u002d is '-'.
		return b[4] >= '4' && b[4] <= '7' || b[4] == '2' && len(b) >= 6 && b[5]|0x20 == 'd'
	}
	if len(b) < 3 {
		return false
	}
	c0, c1, c2 := b[0]|0x20, b[1]|0x20, b[2]|0x20
	return b[0] == 's' && b[1] == 'k' && b[2] == '-' ||
		c0 == 'a' && c1 == 'p' && c2 == 'i' ||
		c0 == 'b' && c1 == 'e' && c2 == 'a'
}
