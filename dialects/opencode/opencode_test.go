package opencode

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/event/eventtest"
)

// testOptions know the dialect's own tools.
var testOptions = event.DecodeOptions{Effects: event.EffectsOf([]*event.Dialect{Dialect})}

type tokens struct{ in, out, cacheRead, cacheWrite, reasoning int64 }

func checkTokens(t *testing.T, got event.Tokens, want tokens) {
	t.Helper()
	if g := (tokens{got.Input, got.Output, got.CacheRead, got.CacheWrite, got.Reasoning}); g != want {
		t.Errorf("tokens %+v, want %+v", g, want)
	}
}

func cost(t *testing.T, got event.Tokens, want float64) {
	t.Helper()
	if got.CostUSD == nil || math.Abs(*got.CostUSD-want) > 1e-12 {
		t.Errorf("cost %v, want %v", got.CostUSD, want)
	}
}

func results(d eventtest.Decoded) (failed []string) {
	for _, r := range d.Kinds(event.ToolResult) {
		if r.Tool.Failed {
			failed = append(failed, r.Tool.ID+": "+r.Tool.Output)
		}
	}
	return failed
}

// The facts below were read off the capture files by hand; the comments
// give the lines they come from. Every step_finish's tokens.total is
// input + output + reasoning + cache: output here counts reasoning.
func TestOpenCodeCaptures(t *testing.T) {
	t.Run("nightgauge-bash-permission-rejected", func(t *testing.T) {
		d := eventtest.Decode(t, Dialect, eventtest.Capture(t, "opencode", "nightgauge-bash-permission-rejected.jsonl"))
		// line 2 refuses the bash call; line 3 ends the step on
		// tool-calls and nothing follows: the run stopped, blocked.
		eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusBlocked})
		eventtest.Eq(t, "final", d.Texts(event.Final), nil)
		eventtest.Eq(t, "tools", d.Calls(), []string{"bash shell"})
		eventtest.Eq(t, "failed", results(d), []string{"call-stub-bash-then-stop-0: The user rejected permission to use this specific tool call."})
		checkTokens(t, d.Tokens, tokens{1533, 3, 0, 0, 0}) // line 3
		cost(t, d.Tokens, 0)
	})
	t.Run("nightgauge-context-overflow-error", func(t *testing.T) {
		d := eventtest.Decode(t, Dialect, eventtest.Capture(t, "opencode", "nightgauge-context-overflow-error.jsonl"))
		eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusError})
		// lines 1 and 2 are the same failure
		eventtest.Eq(t, "errors", d.Texts(event.Error), []string{"The prompt is greater than the context length of the loaded model."})
		if e := d.Kinds(event.Error); e[0].Code != "ContextOverflowError" || e[0].Run != "ses_fixture0000000000000000001" {
			t.Errorf("%+v", e[0])
		}
		eventtest.Eq(t, "tools", d.Calls(), nil)
		if len(d.Kinds(event.Usage)) != 0 || d.Tokens.CostUSD != nil {
			t.Error("usage or cost where the stream has none")
		}
	})
	t.Run("nightgauge-priced-steps-stub-model", func(t *testing.T) {
		d := eventtest.Decode(t, Dialect, eventtest.Capture(t, "opencode", "nightgauge-priced-steps-stub-model.jsonl"))
		eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusSuccess})                         // line 6: reason stop
		eventtest.Eq(t, "final", d.Texts(event.Final), []string{"Applied the requested edit to calc.py."}) // line 5
		eventtest.Eq(t, "tools", d.Calls(), []string{"edit write"})                                        // line 2
		eventtest.Eq(t, "failed", results(d), nil)
		if r := d.Kinds(event.ToolResult); r[0].Tool.Output != "Edit applied successfully." {
			t.Errorf("%+v", r[0].Tool)
		}
		checkTokens(t, d.Tokens, tokens{1539 + 1550, 8 + 6, 0, 0, 0}) // lines 3 and 6
		cost(t, d.Tokens, 0.003126+0.003136)                          // lines 3 and 6
	})
	t.Run("nightgauge-provider-error-500", func(t *testing.T) {
		d := eventtest.Decode(t, Dialect, eventtest.Capture(t, "opencode", "nightgauge-provider-error-500.jsonl"))
		eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusError})
		eventtest.Eq(t, "errors", d.Texts(event.Error), []string{"stub-provider: internal error"})
		if e := d.Kinds(event.Error); e[0].Code != "APIError" {
			t.Errorf("%+v", e[0])
		}
	})
	t.Run("nightgauge-read-edit-local-model", func(t *testing.T) {
		d := eventtest.Decode(t, Dialect, eventtest.Capture(t, "opencode", "nightgauge-read-edit-local-model.jsonl"))
		eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusSuccess})                                           // line 11
		eventtest.Eq(t, "final", d.Texts(event.Final), []string{"\n\nFixed: `add` now returns `a + b` instead of `a - b`."}) // line 10
		eventtest.Eq(t, "tools", d.Calls(), []string{"read read", "edit write"})                                             // lines 2, 6
		eventtest.Eq(t, "failed", results(d), nil)
		// lines 4, 8, 11
		checkTokens(t, d.Tokens, tokens{5640 + 5809 + 5916, 44 + 10 + 78 + 7 + 22 + 30, 0, 0, 10 + 7 + 30})
		cost(t, d.Tokens, 0)
		eventtest.Eq(t, "text", d.Texts(event.Text), []string{"\n\n", "\n\n", "\n\nFixed: `add` now returns `a + b` instead of `a - b`."})
	})
	t.Run("nightgauge-two-subagents-one-rejected", func(t *testing.T) {
		d := eventtest.Decode(t, Dialect, eventtest.Capture(t, "opencode", "nightgauge-two-subagents-one-rejected.jsonl"))
		eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusSuccess}) // line 19
		if f := d.Texts(event.Final); len(f) != 1 || !strings.HasPrefix(f[0], "\n\n1. **Bug found** (subagent)") || !strings.HasSuffix(f[0], "to `return a + b`.") {
			t.Errorf("final %q", f) // line 18
		}
		eventtest.Eq(t, "tools", d.Calls(), []string{"task unknown", "task unknown", "read read", "edit write"}) // lines 3, 7, 10, 14
		eventtest.Eq(t, "failed", results(d), []string{"980920573: Subagent failed (task_id: ses_fixture0000000000000000003): The user rejected permission to use this specific tool call."})
		// lines 4, 8, 12, 16, 19
		checkTokens(t, d.Tokens, tokens{5681 + 5915 + 6140 + 6386 + 6510, 110 + 108 + 45 + 79 + 97 + 12 + 60 + 85 + 23 + 70, 0, 0, 12 + 60 + 85 + 23 + 70})
		cost(t, d.Tokens, 0)
	})
}

var captures = []string{"nightgauge-bash-permission-rejected.jsonl", "nightgauge-context-overflow-error.jsonl",
	"nightgauge-priced-steps-stub-model.jsonl", "nightgauge-provider-error-500.jsonl",
	"nightgauge-read-edit-local-model.jsonl", "nightgauge-two-subagents-one-rejected.jsonl"}

func TestOpenCodeCutAtEveryLineEndsIncomplete(t *testing.T) {
	for _, name := range captures {
		lines := eventtest.Capture(t, "opencode", name)
		for k := 1; k < len(lines); k++ {
			d := eventtest.Decode(t, Dialect, lines[:k])
			want := event.StatusIncomplete
			if strings.Contains(name, "error") {
				want = event.StatusError // an error line fails the run at once
			}
			if len(d.Runs) != 1 || d.Runs[0].Status != want {
				t.Errorf("%s cut after line %d: runs %v, want %v", name, k, d.Statuses(), want)
			}
			if len(d.Kinds(event.Final)) != 0 {
				t.Errorf("%s cut after line %d: a final answer", name, k)
			}
		}
	}
}

func TestOpenCodeDuplicatedLinesCountOnce(t *testing.T) {
	for _, name := range captures {
		lines := eventtest.Capture(t, "opencode", name)
		once, d := eventtest.Decode(t, Dialect, lines), eventtest.Decode(t, Dialect, eventtest.Twice(lines))
		eventtest.SameStory(t, name, d, once)
		eventtest.Eq(t, name+" failed", results(d), results(once))
		a, b := d.Tokens, once.Tokens
		a.CostUSD, b.CostUSD = nil, nil
		if a != b || fmt.Sprint(d.Tokens.CostUSD == nil) != fmt.Sprint(once.Tokens.CostUSD == nil) ||
			d.Tokens.CostUSD != nil && *d.Tokens.CostUSD != *once.Tokens.CostUSD {
			t.Errorf("%s: tokens %+v, once %+v", name, d.Tokens, once.Tokens)
		}
	}
}

func line(s string) []byte { return []byte(s) }

const env = `"timestamp":1789382753695,"sessionID":"ses_a"`

func TestOpenCodeToolSeenRunningThenDoneIsOneCall(t *testing.T) {
	// Calls finishing out of their order, one first seen running: each
	// call once, each result once, in the order the results came.
	tool := func(id, status, extra string) []byte {
		return line(`{"type":"tool_use",` + env + `,"part":{"id":"prt_` + id + `","type":"tool","tool":"bash","callID":"c` + id + `","state":{"status":"` + status + `","input":{"command":"ls"}` + extra + `}}}`)
	}
	d := eventtest.Decode(t, Dialect, [][]byte{
		line(`{"type":"step_start",` + env + `,"part":{"id":"s1","type":"step-start"}}`),
		tool("1", "running", ""), tool("2", "completed", `,"output":"two"`), tool("1", "completed", `,"output":"one"`),
		tool("1", "completed", `,"output":"one"`),
		line(`{"type":"step_finish",` + env + `,"part":{"id":"f1","reason":"stop","tokens":{"input":1,"output":2,"reasoning":0,"cache":{"read":3,"write":4}},"cost":0.5}}`),
		line(`{"type":"done",` + env + `,"reason":"idle","rejected":[]}`),
	})
	var calls, res []string
	for _, e := range d.Kinds(event.ToolCall) {
		calls = append(calls, e.Tool.ID)
	}
	for _, e := range d.Kinds(event.ToolResult) {
		res = append(res, e.Tool.ID+"="+e.Tool.Output)
	}
	eventtest.Eq(t, "calls", calls, []string{"c1", "c2"})
	eventtest.Eq(t, "results", res, []string{"c2=two", "c1=one"})
	eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusSuccess})
	checkTokens(t, d.Tokens, tokens{1, 2, 3, 4, 0})
	cost(t, d.Tokens, 0.5)
	if e := d.Kinds(event.RunEnd); e[0].Line != 7 {
		t.Errorf("the run ends at line %d, not at done", e[0].Line)
	}
}

func TestOpenCodeRunEnds(t *testing.T) {
	start := `{"type":"step_start",` + env + `,"part":{"id":"s1","type":"step-start"}}`
	text := `{"type":"text",` + env + `,"part":{"id":"t1","type":"text","text":"hi","time":{"end":2}}}`
	finish := func(reason string) string {
		return `{"type":"step_finish",` + env + `,"part":{"id":"f1","reason":"` + reason + `","tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}},"cost":0}}`
	}
	refused := `{"type":"tool_use",` + env + `,"part":{"id":"p","tool":"bash","callID":"c","state":{"status":"error","input":{},"error":"The user rejected permission to use this specific tool call."}}}`
	done := func(rejected string) string {
		return `{"type":"done",` + env + `,"reason":"idle","rejected":[` + rejected + `]}`
	}
	aborted := `{"type":"error",` + env + `,"error":{"name":"MessageAbortedError","data":{"message":"Aborted"}}}`
	other := `{"type":"step_start","timestamp":1,"sessionID":"ses_b","part":{"id":"s2","type":"step-start"}}`
	for _, c := range []struct {
		name  string
		lines []string
		want  []event.Status
		final int
	}{
		{"stop then done", []string{start, text, finish("stop"), done("")}, []event.Status{event.StatusSuccess}, 1},
		{"tool-calls then done", []string{start, finish("tool-calls"), done("")}, []event.Status{event.StatusEnded}, 0},
		{"refused then done", []string{start, refused, finish("tool-calls"), done(`"bash"`)}, []event.Status{event.StatusBlocked}, 0},
		{"done names a refusal", []string{start, finish("tool-calls"), done(`"bash"`)}, []event.Status{event.StatusBlocked}, 0},
		{"aborted", []string{start, text, aborted, done("")}, []event.Status{event.StatusCancelled}, 0},
		{"no step_finish", []string{start, text}, []event.Status{event.StatusIncomplete}, 0},
		{"first line names no session", []string{`{"type":"step_start","part":{"id":"s0"}}`, text, finish("stop")}, []event.Status{event.StatusSuccess}, 1},
		{"two sessions, no done", []string{start, text, finish("stop"), other}, []event.Status{event.StatusSuccess, event.StatusIncomplete}, 1},
		{"a second prompt of the session", []string{start, finish("stop"), done(""), other, `{"type":"step_start",` + env + `,"part":{"id":"s3"}}`},
			[]event.Status{event.StatusSuccess, event.StatusIncomplete, event.StatusIncomplete}, 0},
	} {
		var lines [][]byte
		for _, l := range c.lines {
			lines = append(lines, line(l))
		}
		d := eventtest.Decode(t, Dialect, lines)
		eventtest.Eq(t, c.name+": runs", d.Statuses(), c.want)
		if len(d.Kinds(event.Final)) != c.final {
			t.Errorf("%s: finals %q", c.name, d.Texts(event.Final))
		}
	}
}

func TestOpenCodeHugeToolOutputKeptWhole(t *testing.T) {
	l := eventtest.Capture(t, "opencode", "nightgauge-priced-steps-stub-model.jsonl")
	big := strings.Repeat("y", 5<<20)
	l[1] = bytes.Replace(l[1], []byte(`"output":"Edit applied successfully."`), []byte(`"output":"`+big+`"`), 1)
	d := eventtest.Decode(t, Dialect, l)
	if r := d.Kinds(event.ToolResult); len(r) != 1 || r[0].Tool.Output != big {
		t.Fatal("the 5 MB output is not kept whole")
	}
	eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusSuccess})
}

func TestOpenCodeBadShapesAreDiagnosed(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"type":"text","sessionID":"s","part":42}`, "text.part: want object, got number 42"},
		{`{"type":"text","sessionID":"s","part":{"text":7}}`, "text.part.text: want string, got number 7"},
		{`{"type":"step_finish","sessionID":"s","part":{"tokens":7}}`, "step_finish.part.tokens: want object, got number 7"},
		{`{"type":"tool_use","sessionID":"s","part":{"tool":"bash","state":"x"}}`, `tool_use.part.state: want object, got string "x"`},
		{`{"type":"assistant","message":42}`, ""}, // not OpenCode's: its RunStart stands for it
		{`{"sessionID":"s"}`, "opencode: the line has no type"},
		{`"text"`, "opencode: the line is not a JSON object"},
		{`{"type":"text",`, "opencode: the line is not a JSON object"},
	} {
		dec := Dialect.NewDecoder(testOptions)
		evs, err := dec.Decode(nil, []byte(c.line), 3)
		switch {
		case c.want == "" && (err != nil || len(evs) != 1 || evs[0].Kind != event.RunStart):
			t.Errorf("%s: %v %+v", c.line, err, evs)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.line, err, c.want)
		}
	}
}

func TestOpenCodeDetect(t *testing.T) {
	for l, want := range map[string]event.Certainty{
		`{"type":"step_start","part":{}}`:                         event.Sure,
		`{"type":"tool_use","sessionID":"s","part":{}}`:           event.Sure,
		`{"type":"text","timestamp":1,"sessionID":"s","part":{}}`: event.Sure,
		`{"type":"error","sessionID":"s","error":{}}`:             event.Sure,
		`{"type":"done","sessionID":"s","reason":"idle"}`:         event.Sure,
		`{"type":"text","content":"x"}`:                           event.No, // EvoScientist's
		`{"type":"error","message":"x"}`:                          event.No, // Codex's or EvoScientist's
		`{"type":"done"}`:                                         event.No,
		`{"type":"thread.started"}`:                               event.No,
		`nope`:                                                    event.No,
	} {
		if got := Dialect.Detect([]byte(l)); got != want {
			t.Errorf("%s: %v, want %v", l, got, want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, name := range captures {
		for _, l := range eventtest.Capture(f, "opencode", name) {
			f.Add(l, l)
		}
	}
	f.Add(line(`{"type":"step_finish","sessionID":"b","part":{"reason":"stop"}}`), line(`{"type":"done","sessionID":"a"}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if len(a)+len(b) > 1<<16 {
			return
		}
		dec := Dialect.NewDecoder(testOptions)
		var evs []event.Event
		evs, _ = dec.Decode(evs, a, 1)
		evs, _ = dec.Decode(evs, b, 2)
		evs = dec.End(evs)
		for _, e := range evs {
			if e.Dialect != Dialect.Name || e.Line < 1 {
				t.Fatalf("%+v", e)
			}
		}
	})
}
