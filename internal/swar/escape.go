package swar

import "encoding/binary"

// The scanners of this file look inside a JSON string, from a position
// that is not the second byte of an escape, and pass over the two-byte
// escapes that their caller copies or accepts as they are: a string's
// text has one in every dozen bytes or so (\n, \"), and stopping at each
// is most of the cost of scanning it. A '\\' that begins "\\\\" is a stop
// all the same: it is what lets a block tell an escaped '"' (after a
// '\\' that begins an escape) from a closing one (after "\\\\") without
// looking back further than one byte.

// StringStopEsc returns the index of the first byte at or after i that
// ends a plain run inside a JSON string, for a caller that validates the
// string as it goes: a control character, a non-ASCII byte, a closing
// '"', or a '\\' that does not begin \", \n, \t, \r, \b or \f, or a
// \uXXXX with four hex digits that is not a surrogate (those are passed
// over); len(b) when there is none. esc reports whether it passed over
// an escape, u whether one of them was a \u.
//
// Go's encoding/json writes '<', '>' and '&' as \u003c, \u003e, \u0026:
// in HTML or code a tool prints, one in every few dozen bytes. Passing
// over them, not stopping at each for the caller to check its digits, is
// what makes such text fast to validate. A surrogate is left to the
// caller: whether a pair follows is more than a block can tell.
func StringStopEsc(b []byte, i int) (j int, esc, u bool) {
	// Most strings are short (keys, ids): their end is in the first
	// word, found without a call to the blocks.
	if i+8 <= len(b) {
		if m := maskStringStopUTF8(binary.LittleEndian.Uint64(b[i:])); m == 0 {
			i += 8
		} else if j := first(i, m); b[j] != '\\' {
			return j, false, false
		}
	}
	if len(b)-i < escBlockLen {
		// Too few bytes for a block (the last string of a line, most
		// often its type): no call to the blocks for nothing.
		return stringStopEsc(b, i)
	}
	j, found, esc, u := stringStopEscBlocks(b, i)
	if found {
		return j, esc, u
	}
	j, e, eu := stringStopEsc(b, j)
	return j, esc || e, u || eu
}

// escBlockLen is how many bytes stringStopEscBlocks needs from a block's
// start (blocks_amd64.go).
const escBlockLen = 21

// SkipPythonEsc returns the index of the first byte at or after i that
// Python's json.dumps may write differently from a valid JSON string's
// text (a byte >= 0x7f, or a '\\' that begins \u, \/ or "\\\\"), or that
// ends the string (a closing '"'); len(b) when there is none. The other
// escapes, which Python writes as they are, are passed over.
func SkipPythonEsc(b []byte, i int) int {
	j, found := skipPythonEscBlocks(b, i)
	if found {
		return j
	}
	return skipPythonEsc(b, j)
}

// SkipGoEsc is SkipPythonEsc for Go's encoding/json: it stops at '<',
// '>', '&' and bytes >= 0x80 (not at 0x7f), at a '\\' that begins \u, \/
// or "\\\\", and at a closing '"'.
func SkipGoEsc(b []byte, i int) int {
	j, found := skipGoEscBlocks(b, i)
	if found {
		return j
	}
	return skipGoEsc(b, j)
}

// stringEsc is whether StringStopEsc passes over the escape whose second
// byte is c.
func stringEsc(c byte) bool {
	return c == '"' || c == 'n' || c == 't' || c == 'r' || c == 'b' || c == 'f'
}

// restyleEsc is whether SkipPythonEsc and SkipGoEsc pass over the escape
// whose second byte is c.
func restyleEsc(c byte) bool { return c != 'u' && c != '/' && c != '\\' }

// hexEsc reports whether b[i:] begins with \u and four hex digits that
// are not a surrogate (D800 to DFFF): the \u escapes StringStopEsc
// passes over.
func hexEsc(b []byte, i int) bool {
	if i+6 > len(b) || b[i+1] != 'u' {
		return false
	}
	r, ok := Hex4(b, i+2)
	return ok && (r < 0xD800 || r > 0xDFFF)
}

// Hex4 reads the four hex digits (either case) at b[i:], which must hold
// four bytes, as one word: the digits of a \u escape, checked without a
// branch per byte. Each byte must be below 0x80 and a digit or, lowered
// (OR 0x20), a letter a to f; below 0x80, adding 0x80-n to a byte sets its
// high bit exactly when it is n or above, without a carry into the next.
// A digit's value is its low four bits, a letter's (bit 6 set) those plus
// 9.
func Hex4(b []byte, i int) (r rune, ok bool) {
	const lo4, hi4 = 0x01010101, 0x80808080
	w := binary.LittleEndian.Uint32(b[i:])
	l := w | lo4*0x20
	digit := (w + lo4*(0x80-'0')) &^ (w + lo4*(0x80-'9'-1))
	letter := (l + lo4*(0x80-'a')) &^ (l + lo4*(0x80-'f'-1))
	if w&hi4 != 0 || (digit|letter)&hi4 != hi4 {
		return 0, false
	}
	v := w&(lo4*0x0F) + 9*(w>>6&lo4)
	return rune(v&0xF)<<12 | rune(v>>8&0xF)<<8 | rune(v>>16&0xF)<<4 | rune(v>>24), true
}

// The portable forms: the scanner without escapes, and a step over each
// escape it stops at that the scanner with them passes over.

func stringStopEsc(b []byte, i int) (int, bool, bool) {
	esc, u := false, false
	for {
		i = stringStopUTF8(b, i)
		if i+1 >= len(b) || b[i] != '\\' {
			return i, esc, u
		}
		switch {
		case stringEsc(b[i+1]):
			i += 2
		case hexEsc(b, i):
			u = true
			i += 6
		default:
			return i, esc, u
		}
		esc = true
	}
}

func skipPythonEsc(b []byte, i int) int {
	for {
		i = skipPython(b, i)
		if i+1 >= len(b) || b[i] != '\\' || !restyleEsc(b[i+1]) {
			return i
		}
		i += 2
	}
}

func skipGoEsc(b []byte, i int) int {
	for {
		i = skipGo(b, i)
		if i+1 >= len(b) || b[i] != '\\' || !restyleEsc(b[i+1]) {
			return i
		}
		i += 2
	}
}
