package jsonl

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/zevo/zevo/redact"
)

// TestObjectRemembersEachKeysSensitivity: the answers Object remembers
// for the keys it was given are each key's own, whatever keys share its
// slot, and a key read from a buffer that is then overwritten is not
// mistaken for the next key written there.
func TestObjectRemembersEachKeysSensitivity(t *testing.T) {
	keys := []string{"token", "tokem", "apiKey", "api_key", "name", "nam", "password", "passworD", "id", "Authorization", "authorizatioN", "secret", "secrets", "x", "output", "access_token", "type"}
	o := Object{Style: GoStyle, Redact: &redact.Redactor{}, Sorted: true}
	buf := make([]byte, 32)
	for round := range 3 {
		for i := range keys {
			k := keys[(i*7+round)%len(keys)]
			// the key as a view of a buffer that the next key overwrites
			n := copy(buf, k)
			view := unsafe.String(&buf[0], n)
			o.Reset()
			o.Str(view, "plain value")
			got := strings.Contains(string(o.AppendTo(nil)), redact.Marker)
			if want := redact.SensitiveKey(k); got != want {
				t.Errorf("round %d, key %q: redacted %v, want %v", round, k, got, want)
			}
		}
	}
}
