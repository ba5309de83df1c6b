package otel

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
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
		err := Send(context.Background(), srv.URL+"/v1/traces", nil, &Traces{})
		srv.Close()
		if tries.Load() != c.tries || (err == nil) != (c.fail == "") || err != nil && !strings.Contains(err.Error(), c.fail) {
			t.Errorf("answers %v: %d tries, %v", c.answers, tries.Load(), err)
		}
	}
}

// TestSenderGivesUpOnADownEndpoint: an endpoint that fails (after its
// retries), refuses connections or hangs past the timeout is tried for
// the first run only; every later run fails at once with ErrGaveUp.
func TestSenderGivesUpOnADownEndpoint(t *testing.T) {
	defer func(r []time.Duration) { Retries = r }(Retries)
	Retries = []time.Duration{time.Millisecond, time.Millisecond}
	hang := make(chan struct{})
	defer close(hang)
	refused := httptest.NewServer(http.NotFoundHandler())
	refused.Close()
	for _, c := range []struct {
		name    string
		handler http.HandlerFunc
		url     string
		want    string
	}{
		{name: "500", handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "broken", 500) }, want: "500 Internal Server Error broken"},
		{name: "503", handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "busy", 503) }, want: "503 Service Unavailable busy"},
		{name: "refused", url: refused.URL + "/v1/traces", want: "connection refused"},
		{name: "hanging", handler: func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // then the server sees the client go
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		}, want: "no answer within 50ms"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var tries atomic.Int32
			u := c.url
			if c.handler != nil {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					tries.Add(1)
					c.handler(w, r)
				}))
				defer srv.Close()
				u = srv.URL + "/v1/traces"
			}
			s := &Sender{URL: u, Timeout: 50 * time.Millisecond}
			done := make(chan struct{})
			go func() {
				defer close(done)
				err := s.Send(context.Background(), []byte("run"))
				if err == nil || errors.Is(err, ErrGaveUp) || !strings.Contains(err.Error(), c.want) {
					t.Errorf("first run: %v, want %q", err, c.want)
				}
				for i := 0; i < 50; i++ {
					if err := s.Send(context.Background(), []byte("run")); !errors.Is(err, ErrGaveUp) {
						t.Errorf("run %d: %v, want ErrGaveUp", i+2, err)
					}
				}
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("sending to a down endpoint did not end")
			}
			if n := tries.Load(); int(n) > len(Retries)+1 {
				t.Errorf("%d requests: the endpoint was tried again after it failed", n)
			}
		})
	}
}

// TestSenderGoesOnAfterARejectedRun: a 4xx answer (other than 429) is about
// that run, not the endpoint: the next run is still sent.
func TestSenderGoesOnAfterARejectedRun(t *testing.T) {
	var tries atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tries.Add(1) == 1 {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
		}
	}))
	defer srv.Close()
	s := &Sender{URL: srv.URL + "/v1/traces", Timeout: 5 * time.Second}
	if err := s.Send(context.Background(), []byte("run")); err == nil || !strings.Contains(err.Error(), "413") {
		t.Errorf("first run: %v", err)
	}
	if err := s.Send(context.Background(), []byte("run")); err != nil || tries.Load() != 2 {
		t.Errorf("second run: %v after %d requests", err, tries.Load())
	}
}

// TestSendErrorsHideThePassword: no error names an endpoint's password,
// whether it answered with an error, could not be reached or is no URL;
// nor a secret its answer echoes.
func TestSendErrorsHideThePassword(t *testing.T) {
	defer func(r []time.Duration) { Retries = r }(Retries)
	Retries = nil
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such key: sk-0123456789abcdef0123", 500) // an answer may echo a secret
	}))
	defer srv.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	for _, base := range []string{srv.URL, closed.URL} {
		u := strings.Replace(base, "http://", "http://zevo:s3cret@", 1) + "/v1/traces"
		err := Send(context.Background(), u, nil, &Traces{})
		if err == nil || strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "sk-0123") || !strings.Contains(err.Error(), "zevo:xxxxx@") {
			t.Errorf("%s: %v", base, err)
		}
	}
	for _, endpoint := range []string{"ftp://zevo:s3cret@host/", "http://zevo:s3cret@host:port/", "zevo:s3cret@host:4318"} {
		if _, err := TracesURL(endpoint); err == nil || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: %v", endpoint, err)
		}
	}
}
