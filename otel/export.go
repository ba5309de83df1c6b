package otel

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/zevo/zevo/inspect"
)

// Batch gathers the traces of runs into one export request: one resource
// (input) after another, each run's spans added to its input's.
type Batch struct {
	td   ptrace.Traces
	last ptrace.ResourceSpans
	key  string // the last resource's file and service
}

// NewBatch returns an empty batch.
func NewBatch() *Batch { return &Batch{td: ptrace.NewTraces()} }

// Add moves the spans of td (as a Tracer emits them) into the batch.
func (b *Batch) Add(td ptrace.Traces) {
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		rs := rss.At(i)
		file, _ := rs.Resource().Attributes().Get("zevo.source.file")
		service, _ := rs.Resource().Attributes().Get("service.name")
		key := file.AsString() + "\x00" + service.AsString()
		if b.td.ResourceSpans().Len() > 0 && key == b.key && rs.ScopeSpans().Len() == 1 && b.last.ScopeSpans().Len() == 1 {
			rs.ScopeSpans().At(0).Spans().MoveAndAppendTo(b.last.ScopeSpans().At(0).Spans())
			continue
		}
		b.last = b.td.ResourceSpans().AppendEmpty()
		rs.MoveTo(b.last)
		b.key = key
	}
}

// Traces returns what the batch holds.
func (b *Batch) Traces() ptrace.Traces { return b.td }

// WriteJSON writes td as OTLP/JSON on one line: an ExportTraceServiceRequest
// (whose JSON form is TracesData's), as the Collector's file exporter
// writes it and its OTLP JSON file receiver reads it.
func WriteJSON(w io.Writer, td ptrace.Traces) error {
	var m ptrace.JSONMarshaler
	b, err := m.MarshalTraces(td)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// TracesURL is where OTLP/HTTP traces go for endpoint: the URL itself, or
// its /v1/traces when it has no path (as OTEL_EXPORTER_OTLP_ENDPOINT).
func TracesURL(endpoint string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", err
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", fmt.Errorf("%q is not an http:// or https:// URL", endpoint)
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

// Send posts td to an OTLP/HTTP traces URL as protobuf, retrying as
// Retries says. The body is an ExportTraceServiceRequest: pdata's
// TracesData encoding, which is the same message on the wire (one repeated
// ResourceSpans, field 1).
func Send(ctx context.Context, client *http.Client, traceURL string, header http.Header, td ptrace.Traces) error {
	var m ptrace.ProtoMarshaler
	body, err := m.MarshalTraces(td)
	if err != nil {
		return err
	}
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

// post sends once. On failure, wait is -1 when sending again cannot help,
// else the server's Retry-After (0 when it gave none).
func post(ctx context.Context, client *http.Client, traceURL string, header http.Header, body []byte) (wait time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, traceURL, bytes.NewReader(body))
	if err != nil {
		return -1, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 == 2 {
		return 0, nil
	}
	err = fmt.Errorf("%s: %s %s", traceURL, resp.Status, inspect.Safe(strings.TrimSpace(string(msg))))
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		if secs, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && secs >= 0 && secs <= 10 {
			return time.Duration(secs) * time.Second, err
		}
		return 0, err
	}
	return -1, err
}
