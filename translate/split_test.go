package translate

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/bench/corpus"
)

// splitLikeGjson is what decode did before splitObject: gjson's ForEach.
func splitLikeGjson(raw string) []field {
	var ev event
	gjson.Parse(raw).ForEach(func(k, v gjson.Result) bool {
		ev.set(k.Str, v)
		return true
	})
	return ev.fields
}

func checkSplit(t *testing.T, raw string) {
	t.Helper()
	want := splitLikeGjson(raw)
	ev := event{raw: raw}
	if !splitObject(raw, &ev) {
		t.Fatalf("splitObject(%s) = false, want an object", raw)
	}
	if len(ev.fields) != len(want) {
		t.Fatalf("%s: %d fields, gjson has %d", raw, len(ev.fields), len(want))
	}
	for i, w := range want {
		got := ev.get(w.key) // decodes pending strings
		if ev.fields[i].key != w.key || got.Type != w.val.Type || got.Raw != w.val.Raw || got.Str != w.val.Str || got.Num != w.val.Num {
			t.Fatalf("%s: field %d = %q %+v, gjson has %q %+v", raw, i, ev.fields[i].key, got, w.key, w.val)
		}
	}
}

func TestSplitObjectAsGjson(t *testing.T) {
	for _, raw := range []string{
		`{}`,
		` { } `,
		`{"a":1}`,
		"{\t\"a\" :\r\n -1.5e3 , \"b\":[1,{\"c\":\"}\"}], \"d\" : {\"e\":[]} }",
		`{"type":"x","type":"y"}`,
		`{"k\u0065y":"v\"al\\ue","n":null,"t":true,"f":false}`,
		`{"s":"\ud83d\ude00 caf\u00e9","o":{"a":"b\"}"},"arr":["]",{"x":"["}]}`,
		`{"a":"","b":0,"c":-0,"d":1E+2}`,
	} {
		checkSplit(t, raw)
	}
}

func TestSplitObjectNotObject(t *testing.T) {
	for _, raw := range []string{`[]`, `"x"`, `1`, `null`, ` [{"a":1}]`} {
		var ev event
		if splitObject(raw, &ev) {
			t.Errorf("splitObject(%s) = true, want false", raw)
		}
	}
}

func TestSplitObjectCorpus(t *testing.T) {
	for _, p := range []corpus.Protocol{corpus.EvoSci, corpus.Zero} {
		var b bytes.Buffer
		if _, err := corpus.Write(&b, corpus.Options{Protocol: p, Size: 128 << 10, Seed: 9}); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
			checkSplit(t, l)
		}
	}
}

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
