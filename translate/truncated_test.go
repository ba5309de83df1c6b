package translate

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestStringHasSuffix(t *testing.T) {
	for _, raw := range []string{
		`"out\n... (truncated)"`,
		`"out\u000a... (truncated)"`,
		`"out\u000A\u002e.. (truncated)"`,
		`"out\n... (truncated\u0029"`,
		`"caf\u00e9\n... (truncated)"`,
		`"\n... (truncated)"`,
		`"out\\n... (truncated)"`,
		`"out... (truncated)"`,
		`"out\n... (truncated) "`,
		`"out\n\n... (truncated)"`,
		`"line\nmore\u00e9"`,
		`"x\n[truncated]"`,
		`"x\u000a[truncated\u005d"`,
		`"x\\u000a[truncated]"`,
		`""`,
		`"é"`,
	} {
		v := gjson.Parse(raw)
		for _, suf := range [][2]string{{evoTruncated, evoTruncatedRaw}, {zeroTruncated, zeroTruncatedRaw}} {
			want := strings.HasSuffix(v.Str, suf[0])
			// peek's view: Str not decoded
			if got := stringHasSuffix(gjson.Result{Type: gjson.String, Raw: raw}, suf[0], suf[1]); got != want {
				t.Errorf("stringHasSuffix(%s, %q) = %v, want %v", raw, suf[0], got, want)
			}
		}
	}
	if stringHasSuffix(gjson.Parse(`5`), zeroTruncated, zeroTruncatedRaw) {
		t.Error("a number has a suffix")
	}
}

// stringHasSuffix agrees with decoding on random strings built from the
// markers' pieces, every way of spelling them, newlines and runs of
// backslashes, long and short.
func TestStringHasSuffixRandom(t *testing.T) {
	parts := []string{`\n`, `\u000a`, `\u000A`, `\\`, `\\\\`, `\\n`, `\u002e`, `...`, `.`, ` `, `(truncated)`, `(truncated\u0029`,
		`[truncated]`, `[truncated\u005d`, `\u005btruncated]`, `x`, `é`, `\u00e9`, `\/`, `abcdefghij`, `\"`,
		strings.Repeat(`\\`, 9), strings.Repeat("long text ", 8)}
	// Each marker with every character spelled as \u: the longest spelling.
	for _, m := range []string{evoTruncated, zeroTruncated} {
		var b strings.Builder
		for _, c := range m[1:] {
			fmt.Fprintf(&b, `\u%04x`, c)
		}
		parts = append(parts, b.String())
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 50000 {
		var b strings.Builder
		b.WriteByte('"')
		for range rng.IntN(40) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		b.WriteByte('"')
		raw := b.String()
		v := gjson.Parse(raw)
		for _, suf := range [][2]string{{evoTruncated, evoTruncatedRaw}, {zeroTruncated, zeroTruncatedRaw}} {
			want := strings.HasSuffix(v.Str, suf[0])
			if got := stringHasSuffix(gjson.Result{Type: gjson.String, Raw: raw}, suf[0], suf[1]); got != want {
				t.Fatalf("stringHasSuffix(%s, %q) = %v, want %v", raw, suf[0], got, want)
			}
		}
	}
}
