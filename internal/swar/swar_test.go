package swar

import (
	"encoding/binary"
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

type scanner struct {
	name string
	fast func([]byte, int) int
	stop func(byte) bool
}

// scanners are each exported scanner (blocks of 16 bytes on amd64, then
// the portable code) and the portable code alone, with the bytes they stop
// at.
var scanners = func() (fns []scanner) {
	for _, f := range []struct {
		name           string
		fast, portable func([]byte, int) int
		stop           func(byte) bool
	}{
		{"stringStopUTF8", stringStopUTF8, stringStopUTF8, func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80 }},
		{"QuoteOrBackslash", QuoteOrBackslash, QuoteOrBackslash, func(c byte) bool { return c == '"' || c == '\\' }},
		{"skipGo", skipGo, skipGo, func(c byte) bool { return c == '\\' || c == '"' || c == '<' || c == '>' || c == '&' || c >= 0x80 }},
		{"skipPython", skipPython, skipPython, func(c byte) bool { return c == '\\' || c == '"' || c >= 0x7f }},
		{"PlainGo", PlainGo, plainGo, func(c byte) bool {
			return c == '"' || c == '\\' || c < 0x20 || c == '<' || c == '>' || c == '&' || c >= 0x80
		}},
		{"PlainPython", PlainPython, plainPython, func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= 0x7f }},
		{"SkipRedact", SkipRedact, SkipRedact, func(c byte) bool {
			return c == '-' || c == 'i' || c == 'I' || c == 'r' || c == 'R' || c == '\\'
		}},
	} {
		fns = append(fns, scanner{f.name, f.fast, f.stop}, scanner{f.name + " (portable)", f.portable, f.stop})
	}
	return fns
}()

func TestAgainstNaive(t *testing.T) {
	fns := scanners
	// Every byte value at every place of inputs up to two and a half
	// blocks: the stop in a block, in the last, padded word, and a borrow
	// next to it.
	for n := 1; n <= 40; n++ {
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

// mayHoldRedactWords are the implementations of MayHoldRedactWord: the
// exported one (SSE2 blocks on amd64) and the portable one.
var mayHoldRedactWords = []struct {
	name string
	fn   func([]byte) bool
}{{"MayHoldRedactWord", MayHoldRedactWord}, {"mayHoldRedactWord", mayHoldRedactWord}}

// anyRedactWord is MayHoldRedactWord's definition, one position at a time.
func anyRedactWord(b []byte) bool {
	for i := range b {
		if hasRedactWord(b[i:]) {
			return true
		}
	}
	return false
}

// MayHoldRedactWord is true exactly when some position starts a word
// hasRedactWord names.
func TestMayHoldRedactWord(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	found := 0
	for n := 0; n < 200000; n++ {
		b := make([]byte, rng.IntN(60))
		for j := range b {
			b[j] = "abkpeisABKPEIS-\\u x00247dD36|U"[rng.IntN(30)]
			if rng.IntN(10) == 0 {
				b[j] = byte(rng.IntN(256))
			}
		}
		want := anyRedactWord(b)
		if want {
			found++
		}
		for _, f := range mayHoldRedactWords {
			if got := f.fn(b); got != want {
				t.Fatalf("%s(%q) = %v, want %v", f.name, b, got, want)
			}
		}
	}
	if found < 1000 || found > 190000 {
		t.Fatalf("%d of 200000 inputs hold a word: the test data does not cover both answers", found)
	}
	// Each word, escape and near miss at every place of inputs up to
	// three blocks long, among bytes that each begin a word: the edges
	// of the blocks and of the tail.
	pieces := []string{"sk-", "api", "APi", "bea", "bEA", `\u0061`, `\u002d`, `\u002D`, `\u0041`, `\u007f`,
		`\u0046`, `\u0066`, `\u0076`, `\u0056`, `\u002D`,
		"sk", "s-", "ap", "be", `\u003c`, `\u003e`, `\u0026`, `\u0036`, `\u002e`, `\u0`, `\u`, `\`, `|u0061`, `\U0061`}
	for n := 0; n < 52; n++ {
		for at := 0; at < n; at++ {
			for _, p := range pieces {
				for _, fill := range []byte{'x', 's', 'a', 'b', '\\'} {
					b := []byte(strings.Repeat(string(fill), n))
					copy(b[at:], p)
					want := anyRedactWord(b)
					for _, f := range mayHoldRedactWords {
						if got := f.fn(b); got != want {
							t.Fatalf("%s(%q) = %v, want %v", f.name, b, got, want)
						}
					}
				}
			}
		}
	}
	for _, f := range mayHoldRedactWords {
		for _, s := range []string{"sk-", "xxxxxxxxxxxxsk-", "API", "xxxxxxxxxxxxxxxxxaPi", "Bearer", `\u0061`, `\u002d`, `\u002D`, `\u0041`, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxbeA"} {
			if !f.fn([]byte(s)) {
				t.Errorf("%s(%q) = false", f.name, s)
			}
		}
		for _, s := range []string{"", "sk", "s-k-", "ap i", "piracy rises in the bay", `\n\t\"`, "k-sk_-", `\u00e9\u4e2d\u6587 \u0`, `\u003c\u003e\u0026\u0027`, `\u002`} {
			if f.fn([]byte(s)) {
				t.Errorf("%s(%q) = true", f.name, s)
			}
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
	}{
		{"StringStopEsc", func(b []byte, i int) int { j, _, _ := StringStopEsc(b, i); return j }},
		{"SkipPythonEsc", SkipPythonEsc}, {"SkipGoEsc", SkipGoEsc}, {"PlainGo", PlainGo},
	} {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if f.fn(text, 0) != len(text) {
					b.Fatal("stopped early")
				}
			}
		})
	}
	for _, f := range mayHoldRedactWords {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if f.fn(text) {
					b.Fatal("found a word")
				}
			}
		})
	}
}

// agree holds every scanner (from i), the escape-aware ones included, and MayHoldRedactWord, in both their
// forms, to their one-byte-at-a-time definitions on b.
func agree(t *testing.T, b []byte, i int) {
	t.Helper()
	for _, s := range scanners {
		if got, want := s.fast(b, i), naive(b, i, s.stop); got != want {
			t.Fatalf("%s(%q, %d) = %d, want %d", s.name, b, i, got, want)
		}
	}
	escAgree(t, b, i)
	want := anyRedactWord(b)
	for _, m := range mayHoldRedactWords {
		if got := m.fn(b); got != want {
			t.Fatalf("%s(%q) = %v, want %v", m.name, b, got, want)
		}
	}
}

// FuzzScanners runs agree on any input.
func FuzzScanners(f *testing.F) {
	f.Add([]byte(`{"delta":"x \u003e y sk-live","runId":"run_1"}`), 3)
	f.Add([]byte(strings.Repeat("abcdefghijklmnop", 3)+`\`), 0)
	f.Fuzz(func(t *testing.T, b []byte, i int) {
		agree(t, b, max(0, min(i, len(b))))
		restyleAgrees(t, b, max(0, min(i, len(b))))
	})
}

// tail is the bytes from i followed by pad, whatever the bytes before i
// (read as part of the last word of b when b has eight bytes or more).
func TestTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 24; n++ {
		for i := max(0, n-7); i < n; i++ {
			for range 50 {
				b := make([]byte, n)
				for j := range b {
					b[j] = byte(rng.IntN(256))
				}
				var w [8]byte
				binary.LittleEndian.PutUint64(w[:], pad)
				copy(w[:], b[i:])
				if got, want := tail(b, i), binary.LittleEndian.Uint64(w[:]); got != want {
					t.Fatalf("tail(%x, %d) = %#x, want %#x", b, i, got, want)
				}
			}
		}
	}
}
