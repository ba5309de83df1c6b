package translate

import (
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
