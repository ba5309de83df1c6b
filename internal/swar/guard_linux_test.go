package swar

import (
	"syscall"
	"testing"
)

// TestNoReadPastTheEnd runs every scanner on inputs that end where an
// unreadable page begins: a load past the end of b is a fault, not a
// wrong answer that the other tests might miss.
func TestNoReadPastTheEnd(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	end := mem[:page]
	// Plain text, and text dense in the \u escapes StringStopEsc passes
	// over, whose blocks look furthest ahead (21 bytes).
	for _, fill := range []string{"abcdefgh sk \\u00", `\u003c\n\u00e9ab`} {
		for j := range end {
			end[j] = fill[j%16]
		}
		for n := 0; n <= 80; n++ {
			for i := 0; i <= n; i++ {
				agree(t, end[page-n:], i)
			}
		}
	}
	// RestylePython, reading to the end of src and writing to the end of
	// dst's room, both before an unreadable page.
	for _, fill := range []string{"abcdefgh sk \\u00", `\u003c\n\u00e9ab`, "x—é\\u003e\\\"中"} {
		for j := range end {
			end[j] = fill[j%len(fill)]
		}
		src := append([]byte(nil), end[page-80:]...)
		for n := 0; n <= 80; n++ {
			restyleAgrees(t, end[page-n:], 0)
			for room := 0; room <= 40; room++ {
				RestylePython(end[page-room:page-room:page], src[80-n:], 0)
			}
		}
	}
}
