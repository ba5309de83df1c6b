package jsonl

import (
	"strings"
	"testing"

	"github.com/zevo/zevo/redact"
)

// TestAppendStrValueIsStr holds AppendStrValue and AppendTextValue to
// the value Str writes,
// with and without redaction, under sensitive and plain keys, for
// strings short (the memo) and long, and strings to redact.
func TestAppendStrValueIsStr(t *testing.T) {
	secret := "token sk-ant-api03-" + strings.Repeat("a", 40)
	values := []string{"", "x", "a\"b\\c\n\u2028<&>", "caf\xe9", secret, strings.Repeat("long text ", 10), secret + strings.Repeat(" x", 30)}
	marked := 0
	for _, r := range []*redact.Redactor{nil, {}, redact.WithExtra()} {
		for _, st := range []Style{GoStyle, PythonStyle} {
			for _, key := range []string{"delta", "password", "api_key", "text"} {
				for _, s := range values {
					var o Object
					o.Style, o.Redact = st, r
					for round := 0; round < 2; round++ { // the second from the memo
						o.Reset()
						o.Str(key, s)
						want := string(o.AppendTo(nil))
						sep := ":"
						if st == PythonStyle {
							sep = ": "
						}
						text := func(dst []byte, key, s string) []byte {
							if o.Sensitive(key) {
								return AppendString(dst, redact.Marker, o.Style)
							}
							return o.AppendTextValue(dst, s)
						}
						for _, value := range []func([]byte, string, string) []byte{o.AppendStrValue, text} {
							got := `{"` + key + `"` + sep + string(value(nil, key, s)) + `}`
							if strings.Contains(got, redact.Marker) {
								marked++
							}
							if got != want {
								t.Errorf("redactor %v, style %v, %s=%q:\n got %s\nwant %s", r != nil, st, key, s, got, want)
							}
						}
					}
				}
			}
		}
	}
	if marked == 0 {
		t.Error("no value was redacted: the cases test nothing of redaction")
	}
}
