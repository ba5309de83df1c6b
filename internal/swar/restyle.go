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
	n, j := restylePythonBlocks(dst, src, i)
	return dst[:n], j
}
