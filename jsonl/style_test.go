package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
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

// TestUnchanged checks Unchanged against AppendValue: whenever it says a
// value is written as it is, AppendValue writes exactly that.
func TestUnchanged(t *testing.T) {
	rd := &redact.Redactor{}
	for _, raw := range []string{
		`"plain text\nwith escapes \" \\ \t"`, `"caf\u00e9"`, `"café"`, `"a<b"`, `"a\/b"`, `"x sk-abcdefghijklmnopqrstu"`,
		`"ends with backslash\\"`, `"a" "b"`, `"a"b"`, `"\"`, `""`, `"`, `{"a":"b"}`, `5`, `"del` + "\x7f" + `"`,
	} {
		for _, st := range []Style{GoStyle, PythonStyle} {
			for _, r := range []*redact.Redactor{nil, rd} {
				if !Unchanged([]byte(raw), st, r) {
					continue
				}
				got, err := AppendValue(nil, []byte(raw), st, r)
				if err != nil || string(got) != raw {
					t.Errorf("Unchanged(%s, %d, %v) = true, but AppendValue gives %s, %v", raw, st, r != nil, got, err)
				}
			}
		}
	}
	if !Unchanged([]byte(`"plain \n text"`), PythonStyle, rd) || Unchanged([]byte(`"a" "b"`), GoStyle, nil) {
		t.Error("Unchanged is wrong on the obvious cases")
	}
}

// The eight-at-a-time skip writes what the byte-by-byte path writes, on
// random text full of what either style escapes.
func TestAppendStringSkip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	parts := []string{"a", "plain text ", "\"", "\\", "\n", "\x01", "\x1f", "<", ">", "&", "\x7f", "é", "😀", "\u2028", "\u2029", "\xff", "\xe2\x80", "0123456789abcdef"}
	for n := 0; n < 50000; n++ {
		var sb strings.Builder
		for range rng.IntN(20) {
			sb.WriteString(parts[rng.IntN(len(parts))])
		}
		s := sb.String()
		for _, st := range []Style{GoStyle, PythonStyle} {
			if got, want := appendString(nil, s, st, true), appendString(nil, s, st, false); !bytes.Equal(got, want) {
				t.Fatalf("style %d, %q: skipping gives %s, byte by byte %s", st, s, got, want)
			}
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("a\"\\\n\r\t\b\f\x01<é😀\u2028\x7f long enough to skip")
	f.Fuzz(func(t *testing.T, s string) {
		for _, st := range []Style{GoStyle, PythonStyle} {
			if got, want := appendString(nil, s, st, true), appendString(nil, s, st, false); !bytes.Equal(got, want) {
				t.Fatalf("style %d, %q: skipping gives %s, byte by byte %s", st, s, got, want)
			}
		}
	})
}
