package jsonl_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/bench/corpus"
	. "github.com/zevo/zevo/jsonl"
)

func decodeErr(line string) string {
	var d Decoder
	var o LineObject
	if err := d.Decode([]byte(line), &o); err != nil {
		return err.Error()
	}
	return ""
}

func TestDecodeBadLines(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"type": "text", "content": "x"`, "not valid JSON at byte 32: the line ends inside a value"},
		{`{"type": "text", "content": "x`, "not valid JSON at byte 31: the line ends inside a value"},
		{`{"type": "text",}`, "not valid JSON at byte 17: unexpected '}'"},
		{`{"type" "text"}`, "not valid JSON at byte 9: unexpected '\"'"},
		{`{type: 1}`, "not valid JSON at byte 2: unexpected 't'"},
		{`{"a": tru}`, "not valid JSON at byte 7: unexpected 't'"},
		{`{"a": 01}`, "not valid JSON at byte 8: unexpected '1'"},
		{`{"a": 1.}`, "not valid JSON at byte 9: unexpected '}'"},
		{`{"a": -}`, "not valid JSON at byte 8: unexpected '}'"},
		{`{"a": 1e}`, "not valid JSON at byte 9: unexpected '}'"},
		{`{"a": [1, 2}`, "not valid JSON at byte 12: unexpected '}'"},
		{`{"a": {"b" 1}}`, "not valid JSON at byte 12: unexpected '1'"},
		{`{"a": "x` + "\n" + `y"}`, "not valid JSON at byte 9: control character U+000A in a string (it must be escaped)"},
		{`{"a": "\q"}`, `not valid JSON at byte 8: invalid escape "\\q\"}" in a string`},
		{`{"a": "\u12G4"}`, `not valid JSON at byte 8: invalid escape "\\u12G4" in a string`},
		{`{"a": "\u12`, "not valid JSON at byte 12: the line ends inside a value"},
		{`{"a": 1} x`, "not valid JSON at byte 10: 'x' after the end of the value"},
		{"{\"a\": 1}\x00", "not valid JSON at byte 9: U+0000 after the end of the value"},
		{`{"a": 1}{"b": 2}`, "not valid JSON at byte 9: '{' after the end of the value"},
		{"{\"a\": \"\xff\"}", "invalid UTF-8 at byte 8"},
		{"{\"a\": 1, \xc3(: 2}", "invalid UTF-8 at byte 10"},
		{"\xef\xbb\xbf{\"a\": 1}", "not valid JSON at byte 1: a byte order mark, allowed only at the start of the input"},
		{"\x1b[31m", "not valid JSON at byte 1: unexpected U+001B"},
		{`[1, 2]`, "not a JSON object: an array"},
		{`"text"`, "not a JSON object: a string"},
		{`42`, "not a JSON object: a number"},
		{`null`, "not a JSON object: null"},
		{`true`, "not a JSON object: a boolean"},
		{`{"a": NaN, "b": }`, "not valid JSON at byte 7: unexpected 'N'"},
		{`{"a": Nope}`, "not valid JSON at byte 7: unexpected 'N'"},
		{strings.Repeat("[", MaxDepth+1), "not valid JSON at byte 10001: nested deeper than 10000 levels"},
		{`{"a":` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + "}", "not valid JSON at byte 10005: nested deeper than 10000 levels"},
		{"", "not valid JSON at byte 1: the line ends inside a value"},
	} {
		if got := decodeErr(tc.line); got != tc.want {
			t.Errorf("%.60q:\n got %q\nwant %q", tc.line, got, tc.want)
		}
	}
	// 10000 levels in all are allowed.
	deep := `{"a":` + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1) + "}"
	if got := decodeErr(deep); got != "" {
		t.Errorf("10000 levels: %s", got)
	}
	if got := decodeErr(strings.Repeat("[", 100<<20)); got != "not valid JSON at byte 10001: nested deeper than 10000 levels" {
		t.Errorf("100 MB of '[': %s", got)
	}
}

func TestDecodeNonFinite(t *testing.T) {
	var d Decoder
	var o LineObject
	if err := d.Decode([]byte(`{"type": "tool_call", "args": {"x": NaN, "y": [-Infinity, "NaN"]}, "z": Infinity}`), &o); err != nil {
		t.Fatal(err)
	}
	if strings.Join(o.NonFinite, ",") != "NaN,-Infinity,Infinity" {
		t.Errorf("NonFinite = %q", o.NonFinite)
	}
	if got := o.Get("args").Raw; got != `{"x": null, "y": [null, "NaN"]}` {
		t.Errorf("args = %s", got)
	}
	if o.Get("z").Type != gjson.Null || o.Str("type") != "tool_call" {
		t.Errorf("z = %v, type = %q", o.Get("z"), o.Str("type"))
	}
	// The next line starts clean.
	if err := d.Decode([]byte(`{"a": 1}`), &o); err != nil || len(o.NonFinite) != 0 || o.Raw != `{"a": 1}` {
		t.Errorf("next line: %v %q %q", err, o.NonFinite, o.Raw)
	}
}

func TestDecodeDuplicateKeys(t *testing.T) {
	var d Decoder
	var o LineObject
	if err := d.Decode([]byte(`{"type": "a", "x": 1, "type": "b", "x": 2}`), &o); err != nil {
		t.Fatal(err)
	}
	if o.Dup != "type" || o.Str("type") != "b" || o.Get("x").Raw != "2" || o.Len() != 2 {
		t.Errorf("Dup %q, type %q, x %s, len %d", o.Dup, o.Str("type"), o.Get("x").Raw, o.Len())
	}
	o.Set("x", gjson.Parse("3"))
	if o.Dup != "type" {
		t.Errorf("Set marked a duplicate: %q", o.Dup)
	}
	if err := d.Decode([]byte(`{"a": {"b": 1, "b": 2}}`), &o); err != nil || o.Dup != "" {
		t.Errorf("nested keys are not top-level duplicates: %v %q", err, o.Dup)
	}
}

// The decoder accepts exactly the lines that are valid UTF-8, valid JSON
// (as encoding/json says) and nested at most MaxDepth; and splits an
// object as gjson does.
func checkAsReference(t *testing.T, line []byte) {
	t.Helper()
	var d Decoder
	var o LineObject
	err := d.Decode(line, &o)
	want := utf8.Valid(line) && json.Valid(line) && !TooDeep(line)
	if nf, n := ReplaceNonFinite(line, func(dst []byte, _ string, _ int) []byte { return append(dst, "null"...) }); !want && n > 0 {
		want = utf8.Valid(nf) && json.Valid(nf) && !TooDeep(nf)
		line = nf
	}
	isObj := want && gjson.ParseBytes(line).IsObject()
	if (err == nil) != isObj {
		t.Fatalf("%.80q: Decode error %v, want valid object %v", line, err, isObj)
	}
	if err != nil {
		return
	}
	var keys []string
	vals := map[string]gjson.Result{}
	gjson.ParseBytes(line).ForEach(func(k, v gjson.Result) bool {
		if _, ok := vals[k.Str]; !ok {
			keys = append(keys, k.Str)
		}
		vals[k.Str] = v
		return true
	})
	if o.Len() != len(keys) {
		t.Fatalf("%.80q: %d members, gjson has %d", line, o.Len(), len(keys))
	}
	for i, k := range keys {
		got := o.Get(k)
		w := vals[k]
		if o.Members()[i].Key != k || got.Type != w.Type || got.Raw != w.Raw || got.Str != w.Str || got.Num != w.Num {
			t.Fatalf("%.80q: member %d = %q %+v, gjson has %q %+v", line, i, o.Members()[i].Key, got, k, w)
		}
	}
}

func TestDecodeAsReference(t *testing.T) {
	for _, p := range []corpus.Protocol{corpus.EvoSci, corpus.Zero} {
		var b bytes.Buffer
		if _, err := corpus.Write(&b, corpus.Options{Protocol: p, Size: 256 << 10, Seed: 3}); err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSuffix(b.Bytes(), []byte("\n")), []byte("\n"))
		rng := rand.New(rand.NewPCG(1, 2))
		for _, l := range lines {
			checkAsReference(t, l)
			// Mutations: cut, a byte flipped, a byte dropped.
			m := bytes.Clone(l)
			i := rng.IntN(len(m))
			checkAsReference(t, m[:i])
			const junk = "{}[]\":,\\ x0\x00\xff"
			m[i] = junk[rng.IntN(len(junk))]
			checkAsReference(t, m)
			checkAsReference(t, append(bytes.Clone(l[:i]), l[i+1:]...))
		}
	}
	for _, s := range []string{
		`{}`, ` { } `, `{"a":1}`, "{\t\"a\" :\r\n -1.5e3 , \"b\":[1,{\"c\":\"}\"}], \"d\" : {\"e\":[]} }",
		`{"k\u0065y":"v\"al\\ue","n":null,"t":true,"f":false}`,
		`{"s":"\ud83d\ude00 caf\u00e9","o":{"a":"b\"}"},"arr":["]",{"x":"["}]}`,
		`{"a":"","b":0,"c":-0,"d":1E+2,"e":-0.5e-7}`, `{"a": NaN}`, `[NaN]`, `{"a": "NaN", "b": -Infinity}`,
		`{"a":[]}`, `{"a":[[]]}`, `{"a":{}}`, `{"":""}`,
		`{"a":"x\/y","b":"\\u","c":"\\\/","d":"\u0041","e":"é","f":"plain\n\"q\" <&>","g":"\u007f","i":"\\\\u"}`,
		`{"a":"\u003chtml\u003e\u003cbody\u003e\u0026nbsp;\u003c/body\u003e\u003c/html\u003e","b":"\u003c\u003e"}`,
		"{\"h\":\"\x7f\"}",
	} {
		checkAsReference(t, []byte(s))
	}
	// Escapes at every place of strings across the edges of the scanner's
	// 16-byte blocks: one passed over (\n, \"), one stopped at (\\, \u),
	// and a closing quote after each.
	for n := 0; n < 40; n++ {
		for _, e := range []string{`\n`, `\"`, `\\`, `\\"`, `\u00e9`, `\/`, `\t\"\\`, "é", `\"\"`,
			`\u003c\u003E\u0026`, `\u003c\n`, `\ud83d\ude00`, `\uDC00`, `\ud800x`, `\u00g9`, `\u0:e9`, `\u00e/`, `\u 0e9`, `\u003c\u00e`} {
			for _, fill := range []string{"a", "\\n"} {
				checkAsReference(t, []byte(`{"s":"`+strings.Repeat(fill, n/len(fill))+e+`","t":"`+e+strings.Repeat("b", n)+`"}`))
				checkAsReference(t, []byte(`{"s":"`+strings.Repeat(fill, n/len(fill))+e+`x`+e))
			}
			for m := 0; m < 20; m++ {
				checkAsReference(t, []byte(`{"s":"`+strings.Repeat("a", n)+e+strings.Repeat("b", m)+`"}`))
			}
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"type": "text", "content": "x"}`))
	f.Add([]byte(`{"a": [NaN, {"b": "\u00e9"}], "a": 1}`))
	f.Fuzz(func(t *testing.T, b []byte) { checkAsReference(t, b) })
}
