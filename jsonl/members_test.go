package jsonl

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// membersAsGJSON fails the test where Members.Read tells line otherwise
// than the check every command made of a line (a JSON object gjson
// validates, UTF-8, not too deep), or splits it into other members than
// gjson finds.
func membersAsGJSON(t *testing.T, line []byte) {
	t.Helper()
	membersOfAsGJSON(t, &Members{}, line)
}

// membersOfAsGJSON is membersAsGJSON with m, which may hold another
// line's members.
func membersOfAsGJSON(t *testing.T, m *Members, line []byte) {
	t.Helper()
	got := m.Read(line)
	trimmed := bytes.TrimLeft(line, " \t\r\n")
	want := len(trimmed) > 0 && trimmed[0] == '{' && !TooDeep(line) && gjson.ValidBytes(line) && utf8.Valid(line)
	if got != want {
		t.Fatalf("%q: Read %v, want %v", line, got, want)
	}
	if !got {
		return
	}
	i, esc, typ := 0, false, -1
	gjson.ParseBytes(line).ForEach(func(k, v gjson.Result) bool {
		if typ < 0 && k.Raw == `"type"` {
			typ = i
		}
		if i >= len(m.List) {
			t.Fatalf("%q: %d members, gjson has more", line, len(m.List))
		}
		f := m.List[i]
		if string(f.Key) != k.Raw[1:len(k.Raw)-1] || string(f.Value) != v.Raw {
			t.Fatalf("%q: member %d is %s:%s, gjson's %s:%s", line, i, f.Key, f.Value, k.Raw, v.Raw)
		}
		if f.Esc != (v.Type == gjson.String && strings.Contains(v.Raw, `\`)) {
			t.Fatalf("%q: member %d: Esc %v", line, i, f.Esc)
		}
		esc = esc || strings.Contains(k.Raw, `\`)
		i++
		return true
	})
	lens, keys := uint64(0), uint64(0)
	for _, f := range m.List {
		lens, keys = lens|1<<(len(f.Key)&63), keys|KeyBit(f.Key)
	}
	if lens != m.Lens || keys != m.Keys {
		t.Fatalf("%q: Lens %x Keys %x, its keys' %x %x", line, m.Lens, m.Keys, lens, keys)
	}
	if m.Type != typ {
		t.Fatalf("%q: Type %d, the first \"type\" is member %d", line, m.Type, typ)
	}
	if i != len(m.List) || esc != m.EscapedKey {
		t.Fatalf("%q: %d members (escaped key %v), gjson %d (%v)", line, len(m.List), m.EscapedKey, i, esc)
	}
}

var memberCases = []string{
	`{}`, ` { } `, `{"a":1}`, `{"a" : "b" , "c":[1,{"d":null}],"e":{"f":[]},"g":true,"h":false}`,
	`{"typ":1,"types":2,"Type":3,"type":{"type":4},"type":"x"}`, `{"type":1}`, `{"a":{"type":1}}`,
	`{"type": "text", "content": "\u00e9\n\"x\" \/ \\", "id": 0}`, `{"ty\u0070e":"x"}`,
	`{"a":-0.5e+3,"b":0,"c":-1,"d":1E9}`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`, `{"a":1e}`,
	`{"a":tru}`, `{"a":nulls}`, `{"a":"\x"}`, `{"a":"\u12g4"}`, "{\"a\":\"\x01\"}", "{\"a\":\"\xff\"}",
	"{\"a\":\"\xed\xa0\x80\"}", "{\"a\":\"\xe2\x82\"}", "{\"a\":\"\xf0\x9f\x98\x80\"}", `{"a":[1,]}`,
	`{"a":{"b":1,}}`, `{"a":{,}}`, `{"a" 1}`, `{"a":1 "b":2}`, `{"a":1}}`, `{"a":1},`, `{"a":1`,
	`{"a":"b`, `{"a":"b\`, `{"a":`, `{"a"`, `{"`, `{`, ``, ` `, `[]`, `"x"`, `1`, `{"a":NaN}`,
	"\ufeff{}", "{\"a\":1}\x00", `{"a":[[[]]],"b":{"c":{"d":{}}}}`,
	`{"a":` + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1) + `}`,
	`{"a":` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `}`,
	`{"a":"` + strings.Repeat(`x\n\u003c`, 50) + `"}`,
	// Scalars checked by Read itself, broken at every point.
	`{"a":2,"b":true,"c":null,"d":false,"e":-1.5e-2}`, `{"a":t}`, `{"a":fals}`, `{"a":n`, `{"a":2`,
	`{"a":-`, `{"a":x}`, `{"a": }`, `{"a":}`, `{"a":truex}`, `{"a":1.5.}`, `{"a":2 }`, `{"a":+1}`,
}

// Members.Read checks a line as the check it replaces did, and splits it
// as gjson does, on valid, broken and tricky lines.
func TestMembersAsGJSON(t *testing.T) {
	for _, c := range memberCases {
		membersAsGJSON(t, []byte(c))
	}
}

// A Members read again writes each member whole over the last line's:
// every case after every other, from short lines to long and back, so
// that the room kept holds members of another line, escapes and all.
func TestMembersReusedAsGJSON(t *testing.T) {
	var m Members
	for _, a := range memberCases {
		for _, b := range memberCases {
			membersOfAsGJSON(t, &m, []byte(a))
			membersOfAsGJSON(t, &m, []byte(b))
		}
	}
}

func FuzzMembersAsGJSON(f *testing.F) {
	for _, c := range memberCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		membersAsGJSON(t, line)
	})
}
