package otel

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/pricing"
)

// export traces one input into one OTLP/JSON request and reads it back.
func export(t *testing.T, name string, data []byte, opt Options) ([]byte, ptrace.Traces, *inspect.FileStats) {
	t.Helper()
	b := NewBatch()
	tr := New(name, opt, func(td *Traces, _ *inspect.Run) { b.Add(td) })
	lr := jsonl.NewReader(bytes.NewReader(data), name, nil)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		tr.Line(l)
	}
	fs := tr.End()
	var out bytes.Buffer
	if err := WriteJSON(&out, b.Traces()); err != nil {
		t.Fatal(err)
	}
	var u ptrace.JSONUnmarshaler
	td, err := u.UnmarshalTraces(out.Bytes())
	if err != nil {
		t.Fatalf("%s: output is not OTLP/JSON: %v", name, err)
	}
	return out.Bytes(), td, fs
}

func spans(td ptrace.Traces) []ptrace.Span {
	var all []ptrace.Span
	for i := 0; i < td.ResourceSpans().Len(); i++ {
		ss := td.ResourceSpans().At(i).ScopeSpans()
		for j := 0; j < ss.Len(); j++ {
			for k := 0; k < ss.At(j).Spans().Len(); k++ {
				all = append(all, ss.At(j).Spans().At(k))
			}
		}
	}
	return all
}

func attr(s ptrace.Span, key string) string {
	v, ok := s.Attributes().Get(key)
	if !ok {
		return ""
	}
	return v.AsString()
}

func cost(s ptrace.Span) float64 {
	v, _ := s.Attributes().Get("zevo.cost.usd")
	return v.Double()
}

func samples(t *testing.T) []string {
	var files []string
	for _, g := range []string{"../testdata/translate/*.jsonl", "../testdata/inspect/*.jsonl", "../testdata/hostile/*.jsonl"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d samples", len(files))
	}
	return files
}

// TestTracesFollowStats checks every sample with followsStats.
func TestTracesFollowStats(t *testing.T) {
	for _, f := range samples(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			followsStats(t, f, data)
		})
	}
}

// Lines to build random streams from: runs of both protocols cut in every
// way, tool calls with and without results, bad and blank lines.
var pieces = []string{
	`{"cwd":"/r","runId":"r1","schemaVersion":2,"type":"run_start","model":"gpt-4.1"}`,
	`{"args":{},"id":"c1","name":"ls","runId":"r1","schemaVersion":2,"type":"tool_call"}`,
	`{"id":"c1","runId":"r1","schemaVersion":2,"status":"error","type":"tool_result"}`,
	`{"completionTokens":3,"promptTokens":5,"runId":"r1","schemaVersion":2,"totalTokens":8,"type":"usage"}`,
	`{"delta":"b","runId":"r2","schemaVersion":1,"type":"text"}`,
	`{"exitCode":0,"runId":"r1","schemaVersion":2,"status":"success","type":"run_end"}`,
	`{"code":"x","message":"m","runId":"r2","schemaVersion":2,"type":"error"}`,
	`{"type": "tool_call", "name": "ls", "args": {}, "id": "e1"}`,
	`{"type": "tool_result", "name": "ls", "content": "", "success": true}`,
	`{"type": "usage_stats", "input_tokens": 7, "output_tokens": 2}`,
	`{"type": "done", "content": "a", "response": "a"}`,
	`{"type": "error", "message": "boom"}`,
	`{"schemaVersion":2,"type":"prompt","content":"hi"}`,
	`not json`,
	``,
}

func TestRandomStreams(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for range 500 {
		var lines []string
		for range 1 + rng.IntN(14) {
			lines = append(lines, pieces[rng.IntN(len(pieces))])
		}
		followsStats(t, "x", []byte(strings.Join(lines, "\n")+"\n"))
		if t.Failed() {
			t.Fatalf("on:\n%s", strings.Join(lines, "\n"))
		}
	}
}

// TestGeneratedCorpora: the benchmark's generated logs of both protocols.
func TestGeneratedCorpora(t *testing.T) {
	for _, p := range []corpus.Protocol{corpus.Zero, corpus.EvoSci} {
		var b bytes.Buffer
		if _, err := corpus.Write(&b, corpus.Options{Protocol: p, Size: 1 << 20, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		followsStats(t, p.Name, b.Bytes())
	}
}

// followsStats checks one input: one invoke_agent trace per run stats
// counts, with its bounds, status and token sums; one execute_tool child
// per tool call; times in order; the same bytes on a second export.
func followsStats(t *testing.T, name string, data []byte) {
	t.Helper()
	out, td, fs := export(t, name, data, Options{Clock: SyntheticClock})
	again, _, _ := export(t, name, data, Options{Clock: SyntheticClock})
	if !utf8.Valid(out) {
		t.Error("the output is not valid UTF-8")
	}
	if !bytes.Equal(out, again) {
		t.Error("the synthetic clock must give the same output twice")
	}
	roots := map[pcommon.TraceID]ptrace.Span{}
	var order []ptrace.Span
	var tools []ptrace.Span
	for _, s := range spans(td) {
		if s.EndTimestamp() < s.StartTimestamp() || s.StartTimestamp() == 0 {
			t.Errorf("span %s: %v..%v", s.Name(), s.StartTimestamp(), s.EndTimestamp())
		}
		switch {
		case s.Name() == "invoke_agent":
			if _, dup := roots[s.TraceID()]; dup || !s.ParentSpanID().IsEmpty() {
				t.Errorf("a second root, or a root with a parent, in trace %v", s.TraceID())
			}
			roots[s.TraceID()] = s
			order = append(order, s)
		case strings.HasPrefix(s.Name(), "execute_tool "):
			tools = append(tools, s)
		default:
			t.Errorf("unexpected span %q", s.Name())
		}
	}
	if len(order) != len(fs.Runs) {
		t.Fatalf("%d traces, %d runs", len(order), len(fs.Runs))
	}
	for i, r := range fs.Runs {
		root := order[i]
		bounds := fmt.Sprintf("%d-%d %s %s", r.FirstLine, r.LastLine, r.Status, r.Cut)
		if got := fmt.Sprintf("%s-%s %s %s", attr(root, "zevo.source.first_line"), attr(root, "zevo.source.last_line"), attr(root, "zevo.run.status"), attr(root, "zevo.run.cut")); got != bounds {
			t.Errorf("run %d: trace %s, stats %s", i+1, got, bounds)
		}
		if attr(root, "gen_ai.usage.input_tokens") != r.Tokens.Input.String() || attr(root, "gen_ai.usage.output_tokens") != r.Tokens.Output.String() {
			t.Errorf("run at line %d: tokens %s/%s, stats %s/%s", r.FirstLine, attr(root, "gen_ai.usage.input_tokens"), attr(root, "gen_ai.usage.output_tokens"), r.Tokens.Input, r.Tokens.Output)
		}
		if attr(root, "gen_ai.operation.name") != "invoke_agent" || attr(root, "gen_ai.provider.name") == "" {
			t.Errorf("run at line %d: attributes %v", r.FirstLine, root.Attributes().AsRaw())
		}
	}
	calls := 0
	for _, c := range fs.Total.Tools {
		calls += c.Calls
	}
	if len(tools) != calls {
		t.Errorf("%d execute_tool spans, stats counts %d calls", len(tools), calls)
	}
	for _, s := range tools {
		root, ok := roots[s.TraceID()]
		if !ok || s.ParentSpanID() != root.SpanID() {
			t.Errorf("%s: not a child of its run's span", s.Name())
			continue
		}
		if s.StartTimestamp() < root.StartTimestamp() || s.EndTimestamp() > root.EndTimestamp() {
			t.Errorf("%s outside its run's span", s.Name())
		}
		if attr(s, "gen_ai.tool.name") != strings.TrimPrefix(s.Name(), "execute_tool ") || attr(s, "gen_ai.operation.name") != "execute_tool" {
			t.Errorf("%s: attributes %v", s.Name(), s.Attributes().AsRaw())
		}
	}
}

func TestTraceContent(t *testing.T) {
	data, err := os.ReadFile("../testdata/translate/basic.zero.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	_, td, _ := export(t, "basic.zero.jsonl", data, Options{Clock: SyntheticClock, Pricing: &inspect.Pricing{Tables: []*pricing.Table{pricing.Snapshot()}}})
	byName := map[string]ptrace.Span{}
	var runs []ptrace.Span
	for _, s := range spans(td) {
		byName[s.Name()] = s
		if s.Name() == "invoke_agent" {
			runs = append(runs, s)
		}
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs", len(runs))
	}
	ok, failed, open := runs[0], runs[1], runs[2]
	if ok.Status().Code() != ptrace.StatusCodeOk || attr(ok, "gen_ai.conversation.id") != "zero_20260603100000_1780000000000000000_1" ||
		attr(ok, "gen_ai.request.model") != "gpt-4.1" || attr(ok, "gen_ai.provider.name") != "openai" ||
		cost(ok) != 0.000088 || attr(ok, "zevo.cost.source") != "snapshot:"+pricing.SnapshotDate { // 12 × $2/M + 8 × $8/M
		t.Errorf("first run: %v %v", ok.Status().Code(), ok.Attributes().AsRaw())
	}
	// The runId run_20260603100000_abc123 holds the run's start.
	if got := ok.StartTimestamp().AsTime(); !got.Equal(time.Date(2026, 6, 3, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("start %v", got)
	}
	if failed.Status().Code() != ptrace.StatusCodeError || attr(failed, "error.type") != "provider_error" || failed.Events().Len() != 1 || failed.Events().At(0).Name() != "error" {
		t.Errorf("failed run: %v %v", failed.Status().Message(), failed.Attributes().AsRaw())
	}
	if msg, _ := failed.Events().At(0).Attributes().Get("error.message"); msg.AsString() != "503 from provider" {
		t.Errorf("error event %v", failed.Events().At(0).Attributes().AsRaw())
	}
	if open.Status().Code() != ptrace.StatusCodeUnset || attr(open, "zevo.run.status") != "incomplete" || attr(open, "zevo.run.cut") != "the input ended inside the run" {
		t.Errorf("unfinished run: %v", open.Status().Code())
	}
	w := byName["execute_tool write_file"]
	if w.Status().Code() != ptrace.StatusCodeError || attr(w, "gen_ai.tool.call.id") != "call_2" || w.Events().Len() != 2 ||
		w.Events().At(0).Name() != "permission_request" || w.Events().At(1).Name() != "permission_decision" {
		t.Errorf("write_file: %v %v, %d events", w.Status().Code(), w.Attributes().AsRaw(), w.Events().Len())
	}
	if r := byName["execute_tool read_file"]; r.Status().Code() != ptrace.StatusCodeOk || attr(r, "gen_ai.tool.call.id") != "call_1" {
		t.Errorf("read_file: %v", r.Attributes().AsRaw())
	}
}

func TestEvoSciTrace(t *testing.T) {
	in := `{"type": "tool_call", "name": "execute", "args": {}, "id": "c1"}
{"type": "interrupt", "interrupt_id": "i1", "action_requests": [{"name": "execute", "args": {}, "description": "Runs sk-abcdefghijklmnopqrstuvwx"}, {"name": "fetch_url", "args": {}}], "review_configs": []}
{"type": "tool_result", "name": "execute", "content": "x", "success": true}
{"type": "subagent_tool_call", "subagent": "r", "name": "grep", "args": {}, "id": "s1", "instance_id": "a"}
{"type": "subagent_tool_result", "subagent": "r", "name": "grep", "content": "", "success": false, "id": "s1", "instance_id": "a"}
{"type": "usage_stats", "input_tokens": 18446744073709551616, "output_tokens": 7}
{"type": "error", "message": "Bearer abcdefghijklmnopqrstu failed"}
`
	// The pricing names no model: the run is unpriced, and says so.
	_, td, _ := export(t, "e.jsonl", []byte(in), Options{Clock: SyntheticClock, Model: "claude-sonnet-4-5", Pricing: &inspect.Pricing{Tables: []*pricing.Table{pricing.Snapshot()}}})
	all := spans(td)
	if len(all) != 3 {
		t.Fatalf("%d spans", len(all))
	}
	root, exec, grep := all[0], all[1], all[2]
	if attr(root, "gen_ai.request.model") != "claude-sonnet-4-5" || attr(root, "gen_ai.provider.name") != "evoscientist" ||
		attr(root, "gen_ai.usage.input_tokens") != "18446744073709551616" || root.Status().Code() != ptrace.StatusCodeError ||
		attr(root, "zevo.cost.unpriced_model") != inspect.NoModel || attr(root, "zevo.cost.usd") != "" {
		t.Errorf("root %v", root.Attributes().AsRaw())
	}
	// The request for execute belongs to its open call (the result has no id:
	// EvoScientist 0.1.x); the one for fetch_url, which has none, to the run.
	if exec.Status().Code() != ptrace.StatusCodeOk || exec.Events().Len() != 1 || root.Events().Len() != 2 {
		t.Fatalf("execute %v with %d events, run %d events", exec.Status().Code(), exec.Events().Len(), root.Events().Len())
	}
	reason, _ := exec.Events().At(0).Attributes().Get("zevo.permission.reason")
	msg, _ := root.Events().At(1).Attributes().Get("error.message")
	if reason.AsString() != "Runs [REDACTED]" || msg.AsString() != "Bearer [REDACTED] failed" {
		t.Errorf("exported text must be redacted: %q, %q", reason.AsString(), msg.AsString())
	}
	if grep.Name() != "execute_tool grep" || attr(grep, "zevo.subagent") != "r" || grep.Status().Code() != ptrace.StatusCodeError {
		t.Errorf("sub-agent call %s %v", grep.Name(), grep.Attributes().AsRaw())
	}
}

func TestReadClock(t *testing.T) {
	in := `{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}
{"type": "tool_result", "name": "ls", "content": "", "success": true, "id": "c1"}
{"type": "done", "content": "", "response": ""}
`
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tick := func() time.Time { now = now.Add(time.Second); return now }
	_, td, _ := export(t, "e.jsonl", []byte(in), Options{Now: tick})
	all := spans(td)
	root, tool := all[0], all[1]
	start := time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC)
	if !root.StartTimestamp().AsTime().Equal(start) || !root.EndTimestamp().AsTime().Equal(start.Add(2*time.Second)) ||
		!tool.StartTimestamp().AsTime().Equal(start) || !tool.EndTimestamp().AsTime().Equal(start.Add(time.Second)) {
		t.Errorf("run %v..%v, tool %v..%v", root.StartTimestamp(), root.EndTimestamp(), tool.StartTimestamp(), tool.EndTimestamp())
	}
	_, td2, _ := export(t, "e.jsonl", []byte(in), Options{Now: tick})
	if spans(td2)[0].TraceID() == root.TraceID() {
		t.Error("the read clock must give new trace ids")
	}
}

func TestInvalidUTF8(t *testing.T) {
	// Lines with invalid UTF-8 are not events (zevo reads none); a file
	// name may still have it.
	in := "{\"type\": \"tool_call\", \"name\": \"ba\xffd\", \"args\": {}, \"id\": \"c1\"}\n{\"type\": \"tool_call\", \"name\": \"ls\", \"args\": {}, \"id\": \"c2\"}\n"
	out, td, fs := export(t, "x\xff.jsonl", []byte(in), Options{Clock: SyntheticClock})
	if !utf8.Valid(out) {
		t.Fatalf("not valid UTF-8: %q", out)
	}
	file, _ := td.ResourceSpans().At(0).Resource().Attributes().Get("zevo.source.file")
	if file.AsString() != "x\uFFFD.jsonl" || td.SpanCount() != 2 || fs.Invalid != 1 {
		t.Errorf("file %q, %d spans, %d invalid lines", file.AsString(), td.SpanCount(), fs.Invalid)
	}
}

// TestEmitAtRunEnd: a run's trace goes out when its run ends, so a live
// pipe exports each run as it ends; an EvoScientist run ended by an error
// waits, since a done may still belong to it.
func TestEmitAtRunEnd(t *testing.T) {
	lines := []string{
		`{"schemaVersion":2,"type":"run_start","runId":"r1"}`,
		`{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}`,
		`{"type": "text", "content": "a"}`,
		`{"type": "error", "message": "boom"}`,
		`{"type": "done", "content": "", "response": ""}`,
		`{"type": "text", "content": "b"}`,
	}
	emitted := 0
	var last *inspect.Run
	tr := New("x", Options{Clock: SyntheticClock}, func(_ *Traces, r *inspect.Run) { emitted++; last = r })
	want := []int{0, 1, 1, 1, 1, 2}
	for i, l := range lines {
		tr.Line(jsonl.Line{Name: "x", Num: i + 1, Bytes: []byte(l)})
		if emitted != want[i] {
			t.Fatalf("after line %d: %d traces emitted, want %d", i+1, emitted, want[i])
		}
	}
	if last.Status != "error" || last.LastLine != 5 {
		t.Errorf("the EvoScientist run: %s, lines to %d", last.Status, last.LastLine)
	}
	tr.End()
	if emitted != 3 {
		t.Errorf("%d traces at the end", emitted)
	}
}

// FuzzTrace: any input gives one trace per run stats counts, with its
// tokens, and never a crash.
func FuzzTrace(f *testing.F) {
	for _, p := range pieces {
		f.Add([]byte(p + "\n" + p + "\n"))
	}
	f.Add([]byte(`{"type": "interrupt", "interrupt_id": "i", "action_requests": [{"name": 3}, 7], "review_configs": 1}`))
	f.Add([]byte(`{"schemaVersion":2,"type":"permission_request","runId":"r","id":"x","risk":"high"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		followsStats(t, "fuzz", data)
	})
}

// TestRunIDTimeOutsideUnixNanosFallsBack: a runId whose time OTLP cannot
// hold in unix nanoseconds (before 1970, from 2262 on) is not taken as the
// run's start: the run starts as one without a time does, never at a
// wrapped date.
func TestRunIDTimeOutsideUnixNanosFallsBack(t *testing.T) {
	for _, id := range []string{"run_19691231235959_abcdef", "run_19700101000000_abcdef", "run_99991231235959_abcdef", "run_00010101000000_abcdef", "run_22620411234717_abcdef", "run_22620411234716_abcdef", "run_25540101000000_abcdef"} {
		data := `{"type":"run_start","runId":"` + id + `","schemaVersion":2}` + "\n" +
			`{"type":"run_end","runId":"` + id + `","schemaVersion":2,"status":"success","exitCode":0}` + "\n"
		_, td, _ := export(t, "x", []byte(data), Options{Clock: SyntheticClock})
		root := spans(td)[0]
		want := syntheticBase.Add(time.Millisecond)
		if got := root.StartTimestamp().AsTime(); !got.Equal(want) || root.EndTimestamp().AsTime().Sub(got) != time.Millisecond {
			t.Errorf("%s: span %v..%v, want it to start at %v", id, got, root.EndTimestamp().AsTime(), want)
		}
	}
	// The last second that is taken, and the first.
	for id, want := range map[string]time.Time{
		"run_22611231235959_abcdef": time.Date(2261, 12, 31, 23, 59, 59, 0, time.UTC),
		"run_19700101000001_abcdef": time.Unix(1, 0),
	} {
		data := `{"type":"run_start","runId":"` + id + `","schemaVersion":2}` + "\n"
		_, td, _ := export(t, "x", []byte(data), Options{Clock: SyntheticClock})
		if got := spans(td)[0].StartTimestamp().AsTime(); !got.Equal(want) {
			t.Errorf("%s: starts at %v, want %v", id, got, want)
		}
	}
}

// TestSyntheticIDsDistinctAcrossInputs: the same file read twice (two
// inputs of one command) gets other trace and span ids the second time,
// the same on every run.
func TestSyntheticIDsDistinctAcrossInputs(t *testing.T) {
	data, err := os.ReadFile("../testdata/translate/basic.zero.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ids := func() map[string]int {
		seen := map[string]int{}
		for i := 0; i < 2; i++ {
			_, td, _ := export(t, "basic.zero.jsonl", data, Options{Clock: SyntheticClock, Repeat: i})
			for _, s := range spans(td) {
				seen["trace "+s.TraceID().String()+" span "+s.SpanID().String()]++
				seen["span "+s.SpanID().String()]++
			}
		}
		return seen
	}
	first := ids()
	for id, n := range first {
		if strings.HasPrefix(id, "span ") && n > 1 {
			t.Errorf("%s used %d times", id, n)
		}
	}
	if again := ids(); fmt.Sprint(again) != fmt.Sprint(first) {
		t.Error("the ids are not the same on a second export")
	}
}
