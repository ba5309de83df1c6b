package jsonl

import (
	"testing"

	"github.com/zevo/zevo/redact"
)

// An Object writes each producer's style, redacts every value (a
// sensitive key's whole value, a secret inside a string or a raw value),
// and sorts its keys only when asked.
func TestObjectStylesAndRedacts(t *testing.T) {
	for _, c := range []struct {
		st     Style
		sorted bool
		want   string
	}{
		{GoStyle, true, `{"args":{"cmd":"a \u003c b","token":"[REDACTED]"},"cost":0.1,"n":3,"ok":true,"password":"[REDACTED]","type":"é [REDACTED]"}`},
		{PythonStyle, false, `{"type": "\u00e9 [REDACTED]", "password": "[REDACTED]", "n": 3, "ok": true, "args": {"cmd": "a < b", "token": "[REDACTED]"}, "cost": 0.1}`},
	} {
		o := Object{Style: c.st, Redact: &redact.Redactor{}, Sorted: c.sorted}
		o.Str("type", "é sk-abcdefghijklmnopqrstuvwxyz")
		o.Str("password", "hunter2")
		o.Int("n", 3)
		o.Bool("ok", true)
		o.Raw("args", []byte(`{"cmd": "a < b", "token": "x"}`))
		o.Float("cost", 0.1)
		if got := string(o.AppendTo(nil)); got != c.want || o.Err() != nil {
			t.Errorf("got  %s\nwant %s (err %v)", got, c.want, o.Err())
		}
	}
	var o Object
	o.Raw("bad", []byte(`{"a":`))
	if o.Err() == nil || o.Has("bad") {
		t.Errorf("a malformed raw value was taken")
	}
}

// appendKey writes every key as AppendString does, in both styles: each
// byte alone between plain bytes, and keys of many bytes.
func TestAppendKeyIsAppendString(t *testing.T) {
	keys := []string{"", "type", "runId", "schemaVersion", "a<b", "k\u2028", "\xff", "é", "tab\tkey", `q"uote`, `back\slash`}
	for c := 0; c < 256; c++ {
		keys = append(keys, string([]byte{byte(c)}), "ab"+string([]byte{byte(c)})+"cd")
	}
	for _, st := range []Style{GoStyle, PythonStyle} {
		for _, k := range keys {
			if got, want := appendKey([]byte("x"), k, st), AppendString([]byte("x"), k, st); string(got) != string(want) {
				t.Errorf("style %v, key %q: %s, want %s", st, k, got, want)
			}
		}
	}
}

// keyAfter orders keys as the strings' > does.
func TestKeyAfterIsGreater(t *testing.T) {
	keys := []string{"", "a", "b", "ab", "ba", "runId", "schemaVersion", "type", "delta", "\xff", "A", "aa"}
	for _, a := range keys {
		for _, b := range keys {
			if got := keyAfter(a, b); got != (a > b) {
				t.Errorf("keyAfter(%q, %q) = %v", a, b, got)
			}
		}
	}
}
