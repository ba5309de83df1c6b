package protocol_test

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	. "github.com/zevo/zevo/protocol"
)

// Object's lookups (a key's length and first byte, then the rest; an
// index past a few members) against a plain map, on objects with empty
// keys, keys of one length that differ only late, repeated keys, and
// enough members to take the index.
func TestObjectLookupAsMap(t *testing.T) {
	keys := []string{"", "a", "b", "delta", "runId", "deltb", "dalta", "type", "typf", "schemaVersion", "schemaVersioN", "é", "\u00e9x"}
	for i := range 40 {
		keys = append(keys, "k"+strconv.Itoa(i))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var d Decoder
	var o Object
	for n := 0; n < 3000; n++ {
		want := map[string]string{}
		var b strings.Builder
		b.WriteByte('{')
		for i := range rng.IntN(80) {
			k := keys[rng.IntN(len(keys))]
			v := strconv.Itoa(i)
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteString(":" + v)
			want[k] = v // the last of a repeated key stands
		}
		b.WriteByte('}')
		if err := d.Decode([]byte(b.String()), &o); err != nil {
			t.Fatalf("%s: %v", b.String(), err)
		}
		for _, k := range append(keys, "x", "delt", "deltaa") {
			v, ok := want[k]
			if o.Has(k) != ok || o.Peek(k).Raw != v {
				t.Fatalf("%s: key %q: Has %v, Peek %q; want %v, %q", b.String(), k, o.Has(k), o.Peek(k).Raw, ok, v)
			}
		}
	}
}
