package event

import (
	"testing"

	"github.com/tidwall/gjson"
)

// A Line finds a field, and its first value, where gjson does: on
// strings full of escapes and brackets, nested objects holding the same
// keys, keys written twice or escaped, and lines that are not one
// well-formed object.
func TestLineReadsFieldsAsGjson(t *testing.T) {
	keys := []string{"type", "schemaVersion", "session_id", "sessionID", "message", "a", "b"}
	for _, c := range []struct {
		line  string
		plain bool // read by the Line's own pass, not by gjson
	}{
		{`{"type":"text","content":"hi"}`, true},
		{` { "type" : "text" , "schemaVersion" : 2 } `, true},
		{`{"content":"a \"type\": {[ \\","type":"x"}`, true},
		{`{"a":{"type":"inner","schemaVersion":1},"type":"outer"}`, true},
		{`{"a":[1,{"session_id":"s"},"]"],"sessionID":"t"}`, true},
		{`{"type":1,"type":"text"}`, true},
		{`{"type":"text","type":1}`, true},
		{`{"ty\u0070e":"text","schem\u0061Version":2}`, false},
		{`{"type":"text","message":{"id":"m"},"a":null,"b":true,"c":-1.5e3}`, true},
		{`{"type":"text"} trailing`, false},
		{`{"type":"text",}`, false},
		{`{"type":"te`, false},
		{`{"type":"text","a":{"b":"}"`, false},
		{`{"type"}`, false},
		{`{}`, true},
		{`[{"type":"text"}]`, false},
		{`"type"`, false},
		{``, false},
		{`{"type":"a\"b\u0041"}`, true},
		{`{"type":""}`, true},
		{`{"a":1,"schem\u0061Version":2}`, false},
		{`{"a":"\u00e9 \u001b","sessi\u006fn_id":"s"}`, false},
		{`{"a":"x\u00`, false},
		{`{"a":"\u2014 \u001b \\u0041","b":1}`, true},
		{`{"a":1,"ty\u0070e":"x","type":"y"}`, false},
		{`{"type":"y","ty\u0070e":"x"}`, false},
		{`{"type":"y","a":[}`, false},
		{`{"schemaVersion":2,"a":`, false},
		{`{"type":"x","a":"\u00e9\n\t\\","sessionID":"s"}`, true},
	} {
		line := c.line
		l := ReadLine([]byte(line))
		if got := l.scan(); got != c.plain {
			t.Errorf("%s: read plainly %v, want %v", line, got, c.plain)
		}
		for _, k := range keys {
			want := gjson.Get(line, k)
			// A Line asked this key first reads only as far as it.
			if fresh := ReadLine([]byte(line)); fresh.Has(k) != want.Exists() || fresh.Get(k).Raw != want.Raw {
				t.Errorf("%s: asked first, %s: %v %q", line, k, fresh.Has(k), fresh.Get(k).Raw)
			}
			if got := l.Has(k); got != want.Exists() {
				t.Errorf("%s: Has(%s) %v, gjson %v", line, k, got, want.Exists())
			}
			if got := l.Get(k); got.Type != want.Type || got.Raw != want.Raw || got.Str != want.Str {
				t.Errorf("%s: Get(%s) %v %q, gjson %v %q", line, k, got.Type, got.Raw, want.Type, want.Raw)
			}
		}
		typ, ok := l.Type()
		if want := gjson.Get(line, "type"); typ != want.Str || ok != (want.Type == gjson.String) {
			t.Errorf("%s: Type %q %v", line, typ, ok)
		}
	}
}

// A Detector reads a line once for all the dialects it asks: each is
// given the same Line, its type read by the first.
func TestDetectorGivesEveryDialectOneLine(t *testing.T) {
	var got []*Line
	mk := func(name string) *Dialect {
		return &Dialect{Name: name, DetectLine: func(l *Line) Certainty {
			got = append(got, l)
			if typ, ok := l.Type(); ok && typ == name {
				return Sure
			}
			return No
		}}
	}
	a, b := mk("a"), mk("b")
	d := NewDetector([]*Dialect{a, b})
	for line, want := range map[string]*Dialect{`{"type":"a"}`: a, `{"type":"b"}`: b, `{"type":1}`: nil, `[]`: nil} {
		got = got[:0]
		if dl := d.Detect([]byte(line)); dl != want {
			t.Errorf("%s: %v, want %v", line, dl, want)
		}
		if len(got) == 0 || string(got[0].Bytes) != line || got[len(got)-1] != got[0] {
			t.Errorf("%s: the dialects were given %d lines, not one", line, len(got))
		}
	}
}

// A dialect's Detect, for a caller with one line and no Detector, is its
// DetectLine of that line: a dialect writes its detection once.
func TestDialectDetectIsItsDetectLine(t *testing.T) {
	d := &Dialect{Name: "t", DetectLine: func(l *Line) Certainty {
		switch typ, _ := l.Type(); {
		case typ == "mine" && l.Has("id"):
			return Sure
		case typ == "mine":
			return Maybe
		}
		return No
	}}
	for line, want := range map[string]Certainty{
		`{"type":"mine","id":1}`: Sure, `{"id":1,"type":"mine"}`: Sure, `{"type":"mine"}`: Maybe,
		`{"type":"other"}`: No, `["type","mine"]`: No, `not json`: No,
	} {
		if got := d.Detect([]byte(line)); got != want {
			t.Errorf("%s: %v, want %v", line, got, want)
		}
	}
}
