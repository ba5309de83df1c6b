package redact

import (
	"strings"
	"testing"
)

func TestURLHidesPassword(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:hunter2@collector:4318/v1/traces": "http://user:xxxxx@collector:4318/v1/traces",
		"https://collector:4318":                       "https://collector:4318",
		"http://user@host/":                            "http://user@host/",
	} {
		if got := URL(in); got != want || strings.Contains(got, "hunter2") {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}
