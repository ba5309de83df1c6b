// Package otlp tests zevo otel against the OpenTelemetry Collector's own OTLP receiver.
package otlp

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/config/configgrpc"
	"go.opentelemetry.io/collector/config/configoptional"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/receiver/receivertest"

	"github.com/zevo/zevo/cli"
)

// startReceiver starts the Collector's OTLP receiver, HTTP only, on a free
// port of 127.0.0.1, and returns its base URL and the traces it receives.
func startReceiver(t *testing.T) (string, *consumertest.TracesSink) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	f := otlpreceiver.NewFactory()
	cfg := f.CreateDefaultConfig().(*otlpreceiver.Config)
	cfg.GRPC = configoptional.None[configgrpc.ServerConfig]()
	cfg.HTTP.GetOrInsertDefault().ServerConfig.NetAddr.Endpoint = addr
	sink := new(consumertest.TracesSink)
	r, err := f.CreateTraces(context.Background(), receivertest.NewNopSettings(f.Type()), cfg, sink)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background(), componenttest.NewNopHost()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	return "http://" + addr, sink
}

func zevo(t *testing.T, args ...string) string {
	t.Helper()
	var out, errs bytes.Buffer
	if code := cli.Run(append([]string{"zevo"}, args...), strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("zevo %s: exit %d: %s", strings.Join(args, " "), code, errs.String())
	}
	return out.String()
}

// statsReport is what the test reads of zevo stats --json.
type statsReport struct {
	Files []struct {
		File string
		Runs []struct {
			FirstLine int
			Tokens    struct{ Input, Output json.Number }
			Cost      *float64
			Tools     map[string]struct{ Calls int }
		}
	}
}

func samples(t *testing.T) []string {
	var files []string
	for _, g := range []string{"../../testdata/translate/*.jsonl", "../../testdata/inspect/*.jsonl"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 8 {
		t.Fatalf("only %d samples", len(files))
	}
	return files
}

type runKey struct {
	file string
	line string
}

// checkAgainstStats compares the spans received with zevo stats: one
// invoke_agent trace per run with the run's token sums and cost, one
// execute_tool child per tool call.
func checkAgainstStats(t *testing.T, traces []ptrace.Traces, files []string) {
	t.Helper()
	var rep statsReport
	if err := json.Unmarshal([]byte(zevo(t, append([]string{"stats", "--json", "--model", "gpt-4.1"}, files...)...)), &rep); err != nil {
		t.Fatal(err)
	}
	roots := map[runKey]ptrace.Span{}
	tools := map[runKey]int{}
	rootOf := map[[16]byte]runKey{}
	var toolSpans []ptrace.Span
	for _, td := range traces {
		for i := 0; i < td.ResourceSpans().Len(); i++ {
			rs := td.ResourceSpans().At(i)
			file, _ := rs.Resource().Attributes().Get("zevo.source.file")
			for j := 0; j < rs.ScopeSpans().Len(); j++ {
				spans := rs.ScopeSpans().At(j).Spans()
				for k := 0; k < spans.Len(); k++ {
					s := spans.At(k)
					switch {
					case s.Name() == "invoke_agent":
						line, _ := s.Attributes().Get("zevo.source.first_line")
						key := runKey{file.AsString(), line.AsString()}
						if _, dup := roots[key]; dup {
							t.Errorf("two traces for the run at %v", key)
						}
						roots[key] = s
						rootOf[s.TraceID()] = key
					case strings.HasPrefix(s.Name(), "execute_tool "):
						toolSpans = append(toolSpans, s)
					default:
						t.Errorf("unexpected span %q", s.Name())
					}
				}
			}
		}
	}
	for _, s := range toolSpans {
		key, ok := rootOf[s.TraceID()]
		if !ok || roots[key].SpanID() != s.ParentSpanID() {
			t.Errorf("%s is not a child of its run's invoke_agent span", s.Name())
		}
		tools[key]++
	}
	runs := 0
	for _, f := range rep.Files {
		for _, r := range f.Runs {
			runs++
			key := runKey{f.File, big.NewInt(int64(r.FirstLine)).String()}
			s, ok := roots[key]
			if !ok {
				t.Errorf("no trace for the run at %v", key)
				continue
			}
			in, _ := s.Attributes().Get("gen_ai.usage.input_tokens")
			out, _ := s.Attributes().Get("gen_ai.usage.output_tokens")
			if in.AsString() != r.Tokens.Input.String() || out.AsString() != r.Tokens.Output.String() {
				t.Errorf("run %v: tokens %s/%s, zevo stats %s/%s", key, in.AsString(), out.AsString(), r.Tokens.Input, r.Tokens.Output)
			}
			cost, priced := s.Attributes().Get("zevo.cost.usd")
			if priced != (r.Cost != nil) || priced && cost.Double() != *r.Cost {
				t.Errorf("run %v: cost %v, zevo stats %v", key, cost.AsRaw(), r.Cost)
			}
			calls := 0
			for _, c := range r.Tools {
				calls += c.Calls
			}
			if tools[key] != calls {
				t.Errorf("run %v: %d execute_tool spans, zevo stats %d tool calls", key, tools[key], calls)
			}
		}
	}
	if len(roots) != runs || runs < 10 {
		t.Errorf("%d traces for %d runs", len(roots), runs)
	}
}

// TestEndpoint sends every sample to the Collector's OTLP/HTTP receiver and
// reads the spans back.
func TestEndpoint(t *testing.T) {
	url, sink := startReceiver(t)
	files := samples(t)
	zevo(t, append([]string{"otel", "--endpoint", url, "--model", "gpt-4.1"}, files...)...)
	checkAgainstStats(t, sink.AllTraces(), files)
}

// TestOutputFile reads zevo otel --output as the Collector reads OTLP/JSON:
// as an ExportTraceServiceRequest, and posted to the receiver as JSON.
func TestOutputFile(t *testing.T) {
	files := samples(t)
	path := filepath.Join(t.TempDir(), "traces.json")
	zevo(t, append([]string{"otel", "--clock", "synthetic", "--model", "gpt-4.1", "--output", path}, files...)...)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	req := ptraceotlp.NewExportRequest()
	if err := req.UnmarshalJSON(data); err != nil {
		t.Fatalf("not an OTLP/JSON ExportTraceServiceRequest: %v", err)
	}
	checkAgainstStats(t, []ptrace.Traces{req.Traces()}, files)

	url, sink := startReceiver(t)
	resp, err := http.Post(url+"/v1/traces", "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the receiver answered %s", resp.Status)
	}
	deadline := time.Now().Add(5 * time.Second)
	for sink.SpanCount() < req.Traces().SpanCount() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if sink.SpanCount() != req.Traces().SpanCount() {
		t.Fatalf("the receiver took %d spans of %d", sink.SpanCount(), req.Traces().SpanCount())
	}
}
