package jsonl

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// AppendUnescaped decodes as gjson does, on strings full of escapes,
// surrogate halves in every order and multi-byte text.
func TestAppendUnescapedAgreesWithGjson(t *testing.T) {
	parts := []string{`a`, `é`, `→`, `\n`, `\t`, `\b`, `\f`, `\r`, `\"`, `\\`, `\/`, `\u0041`, `\u00e9`, `\u2028`,
		`\ud83d`, `\ude00`, `\uD83D\uDE00`, `\uDE00\uD83D`, `\ud800\u0041`, `\uDBFF\uDFFF`, `\u0000`, `x`, ` `}
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(body string) {
		t.Helper()
		want := gjson.Parse(`"` + body + `"`).Str
		if got := string(AppendUnescaped(nil, body)); got != want {
			t.Fatalf("AppendUnescaped(%q) = %q, want %q", body, got, want)
		}
	}
	for _, p := range parts {
		check(p)
	}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		check(b.String())
	}
}

// PlainString is true exactly when both styles write s as it is between
// quotes.
func TestPlainStringAsAppendString(t *testing.T) {
	check := func(s string) {
		t.Helper()
		want := string(AppendString(nil, s, GoStyle)) == `"`+s+`"` && string(AppendString(nil, s, PythonStyle)) == `"`+s+`"`
		if got := PlainString(s); got != want {
			t.Fatalf("PlainString(%q) = %v, want %v", s, got, want)
		}
	}
	for c := range 256 {
		check("ab" + string(rune(c)) + "cd")
		check("ab" + string([]byte{byte(c)}) + "cd")
	}
	for _, s := range []string{"", "runId", "type", "a b", "tool_call_id", "é", "\u2028", "<x>"} {
		check(s)
	}
}
