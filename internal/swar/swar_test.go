package swar

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// naive finds the first index at or after i whose byte stop says to stop.
func naive(b []byte, i int, stop func(byte) bool) int {
	for ; i < len(b); i++ {
		if stop(b[i]) {
			return i
		}
	}
	return len(b)
}

func TestAgainstNaive(t *testing.T) {
	fns := []struct {
		name string
		fast func([]byte, int) int
		stop func(byte) bool
	}{

		{"StringStopUTF8", StringStopUTF8, func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80 }},
		{"QuoteOrBackslash", QuoteOrBackslash, func(c byte) bool { return c == '"' || c == '\\' }},
		{"SkipGo", SkipGo, func(c byte) bool { return c == '\\' || c == '"' || c == '<' || c == '>' || c == '&' || c >= 0x80 }},
		{"SkipPython", SkipPython, func(c byte) bool { return c == '\\' || c == '"' || c >= 0x7f }},
		{"PlainGo", PlainGo, func(c byte) bool {
			return c == '"' || c == '\\' || c < 0x20 || c == '<' || c == '>' || c == '&' || c >= 0x80
		}},
		{"PlainPython", PlainPython, func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= 0x7f }},
		{"SkipRedact", SkipRedact, func(c byte) bool {
			return c == '-' || c == 'i' || c == 'I' || c == 'r' || c == 'R' || c == '\\'
		}},
	}
	// Every byte value at every place of short inputs: the stop in the
	// last, padded word and a borrow next to it.
	for n := 1; n <= 17; n++ {
		for at := 0; at < n; at++ {
			for v := 0; v < 256; v++ {
				b := []byte(strings.Repeat("a", n))
				b[at] = byte(v)
				for _, i := range []int{0, at, n} {
					for _, f := range fns {
						if got, want := f.fast(b, i), naive(b, i, f.stop); got != want {
							t.Fatalf("%s(%q, %d) = %d, want %d", f.name, b, i, got, want)
						}
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	// Mostly harmless letters, with every byte value appearing somewhere.
	for n := 0; n < 20000; n++ {
		b := make([]byte, rng.IntN(40))
		for j := range b {
			b[j] = "abcdefghjklmnopqstuvwxyz 0123456789"[rng.IntN(35)]
			if rng.IntN(12) == 0 {
				b[j] = byte(rng.IntN(256))
			}
		}
		i := 0
		if len(b) > 0 {
			i = rng.IntN(len(b) + 1)
		}
		for _, f := range fns {
			if got, want := f.fast(b, i), naive(b, i, f.stop); got != want {
				t.Fatalf("%s(%q, %d) = %d, want %d", f.name, b, i, got, want)
			}
		}
	}
}

// MayHoldRedactWord is true exactly when some position starts a word
// hasRedactWord names.
func TestMayHoldRedactWord(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	found := 0
	for n := 0; n < 200000; n++ {
		b := make([]byte, rng.IntN(60))
		for j := range b {
			b[j] = "abkpeisABKPEIS-\\u x00247dD"[rng.IntN(26)]
			if rng.IntN(10) == 0 {
				b[j] = byte(rng.IntN(256))
			}
		}
		want := false
		for i := range b {
			want = want || hasRedactWord(b[i:])
		}
		if want {
			found++
		}
		if got := MayHoldRedactWord(b); got != want {
			t.Fatalf("MayHoldRedactWord(%q) = %v, want %v", b, got, want)
		}
	}
	if found < 1000 || found > 190000 {
		t.Fatalf("%d of 200000 inputs hold a word: the test data does not cover both answers", found)
	}
	for _, s := range []string{"sk-", "xxxxxxxxxxxxsk-", "API", "xxxxxxxxxxxxxxxxxaPi", "Bearer", `\u0061`, `\u002d`, `\u002D`, `\u0041`, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxbeA"} {
		if !MayHoldRedactWord([]byte(s)) {
			t.Errorf("MayHoldRedactWord(%q) = false", s)
		}
	}
	for _, s := range []string{"", "sk", "s-k-", "ap i", "piracy rises in the bay", `\n\t\"`, "k-sk_-", `\u00e9\u4e2d\u6587 \u0`, `\u003c\u003e\u0026\u0027`, `\u002`} {
		if MayHoldRedactWord([]byte(s)) {
			t.Errorf("MayHoldRedactWord(%q) = true", s)
		}
	}
}

// benchText is plain ASCII prose: the scanners' common case, a long run
// with nothing to stop at.
func benchText() []byte {
	b := make([]byte, 4096)
	for i := range b {
		b[i] = "the quick brown fox jumps over a lazy dog 0123456789"[i%52]
	}
	return b
}

func BenchmarkScan(b *testing.B) {
	text := benchText()
	for _, f := range []struct {
		name string
		fn   func([]byte, int) int
	}{{"StringStopUTF8", StringStopUTF8}, {"SkipPython", SkipPython}, {"SkipGo", SkipGo}, {"PlainGo", PlainGo}} {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if f.fn(text, 0) != len(text) {
					b.Fatal("stopped early")
				}
			}
		})
	}
	b.Run("MayHoldRedactWord", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if MayHoldRedactWord(text) {
				b.Fatal("found a word")
			}
		}
	})
}
