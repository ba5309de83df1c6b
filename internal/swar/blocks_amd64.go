//go:build !purego

package swar

// Every amd64 processor has SSE2: the scanners look at sixteen bytes at a
// time with the functions of stop_amd64.s and redact_amd64.s, and at the
// last few with the portable code.
const blocks = true

// The functions below return the index of the first byte at or after i
// that the scanner of the same name stops at, and true; or, when there is
// none in the whole blocks of 16 bytes from i, the index of the first byte
// they did not look at, and false.

//go:noescape
func plainPythonBlocks(b []byte, i int) (j int, found bool)

//go:noescape
func plainGoBlocks(b []byte, i int) (j int, found bool)

// redactBlocks returns the first position of b that may start a word
// or escape MayHoldRedactWord looks for, and true; or, when there is none
// among the positions it looked at, the first it did not look at and
// false. It looks at the positions sixteen at a time, while 21 bytes
// remain from the first of them. A hit may also be "|u00", "\U00" and the
// like: the caller checks each with hasRedactWord.
//
//go:noescape
func redactBlocks(b []byte) (i int, hit bool)

// The escape-aware scanners' blocks (escape.go) look at sixteen positions
// at a time while the byte after the last of them remains. When they find
// no stop, the index they return is past an escape begun by the last byte
// they looked at.

// stringStopEscBlocks needs 21 bytes from a block's start, not 17: it
// looks at a \u escape's four hex digits.
//
//go:noescape
func stringStopEscBlocks(b []byte, i int) (j int, found, esc, u bool)

//go:noescape
func skipPythonEscBlocks(b []byte, i int) (j int, found bool)

//go:noescape
func skipGoEscBlocks(b []byte, i int) (j int, found bool)

// restylePythonBlocks is RestylePython's work where the processor has
// SSE2, and with canon RespellPython's: it writes dst[len(dst):cap(dst)]
// and returns the length written to and the index in src it stopped at.
//
//go:noescape
func restylePythonBlocks(dst, src []byte, i int, canon bool) (n, j int)
