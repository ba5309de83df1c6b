package translate

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

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
	var s scanner
	if valid, object := s.line(raw, &ev); !valid || !object {
		t.Fatalf("scanner.line(%s) = %v, %v, want a valid object", raw, valid, object)
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

func TestScanAsGjson(t *testing.T) {
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

func TestScanNotObject(t *testing.T) {
	for _, raw := range []string{`[]`, `"x"`, `1`, `null`, ` [{"a":1}]`} {
		var ev event
		var s scanner
		if valid, object := s.line(raw, &ev); !valid || object {
			t.Errorf("scanner.line(%s) = %v, %v, want valid, not an object", raw, valid, object)
		}
	}
}

func TestScanCorpus(t *testing.T) {
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

// TestScanValidAsGjson checks that the scanner accepts exactly what
// gjson.Valid accepts, on hand-picked cases and on random mutations of
// valid lines.
func TestScanValidAsGjson(t *testing.T) {
	cases := []string{
		``, ` `, `{`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{,"a":1}`, `{"a":1 "b":2}`, `{"a" 1}`,
		`[1,]`, `[,1]`, `[1 2]`, `[[[]]]`, `[[[]]`, `[]]`, `{"a":[}`, `{"a":{]}`, `{"a":{"b":1}}}`,
		`01`, `-`, `-01`, `1.`, `1.e5`, `.5`, `1e`, `1e+`, `1E-7`, `-0.0e-0`, `+1`, `0x10`, `1_000`,
		`tru`, `truex`, `nul`, `falsey`, `NaN`, `{"a":NaN}`, `Infinity`, `{"a":-Infinity}`,
		`"\u12"`, `"\u12G4"`, `"\x41"`, `"a\"`, `"\\"`, "\"tab\there\"", "\"nl\nhere\"", `"\/"`,
		`{"a":1}x`, `{"a":1} `, " \t\r\n{}\n", `{"":""}`, `{"a":[1,{"b":[true,false,null]}]}`,
		`{"\u0074ype":"x"}`, "{\"a\":\"\xff\"}", "{\"a\":\"caf\xc3\xa9\"}", "{\"a\":\"\xc3\"}", "{\"\xed\xa0\x80\":1}", "\xef\xbb\xbf{}", `"x"`, `"`, `{"a":"b}`, `[`, `]`, `{"a":1}{"b":2}`, `{"a":[{}, []]}`,
	}
	const mutations = "{}[]\",:\\ u0e-.t"
	rng := rand.New(rand.NewPCG(5, 6))
	var b bytes.Buffer
	corpus.Write(&b, corpus.Options{Protocol: corpus.EvoSci, Size: 16 << 10, Seed: 2})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	for n := 0; n < 3000; n++ {
		l := []byte(lines[rng.IntN(len(lines))])
		for k := rng.IntN(3); k >= 0 && len(l) > 0; k-- {
			p := rng.IntN(len(l))
			switch rng.IntN(3) {
			case 0:
				l[p] = mutations[rng.IntN(len(mutations))]
			case 1:
				l = append(l[:p], l[p+1:]...)
			default:
				l = l[:p]
			}
		}
		cases = append(cases, string(l))
	}
	var s scanner
	for _, c := range cases {
		var ev event
		valid, object := s.line(c, &ev)
		if want := gjson.Valid(c) && utf8.ValidString(c); valid != want {
			t.Errorf("scanner.line(%q) valid = %v, gjson.Valid and utf8.Valid = %v", c, valid, want)
		} else if valid && object != gjson.Parse(c).IsObject() {
			t.Errorf("scanner.line(%q) object = %v", c, object)
		}
	}
}
