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
// '"', or a '\\' that does not begin \", \n, \t, \r, \b or \f (those
// are passed over); len(b) when there is none. esc reports whether it
// passed over an escape.
func StringStopEsc(b []byte, i int) (j int, esc bool) {
	// Most strings are short (keys, ids): their end is in the first
	// word, found without a call to the blocks.
	if i+8 <= len(b) {
		if m := maskStringStopUTF8(binary.LittleEndian.Uint64(b[i:])); m == 0 {
			i += 8
		} else if j := first(i, m); b[j] != '\\' {
			return j, false
		}
	}
	j, found, esc := stringStopEscBlocks(b, i)
	if found {
		return j, esc
	}
	j, e := stringStopEsc(b, j)
	return j, esc || e
}

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

// The portable forms: the scanner without escapes, and a step over each
// escape it stops at that the scanner with them passes over.

func stringStopEsc(b []byte, i int) (int, bool) {
	esc := false
	for {
		i = stringStopUTF8(b, i)
		if i+1 >= len(b) || b[i] != '\\' || !stringEsc(b[i+1]) {
			return i, esc
		}
		esc = true
		i += 2
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
