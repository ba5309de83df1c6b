package otel

import (
	"context"
	"errors"
	"fmt"
	"io"
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

// Send posts td to an OTLP/HTTP traces URL as protobuf, with header's
// fields, retrying as Retries says, until ctx ends.
func Send(ctx context.Context, traceURL string, header Header, td *Traces) error {
	var t transport
	return t.sendBody(ctx, traceURL, header, "zevo", Proto(td))
}

func (t *transport) sendBody(ctx context.Context, traceURL string, header Header, userAgent string, body []byte) error {
	for try := 0; ; try++ {
		wait, err := t.post(ctx, traceURL, header, userAgent, body)
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
	return errors.As(err, &serr) && serr.Code/100 == 4 && serr.Code != 408 && serr.Code != 429
}

// post sends once, following a 307 or 308 redirect (up to maxRedirects) as
// net/http's client does: the same POST to the new URL. On failure, wait is
// -1 when sending again cannot help, else the server's Retry-After (0 when
// it gave none).
func (t *transport) post(ctx context.Context, traceURL string, header Header, userAgent string, body []byte) (wait time.Duration, err error) {
	first, err := url.Parse(traceURL)
	if err != nil || first.Scheme != "http" && first.Scheme != "https" || first.Host == "" {
		return -1, fmt.Errorf("%s: not an http:// or https:// URL", redact.URL(traceURL))
	}
	for _, f := range header {
		if err := CheckHeaderField(f.Name, f.Value); err != nil {
			return -1, fmt.Errorf("%s: %v", redact.URL(traceURL), err)
		}
	}
	// The credentials sent: the user's Authorization, else the URL's
	// userinfo as Basic (as net/http's client sends it).
	var fields Header
	auth := false
	for _, f := range header {
		if !isOneOf(f.Name, ownFields) {
			fields = append(fields, f)
			auth = auth || strings.EqualFold(f.Name, "Authorization")
		}
	}
	if !auth && first.User != nil {
		fields = append(fields, HeaderField{"Authorization", basicAuth(first.User)})
	}
	req := &request{url: first, header: fields, userAgent: userAgent, body: body}
	var a *answer
	for hops := 0; ; hops++ {
		a, err = t.roundTrip(ctx, req)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", redact.URL(traceURL), err)
		}
		if a.code != 307 && a.code != 308 || a.location == "" {
			break
		}
		if hops == maxRedirects {
			return -1, fmt.Errorf("%s: stopped after %d redirects", redact.URL(traceURL), maxRedirects)
		}
		next, perr := req.url.Parse(a.location)
		if perr != nil || next.Scheme != "http" && next.Scheme != "https" || next.Host == "" {
			return 0, fmt.Errorf("%s: malformed answer: %s to %q", redact.URL(traceURL), a.status, redact.URL(shorten(a.location)))
		}
		req = &request{url: next, header: redirectFields(fields, first, next), userAgent: userAgent, body: body}
	}
	if a.code/100 == 2 {
		return 0, nil
	}
	err = &StatusError{URL: traceURL, Status: a.status, Code: a.code, Body: safeBody(a.body)}
	switch a.code {
	case 429, 502, 503, 504: // Too Many Requests, Bad Gateway, Service Unavailable, Gateway Timeout
		if secs, perr := strconv.Atoi(a.retryAfter); perr == nil && secs >= 0 && secs <= 10 {
			return time.Duration(secs) * time.Second, err
		}
		return 0, err
	}
	return -1, err
}

// redirectFields are the fields sent to next when redirected there from
// first: all of them to first's host or a subdomain of it, none of the
// credentials to another host, and the Basic credentials of next's own
// userinfo when it has some.
func redirectFields(fields Header, first, next *url.URL) Header {
	host, nextHost := strings.ToLower(first.Hostname()), strings.ToLower(next.Hostname())
	same := nextHost == host || strings.HasSuffix(nextHost, "."+host)
	var out Header
	for _, f := range fields {
		if same || !isOneOf(f.Name, credentialFields) {
			out = append(out, f)
		}
	}
	if next.User != nil {
		var kept Header
		for _, f := range out {
			if !strings.EqualFold(f.Name, "Authorization") {
				kept = append(kept, f)
			}
		}
		out = append(kept, HeaderField{"Authorization", basicAuth(next.User)})
	}
	return out
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
	URL       string
	Header    Header
	UserAgent string        // "zevo" when empty
	Timeout   time.Duration // for one run, retries included; none when 0

	transport transport
	mu        sync.Mutex
	down      error // the failure it gave up on
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
	userAgent := s.UserAgent
	if userAgent == "" {
		userAgent = "zevo"
	}
	err := s.transport.sendBody(ctx, s.URL, s.Header, userAgent, body)
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
