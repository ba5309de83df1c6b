// Package redact applies zevo's default redaction: sensitive keys lose
// their whole value, and secret-looking text inside strings becomes
// [REDACTED]. The default rules are an agent's own redaction of its
// output, followed to the byte (which, and its cases: the dialect's
// doc.md and tests); WithExtra adds stronger patterns.
package redact

import (
	"regexp"
	"strings"
	"sync"
	"unsafe"

	"github.com/zevo/zevo/internal/swar"
)

// Marker replaces what is redacted.
const Marker = "[REDACTED]"

// defaultPatterns are the default rules, applied one after the other in
// this order.
// Like extraPatterns, they are compiled when a text first needs them, not
// at every start of the program: most texts hold none of the words they
// need, and compiling them all took a fifth of zevo's start-up time.
var defaultPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{16,}`),
		regexp.MustCompile(`(?i)(api[_-]?key)\s*[=:]\s*["']?[A-Za-z0-9._-]{12,}`),
		regexp.MustCompile(`(?i)(bearer\s+)[A-Za-z0-9._-]{16,}`),
	}
})

// keptPrefixes survive at the start of a match.
var keptPrefixes = []string{"apikey=", "api_key=", "api-key=", "bearer "}

var sensitiveNames = map[string]bool{
	"accesstoken": true, "apikey": true, "authorization": true, "bearer": true,
	"clientsecret": true, "credential": true, "credentials": true, "idtoken": true,
	"password": true, "passwd": true, "privatekey": true, "pwd": true,
	"refreshtoken": true, "secret": true, "token": true,
}

var sensitiveSuffixes = []string{"apikey", "clientsecret", "accesstoken", "refreshtoken", "idtoken", "privatekey"}

// defaultNeedles are cheap tests, one per default pattern, that pass every
// string the pattern could match: a long text without them skips the
// regular expression. (?i) folds no other character into a, p, i, b, e
// or r, so an ASCII case-insensitive search is exact.
var defaultNeedles = []func(string) bool{
	func(s string) bool { return strings.Contains(s, "sk-") },
	func(s string) bool { return containsFold(s, "api") },
	func(s string) bool { return containsFold(s, "bearer") },
}

// containsFold reports whether s holds the lowercase ASCII word w in any case.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		j := 0
		for j < len(w) && s[i+j]|0x20 == w[j] {
			j++
		}
		if j == len(w) {
			return true
		}
	}
	return false
}

// Redactor redacts strings and tells sensitive keys. The zero value applies
// exactly the default rules; WithExtra adds zevo's stronger patterns, and Extra
// any others (each whole match is replaced).
type Redactor struct {
	Extra  []*regexp.Regexp
	strong bool
}

// String returns s with every secret pattern replaced.
func (r *Redactor) String(s string) string {
	if len(r.Extra) == 0 && !r.strong && !mayMatch(unsafe.Slice(unsafe.StringData(s), len(s)), false) {
		return s // most text holds none of the words the patterns need
	}
	return r.apply(s)
}

// apply runs every pattern on s.
func (r *Redactor) apply(s string) string {
	for i, p := range defaultPatterns() {
		if !defaultNeedles[i](s) || !p.MatchString(s) {
			continue
		}
		s = p.ReplaceAllStringFunc(s, keepPrefix)
	}
	if r.strong {
		for _, p := range extraPatterns() {
			if p.mayMatch(s) {
				s = p.re.ReplaceAllLiteralString(s, Marker)
			}
		}
	}
	for _, p := range r.Extra {
		s = p.ReplaceAllLiteralString(s, Marker)
	}
	return s
}

// keepPrefix decides as the rules' author does: the lowercased match
// starts with a kept prefix, and that many bytes of the match are kept.
// Case folding makes the two differ for the Kelvin sign (U+212A matches k
// in "(?i)api_key"): a shorter prefix is then kept, as there.
func keepPrefix(match string) string {
	lower := strings.ToLower(match)
	for _, prefix := range keptPrefixes {
		if strings.HasPrefix(lower, prefix) {
			return match[:len(prefix)] + Marker
		}
	}
	return Marker
}

// extraPatterns are secrets the default rules do not look for, replaced whole with
// WithExtra: GitHub tokens, AWS access key ids, PEM private keys (to the end
// of the text when the END line was cut off), JWTs, Slack tokens and Google
// API keys. Each has literals one of which any match holds.
var extraPatterns = sync.OnceValue(func() []extraPattern {
	return []extraPattern{
		{[]string{"gh", "github_pat_"}, regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`)},
		{[]string{"AKIA", "ASIA", "ABIA", "ACCA"}, regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`)},
		{[]string{"PRIVATE KEY-----"}, regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY-----|[\s\S]*)`)},
		{[]string{"eyJ"}, regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`)},
		{[]string{"xox"}, regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`)},
		{[]string{"AIza"}, regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`)},
	}
})

type extraPattern struct {
	needles []string
	re      *regexp.Regexp
}

func (p extraPattern) mayMatch(s string) bool {
	for _, n := range p.needles {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}

// WithExtra returns a Redactor that applies the default rules and then the
// extra patterns.
func WithExtra() *Redactor {
	return &Redactor{strong: true}
}

// MayMatch reports, cheaply, whether String could change s, given as the raw
// bytes of a JSON string body (escapes not decoded). False means certainly
// not; true means decode and look. Every pattern needs "sk-", "api" or
// "bearer" (any case for the last two) in the text; escapes are read as the
// characters they spell, so that \u003c (<) does not count but \u0061 (a)
// does.
func (r *Redactor) MayMatch(raw []byte) bool {
	return len(r.Extra) > 0 || r.strong || mayMatch(raw, true)
}

// mayMatch looks for the words the patterns need in b, a JSON string body
// (escapes read as what they spell) or, without escapes, a text.
func mayMatch(b []byte, escapes bool) bool {
	// One sweep decides most text: without the words' first three
	// characters or a \u escape, no decoding can spell a word.
	return swar.MayHoldRedactWord(b) && scanWords(b, escapes)
}

// scanWords is mayMatch without the sweep: it reads b character by
// character from one candidate letter to the next.
func scanWords(b []byte, escapes bool) bool {
	var w uint64 // the last characters seen, newest in the low byte
	for i := 0; i < len(b); i++ {
		j := swar.SkipRedact(b, i)
		if j >= len(b) {
			return false
		}
		for k := max(i, j-5); k < j; k++ {
			w = w<<8 | uint64(b[k])
		}
		i = j
		c := b[i]
		if c == '\\' && escapes {
			c = 0 // an escape of a character no pattern needs
			if i+5 < len(b) && b[i+1] == 'u' {
				if v, ok := hexASCII(b[i+2 : i+6]); ok {
					c = v
				}
				i += 5
			} else {
				i++
			}
		}
		w = w<<8 | uint64(c)
		switch c | 0x20 {
		case '-' | 0x20:
			if c == '-' && w>>8&0xFFFF == 's'<<8|'k' {
				return true
			}
		case 'i':
			if (w>>8|0x2020)&0xFFFF == 'a'<<8|'p' {
				return true
			}
		case 'r':
			if (w>>8|0x2020202020)&0xFFFFFFFFFF == 'b'<<32|'e'<<24|'a'<<16|'r'<<8|'e' {
				return true
			}
		}
	}
	return false
}

// hexASCII reads four hex digits spelling an ASCII character.
func hexASCII(h []byte) (byte, bool) {
	if h[0] != '0' || h[1] != '0' || h[2] < '0' || h[2] > '7' {
		return 0, false
	}
	var v byte
	switch c := h[3]; {
	case c >= '0' && c <= '9':
		v = c - '0'
	case c >= 'a' && c <= 'f':
		v = c - 'a' + 10
	case c >= 'A' && c <= 'F':
		v = c - 'A' + 10
	default:
		return 0, false
	}
	return (h[2]-'0')<<4 | v, true
}

// SensitiveKey reports whether the default rules redact the whole value
// under key: the key lowercased, with everything but a-z and 0-9 removed,
// is a known name or ends in a known suffix.
func SensitiveKey(key string) bool {
	var buf [64]byte
	n := normalize(buf[:0], key)
	if sensitiveNames[string(n)] {
		return true
	}
	for _, suf := range sensitiveSuffixes {
		if len(n) >= len(suf) && string(n[len(n)-len(suf):]) == suf {
			return true
		}
	}
	return false
}

func normalize(dst []byte, key string) []byte {
	ascii := true
	for i := 0; i < len(key); i++ {
		if key[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if !ascii {
		// strings.ToLower maps some non-ASCII letters to ASCII ones (the
		// Kelvin sign to k), as the rules' normalisation does.
		key = strings.ToLower(key)
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			dst = append(dst, c)
		}
	}
	return dst
}
