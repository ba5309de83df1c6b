package redact

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMayMatchNeverMisses checks the promise of MayMatch: when String
// changes a text, MayMatch is true for every JSON spelling of it.
func TestMayMatchNeverMisses(t *testing.T) {
	var r Redactor
	texts := []string{
		"key sk-abcdefghijklmnopqrstuv end",
		"API_KEY = abcdefghijklmnop",
		"apiKey: 'abcdefghijklmnop'",
		"Authorization: Bearer abcdefghijklmnopqrstu",
		"BEARER\tabcdefghijklmnopqrstu",
		"x<y & api-key=abcdefghijklmnop",
	}
	for _, s := range texts {
		if r.String(s) == s {
			t.Fatalf("test text %q is not redacted", s)
		}
		for _, raw := range spellings(s) {
			if !r.MayMatch([]byte(raw)) {
				t.Errorf("MayMatch(%s) = false, but %q is redacted", raw, s)
			}
		}
	}
}

// spellings are JSON string bodies of s: plain, and with each character
// of s in turn written as a \u escape.
func spellings(s string) []string {
	b, _ := json.Marshal(s)
	out := []string{string(b[1 : len(b)-1])}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f || s[i] == '"' || s[i] == '\\' {
			continue
		}
		esc := `\u00` + strings.ToUpper(string("0123456789abcdef"[s[i]>>4])) + string("0123456789abcdef"[s[i]&15])
		out = append(out, s[:i]+esc+s[i+1:])
	}
	return out
}

// TestMayMatchSkipsHarmless checks that text which cannot match, including
// the escapes Zero writes for <, > and &, is not sent to the patterns.
func TestMayMatchSkipsHarmless(t *testing.T) {
	var r Redactor
	for _, raw := range []string{
		`plain output\nwith lines`,
		`\u003cdiv\u003e a \u0026 b \u003e c`,
		`caf\u00e9 \ud83d\ude00 tasks list`,
		`s\u006b`,
		`ap`,
		``,
	} {
		if r.MayMatch([]byte(raw)) {
			t.Errorf("MayMatch(%s) = true, want false", raw)
		}
	}
	for _, raw := range []string{`\u0073k-`, `a\u0070i`, `BEA\u0052ER`, `xsk-`} {
		if !r.MayMatch([]byte(raw)) {
			t.Errorf("MayMatch(%s) = false, want true", raw)
		}
	}
}

// TestStringSkipsOnlyWhatCannotMatch compares String, which skips texts
// without the patterns' words, with the patterns applied to everything.
func TestStringSkipsOnlyWhatCannotMatch(t *testing.T) {
	parts := []string{"sk-", "SK-", "s", "k", "-", "api", "API", "ap", "i", "_", "key", "KEY", "=", ": ", "'",
		"bearer", "Bearer ", "BEARER\t", "\\", "\\u0061", "é", "\u212a", "abcdefghijklmnop", "0123456789", " ", "task"}
	rng := rand.New(rand.NewPCG(3, 4))
	var r Redactor
	changed := 0
	for n := 0; n < 50000; n++ {
		var b strings.Builder
		for k := rng.IntN(8); k >= 0; k-- {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		got, want := r.String(s), r.apply(s)
		if got != want {
			t.Fatalf("String(%q) = %q, want %q", s, got, want)
		}
		if want != s {
			changed++
		}
	}
	if changed < 100 {
		t.Fatalf("only %d of the random texts hold a secret; the test needs more", changed)
	}
}
