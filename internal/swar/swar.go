// Package swar finds bytes of interest in JSON text eight at a time.
package swar

import "encoding/binary"

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

// less has the high bit set in each byte of x below n (n <= 128), with the
// same caveat as eq.
func less(x uint64, n byte) uint64 {
	return (x - lo*uint64(n)) &^ x & hi
}

// StringStop returns the index of the first byte at or after i that ends a
// plain run inside a JSON string: '"', '\\' or a control character; len(b)
// when there is none.
func StringStop(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if eq(x, '"')|eq(x, '\\')|less(x, 0x20) != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return len(b)
}

// StringStopUTF8 is StringStop that also stops at non-ASCII bytes, for a
// caller that validates UTF-8 as it goes.
func StringStopUTF8(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if eq(x, '"')|eq(x, '\\')|less(x, 0x20)|x&hi != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			return i
		}
	}
	return len(b)
}

// QuoteOrBackslash returns the index of the first '"' or '\\' at or after
// i, or len(b).
func QuoteOrBackslash(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if eq(x, '"')|eq(x, '\\') != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' {
			return i
		}
	}
	return len(b)
}

// SkipGo returns the index of the first byte at or after i that Go's
// encoding/json may write differently from the input ('\\', '<', '>',
// '&' or a non-ASCII byte) or that ends a string ('"'); len(b) when there
// is none.
func SkipGo(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if eq(x, '\\')|eq(x, '"')|eq(x, '<')|eq(x, '>')|eq(x, '&')|x&hi != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '\\' || c == '"' || c == '<' || c == '>' || c == '&' || c >= 0x80 {
			return i
		}
	}
	return len(b)
}

// SkipPython returns the index of the first byte at or after i that
// Python's json.dumps may write differently ('\\' or a byte >= 0x7f) or
// that ends a string ('"').
func SkipPython(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if eq(x, '\\')|eq(x, '"')|eq(x, 0x7f)|x&hi != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '\\' || c == '"' || c >= 0x7f {
			return i
		}
	}
	return len(b)
}

// PlainGo returns the index of the first byte at or after i that Go's
// encoding/json writes other than as itself ('"', '\\', a control
// character, '<', '>', '&' or a non-ASCII byte); len(b) when none.
func PlainGo(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if eq(x, '"')|eq(x, '\\')|less(x, 0x20)|eq(x, '<')|eq(x, '>')|eq(x, '&')|x&hi != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 || c == '<' || c == '>' || c == '&' || c >= 0x80 {
			return i
		}
	}
	return len(b)
}

// PlainPython returns the index of the first byte at or after i that
// Python's json.dumps writes other than as itself ('"', '\\', a control
// character, 0x7f or a non-ASCII byte); len(b) when none.
func PlainPython(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if eq(x, '"')|eq(x, '\\')|less(x, 0x20)|eq(x, 0x7f)|x&hi != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x7f {
			return i
		}
	}
	return len(b)
}

// SkipRedact returns the index of the first byte at or after i that may
// end a word Zero's redaction patterns need ("sk-", "api", "bearer"): '-',
// 'i', 'I', 'r', 'R' or '\\'; len(b) when there is none.
func SkipRedact(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		l := x | (lo * 0x20)
		if eq(x, '-')|eq(x, '\\')|eq(l, 'i')|eq(l, 'r') != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case '-', 'i', 'I', 'r', 'R', '\\':
			return i
		}
	}
	return len(b)
}

// MayHoldRedactWord reports whether b may hold a word Zero's redaction
// patterns need, "sk-" or "api" or "bea" (the last two in any case), or
// an escape that may spell a letter or '-' (\u004x to \u007x, \u002d);
// false means certainly
// none, true certainly one. It looks at three bytes at every position, eight positions at a
// time, so ordinary text, full of the single letters those words have,
// passes in one sweep.
func MayHoldRedactWord(b []byte) bool {
	const fold = lo * 0x20
	i := 0
	for ; i+11 <= len(b); i += 8 {
		x0 := binary.LittleEndian.Uint64(b[i:])
		x1 := binary.LittleEndian.Uint64(b[i+1:])
		x2 := binary.LittleEndian.Uint64(b[i+2:])
		x3 := binary.LittleEndian.Uint64(b[i+3:])
		l0, l1, l2 := x0|fold, x1|fold, x2|fold
		if eq(x0, 's')&eq(x1, 'k')&eq(x2, '-')|
			eq(l0, 'a')&eq(l1, 'p')&eq(l2, 'i')|
			eq(l0, 'b')&eq(l1, 'e')&eq(l2, 'a')|
			eq(x0, '\\')&eq(x1, 'u')&eq(x2, '0')&eq(x3, '0') != 0 {
			// eq may flag a byte after a true one: look closer.
			for k := i; k < i+8; k++ {
				if hasRedactWord(b[k:]) {
					return true
				}
			}
		}
	}
	for ; i+2 < len(b); i++ {
		// Only a word's first byte is worth a closer look.
		if c := b[i] | 0x20; (c == 's' || c == 'a' || c == 'b' || b[i] == '\\') && hasRedactWord(b[i:]) {
			return true
		}
	}
	return false
}

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
