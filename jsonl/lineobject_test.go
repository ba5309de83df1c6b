package jsonl_test

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	. "github.com/zevo/zevo/jsonl"
)

// LineObject's lookups (a key's length and first byte, then the rest; an
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
	var o LineObject
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

// Objects that keep their members in one MemberArena, one after the
// other, hold the same members as Objects of their own: whether a line
// fits the arena's free places or outgrows them, is repaired (NaN) or
// bad, and when a member is set or removed after the next line is decoded.
func TestMemberArenaAsOwnMembers(t *testing.T) {
	lines := []string{
		`{"type":"text","delta":"a","runId":"r"}`,
		`{}`,
		`{"a":NaN,"b":[1,2],"c":{"d":null}}`,
		`{"a":1,"a":2,"b":"x\ny"}`,
		`not json`,
		`{"a":1,"b":`,
	}
	var big strings.Builder
	big.WriteByte('{')
	for i := range 300 { // outgrows any free places
		if i > 0 {
			big.WriteByte(',')
		}
		big.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
	}
	big.WriteByte('}')
	lines = append(lines, big.String())
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 50 {
		var d Decoder
		var arena []LineMember
		objs := make([]LineObject, 40)
		seq := make([]string, len(objs))
		for i := range objs {
			seq[i] = lines[rng.IntN(len(lines))]
			objs[i].MemberArena = &arena
			d.Decode([]byte(seq[i]), &objs[i])
			if i > 0 && rng.IntN(3) == 0 { // the line before changes after this one is decoded
				objs[i-1].Set("added", gjson.Parse(`"v"`))
				objs[i-1].Del("a")
			}
		}
		for i := range objs {
			var own LineObject
			d.Decode([]byte(seq[i]), &own)
			if i < len(objs)-1 && objs[i].Has("added") {
				own.Set("added", gjson.Parse(`"v"`))
				own.Del("a")
			}
			if got, want := describeMembers(&objs[i]), describeMembers(&own); got != want {
				t.Fatalf("round %d, line %d %.40q: in the arena %s, on its own %s", round, i, seq[i], got, want)
			}
		}
		if round == 0 && len(arena) == 0 {
			t.Fatal("no member was kept in the arena")
		}
	}
}

func describeMembers(o *LineObject) string {
	var b strings.Builder
	for _, m := range o.Members() {
		b.WriteString(strconv.Quote(m.Key) + "=" + m.Raw() + ";")
	}
	return b.String()
}
