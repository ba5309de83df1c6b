package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
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
		{[]string{"otel", "--as", "json", sampleZero}, `--as: unknown dialect "json"`},
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
	if code != ExitDiagnostics || !strings.Contains(errs, "no-such-file.jsonl") || !strings.Contains(errs, "<stdin>:2: not valid JSON at byte 1: unexpected 'n' (not exported)\n") {
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

// zeroRuns is n Zero runs, each ended (run_end) when ended is set, else
// cut short by the next run's start.
func zeroRuns(n int, ended bool) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("run_20260603100000_%06x", i)
		fmt.Fprintf(&b, `{"type":"run_start","runId":%q,"schemaVersion":2,"model":"gpt-4.1","provider":"openai"}`+"\n", id)
		if ended {
			fmt.Fprintf(&b, `{"type":"run_end","runId":%q,"schemaVersion":2,"status":"success","exitCode":0}`+"\n", id)
		}
	}
	return b.String()
}

// rootSpans counts the runs of an OTLP/JSON file.
func rootSpans(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var u ptrace.JSONUnmarshaler
	td, err := u.UnmarshalTraces(data)
	if err != nil {
		t.Fatalf("%s: %v: %q", file, err, data)
	}
	n := 0
	for i := 0; i < td.ResourceSpans().Len(); i++ {
		ss := td.ResourceSpans().At(i).ScopeSpans()
		for j := 0; j < ss.Len(); j++ {
			for k := 0; k < ss.At(j).Spans().Len(); k++ {
				if ss.At(j).Spans().At(k).Name() == "invoke_agent" {
					n++
				}
			}
		}
	}
	return n
}

// runOtelBounded is run, failing the test when zevo does not end in time.
func runOtelBounded(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb strings.Builder
	code = runBounded(t, append([]string{"zevo"}, args...), strings.NewReader(stdin), &out, &errb, nil)
	return code, out.String(), errb.String()
}

// TestOtelOutputThatIsAnInputIsRefused: --output naming one of the inputs
// (by another path, a symlink, or as standard input) is refused before
// anything is written: the input is left whole.
func TestOtelOutputThatIsAnInputIsRefused(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(sampleZero)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--output", in, in},
		{"--output", filepath.Join(dir, ".", "in.jsonl"), sampleEvo, in},
		{"--output", link, in},
		{"-o", in, link},
		{"--endpoint", "http://127.0.0.1:1", "--output", in, in},
	} {
		code, out, errs := run(t, "", append([]string{"otel"}, args...)...)
		if code != ExitUsage || out != "" || !strings.Contains(errs, "the output is also an input") {
			t.Errorf("%v: exit %d, out %q, err %q", args, code, out, errs)
		}
		if b, _ := os.ReadFile(in); string(b) != string(data) {
			t.Fatalf("%v: the input was changed", args)
		}
	}
	// Standard input that is the output file.
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out, errb strings.Builder
	if code := Run([]string{"zevo", "otel", "--output", in}, f, &out, &errb); code != ExitUsage || !strings.Contains(errb.String(), "also an input (standard input)") {
		t.Errorf("stdin: exit %d: %s", code, errb.String())
	}
	if b, _ := os.ReadFile(in); string(b) != string(data) {
		t.Fatal("stdin: the input was changed")
	}
	// Another file is fine, and so is one that does not exist yet.
	other := filepath.Join(dir, "traces.json")
	if code, _, errs := run(t, "", "otel", "--output", other, in); code != 0 || rootSpans(t, other) != 3 {
		t.Errorf("exit %d: %s", code, errs)
	}
}

// TestOtelDownEndpointGivesUpOnceKeepsOutput: an endpoint that answers an
// error, refuses connections or hangs is tried for the first run only; the
// others are each named as not sent, counted, and --output has them all;
// exit 1.
func TestOtelDownEndpointGivesUpOnceKeepsOutput(t *testing.T) {
	defer func(r []time.Duration) { otel.Retries = r }(otel.Retries)
	otel.Retries = []time.Duration{time.Millisecond, time.Millisecond}
	hang := make(chan struct{})
	defer close(hang)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	input := zeroRuns(50, true)
	for _, c := range []struct {
		name    string
		handler http.HandlerFunc
		url     string
	}{
		{name: "500", handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "broken", 500) }},
		{name: "503", handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "busy", 503) }},
		{name: "refused", url: closed.URL},
		{name: "hanging", handler: func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			tries := 0
			u := c.url
			if c.handler != nil {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					mu.Lock()
					tries++
					mu.Unlock()
					c.handler(w, r)
				}))
				defer srv.Close()
				u = srv.URL
			}
			file := filepath.Join(t.TempDir(), "traces.json")
			code, out, errs := runOtelBounded(t, input, "otel", "--endpoint", u, "--timeout", "200ms", "--output", file)
			if code != ExitDiagnostics || out != "" {
				t.Errorf("exit %d, out %q", code, out)
			}
			if n := strings.Count(errs, " not sent: "); n != 50 {
				t.Errorf("%d runs named as not sent, want 50:\n%s", n, errs)
			}
			if !strings.Contains(errs, "<stdin>:99-100: run run_20260603100000_000031 not sent: the endpoint failed on an earlier run\n") ||
				!strings.Contains(errs, "zevo: 50 of 50 runs not sent to "+u+"/v1/traces; "+file+" has every run\n") {
				t.Errorf("stderr:\n%s", errs)
			}
			mu.Lock()
			defer mu.Unlock()
			if tries > len(otel.Retries)+1 {
				t.Errorf("%d requests: the endpoint was tried again after it failed", tries)
			}
			if n := rootSpans(t, file); n != 50 {
				t.Errorf("--output has %d runs, want 50", n)
			}
		})
	}
}

// TestOtelErrorHidesEndpointPassword: no message shows the password of an
// endpoint's URL: not on an error answer, nor in a usage error.
func TestOtelErrorHidesEndpointPassword(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "denied", http.StatusForbidden)
	}))
	defer srv.Close()
	endpoint := strings.Replace(srv.URL, "http://", "http://zevo:s3cret@", 1)
	code, _, errs := runOtelBounded(t, "", "otel", "--endpoint", endpoint, sampleZero)
	if code != ExitDiagnostics || strings.Contains(errs, "s3cret") || !strings.Contains(errs, "zevo:xxxxx@") || !strings.Contains(errs, "403 Forbidden denied") {
		t.Errorf("exit %d:\n%s", code, errs)
	}
	for _, bad := range []string{"ftp://zevo:s3cret@host/", "http://zevo:s3cret@host:port/"} {
		code, _, errs := run(t, "", "otel", "--endpoint", bad, sampleZero)
		if code != ExitUsage || strings.Contains(errs, "s3cret") {
			t.Errorf("%s: exit %d: %s", bad, code, errs)
		}
	}
}

// TestOtelSameFileTwiceDistinctSpanIDs: with the synthetic clock, a file
// given twice gets other ids the second time, and the same bytes on every
// run.
func TestOtelSameFileTwiceDistinctSpanIDs(t *testing.T) {
	code, out, errs := run(t, "", "otel", "--clock", "synthetic", sampleZero, sampleZero)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var u ptrace.JSONUnmarshaler
	td, err := u.UnmarshalTraces([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	traces := map[string]bool{}
	n := 0
	for i := 0; i < td.ResourceSpans().Len(); i++ {
		ss := td.ResourceSpans().At(i).ScopeSpans()
		for j := 0; j < ss.Len(); j++ {
			for k := 0; k < ss.At(j).Spans().Len(); k++ {
				s := ss.At(j).Spans().At(k)
				n++
				if seen[s.SpanID().String()] {
					t.Errorf("span id %s twice", s.SpanID())
				}
				seen[s.SpanID().String()] = true
				traces[s.TraceID().String()] = true
			}
		}
	}
	if n != 10 || len(traces) != 6 {
		t.Errorf("%d spans in %d traces, want 10 in 6", n, len(traces))
	}
	if _, again, _ := run(t, "", "otel", "--clock", "synthetic", sampleZero, sampleZero); again != out {
		t.Error("not the same bytes on a second run")
	}
}

// TestOtelInterruptWhileEndpointFailsWritesOutput: SIGINT while the
// endpoint fails or hangs still writes --output with every run read, the
// open one cut short, names the runs not sent with their count, and exits
// 130.
func TestOtelInterruptWhileEndpointFailsWritesOutput(t *testing.T) {
	bin := zevoBinary(t)
	for _, c := range []struct {
		name  string
		hangs bool
		runs  int // read when the signal comes
	}{
		{"500", false, 4},
		{"hanging", true, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			hang := make(chan struct{})
			defer close(hang)
			requests := make(chan struct{}, 10)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				requests <- struct{}{}
				if c.hangs {
					select {
					case <-hang:
					case <-r.Context().Done():
					}
					return
				}
				http.Error(w, "broken", 500)
			}))
			defer srv.Close()
			file := filepath.Join(t.TempDir(), "traces.json")
			cmd := exec.Command(bin, "otel", "--endpoint", srv.URL, "--output", file)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := make(chan string, 100)
			go func() {
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			var errs []string
			timeout := time.After(30 * time.Second)
			// Each run is cut short by the next one's start, so when a
			// run is reported (or sent), the next one has been read.
			io.WriteString(stdin, zeroRuns(c.runs, false))
			if c.hangs {
				select {
				case <-requests:
				case <-timeout:
					t.Fatal("no request came")
				}
			} else {
				for len(errs) < c.runs-1 {
					select {
					case l := <-lines:
						errs = append(errs, l)
					case <-timeout:
						t.Fatalf("stderr so far: %q", errs)
					}
				}
			}
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			for l := range lines {
				errs = append(errs, l)
			}
			all := strings.Join(errs, "\n")
			if code := exitCodeOf(t, cmd.Wait()); code != ExitInterrupt {
				t.Errorf("exit %d:\n%s", code, all)
			}
			if n := rootSpans(t, file); n != c.runs {
				t.Errorf("--output has %d runs, want %d", n, c.runs)
			}
			want := fmt.Sprintf("zevo: %d of %d runs not sent to %s/v1/traces; %s has every run", c.runs, c.runs, srv.URL, file)
			if n := strings.Count(all, " not sent: "); n != c.runs || !strings.Contains(all, want) {
				t.Errorf("stderr, want %d runs named and %q:\n%s", c.runs, want, all)
			}
		})
	}
}

// TestOtelInterruptNamesAFailedOutput: when --output cannot be written on
// a signal (a full disk), zevo says so; exit 130.
func TestOtelInterruptNamesAFailedOutput(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	bin := zevoBinary(t)
	cmd := exec.Command(bin, "otel", "--output", "/dev/full")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Bad lines are reported as read: once the second is, both were.
	io.WriteString(stdin, zeroRuns(2, false)+"bad 1\nbad 2\n")
	sc := bufio.NewScanner(stderr)
	var errs []string
	for len(errs) < 2 && sc.Scan() {
		errs = append(errs, sc.Text())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
		errs = append(errs, sc.Text())
	}
	all := strings.Join(errs, "\n")
	if code := exitCodeOf(t, cmd.Wait()); code != ExitInterrupt || !strings.Contains(all, "zevo: writing output: ") || !strings.Contains(all, "no space left on device") {
		t.Errorf("exit %d:\n%s", code, all)
	}
}
