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

// TestObjectRemembersStringsByTheirBytes: a short string Str writes as
// it wrote it before only when its bytes are the same, whatever shares
// its slot, a view of a buffer overwritten since included, and secrets
// are redacted each time.
func TestObjectRemembersStringsByTheirBytes(t *testing.T) {
	values := []string{"run_start", "text", "ok", "error", "bash", "read_file", "R", "R.2",
		"ghp_0123456789abcdefghijABCDEFGHIJ012345", "ghp_0123456789abcdefghijABCDEFGHIJ012346",
		"sk-ant-api03-abcdefghijklmnop", "abcdefgh", "abXdefgh", "<&>\u2028\"\\", "caf\u00e9", "", "x\x00y", strings.Repeat("a", 40), strings.Repeat("a", 41)}
	for _, st := range []Style{GoStyle, PythonStyle} {
		rd := &redact.Redactor{}
		o := Object{Style: st, Redact: rd}
		buf := make([]byte, 64)
		for round := range 4 {
			for i := range values {
				v := values[(i*5+round)%len(values)]
				n := copy(buf, v)
				view := ""
				if n > 0 {
					view = unsafe.String(&buf[0], n)
				}
				o.Reset()
				o.Str("v", view)
				want := `{"v":` + string(AppendString(nil, rd.String(v), st)) + `}`
				if st == PythonStyle {
					want = `{"v": ` + string(AppendString(nil, rd.String(v), st)) + `}`
				}
				if got := string(o.AppendTo(nil)); got != want {
					t.Errorf("%v, round %d: %q written %s, want %s", st, round, v, got, want)
				}
			}
		}
	}
}
