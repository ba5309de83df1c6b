package jsonl

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// respellEdges are string bodies (valid JSON) with every kind of escape
// and byte the styles treat apart.
var respellEdges = []string{
	``, `plain`, `a\nb`, `\"q\"`, `\\`, `\/`, `\b\f\r\t`, `\u003c\u003e\u0026`, `\u003C`, `\u0041`,
	`\u0000\u001f\u007f`, `é`, `\u00e9`, `\u2028\u2029`, "\u2028", `\ud83d\ude00`, "😀", `\ud83d`, `\ud83dx`,
	`\ude00\ud83d`, `\ud83d\u0041`, "\x7f", `<a href="x">&amp;</a>`, `\u003cdiv\u003e` + strings.Repeat("x", 40) + `\n`,
	strings.Repeat(`line \u0026 more\n`, 20), strings.Repeat("é\\n", 30), `end\`,
	strings.Repeat("日本語", 40), strings.Repeat("日\\u672c", 30), strings.Repeat(`\ud83d\ude00`, 20),
	`\u0022\u005c\u005C\u000a\u0009\u0008\u000C`, `\u00e9\u00E9\u00Ff\u007F\u0080`, `\\\\\n\\\"`, `—ß中`,
}

// AppendRespelled writes what unescaping the body and writing the text
// with AppendString writes, in both styles.
func TestAppendRespelledIsUnescapeAndString(t *testing.T) {
	for _, st := range []Style{GoStyle, PythonStyle} {
		for _, body := range respellEdges {
			if !validBody(body) {
				continue
			}
			checkRespelled(t, body, st)
		}
	}
}

// Each edge inside long text, at every place in a block of sixteen
// bytes and repeated: Python's spelling of long text is respelled
// sixteen bytes at a time (swar.RespellPython), with the loop of
// AppendRespelled for what the blocks leave to it.
func TestAppendRespelledLongText(t *testing.T) {
	for _, st := range []Style{GoStyle, PythonStyle} {
		for _, e := range respellEdges {
			for _, f := range respellEdges {
				for k := range 18 {
					body := strings.Repeat("x", k) + e + strings.Repeat(e, k%3) + f + strings.Repeat("y", 33-k)
					if validBody(body) {
						checkRespelled(t, body, st)
					}
				}
			}
		}
	}
}

func FuzzAppendRespelled(f *testing.F) {
	for _, body := range respellEdges {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if !validBody(body) {
			t.Skip()
		}
		checkRespelled(t, body, GoStyle)
		checkRespelled(t, body, PythonStyle)
	})
}

// validBody: body is the inside of a string every command takes (what a
// checked line's strings are).
func validBody(body string) bool {
	_, ok := DecodeString([]byte(`"` + body + `"`))
	return ok && utf8.ValidString(body)
}

func checkRespelled(t *testing.T, body string, st Style) {
	t.Helper()
	want := AppendString([]byte("x"), string(AppendUnescapedKeep(nil, body)), st)
	if got := AppendRespelled([]byte("x"), body, st); string(got) != string(want) {
		t.Errorf("style %v, %q:\n got %s\nwant %s", st, body, got, want)
	}
}

// respellBody is a tool's output as Zero spells it: code, with an
// escape every dozen bytes, and some text not in ASCII.
var respellBody = strings.Repeat(`func f(a, b int) bool {\n\tif a \u003c b \u0026\u0026 b \u003e 0 {\n\t\treturn \"é\" != \"x\"\n\t}\n}\n`, 40)

// BenchmarkRespell: the output written in Python's spelling from Zero's,
// against unescaping it and writing the text (the plain way).
func BenchmarkRespell(b *testing.B) {
	b.SetBytes(int64(len(respellBody)))
	b.Run("respelled", func(b *testing.B) {
		var dst []byte
		for b.Loop() {
			dst = AppendRespelled(dst[:0], respellBody, PythonStyle)
		}
	})
	b.Run("unescaped", func(b *testing.B) {
		var dst, text []byte
		for b.Loop() {
			text = AppendUnescapedKeep(text[:0], respellBody)
			dst = AppendString(dst[:0], string(text), PythonStyle)
		}
	})
}
