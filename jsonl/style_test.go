package jsonl

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/zevo/zevo/redact"
)

func TestAppendValueStyles(t *testing.T) {
	for _, tc := range []struct {
		in, goStyle, py string
	}{
		{`{ "a" : [1, 2.50, -0, 1e400, 18446744073709551617] }`, `{"a":[1,2.50,-0,1e400,18446744073709551617]}`, `{"a": [1, 2.50, -0, 1e400, 18446744073709551617]}`},
		{`"<a&b>"`, `"\u003ca\u0026b\u003e"`, `"<a&b>"`},
		{`"\u003ca\u0026b\u003e"`, `"\u003ca\u0026b\u003e"`, `"<a&b>"`},
		{`"café 😀"`, `"café 😀"`, `"caf\u00e9 \ud83d\ude00"`},
		{`"caf\u00e9 \ud83d\ude00"`, `"café 😀"`, `"caf\u00e9 \ud83d\ude00"`},
		{`"lone \ud800 stays"`, `"lone \ud800 stays"`, `"lone \ud800 stays"`},
		{`"\u2028\/\n\"\\"`, `"\u2028/\n\"\\"`, `"\u2028/\n\"\\"`},
		{"\"\u2028\"", `"\u2028"`, `"\u2028"`},
		{`"\u0041\u007f"`, `"A\u007f"`, `"A\u007f"`},
		{`{}`, `{}`, `{}`},
		{`[ ]`, `[]`, `[]`},
		{`null`, `null`, `null`},
	} {
		for _, st := range []struct {
			style Style
			want  string
		}{{GoStyle, tc.goStyle}, {PythonStyle, tc.py}} {
			got, err := AppendValue(nil, []byte(tc.in), st.style, nil)
			if err != nil || string(got) != st.want {
				t.Errorf("AppendValue(%s, style %d) = %s, %v; want %s", tc.in, st.style, got, err, st.want)
			}
			var a, b any
			if json.Unmarshal([]byte(tc.in), &a) == nil && (json.Unmarshal(got, &b) != nil || !equalJSON(a, b)) {
				t.Errorf("value changed: %s → %s", tc.in, got)
			}
		}
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestAppendValueBad(t *testing.T) {
	for _, in := range []string{`{"a":1`, `"open`, `]`, `{"a":1}}`} {
		if _, err := AppendValue(nil, []byte(in), GoStyle, nil); err == nil {
			t.Errorf("AppendValue(%s) accepted malformed JSON", in)
		}
	}
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	if _, err := AppendValue(nil, []byte(deep), GoStyle, nil); !errors.Is(err, ErrDepth) {
		t.Errorf("nesting beyond MaxDepth: %v", err)
	}
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := AppendValue(nil, []byte(ok), GoStyle, nil); err != nil {
		t.Errorf("nesting of MaxDepth: %v", err)
	}
}

func TestAppendValueRedaction(t *testing.T) {
	rd := &redact.Redactor{}
	in := `{"password": {"deep": [1, 2]}, "Api_Key": 5, "tokens": 3, "nested": {"client-secret": "x"}, "s": "Bearer abcdefghijklmnopqrstu", "esc": "api_key=\"abcdefghijklmnop\"", "k\u0065y": "sk-abcdefghijklmnopqrst"}`
	got, err := AppendValue(nil, []byte(in), GoStyle, rd)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"password":"[REDACTED]","Api_Key":"[REDACTED]","tokens":3,"nested":{"client-secret":"[REDACTED]"},"s":"Bearer [REDACTED]","esc":"api_key=[REDACTED]\"","key":"[REDACTED]"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestAppendString(t *testing.T) {
	s := "a\"\\\n\r\t\b\f\x01<é😀\u2028\x7f"
	if got := string(AppendString(nil, s, GoStyle)); got != `"a\"\\\n\r\t\b\f\u0001\u003cé😀\u2028`+"\x7f"+`"` {
		t.Errorf("Go style: %s", got)
	}
	if got := string(AppendString(nil, s, PythonStyle)); got != `"a\"\\\n\r\t\b\f\u0001<\u00e9\ud83d\ude00\u2028\u007f"` {
		t.Errorf("Python style: %s", got)
	}
	for _, st := range []Style{GoStyle, PythonStyle} {
		var back string
		if err := json.Unmarshal(AppendString(nil, s, st), &back); err != nil || back != s {
			t.Errorf("style %d does not round-trip: %q %v", st, back, err)
		}
	}
}
