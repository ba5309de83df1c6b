package swar

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// escNaive is the definition of the escape-aware scanners, a byte at a
// time from i: a '\\' followed by a byte pass says to pass over is passed
// over with that byte; other bytes stop where stop says.
func escNaive(b []byte, i int, stop, pass func(byte) bool) (int, bool) {
	esc := false
	for i < len(b) {
		c := b[i]
		if c == '\\' {
			if i+1 < len(b) && pass(b[i+1]) {
				esc = true
				i += 2
				continue
			}
			return i, esc
		}
		if c == '"' || stop(c) {
			return i, esc
		}
		i++
	}
	return len(b), esc
}

type escScanner struct {
	name       string
	fast       func([]byte, int) (int, bool)
	stop, pass func(byte) bool
	reportsEsc bool
}

func noEsc(f func([]byte, int) int) func([]byte, int) (int, bool) {
	return func(b []byte, i int) (int, bool) { return f(b, i), false }
}

// escScanners are the escape-aware scanners in both their forms, with
// their definitions; only StringStopEsc reports escapes.
var escScanners = func() []escScanner {
	control := func(c byte) bool { return c < 0x20 || c >= 0x80 }
	py := func(c byte) bool { return c >= 0x7f }
	gostop := func(c byte) bool { return c == '<' || c == '>' || c == '&' || c >= 0x80 }
	return []escScanner{
		{"StringStopEsc", StringStopEsc, control, stringEsc, true},
		{"stringStopEsc", stringStopEsc, control, stringEsc, true},
		{"SkipPythonEsc", noEsc(SkipPythonEsc), py, restyleEsc, false},
		{"skipPythonEsc", noEsc(skipPythonEsc), py, restyleEsc, false},
		{"SkipGoEsc", noEsc(SkipGoEsc), gostop, restyleEsc, false},
		{"skipGoEsc", noEsc(skipGoEsc), gostop, restyleEsc, false},
	}
}()

func escAgree(t *testing.T, b []byte, i int) {
	t.Helper()
	for _, s := range escScanners {
		got, gotEsc := s.fast(b, i)
		want, wantEsc := escNaive(b, i, s.stop, s.pass)
		if !s.reportsEsc {
			wantEsc = false
		}
		if got != want || gotEsc != wantEsc {
			t.Fatalf("%s(%q, %d) = %d, %v; want %d, %v", s.name, b, i, got, gotEsc, want, wantEsc)
		}
	}
}

// escBytes are the bytes the escape-aware scanners treat apart.
const escBytes = "\\\"nutrbf/<>&a\x1f\x7f\x80\xe9"

func TestEscapeScanners(t *testing.T) {
	// Two bytes of interest at every pair of places in inputs up to two
	// and a half blocks, in a filler that is plain or an escape's second
	// byte: an escape across the edge of a block, and a stop after it.
	for n := 1; n <= 40; n++ {
		for _, fill := range []string{"a", "n", "\""} {
			for at := 0; at < n; at++ {
				for at2 := at; at2 < min(n, at+3); at2++ {
					for _, v := range []byte(escBytes) {
						for _, v2 := range []byte(escBytes) {
							b := []byte(strings.Repeat(fill, n))
							b[at], b[at2] = v, v2
							for _, i := range []int{0, 1, at, n} {
								escAgree(t, b, min(i, n))
							}
						}
					}
				}
			}
		}
	}
	// Every byte value after a '\\' at every place.
	for n := 2; n <= 40; n++ {
		for at := 0; at+1 < n; at++ {
			for v := 0; v < 256; v++ {
				b := []byte(strings.Repeat("a", n))
				b[at], b[at+1] = '\\', byte(v)
				escAgree(t, b, 0)
			}
		}
	}
	// Runs of backslashes and escapes, long enough for many blocks.
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100000 {
		b := make([]byte, rng.IntN(80))
		for j := range b {
			b[j] = `\\\\"nnua/bb<xyz`[rng.IntN(15)]
			if rng.IntN(20) == 0 {
				b[j] = byte(rng.IntN(256))
			}
		}
		escAgree(t, b, rng.IntN(len(b)+1))
	}
}

// A scanner that passes over escapes still stops at every '\\' of a run
// and reports the escapes it passed over, exactly: the two places a
// quote-and-backslash scanner gets wrong.
func TestEscapeScannersCases(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		esc  bool
	}{
		{`abc\"def"`, 8, true},
		{`abc\\"def"`, 3, false},
		{`\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"`, 40, true},
		{`aaaaaaaaaaaaaaa\"aaaaaaaaaaaaaaaaaaaaaa"`, 39, true},
		{`aaaaaaaaaaaaaaaa\\"aaaaaaaaaaaaaaaaaaaaaa"`, 16, false},
		{`aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"\n`, 33, false},
		{`aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\u00e9`, 56, false},
		{"aaaaaaaaaaaaaaaa\\n\taaaaaaaaaaaaaaaaaaaaaaaaaaa", 18, true},
	} {
		for _, f := range []func([]byte, int) (int, bool){StringStopEsc, stringStopEsc} {
			if got, esc := f([]byte(c.in), 0); got != c.want || esc != c.esc {
				t.Errorf("StringStopEsc(%q) = %d, %v; want %d, %v", c.in, got, esc, c.want, c.esc)
			}
		}
	}
}

func BenchmarkEscapeScanners(b *testing.B) {
	// Code as a tool's output holds it: an escape every dozen bytes.
	text := []byte(strings.Repeat(`if err != nil {\n\treturn \"x\", err\n}\n`, 100))
	for _, f := range []struct {
		name string
		fn   func([]byte, int) int
	}{
		{"StringStopEsc", func(b []byte, i int) int { j, _ := StringStopEsc(b, i); return j }},
		{"stringStopEsc (portable)", func(b []byte, i int) int { j, _ := stringStopEsc(b, i); return j }},
		{"SkipPythonEsc", SkipPythonEsc}, {"skipPythonEsc (portable)", skipPythonEsc},
		{"SkipGoEsc", SkipGoEsc}, {"skipGoEsc (portable)", skipGoEsc},
	} {

		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				// As a caller does: past each stop, on to the next.
				for i := 0; i < len(text); i++ {
					i = f.fn(text, i)
					if i < len(text) && text[i] == '\\' {
						i++
					}
				}
			}
		})
	}
}
