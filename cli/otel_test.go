package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/zevo/zevo/otel"
)

func TestOtelUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"otel", "--clock", "wall", sampleZero}, `--clock: "wall" is neither read nor synthetic`},
		{[]string{"otel", "--endpoint", "localhost:4318", sampleZero}, `--endpoint: "localhost:4318" is not an http:// or https:// URL`},
		{[]string{"otel", "--endpoint", "http://127.0.0.1:1", "--header", "nokey", sampleZero}, `--header: "nokey" is not KEY=VALUE`},
		{[]string{"otel", "--as", "json", sampleZero}, `--as: unknown protocol`},
	} {
		code, out, errs := run(t, "", c.args...)
		if code != ExitUsage || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, out %q, err %q; want %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestOtelOutput: OTLP/JSON on stdout by default and in --output FILE, the
// same with the synthetic clock; unreadable files and bad lines reported.
func TestOtelOutput(t *testing.T) {
	code, out, errs := run(t, "", "otel", "--clock", "synthetic", sampleZero, sampleEvo)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var u ptrace.JSONUnmarshaler
	td, err := u.UnmarshalTraces([]byte(out))
	if err != nil || td.SpanCount() != 11 || td.ResourceSpans().Len() != 2 {
		t.Fatalf("%v: %d spans in %d resources", err, td.SpanCount(), td.ResourceSpans().Len())
	}
	file := filepath.Join(t.TempDir(), "traces.json")
	if code, _, errs := run(t, "", "otel", "--clock", "synthetic", "--output", file, sampleZero, sampleEvo); code != 0 {
		t.Fatalf("--output: exit %d: %s", code, errs)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != out {
		t.Errorf("--output wrote other bytes than stdout: %v", err)
	}
	code, out, errs = run(t, "{\"type\": \"text\", \"content\": \"hi\"}\nnot json\n", "otel", "-", "no-such-file.jsonl")
	if code != ExitDiagnostics || !strings.Contains(errs, "no-such-file.jsonl") || !strings.Contains(errs, "zevo: <stdin>:2: not valid JSON at byte 1: unexpected 'n' (not exported)\n") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if td, err := u.UnmarshalTraces([]byte(out)); err != nil || td.SpanCount() != 1 {
		t.Errorf("stdin: %v, %s", err, out)
	}
}

// TestOtelEndpoint sends to an OTLP/HTTP server that decodes each request
// with pdata: one request per run, with the headers given; a refused run
// is named with its lines.
func TestOtelEndpoint(t *testing.T) {
	var mu sync.Mutex
	var got []ptrace.Traces
	var fail bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" || r.Header.Get("X-Team") != "a=b" {
			http.Error(w, "bad request "+r.URL.Path, http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if fail {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
			return
		}
		var u ptrace.ProtoUnmarshaler
		td, err := u.UnmarshalTraces(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		got = append(got, td)
	}))
	defer srv.Close()
	code, out, errs := run(t, "", "otel", "--endpoint", srv.URL, "--header", "X-Team=a=b", sampleZero, sampleEvo)
	if code != 0 || out != "" {
		t.Fatalf("exit %d, out %q: %s", code, out, errs)
	}
	if len(got) != 6 {
		t.Fatalf("%d requests, want one per run (6)", len(got))
	}
	for _, td := range got {
		if s := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0); s.Name() != "invoke_agent" {
			t.Errorf("request starts with %q", s.Name())
		}
	}
	mu.Lock()
	fail = true
	mu.Unlock()
	defer func(r []time.Duration) { otel.Retries = r }(otel.Retries)
	otel.Retries = []time.Duration{time.Millisecond}
	code, _, errs = run(t, "", "otel", "--endpoint", srv.URL+"/v1/traces", "--header", "X-Team=a=b", sampleZero)
	if code != ExitDiagnostics || !strings.Contains(errs, sampleZero+":1-15: run run_20260603100000_abc123 not sent: "+srv.URL+"/v1/traces: 503 Service Unavailable overloaded") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

func TestOtelHelp(t *testing.T) {
	code, out, _ := run(t, "", "otel", "--help")
	if code != 0 || !strings.Contains(out, "zevo otel --clock synthetic testdata/translate/basic.zero.jsonl") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	// The help's examples on shipped files run.
	t.Chdir("..")
	ran := 0
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "zevo otel ") || !strings.Contains(line, "testdata/") {
			continue
		}
		args := strings.Fields(line)[1:]
		for i, a := range args {
			if a == "traces.json" {
				args[i] = filepath.Join(t.TempDir(), a)
			}
		}
		code, out, errs := run(t, "", args...)
		ran++
		if code != 0 {
			t.Errorf("%s: exit %d: %s", line, code, errs)
		}
		if out != "" && !json.Valid([]byte(out)) {
			t.Errorf("%s: not JSON", line)
		}
	}
	if ran != 2 {
		t.Errorf("%d examples on shipped files ran, want 2", ran)
	}
}

// TestOtelSignal: SIGINT while zevo otel waits for a live producer exports
// what was read: the run still open, cut short, to the endpoint and with
// every run to --output; then exit 130.
func TestOtelSignal(t *testing.T) {
	bin := zevoBinary(t)
	got := make(chan ptrace.Traces, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var u ptrace.ProtoUnmarshaler
		td, err := u.UnmarshalTraces(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		got <- td
	}))
	defer srv.Close()
	file := filepath.Join(t.TempDir(), "traces.json")
	cmd := exec.Command(bin, "otel", "--endpoint", srv.URL, "--output", file)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := startCmd(t, cmd)
	defer stdin.Close()
	// The first run ends with an error: it goes out when the next run's
	// first event is read, so that event has been read when it arrives.
	io.WriteString(stdin, `{"type": "text", "content": "a"}`+"\n"+`{"type": "error", "message": "boom"}`+"\n"+`{"type": "text", "content": "b"}`+"\n")
	first := <-got
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code := exitCodeOf(t, cmd.Wait())
	if code != ExitInterrupt {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var second ptrace.Traces
	select {
	case second = <-got:
	default:
		t.Fatal("the open run was not sent")
	}
	status := func(td ptrace.Traces) string {
		v, _ := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).Attributes().Get("zevo.run.status")
		return v.AsString()
	}
	if status(first) != "error" || status(second) != "incomplete" {
		t.Errorf("runs sent: %s, %s", status(first), status(second))
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var u ptrace.JSONUnmarshaler
	if td, err := u.UnmarshalTraces(data); err != nil || td.SpanCount() != 2 {
		t.Errorf("--output: %v, %d spans", err, td.SpanCount())
	}
}
