package otel

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
)

// A capture read with --as its dialect (Options.Dialect) gives what auto
// gives.
func TestEventPathAsDialect(t *testing.T) {
	file := filepath.Join("..", "testdata", "captures", "codex", "agent-harness-shell-command.jsonl")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	auto, _, _ := export(t, file, data, Options{Clock: SyntheticClock})
	codex, _ := dialects.ByName("codex")
	as, _, _ := export(t, file, data, Options{Clock: SyntheticClock, Dialect: codex})
	if !bytes.Equal(auto, as) || !bytes.Contains(auto, []byte(`"execute_tool command_execution"`)) {
		t.Errorf("--as codex differs from auto:\n%s\n%s", as, auto)
	}
}

// A sub-agent's tool call is a child of the call that started the
// sub-agent while that call is open, and names it in zevo.subagent.
func TestEventPathSubagentCallIsChildOfItsCall(t *testing.T) {
	const sess = `"session_id":"s1"`
	lines := []string{
		`{"type":"system","subtype":"init",` + sess + `,"model":"m1","cwd":"/r","tools":[]}`,
		`{"type":"assistant","message":{"id":"msg_1","model":"m1","content":[{"type":"tool_use","id":"T1","name":"Task","input":{}}],"usage":{"input_tokens":1,"output_tokens":1}},"parent_tool_use_id":null,` + sess + `}`,
		`{"type":"assistant","message":{"id":"msg_2","model":"m1","content":[{"type":"tool_use","id":"B1","name":"Bash","input":{}}],"usage":{"input_tokens":1,"output_tokens":1}},"parent_tool_use_id":"T1",` + sess + `}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"B1","content":"x","is_error":true}]},"parent_tool_use_id":"T1",` + sess + `}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"T1","content":"done"}]},"parent_tool_use_id":null,` + sess + `}`,
		`{"type":"result","subtype":"success","is_error":false,"result":"ok",` + sess + `,"usage":{"input_tokens":2,"output_tokens":2},"total_cost_usd":0.5}`,
	}
	data := []byte(strings.Join(lines, "\n") + "\n")
	b := NewBatch()
	var bad []string
	tr := New("c", Options{Clock: SyntheticClock, Invalid: func(n int, err error) { bad = append(bad, fmt.Sprint(n, err)) }},
		func(td *Traces, _ *inspect.Run) { b.Add(td) })
	for i, l := range bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		tr.Line(jsonl.Line{Bytes: bytes.TrimSuffix(l, []byte("\n")), Num: i + 1})
	}
	tr.End()
	all := spans(pdataOf(t, b.Traces()))
	if len(bad) > 0 || len(all) != 3 {
		t.Fatalf("bad lines %q, %d spans; want none, 3", bad, len(all))
	}
	root, task, bash := all[0], all[1], all[2]
	if task.Name() != "execute_tool Task" || bash.Name() != "execute_tool Bash" {
		t.Fatalf("spans %s, %s", task.Name(), bash.Name())
	}
	if bash.ParentSpanID() != task.SpanID() || task.ParentSpanID() != root.SpanID() || attr(bash, "zevo.subagent") != "T1" {
		t.Errorf("Bash's parent %v (Task %v, run %v), subagent %q; want the Task call", bash.ParentSpanID(), task.SpanID(), root.SpanID(), attr(bash, "zevo.subagent"))
	}
	if bash.Status().Code() != ptrace.StatusCodeError || task.Status().Code() != ptrace.StatusCodeOk || root.Status().Code() != ptrace.StatusCodeOk {
		t.Errorf("statuses %v %v %v; want the Bash call failed, the rest ok", bash.Status().Code(), task.Status().Code(), root.Status().Code())
	}
	if attr(root, "gen_ai.agent.name") != "claude" || attr(root, "gen_ai.request.model") != "m1" || attr(root, "gen_ai.conversation.id") != "s1" || attr(root, "gen_ai.usage.input_tokens") != "2" {
		t.Errorf("run attributes %v", root.Attributes().AsRaw())
	}
}

// Every capture cut after each of its lines, and with every line given
// twice (repeated message ids and items): a trace per run the summarizer
// counts, no line reported, and a run whose end was cut off never OK.
func TestEventPathCutAndRepeatedCaptures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "captures", "*", "*.jsonl"))
	if len(files) < 10 {
		t.Fatalf("%d captures", len(files))
	}
	check := func(name string, data []byte, wholeEnd map[int]int, k int) {
		var bad []string
		_, td, fs := export(t, name, data, Options{Clock: SyntheticClock, Invalid: func(n int, err error) { bad = append(bad, fmt.Sprint(n, err)) }})
		var roots []ptrace.Span
		for _, s := range spans(td) {
			if s.ParentSpanID().IsEmpty() {
				roots = append(roots, s)
			}
		}
		if len(bad) > 0 || len(roots) != len(fs.Runs) {
			t.Fatalf("%s: lines reported %q; %d traces for %d runs", name, bad, len(roots), len(fs.Runs))
		}
		for i, r := range fs.Runs {
			if end, ok := wholeEnd[r.FirstLine]; ok && end > k && roots[i].Status().Code() == ptrace.StatusCodeOk {
				t.Errorf("%s: run at line %d cut off at line %d has status OK (%s)", name, r.FirstLine, k, r.Status)
			}
		}
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
		_, _, whole := export(t, file, data, Options{Clock: SyntheticClock})
		wholeEnd := map[int]int{}
		for _, r := range whole.Runs {
			wholeEnd[r.FirstLine] = r.LastLine
		}
		for k := 1; k < len(lines); k++ {
			check(fmt.Sprintf("%s cut after line %d", file, k), bytes.Join(lines[:k], nil), wholeEnd, k)
		}
		var twice []byte
		for _, l := range lines {
			l = append(bytes.TrimSuffix(l, []byte("\n")), '\n')
			twice = append(append(twice, l...), l...)
		}
		check(file+" with every line twice", twice, nil, 0)
	}
}

// A run's status on the event path is the model's, whatever word the
// producer has for it: EvoScientist's done is a success (Ok, no
// error.type), though zevo.run.status keeps the word.
func TestEventPathTakesTheModelsStatus(t *testing.T) {
	data := []byte(`{"type":"text","content":"a"}` + "\n" + `{"type":"done","content":"a","response":"a"}` + "\n")
	b := NewBatch()
	opt := Options{Clock: SyntheticClock, Now: time.Now}
	et := newEventTracer("e", &opt, dialects.NewInput(event.DecodeOptions{}), func(td *Traces, _ *inspect.Run) { b.Add(td) })
	lr := jsonl.NewReader(bytes.NewReader(data), "e", nil)
	for {
		l, err := lr.Next()
		if err != nil {
			break
		}
		et.Line(l)
	}
	et.End()
	spans := pdataOf(t, b.Traces()).ResourceSpans().At(0).ScopeSpans().At(0).Spans()
	root := spans.At(0)
	st, _ := root.Attributes().Get("zevo.run.status")
	if root.Status().Code() != ptrace.StatusCodeOk || st.Str() != "done" {
		t.Errorf("status %v, zevo.run.status %q; want Ok, done", root.Status().Code(), st.Str())
	}
}
