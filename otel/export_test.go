package otel

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

func TestTracesURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://localhost:4318":            "http://localhost:4318/v1/traces",
		"http://localhost:4318/":           "http://localhost:4318/v1/traces",
		"https://c.example/otlp/v1/traces": "https://c.example/otlp/v1/traces",
		"localhost:4318":                   "",
		"ftp://x/y":                        "",
		"http://":                          "",
	} {
		got, err := TracesURL(in)
		if got != want || (err != nil) != (want == "") {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestSendRetries: OTLP's retryable answers are retried, others are not.
func TestSendRetries(t *testing.T) {
	defer func(r []time.Duration) { Retries = r }(Retries)
	Retries = []time.Duration{time.Millisecond, time.Millisecond}
	for _, c := range []struct {
		answers []int
		tries   int32
		fail    string
	}{
		{[]int{503, 200}, 2, ""},
		{[]int{429, 502, 200}, 3, ""},
		{[]int{504, 503, 503, 200}, 3, "503 Service Unavailable"},
		{[]int{400, 200}, 1, "400 Bad Request"},
	} {
		var tries atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := tries.Add(1)
			if code := c.answers[n-1]; code != 200 {
				w.Header().Set("Retry-After", "0")
				http.Error(w, "no", code)
			}
		}))
		err := Send(context.Background(), srv.Client(), srv.URL+"/v1/traces", nil, ptrace.NewTraces())
		srv.Close()
		if tries.Load() != c.tries || (err == nil) != (c.fail == "") || err != nil && !strings.Contains(err.Error(), c.fail) {
			t.Errorf("answers %v: %d tries, %v", c.answers, tries.Load(), err)
		}
	}
}
