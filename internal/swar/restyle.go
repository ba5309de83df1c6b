package swar

// RestylePython appends the text of a JSON string, from src[i] on, to dst
// as Python's json.dumps writes it, for as long as that takes no more
// than a look at a few bytes: plain text; the escapes Python writes as
// they are; \u00XX, as its character when Python writes that (Go's
// \u003c as '<'); two- and three-byte UTF-8 sequences, as \uXXXX. It
// returns at a '"' that ends the string, at anything else it leaves to
// its caller (0x7f, four-byte or bad UTF-8, \/, a \u not \u00XX with two
// hex digits), when fewer than 17 bytes of src are left (a block and the
// byte after it), or when dst has fewer than 17 bytes of room: j is
// where it stopped, which may be i, and never inside an escape. It writes
// in dst's room past what it returns.
//
// Where the processor has no SSE2 blocks (blocks is false), it does
// nothing and returns i: its caller's own loop does the work.
func RestylePython(dst, src []byte, i int) (_ []byte, j int) {
	n, j := restylePythonBlocks(dst, src, i, false)
	return dst[:n], j
}

// RespellPython is RestylePython for a caller that writes the text as
// json.dumps would write it from scratch, whatever its escapes were
// (jsonl.AppendRespelled): a \u00XX that Python writes as an escape is
// written with lower-case digits when it is 0x7f or above, and left to
// the caller when it is a control character, '"' or '\\' (which Python
// writes as \n, \", \\ and the like), not copied as it is; a control
// character written as it is (not JSON, but Python escapes it) is left to
// the caller too.
func RespellPython(dst, src []byte, i int) (_ []byte, j int) {
	n, j := restylePythonBlocks(dst, src, i, true)
	return dst[:n], j
}
