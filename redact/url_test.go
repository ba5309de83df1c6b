package redact

import (
	"strings"
	"testing"
)

// TestURLHidesCredentials: a URL shown in a message keeps its scheme, host
// and path but never its password, a lone user (a token), or the value of
// a query parameter with a sensitive name, whether or not it parses.
func TestURLHidesCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:s3cret@collector:4318/v1/traces": "http://user:xxxxx@collector:4318/v1/traces",
		"https://ghp_s3cret@example.com/otlp":         "https://xxxxx@example.com/otlp",
		"http://collector:4318/v1/traces":             "http://collector:4318/v1/traces",
		"http://host/v1/traces?token=s3cret&x=1":      "http://host/v1/traces?token=xxxxx&x=1",
		"http://host/a@b":                             "http://host/a@b",
		"http://u:s3cret@host/a b%zz":                 "http://xxxxx@host/a b%zz", // does not parse
		"http://u:p@s3cret@host:4318":                 "http://u:xxxxx@host:4318", // an @ in the password
		"http://u:pa/s3cret@host:4318":                "http://xxxxx@host:4318",   // a / in it: not a URL
		"user:s3cret@host:4318":                       "xxxxx@host:4318",          // no scheme
		"localhost:4318":                              "localhost:4318",
		"":                                            "",
	} {
		got := URL(in)
		if got != want || strings.Contains(got, "s3cret") {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}
