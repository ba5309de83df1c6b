package redact

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// The table states Zero's redaction behaviour (Zero 0.8.0, its
// internal/streamjson rules) case by case: what must go and what must stay.
func TestStringParity(t *testing.T) {
	var rd Redactor
	cases := []struct{ in, want string }{
		// \bsk-[A-Za-z0-9_-]{16,}: replaced whole.
		{"key sk-abcdefghijklmnop end", "key [REDACTED] end"},
		{"sk-proj-abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED]"},
		{"(sk-abcdefghijklmnop_-)", "([REDACTED])"},
		{"sk-abcdefghijklmno", "sk-abcdefghijklmno"}, // 15 characters: too short
		{"task-list and task-runner", "task-list and task-runner"},
		{"ask-abcdefghijklmnopqrst", "ask-abcdefghijklmnopqrst"}, // no word boundary before sk
		{"sk-", "sk-"},
		{"SK-abcdefghijklmnopqrst", "SK-abcdefghijklmnopqrst"}, // case matters
		{"ésk-abcdefghijklmnop", "é[REDACTED]"},                // \b is ASCII: é is not a word character
		// api key assignments: the prefix is kept when it is exactly
		// apiKey=, api_key= or api-key= in any case.
		{"api_key=abcdefghijklmnop1234567890", "api_key=[REDACTED]"},
		{"APIKEY=abcdefghijkl", "APIKEY=[REDACTED]"},
		{"Api-Key=abcdefghijkl rest", "Api-Key=[REDACTED] rest"},
		{"apikey: abcdefghijkl", "[REDACTED]"},                            // ": " is not a kept prefix
		{"api_key = 'abcdefghijkl'", "[REDACTED]'"},                       // the closing quote is outside the match
		{`apiKey: "sk-svcacct-zyxwvutsrq012345"`, `apiKey: "[REDACTED]"`}, // sk- goes first; then too short for api key
		{"api_key=abcdefghijk", "api_key=abcdefghijk"},                    // 11 characters: too short
		{"the api_key: foo setting is documented here", "the api_key: foo setting is documented here"},
		{"the user's apiKey value spans two lines", "the user's apiKey value spans two lines"},
		{"api key=abcdefghijklmnop", "api key=abcdefghijklmnop"}, // a space is not [_-]
		// Kelvin sign: case folding lets it match k; the kept prefix is
		// counted in bytes of the match, so Zero keeps "api\u212ae" only.
		{"api\u212aey=abcdefghijklmnop", "api\u212ae[REDACTED]"},
		// bearer tokens: "Bearer " kept (its own case).
		{"Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9abcdef", "Authorization: Bearer [REDACTED]"},
		{"bearer abcdefghijklmnop", "bearer [REDACTED]"},
		{"BEARER abcdefghijklmnop", "BEARER [REDACTED]"},
		{"Bearer\tabcdefghijklmnop", "[REDACTED]"}, // a tab is \s but not the kept "bearer "
		{"Bearer  abcdefghijklmnop", "Bearer [REDACTED]"},
		{"the bearer of bad news arrived", "the bearer of bad news arrived"},
		{"set the bearer token in the header", "set the bearer token in the header"},
		{"bearer abcdefghijklmno", "bearer abcdefghijklmno"}, // 15 characters
		// patterns apply in order, each to the previous one's result.
		{"Bearer sk-abcdefghijklmnopqrst", "Bearer [REDACTED]"},
		{"", ""},
	}
	for _, c := range cases {
		if got := rd.String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSensitiveKeyParity(t *testing.T) {
	sensitive := []string{
		// every name, in the forms producers write them
		"accessToken", "access_token", "ACCESS-TOKEN", "apiKey", "api_key", "API-KEY", "authorization",
		"Authorization", "bearer", "clientSecret", "client_secret", "credential", "credentials",
		"idToken", "id_token", "password", "PASSWORD", "passwd", "privateKey", "private-key", "pwd",
		"refreshToken", "refresh_token", "secret", "Secret", "token", "TOKEN", "to.ken", " token ",
		// suffixes
		"openaiApiKey", "OPENAI_API_KEY", "githubAccessToken", "oauth_client_secret", "google_id_token",
		"sshPrivateKey", "x-refresh-token",
		// non-ASCII folded as Zero folds it: the Kelvin sign lowercases to k
		"api\u212aey",
	}
	for _, k := range sensitive {
		if !SensitiveKey(k) {
			t.Errorf("SensitiveKey(%q) = false, want true", k)
		}
	}
	kept := []string{
		"promptTokens", "totalTokens", "tokens", "tokenizer", "secrets", "passwords", "authorizationUrl",
		"keys", "key", "api", "apiKeys", "credentialsFile", "bearerFormat", "secretary", "task-list",
		"pwdHash", "", "idTokenExpiry", "privateKeyPath", "tö.ken",
	}
	for _, k := range kept {
		if SensitiveKey(k) {
			t.Errorf("SensitiveKey(%q) = true, want false", k)
		}
	}
}

func TestExtraPatterns(t *testing.T) {
	rd := WithExtra()
	pem := "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"
	cases := []struct{ in, want string }{
		{"token ghp_" + strings.Repeat("a", 36) + " end", "token [REDACTED] end"},
		{"gho_" + strings.Repeat("Z9", 18), "[REDACTED]"},
		{"github_pat_" + strings.Repeat("a1_", 10), "[REDACTED]"},
		{"ghp_short", "ghp_short"},
		{"AKIAIOSFODNN7EXAMPLE", "[REDACTED]"},
		{"id=ASIAABCDEFGHIJKLMNOP;", "id=[REDACTED];"},
		{"AKIAIOSFODNN7EXAMPL", "AKIAIOSFODNN7EXAMPL"}, // 15 after the prefix
		{"xAKIAIOSFODNN7EXAMPLE", "xAKIAIOSFODNN7EXAMPLE"},
		{"before\n" + pem + "\nafter", "before\n[REDACTED]\nafter"},
		{"-----BEGIN PRIVATE KEY-----\nMIIEvQ\n... (truncated)", "[REDACTED]"},
		{"-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"},
		{"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok", "jwt [REDACTED] ok"},
		{"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", "[REDACTED]"},
		{"eyJ.eyJ.x", "eyJ.eyJ.x"},
		{"xoxb-1234567890-abcdef", "[REDACTED]"},
		{"AIza" + strings.Repeat("B", 35), "[REDACTED]"},
		// Zero's rules still apply, first
		{"Bearer abcdefghijklmnop", "Bearer [REDACTED]"},
		{"nothing to see", "nothing to see"},
	}
	for _, c := range cases {
		if got := rd.String(c.in); got != c.want {
			t.Errorf("WithExtra().String(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	var zero Redactor
	for _, c := range cases[:16] {
		if got := zero.String(c.in); got != c.in {
			t.Errorf("Zero's rules changed %q to %q; only WithExtra should", c.in, got)
		}
	}
}

// body is s as the inside of a JSON string, as Go writes it.
func body(s string) []byte {
	b, _ := json.Marshal(s)
	return b[1 : len(b)-1]
}

func FuzzMayMatch(f *testing.F) {
	for _, s := range []string{
		"sk-abcdefghijklmnopqr", `api_key=abcdefghijklmn`, "Bearer abcdefghijklmnopq", "task-list",
		"api\u212aey=abcdefghijklmnop", "ok", `\u0073k-abcdefghijklmnopqr`, `b\u0065arer abcdefghijklmnopq`,
		"github_pat_a1_a1_a1_a1_a1_a1_a1_a1_a1_a1_", "ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "AKIAIOSFODNN7EXAMPLE",
		"-----BEGIN PRIVATE KEY-----\nx", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", "xoxb-1234567890-abc",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, raw bool) {
		var rd Redactor
		var b []byte
		if raw {
			// s is a JSON string body as found in input, escapes and all
			var dec string
			if json.Unmarshal([]byte(`"`+s+`"`), &dec) != nil {
				return
			}
			b, s = []byte(s), dec
		} else {
			b = body(s)
		}
		// The sweep before the scan changes no answer.
		for _, esc := range []bool{false, true} {
			if mayMatch(b, esc) != scanWords(b, esc) {
				t.Fatalf("mayMatch(%q, %v) = %v, the scan alone says %v", b, esc, mayMatch(b, esc), scanWords(b, esc))
			}
		}
		if !rd.MayMatch(b) && rd.String(s) != s {
			t.Fatalf("MayMatch(%q) = false, but String changes %q to %q", b, s, rd.String(s))
		}
		// The needles never skip a string a pattern matches.
		for i, p := range defaultPatterns() {
			if p.MatchString(s) && !defaultNeedles[i](s) {
				t.Fatalf("Zero pattern %d matches %q, its needle misses it", i, s)
			}
		}
		for _, p := range extraPatterns() {
			if p.re.MatchString(s) && !p.mayMatch(s) {
				t.Fatalf("%v matches %q, its needles %q miss it", p.re, s, p.needles)
			}
		}
		out := WithExtra().String(s)
		if strings.Count(out, Marker) < strings.Count(s, Marker) {
			t.Fatalf("String(%q) = %q lost a marker", s, out)
		}
	})
}

// The sweep (swar.MayHoldRedactWord) before the scan changes no answer of
// mayMatch, on text full of the patterns' letters, escapes and words.
func TestSweepSameAsScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	parts := []string{"a", "p", "i", "A", "P", "I", "b", "e", "r", "E", "R", "s", "k", "-", "sk-", "api", "Bearer", "bea",
		`\u0061`, `\u0041`, `\u002d`, `\u002D`, `\u003c`, `\u0026`, `\u006b`, `\n`, `\\`, `\"`, " ", "x", "\u212a", "é", `\u00`}
	hits := 0
	for n := 0; n < 100000; n++ {
		var sb strings.Builder
		for range rng.IntN(24) {
			sb.WriteString(parts[rng.IntN(len(parts))])
		}
		b := []byte(sb.String())
		for _, esc := range []bool{false, true} {
			want := scanWords(b, esc)
			if got := mayMatch(b, esc); got != want {
				t.Fatalf("mayMatch(%q, %v) = %v, the scan alone says %v", b, esc, got, want)
			}
			if want {
				hits++
			}
		}
	}
	if hits < 10000 || hits > 190000 {
		t.Fatalf("%d of 200000 texts may match: the test data does not cover both answers", hits)
	}
}

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
