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
