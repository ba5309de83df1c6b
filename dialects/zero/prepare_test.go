package zero

import (
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// What translate checks of a Zero line before decoding it: the versions
// Zero writes, its fields' kinds, and the lines of its current output
// that need no more.
func TestPrepareChecksZerosLines(t *testing.T) {
	for raw, want := range map[string]string{
		"2": "", "1": "", "3": "unknown schemaVersion 3 (zevo knows 1 and 2)", `"2"`: `unknown schemaVersion "2" (zevo knows 1 and 2)`,
		"": `Zero event without "schemaVersion"`,
	} {
		sv := gjson.Result{}
		if raw != "" {
			sv = gjson.Parse(raw)
		}
		if got := prepare.Version(sv); got != want {
			t.Errorf("Version(%s) = %q, want %q", raw, got, want)
		}
	}
	if k := prepare.Kinds; k.Kind("delta") != jsonl.KindString || k.Kind("promptTokens") != jsonl.KindInteger || k.Kind("colour") != jsonl.KindAny {
		t.Error("Kind: not Zero's structs' kinds")
	}
	for _, c := range []struct {
		typ, sv string
		want    bool
	}{{"text", "2", true}, {"text", "1", false}, {"text", "", false}, {"message", "2", false}, {"prompt", "2", false}} {
		var sv []byte
		if c.sv != "" {
			sv = []byte(c.sv)
		}
		if got := prepare.Plain(c.typ, sv); got != c.want {
			t.Errorf("Plain(%s, %s) = %v", c.typ, c.sv, got)
		}
	}
}
