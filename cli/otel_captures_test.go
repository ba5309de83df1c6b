package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// captureFacts are what the decoders' own events say of one run, summed
// here without zevo stats' code: the facts a trace must carry.
type captureFacts struct {
	status event.Status
	tools  []string // "NAME ok|error|missing", in the order called
	tokens event.Tokens
	costed int // usage events stating a cost
	usages int
}

// decoderFacts reads data through the dialects' decoders and the run rules.
func decoderFacts(t *testing.T, data []byte) []*captureFacts {
	t.Helper()
	in := dialects.NewInput(event.DecodeOptions{})
	byRun := map[*event.Run]*captureFacts{}
	var runs []*captureFacts
	results := map[*captureFacts]map[string]string{} // call id → result
	calls := map[*captureFacts][]string{}            // call ids, in order
	names := map[*captureFacts]map[string]string{}
	fn := func(ev *event.Event, st event.Step) {
		if f := byRun[st.Closed]; f != nil {
			f.status = st.Closed.Status
		}
		if ev == nil || st.Run == nil {
			return
		}
		f := byRun[st.Run]
		if f == nil {
			f = &captureFacts{}
			byRun[st.Run] = f
			runs = append(runs, f)
			results[f], names[f] = map[string]string{}, map[string]string{}
		}
		if st.End {
			f.status = st.Run.Status
		}
		switch ev.Kind {
		case event.ToolCall:
			calls[f] = append(calls[f], ev.Tool.ID)
			names[f][ev.Tool.ID] = ev.Tool.Name
		case event.ToolResult:
			results[f][ev.Tool.ID] = map[bool]string{false: "ok", true: "error"}[ev.Tool.Failed]
		case event.Usage:
			u := *ev.Usage
			if u.Scope == event.ScopeRun {
				f.tokens, f.costed, f.usages = event.Tokens{}, 0, 0
			}
			if u.CostUSD != nil {
				f.costed++
			}
			f.usages++
			f.tokens.Add(&u)
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		if jsonl.IsBlank(sc.Bytes()) {
			continue
		}
		_ = in.Line(bytes.Clone(sc.Bytes()), n, fn)
	}
	in.End(fn)
	for _, f := range runs {
		for _, id := range calls[f] {
			r := results[f][id]
			if r == "" {
				r = "missing"
			}
			f.tools = append(f.tools, names[f][id]+" "+r)
		}
	}
	return runs
}

// traceRun is one run's trace as exported.
type traceRun struct {
	root  ptrace.Span
	tools []ptrace.Span
}

// exportedRuns reads an OTLP/JSON file: each trace, its spans in order.
func exportedRuns(t *testing.T, file string) []*traceRun {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var u ptrace.JSONUnmarshaler
	td, err := u.UnmarshalTraces(data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var runs []*traceRun
	byTrace := map[string]*traceRun{}
	for i := 0; i < td.ResourceSpans().Len(); i++ {
		ss := td.ResourceSpans().At(i).ScopeSpans()
		for j := 0; j < ss.Len(); j++ {
			for k := 0; k < ss.At(j).Spans().Len(); k++ {
				s := ss.At(j).Spans().At(k)
				id := s.TraceID().String()
				if s.ParentSpanID().IsEmpty() {
					if byTrace[id] != nil {
						t.Errorf("%s: trace %s has two roots", file, id)
					}
					byTrace[id] = &traceRun{root: s}
					runs = append(runs, byTrace[id])
					continue
				}
				r := byTrace[id]
				if r == nil {
					t.Fatalf("%s: span %s before its trace's root", file, s.Name())
				}
				r.tools = append(r.tools, s)
			}
		}
	}
	return runs
}

func spanAttr(s ptrace.Span, key string) (string, bool) {
	v, ok := s.Attributes().Get(key)
	return v.AsString(), ok
}

// checkTrace compares one run's trace with the decoder's facts.
func checkTrace(t *testing.T, where string, tr *traceRun, f *captureFacts) {
	t.Helper()
	var tools []string
	for _, s := range tr.tools {
		name, _ := spanAttr(s, "gen_ai.tool.name")
		res, _ := spanAttr(s, "zevo.tool.result")
		if s.Name() != "execute_tool "+name {
			t.Errorf("%s: span %q for tool %q", where, s.Name(), name)
		}
		if want := map[string]ptrace.StatusCode{"ok": ptrace.StatusCodeOk, "error": ptrace.StatusCodeError, "missing": ptrace.StatusCodeUnset}[res]; s.Status().Code() != want {
			t.Errorf("%s: tool %s %s has status %v", where, name, res, s.Status().Code())
		}
		tools = append(tools, name+" "+res)
	}
	if fmt.Sprint(tools) != fmt.Sprint(f.tools) {
		t.Errorf("%s: tools %q, want %q", where, tools, f.tools)
	}
	if st, _ := spanAttr(tr.root, "zevo.run.status"); st != string(f.status) {
		t.Errorf("%s: status %q, want %q", where, st, f.status)
	}
	wantCode := ptrace.StatusCodeError
	switch {
	case f.status == event.StatusSuccess:
		wantCode = ptrace.StatusCodeOk
	case f.status == event.StatusIncomplete || !f.status.Failed():
		wantCode = ptrace.StatusCodeUnset
	}
	if tr.root.Status().Code() != wantCode {
		t.Errorf("%s: run %s has span status %v, want %v", where, f.status, tr.root.Status().Code(), wantCode)
	}
	k := f.tokens
	for _, c := range []struct {
		key  string
		has  bool
		want int64
	}{
		{"gen_ai.usage.input_tokens", true, k.Input + k.CacheRead + k.CacheWrite},
		{"gen_ai.usage.output_tokens", true, k.Output},
		{"gen_ai.usage.cache_read.input_tokens", k.Has&event.HasCacheRead != 0, k.CacheRead},
		{"gen_ai.usage.cache_creation.input_tokens", k.Has&event.HasCacheWrite != 0, k.CacheWrite},
		{"gen_ai.usage.reasoning.output_tokens", k.Has&event.HasReasoning != 0, k.Reasoning},
	} {
		v, ok := tr.root.Attributes().Get(c.key)
		switch {
		case ok != c.has:
			t.Errorf("%s: %s present %v, want %v", where, c.key, ok, c.has)
		case ok && v.Int() != c.want:
			t.Errorf("%s: %s %d, want %d", where, c.key, v.Int(), c.want)
		}
	}
	cost, hasCost := tr.root.Attributes().Get("zevo.cost.usd")
	if f.usages > 0 && f.costed == f.usages {
		src, _ := spanAttr(tr.root, "zevo.cost.source")
		if !hasCost || cost.Double() != *k.CostUSD || src != "costUsd" {
			t.Errorf("%s: cost %v (%v, from %q), want the stream's %v exactly", where, cost.Double(), hasCost, src, *k.CostUSD)
		}
	}
}

// TestOtelCaptures: every real capture, exported with --output and the
// synthetic clock, has a trace per run, with the decoder's tools in order
// and their failures, its status, tokens and stated cost.
func TestOtelCaptures(t *testing.T) {
	files, _ := filepath.Glob("../testdata/captures/*/*.jsonl")
	if len(files) < 10 {
		t.Fatalf("%d captures", len(files))
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "traces.json")
		code, stdout, errs := run(t, "", "otel", "--output", out, "--clock", "synthetic", file)
		if code != 0 || stdout != "" || errs != "" {
			t.Errorf("%s: exit %d, out %q, err %q", file, code, stdout, errs)
			continue
		}
		facts := decoderFacts(t, data)
		runs := exportedRuns(t, out)
		if len(runs) != len(facts) {
			t.Errorf("%s: %d traces, want %d runs", file, len(runs), len(facts))
			continue
		}
		for i, tr := range runs {
			if svc := tr.root.Attributes(); svc.Len() == 0 {
				t.Errorf("%s: run %d has no attributes", file, i+1)
			}
			checkTrace(t, fmt.Sprintf("%s run %d", file, i+1), tr, facts[i])
		}
		// The same bytes every time.
		again := filepath.Join(t.TempDir(), "again.json")
		run(t, "", "otel", "--output", again, "--clock", "synthetic", file)
		if a, b := readAll(t, out), readAll(t, again); !bytes.Equal(a, b) {
			t.Errorf("%s: two exports differ", file)
		}
	}
}

func readAll(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cutBefore is data up to the first line holding marker.
func cutBefore(t *testing.T, data []byte, marker string) []byte {
	t.Helper()
	i := bytes.Index(data, []byte(marker))
	if i < 0 {
		t.Fatalf("no %q", marker)
	}
	return data[:bytes.LastIndexByte(data[:i], '\n')+1]
}

// A run killed before its end: its trace still comes, status incomplete
// (span status unset), cut, with the tools it called.
func TestOtelCapturesCutRun(t *testing.T) {
	for _, c := range []struct{ file, end string }{
		{"claude/yoke-thinking-three-bash-calls-2.1.104.jsonl", `"type":"result"`},
		{"codex/nightgauge-two-commands-0.153.4.jsonl", `"type":"turn.completed"`},
		{"opencode/nightgauge-read-edit-local-model.jsonl", `"reason":"stop"`},
	} {
		data := cutBefore(t, readAll(t, "../testdata/captures/"+c.file), c.end)
		in := writeTemp(t, "cut.jsonl", data)
		out := filepath.Join(t.TempDir(), "traces.json")
		if code, _, errs := run(t, "", "otel", "--output", out, "--clock", "synthetic", in); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.file, code, errs)
		}
		runs, facts := exportedRuns(t, out), decoderFacts(t, data)
		if len(runs) != 1 || len(facts) != 1 {
			t.Fatalf("%s: %d traces, %d runs; want 1", c.file, len(runs), len(facts))
		}
		root := runs[0].root
		st, _ := spanAttr(root, "zevo.run.status")
		cut, _ := spanAttr(root, "zevo.run.cut")
		if st != "incomplete" || cut == "" || root.Status().Code() != ptrace.StatusCodeUnset || len(runs[0].tools) == 0 {
			t.Errorf("%s cut: status %q cut %q span status %v, %d tools; want incomplete, cut, unset, its tools", c.file, st, cut, root.Status().Code(), len(runs[0].tools))
		}
		checkTrace(t, c.file+" cut", runs[0], facts[0])
	}
}

// Lines that are not JSON are named FILE:LINE and not exported; a line of
// another dialect (Zero's among Claude's; Claude's among Zero's) is read
// as its own dialect's, as zevo stats reads it: it cuts the run before it
// and starts one, and every run is exported.
func TestOtelCapturesBadLines(t *testing.T) {
	data := readAll(t, "../testdata/captures/claude/agent-harness-thinking-bash.jsonl")
	lines := strings.SplitAfter(string(data), "\n")
	zeroLine := `{"schemaVersion":2,"type":"run_start","runId":"r1","model":"m"}` + "\n"
	var in []string
	in = append(in, "not json\n")
	in = append(in, lines[:3]...)
	in = append(in, zeroLine, "{\"cut\n")
	in = append(in, lines[3:]...)
	file := writeTemp(t, "bad.jsonl", []byte(strings.Join(in, "")))
	out := filepath.Join(t.TempDir(), "traces.json")
	code, _, errs := run(t, "", "otel", "--output", out, "--clock", "synthetic", file)
	if code != ExitDiagnostics {
		t.Errorf("exit %d, want %d", code, ExitDiagnostics)
	}
	for _, n := range []int{1, 6} {
		if !strings.Contains(errs, fmt.Sprintf("%s:%d: ", file, n)) {
			t.Errorf("line %d not named: %q", n, errs)
		}
	}
	if strings.Contains(errs, fmt.Sprintf("%s:5: ", file)) || strings.Count(errs, "(not exported)") != 2 {
		t.Errorf("stderr %q: want the two lines that are not JSON not exported", errs)
	}
	runs := exportedRuns(t, out)
	var agents []string
	tools := 0
	for _, r := range runs {
		a, _ := spanAttr(r.root, "gen_ai.agent.name")
		agents = append(agents, a)
		tools += len(r.tools)
	}
	if fmt.Sprint(agents) != "[claude zero claude]" || tools != 1 {
		t.Errorf("runs of %v with %d tools, want claude's cut by zero's, then claude's again with its Bash call", agents, tools)
	}

	// Claude's line after a Zero log: a run of its own after the log's.
	zero := readAll(t, sampleZero)
	mixed := append(bytes.Clone(zero), lines[0]...)
	file = writeTemp(t, "mixed.jsonl", mixed)
	n := bytes.Count(zero, []byte("\n")) + 1
	code, _, errs = run(t, "", "otel", "--output", out, "--clock", "synthetic", file)
	if code != 0 || errs != "" {
		t.Errorf("exit %d, stderr %q: want line %d read as claude's", code, errs, n)
	}
	if got := rootSpans(t, out); got != 4 {
		t.Errorf("%d runs, want the sample's 3 and claude's", got)
	}
}

// A secret in a tool's output, and in an error message, leaves with no
// trace of it: outputs are never exported, messages are redacted.
func TestOtelCapturesRedactSecrets(t *testing.T) {
	const secret = "sk-live0123456789abcdefXYZ"
	claude := readAll(t, "../testdata/captures/claude/agent-harness-thinking-bash.jsonl")
	if !bytes.Contains(claude, []byte(`"content":"one"`)) {
		t.Fatal("the capture's Bash output is not where this test plants the secret")
	}
	for _, field := range []string{"content", "stdout"} {
		claude = bytes.ReplaceAll(claude, []byte(`"`+field+`":"one"`), []byte(`"`+field+`":"one `+secret+`"`))
	}
	opencode := readAll(t, "../testdata/captures/opencode/nightgauge-provider-error-500.jsonl")
	if !bytes.Contains(opencode, []byte("internal error")) {
		t.Fatal("the capture's error message is not where this test plants the secret")
	}
	opencode = bytes.ReplaceAll(opencode, []byte("internal error"), []byte("internal error, key "+secret))
	for _, c := range []struct {
		name string
		data []byte
	}{{"claude.jsonl", claude}, {"opencode.jsonl", opencode}} {
		file := writeTemp(t, c.name, c.data)
		out := filepath.Join(t.TempDir(), "traces.json")
		if code, _, errs := run(t, "", "otel", "--output", out, "--clock", "synthetic", file); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errs)
		}
		got := readAll(t, out)
		if bytes.Contains(got, []byte("sk-live")) || rootSpans(t, out) != 1 {
			t.Errorf("%s: the secret was exported: %s", c.name, got)
		}
	}
	out := filepath.Join(t.TempDir(), "traces.json")
	run(t, "", "otel", "--output", out, "--clock", "synthetic", writeTemp(t, "o.jsonl", opencode))
	runs := exportedRuns(t, out)
	ev := runs[0].root.Events()
	if ev.Len() != 1 || ev.At(0).Name() != "error" {
		t.Fatalf("events %d, want the error", ev.Len())
	}
	if msg, _ := ev.At(0).Attributes().Get("error.message"); !strings.Contains(msg.Str(), "internal error, key [REDACTED]") {
		t.Errorf("error.message %q, want the message with its secret redacted", msg.Str())
	}
}
