package swar

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// escNaive is the definition of the escape-aware scanners, a byte at a
// time from i: the escape at a '\\' that pass gives a length is passed
// over whole; other bytes stop where stop says. esc reports an escape
// passed over, u one of six bytes (a \u).
func escNaive(b []byte, i int, stop func(byte) bool, pass func([]byte, int) int) (j int, esc, u bool) {
	for i < len(b) {
		c := b[i]
		if c == '\\' {
			if n := pass(b, i); n > 0 {
				esc, u = true, u || n == 6
				i += n
				continue
			}
			return i, esc, u
		}
		if c == '"' || stop(c) {
			return i, esc, u
		}
		i++
	}
	return len(b), esc, u
}

// twoByte is the pass of the scanners that pass over the two-byte escapes
// whose second byte ok says.
func twoByte(ok func(byte) bool) func([]byte, int) int {
	return func(b []byte, i int) int {
		if i+1 < len(b) && ok(b[i+1]) {
			return 2
		}
		return 0
	}
}

// stringPass is StringStopEsc's: \", \n, \t, \r, \b, \f, and a \u with
// four hex digits (either case) that is not D800 to DFFF, read with
// strconv.
func stringPass(b []byte, i int) int {
	if n := twoByte(stringEsc)(b, i); n > 0 {
		return n
	}
	if i+6 > len(b) || b[i+1] != 'u' {
		return 0
	}
	for _, c := range b[i+2 : i+6] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(c)) {
			return 0
		}
	}
	r, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 32)
	if err != nil || r >= 0xD800 && r <= 0xDFFF {
		return 0
	}
	return 6
}

type escScanner struct {
	name       string
	fast       func([]byte, int) (int, bool, bool)
	stop       func(byte) bool
	pass       func([]byte, int) int
	reportsEsc bool
}

func noEsc(f func([]byte, int) int) func([]byte, int) (int, bool, bool) {
	return func(b []byte, i int) (int, bool, bool) { return f(b, i), false, false }
}

// escScanners are the escape-aware scanners in both their forms, with
// their definitions; only StringStopEsc reports escapes.
var escScanners = func() []escScanner {
	control := func(c byte) bool { return c < 0x20 || c >= 0x80 }
	py := func(c byte) bool { return c >= 0x7f }
	gostop := func(c byte) bool { return c == '<' || c == '>' || c == '&' || c >= 0x80 }
	restyle := twoByte(restyleEsc)
	return []escScanner{
		{"StringStopEsc", StringStopEsc, control, stringPass, true},
		{"stringStopEsc", stringStopEsc, control, stringPass, true},
		{"SkipPythonEsc", noEsc(SkipPythonEsc), py, restyle, false},
		{"skipPythonEsc", noEsc(skipPythonEsc), py, restyle, false},
		{"SkipGoEsc", noEsc(SkipGoEsc), gostop, restyle, false},
		{"skipGoEsc", noEsc(skipGoEsc), gostop, restyle, false},
	}
}()

func escAgree(t *testing.T, b []byte, i int) {
	t.Helper()
	for _, s := range escScanners {
		got, gotEsc, gotU := s.fast(b, i)
		want, wantEsc, wantU := escNaive(b, i, s.stop, s.pass)
		if !s.reportsEsc {
			wantEsc, wantU = false, false
		}
		if got != want || gotEsc != wantEsc || gotU != wantU {
			t.Fatalf("%s(%q, %d) = %d, %v, %v; want %d, %v, %v", s.name, b, i, got, gotEsc, gotU, want, wantEsc, wantU)
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
		{`aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\u00e9`, 62, true},
		{`aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\ud83d\ude00`, 56, false},
		{`aaaaaaaaaaaaaaaaaaaaaaaa\u003caaaaaaaaaaaaaaaaaa\u00g9aaaaaaaa`, 48, true},
		{"aaaaaaaaaaaaaaaa\\n\taaaaaaaaaaaaaaaaaaaaaaaaaaa", 18, true},
	} {
		for _, f := range []func([]byte, int) (int, bool, bool){StringStopEsc, stringStopEsc} {
			if got, esc, _ := f([]byte(c.in), 0); got != c.want || esc != c.esc {
				t.Errorf("StringStopEsc(%q) = %d, %v; want %d, %v", c.in, got, esc, c.want, c.esc)
			}
		}
	}
}

// The \u escapes StringStopEsc passes over, at every place around the
// edges of the blocks: runs of them, and runs broken by one that is not
// passed over (a bad digit at each of the four places, a surrogate, one
// cut by the end of b), with the string's end or a stop after each.
func TestEscapeScannersHex(t *testing.T) {
	good := []string{`\u003c`, `\u003E`, `\u0026`, `\u00e9`, `\uFFFF`, `\u0000`, `\uD7FF`, `\ud7ff`, `\uE000`, `\ue000`, `\uCfFf`, `\u2028`}
	bad := []string{`\u003`, `\u00`, `\u0`, `\u`, `\ug03c`, `\u0G3c`, `\u00:c`, `\u003/`, "\\u00\x80c", "\\u003\xff",
		`\u@03c`, "\\u003`", `\u003g`, `\uD800`, `\udbff`, `\uDc00`, `\udfff`, `\ud9A0`, `\u\u003c`, `\u003\n`}
	after := []string{"", `"`, "a", `\n`, "\x01", "\xe9", `\\`, `\u003e`}
	// Before them plain text, or escapes of two bytes: a \u after a stop
	// must not count as passed over when an earlier block passed other
	// escapes.
	for _, fill := range []string{"a", `\n`, `\"a`} {
		for n := 0; n <= 36; n++ {
			pre := strings.Repeat(fill, n/len(fill)) + strings.Repeat("a", n%len(fill))
			for _, g := range good {
				for _, x := range append(bad, good...) {
					for _, a := range after {
						for k := 1; k <= 3; k++ {
							b := []byte(pre + strings.Repeat(g, k) + x + a)
							for _, i := range []int{0, max(0, n-1), n} {
								escAgree(t, b, i)
							}
							b = []byte(pre + x + strings.Repeat(g, k) + a)
							escAgree(t, b, 0)
						}
					}
				}
			}
		}
	}
	// Every byte value at each of the four places of the digits.
	for n := 0; n <= 20; n++ {
		for at := 2; at < 6; at++ {
			for v := 0; v < 256; v++ {
				for _, g := range []string{`\u003c`, `\ud83d`} {
					b := []byte(strings.Repeat("a", n) + g + `\u003e` + strings.Repeat("b", 20))
					b[n+at] = byte(v)
					escAgree(t, b, 0)
					b = []byte(strings.Repeat("a", n) + `\u00e9` + g + strings.Repeat("b", 20))
					b[n+6+at] = byte(v)
					escAgree(t, b, 0)
				}
			}
		}
	}
	// Random runs of escapes, some bad.
	rng := rand.New(rand.NewPCG(7, 8))
	pieces := append(append(append([]string{}, good...), bad...), "a", "bcdefgh", `\n`, `\"`, `"`, `\\`, "\xe2\x80\x94")
	for range 50000 {
		var sb strings.Builder
		for range rng.IntN(12) {
			if rng.IntN(3) == 0 {
				sb.WriteString(pieces[rng.IntN(len(pieces))])
			} else {
				sb.WriteString(good[rng.IntN(len(good))])
			}
		}
		b := []byte(sb.String())
		escAgree(t, b, rng.IntN(len(b)+1))
	}
}

func BenchmarkEscapeScanners(b *testing.B) {
	// Code as a tool's output holds it: an escape every dozen bytes.
	text := []byte(strings.Repeat(`if err != nil {\n\treturn \"x\", err\n}\n`, 100))
	for _, f := range []struct {
		name string
		fn   func([]byte, int) int
	}{
		{"StringStopEsc", func(b []byte, i int) int { j, _, _ := StringStopEsc(b, i); return j }},
		{"stringStopEsc (portable)", func(b []byte, i int) int { j, _, _ := stringStopEsc(b, i); return j }},
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

// Hex4 reads exactly what strconv reads as four hex digits: every byte
// value at each place among digits and letters of both cases, and random
// words of bytes near the digits' and letters' edges.
func TestHex4(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		want, err := strconv.ParseUint(string(b), 16, 32)
		ok := err == nil && !strings.ContainsAny(string(b), "+-_xX")
		if !ok {
			want = 0
		}
		if r, got := Hex4(append([]byte("xx"), b...), 2); got != ok || uint64(r) != want {
			t.Fatalf("Hex4(%q) = %#x, %v; want %#x, %v", b, r, got, want, ok)
		}
	}
	for _, fill := range []string{"0000", "9fA0", "dead", "BEEF", "7f8F"} {
		for at := 0; at < 4; at++ {
			for v := 0; v < 256; v++ {
				b := []byte(fill)
				b[at] = byte(v)
				check(b)
			}
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	const edge = "/09:@AFG`afg\x00\x7f\x80\xb0\xc6\xe6\xff"
	for range 200000 {
		var b [4]byte
		for j := range b {
			b[j] = edge[rng.IntN(len(edge))]
		}
		check(b[:])
	}
}
