//go:build !amd64 || purego

package swar

// Elsewhere the scanners are the portable code alone: the block functions
// look at nothing.
const blocks = false

func plainPythonBlocks(b []byte, i int) (int, bool) { return i, false }
func plainGoBlocks(b []byte, i int) (int, bool)     { return i, false }
func redactBlocks(b []byte) (int, bool)             { return 0, false }

func stringStopEscBlocks(b []byte, i int) (int, bool, bool, bool) { return i, false, false, false }
func skipPythonEscBlocks(b []byte, i int) (int, bool)             { return i, false }
func skipGoEscBlocks(b []byte, i int) (int, bool)                 { return i, false }

func restylePythonBlocks(dst, src []byte, i int, canon bool) (int, int) { return len(dst), i }
