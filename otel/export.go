package otel

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/redact"
)

// Batch gathers the traces of runs into one export request: one resource
// (input) after another, each run's spans added to its input's.
type Batch struct {
	td   Traces
	last *ResourceSpans
	key  string // the last resource's file and service
}

// NewBatch returns an empty batch.
func NewBatch() *Batch { return &Batch{} }

// Add moves the spans of td (as a Tracer emits them) into the batch.
func (b *Batch) Add(td *Traces) {
	for _, rs := range td.Resources {
		file, _ := rs.Attributes.Get("zevo.source.file")
		service, _ := rs.Attributes.Get("service.name")
		key := file.AsString() + "\x00" + service.AsString()
		if len(b.td.Resources) > 0 && key == b.key && len(rs.Scopes) == 1 && len(b.last.Scopes) == 1 {
			b.last.Scopes[0].Spans = append(b.last.Scopes[0].Spans, rs.Scopes[0].Spans...)
			continue
		}
		b.td.Resources = append(b.td.Resources, rs)
		b.last, b.key = rs, key
	}
	td.Resources = nil // moved
}

// Traces returns what the batch holds.
func (b *Batch) Traces() *Traces { return &b.td }

// WriteJSON writes td as OTLP/JSON on one line: an ExportTraceServiceRequest
// (whose JSON form is TracesData's), as the Collector's file exporter
// writes it and its OTLP JSON file receiver reads it.
func WriteJSON(w io.Writer, td *Traces) error {
	_, err := w.Write(append(td.AppendJSON(nil), '\n'))
	return err
}

// TracesURL is where OTLP/HTTP traces go for endpoint: the URL itself, or
// its /v1/traces when it has no path (as OTEL_EXPORTER_OTLP_ENDPOINT).
// Errors show the endpoint with its password hidden.
func TracesURL(endpoint string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // it quotes the URL whole
		}
		return "", fmt.Errorf("%q is not a URL: %v", redact.URL(endpoint), err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", fmt.Errorf("%q is not an http:// or https:// URL", redact.URL(endpoint))
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/traces"
	}
	return u.String(), nil
}

// Retries are the waits before sending again when an OTLP/HTTP endpoint
// answers 429, 502, 503 or 504, or cannot be reached (OTLP's retryable
// cases); a Retry-After of at most 10 seconds replaces the wait.
var Retries = []time.Duration{time.Second, 2 * time.Second}

// Proto is td as the body of an OTLP/HTTP request: an
// ExportTraceServiceRequest (the same message on the wire as TracesData:
// one repeated ResourceSpans, field 1).
func Proto(td *Traces) []byte { return td.AppendProto(nil) }

// Send posts td to an OTLP/HTTP traces URL as protobuf, retrying as
// Retries says, until ctx ends.
func Send(ctx context.Context, client *http.Client, traceURL string, header http.Header, td *Traces) error {
	return sendBody(ctx, client, traceURL, header, Proto(td))
}

func sendBody(ctx context.Context, client *http.Client, traceURL string, header http.Header, body []byte) error {
	for try := 0; ; try++ {
		wait, err := post(ctx, client, traceURL, header, body)
		if err == nil || wait < 0 || try == len(Retries) {
			return err
		}
		if wait == 0 {
			wait = Retries[try]
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// StatusError is an endpoint's answer that is not a success.
type StatusError struct {
	URL    string // shown with its password hidden
	Status string // as "503 Service Unavailable"
	Code   int
	Body   string // its first bytes, made safe to print
}

func (e *StatusError) Error() string {
	return strings.TrimSpace(fmt.Sprintf("%s: %s %s", redact.URL(e.URL), e.Status, e.Body))
}

// safeBody is the start of an answer's body as a message shows it: one
// line, redacted (a server may echo what it was sent).
func safeBody(b []byte) string {
	var red redact.Redactor
	return red.String(inspect.Safe(strings.TrimSpace(string(b))))
}

// rejected reports an answer about the request, not the endpoint: a 4xx
// other than 408 and 429 (the run is too large, malformed, not allowed).
func rejected(err error) bool {
	var serr *StatusError
	return errors.As(err, &serr) && serr.Code/100 == 4 && serr.Code != http.StatusRequestTimeout && serr.Code != http.StatusTooManyRequests
}

// post sends once. On failure, wait is -1 when sending again cannot help,
// else the server's Retry-After (0 when it gave none).
func post(ctx context.Context, client *http.Client, traceURL string, header http.Header, body []byte) (wait time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, traceURL, bytes.NewReader(body))
	if err != nil {
		return -1, fmt.Errorf("%s: %v", redact.URL(traceURL), err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := client.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // it names the URL as the request had it
		}
		return 0, fmt.Errorf("%s: %w", redact.URL(traceURL), err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 == 2 {
		return 0, nil
	}
	err = &StatusError{URL: traceURL, Status: resp.Status, Code: resp.StatusCode, Body: safeBody(msg)}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		if secs, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && secs >= 0 && secs <= 10 {
			return time.Duration(secs) * time.Second, err
		}
		return 0, err
	}
	return -1, err
}

// ErrGaveUp is why a Sender did not send a run: the endpoint failed an
// earlier one.
var ErrGaveUp = errors.New("the endpoint failed on an earlier run")

// Sender sends runs to an OTLP/HTTP endpoint, one request each, in the
// order given. An endpoint that is down is given up on: once it failed a
// run (it could not be reached, did not answer within Timeout, or still
// answered an error after Retries), every later run fails at once with
// ErrGaveUp instead of costing seconds of its own. An answer that rejects
// only the run sent (see rejected) does not count.
type Sender struct {
	URL     string
	Header  http.Header
	Client  *http.Client
	Timeout time.Duration // for one run, retries included; none when 0

	mu   sync.Mutex
	down error // the failure it gave up on
}

// Send sends body, a run as Proto writes it.
func (s *Sender) Send(ctx context.Context, body []byte) error {
	if s.Down() != nil {
		return ErrGaveUp
	}
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	err := sendBody(ctx, s.Client, s.URL, s.Header, body)
	if err == nil || rejected(err) {
		return err
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("%s: no answer within %v", redact.URL(s.URL), s.Timeout)
	}
	s.mu.Lock()
	if s.down == nil {
		s.down = err
	}
	s.mu.Unlock()
	return err
}

// Down is the failure the sender gave up on, nil while it has not.
func (s *Sender) Down() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.down
}
