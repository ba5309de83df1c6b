package codex

import (
	"bytes"
	"strconv"
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
	if got.CostUSD != nil {
		t.Errorf("a cost %v: Codex states none", *got.CostUSD)
	}
}

// The facts below were read off the capture files by hand; the comments
// give the lines they come from.
func TestCodexCaptures(t *testing.T) {
	shell := "command_execution shell"
	t.Run("adk-harness-warning-items-reasoning-tokens", func(t *testing.T) {
		d := eventtest.Decode(t, Dialect, eventtest.Capture(t, "codex", "adk-harness-warning-items-reasoning-tokens.jsonl"))
		// One thread (line 1), one turn (5…11) ending in turn.completed;
		// the warnings before turn.started belong to the same run.
		eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusSuccess})
		eventtest.Eq(t, "final", d.Texts(event.Final), []string{"There are 8 `.py` files in `src/adk_harness`."}) // line 10
		eventtest.Eq(t, "tools", d.Calls(), []string{shell})                                                      // lines 8-9
		if r := d.Kinds(event.ToolResult); len(r) != 1 || r[0].Tool.Failed || !strings.HasPrefix(r[0].Tool.Output, "__init__.py\n") || r[0].Tool.ID != "item_5" {
			t.Errorf("result %+v", r)
		}
		if w := d.Texts(event.Warning); len(w) != 4 || !strings.HasPrefix(w[3], "Skill descriptions") { // lines 2, 3, 4, 6
			t.Errorf("warnings %q", w)
		}
		eventtest.Eq(t, "errors", d.Texts(event.Error), nil)
		// line 11: input 58666 of which 39424 cached, cache writes 0, output 234 with 136 reasoning
		checkTokens(t, d.Tokens, tokens{58666 - 39424, 234, 39424, 0, 136})
		eventtest.Eq(t, "text", d.Texts(event.Text), []string{"I’ll check the directory directly.", "There are 8 `.py` files in `src/adk_harness`."})
	})
	t.Run("agent-harness-shell-command", func(t *testing.T) {
		d := eventtest.Decode(t, Dialect, eventtest.Capture(t, "codex", "agent-harness-shell-command.jsonl"))
		eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusSuccess}) // line 7
		eventtest.Eq(t, "final", d.Texts(event.Final), []string{"done"})           // line 6
		eventtest.Eq(t, "tools", d.Calls(), []string{shell})                       // lines 4-5
		if r := d.Kinds(event.ToolResult); len(r) != 1 || r[0].Tool.Failed || r[0].Tool.Output != "one\n" {
			t.Errorf("result %+v", r)
		}
		if c := d.Kinds(event.ToolCall); string(c[0].Tool.Args) != `{"command":"/bin/bash -lc 'echo one'"}` {
			t.Errorf("args %s", c[0].Tool.Args)
		}
		checkTokens(t, d.Tokens, tokens{33075 - 16128, 168, 16128, 0, 0}) // line 7
		if rs := d.Kinds(event.RunStart); len(rs) != 1 || rs[0].Session != "019fa78c-0329-7812-8dce-65636bb17ea6" || d.Runs[0].ID != rs[0].Session {
			t.Errorf("run start %+v", rs)
		}
	})
	t.Run("agent-harness-unknown-model-turn-failed", func(t *testing.T) {
		d := eventtest.Decode(t, Dialect, eventtest.Capture(t, "codex", "agent-harness-unknown-model-turn-failed.jsonl"))
		eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusError}) // line 5
		eventtest.Eq(t, "final", d.Texts(event.Final), nil)
		eventtest.Eq(t, "tools", d.Calls(), nil)
		// line 4's error and line 5's turn.failed say the same: one error
		if e := d.Texts(event.Error); len(e) != 1 || !strings.Contains(e[0], "is not supported when using Codex with a ChatGPT account") {
			t.Errorf("errors %q", e)
		}
		if w := d.Texts(event.Warning); len(w) != 1 || !strings.HasPrefix(w[0], "Model metadata for") { // line 2
			t.Errorf("warnings %q", w)
		}
		checkTokens(t, d.Tokens, tokens{})
		if len(d.Kinds(event.Usage)) != 0 {
			t.Error("a usage event where the stream has none")
		}
	})
	t.Run("nightgauge-two-commands-0.153.4", func(t *testing.T) {
		d := eventtest.Decode(t, Dialect, eventtest.Capture(t, "codex", "nightgauge-two-commands-0.153.4.jsonl"))
		eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusSuccess}) // line 9
		eventtest.Eq(t, "final", d.Texts(event.Final), []string{"Done."})          // line 8
		eventtest.Eq(t, "tools", d.Calls(), []string{shell, shell})                // lines 4-7
		var outs []string
		for _, r := range d.Kinds(event.ToolResult) {
			if r.Tool.Failed {
				t.Errorf("failed %+v", r.Tool)
			}
			outs = append(outs, r.Tool.Output)
		}
		eventtest.Eq(t, "outputs", outs, []string{"one\n", "two\n"})
		checkTokens(t, d.Tokens, tokens{67553 - 56704, 124, 56704, 0, 0}) // line 9
	})
}

var captures = []string{"adk-harness-warning-items-reasoning-tokens.jsonl", "agent-harness-shell-command.jsonl",
	"agent-harness-unknown-model-turn-failed.jsonl", "nightgauge-two-commands-0.153.4.jsonl"}

func TestCodexCutAtEveryLineEndsIncomplete(t *testing.T) {
	for _, name := range captures {
		lines := eventtest.Capture(t, "codex", name)
		for k := 1; k < len(lines); k++ { // every capture's last line ends its turn
			d := eventtest.Decode(t, Dialect, lines[:k])
			if len(d.Runs) != 1 || d.Runs[0].Status != event.StatusIncomplete || d.Runs[0].Cut != event.CutEndOfInput {
				t.Errorf("%s cut after line %d: runs %v", name, k, d.Statuses())
			}
			if len(d.Kinds(event.Final)) != 0 || len(d.Kinds(event.Usage)) != 0 {
				t.Errorf("%s cut after line %d: a final answer or usage of a turn that did not end", name, k)
			}
		}
	}
}

func TestCodexDuplicatedLinesCountOnce(t *testing.T) {
	for _, name := range captures {
		lines := eventtest.Capture(t, "codex", name)
		once, d := eventtest.Decode(t, Dialect, lines), eventtest.Decode(t, Dialect, eventtest.Twice(lines))
		eventtest.SameStory(t, name, d, once)
		eventtest.Eq(t, name+" warnings", d.Texts(event.Warning), once.Texts(event.Warning))
		if len(d.Kinds(event.ToolResult)) != len(once.Kinds(event.ToolResult)) {
			t.Errorf("%s: results repeated", name)
		}
		if d.Tokens != once.Tokens {
			t.Errorf("%s: tokens %+v, once %+v", name, d.Tokens, once.Tokens)
		}
		// the repeated turn end is said, not dropped silently
		if len(d.Errs) != 1 || !strings.Contains(d.Errs[0], "outside a turn") {
			t.Errorf("%s: diagnostics %q", name, d.Errs)
		}
	}
}

func TestCodexItemsOutOfOrderEachOnce(t *testing.T) {
	// nightgauge's two commands with the second started before the first
	// ends and completed before it, a todo list open across the turn, and
	// a web search seen only at its completion.
	l := eventtest.Capture(t, "codex", "nightgauge-two-commands-0.153.4.jsonl")
	todo := func(typ string, done bool) []byte {
		c := "false"
		if done {
			c = "true"
		}
		return []byte(`{"type":"` + typ + `","item":{"id":"item_9","type":"todo_list","items":[{"text":"run both","completed":` + c + `}]}}`)
	}
	search := []byte(`{"type":"item.completed","item":{"id":"item_10","type":"web_search","query":"zevo"}}`)
	lines := [][]byte{l[0], l[1], todo("item.started", false), l[2], l[3], l[5], todo("item.updated", false),
		l[6], search, l[4], todo("item.updated", true), l[7], todo("item.completed", true), l[8]}
	d := eventtest.Decode(t, Dialect, lines)
	eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusSuccess})
	var calls, results []string
	for _, e := range d.Kinds(event.ToolCall) {
		calls = append(calls, e.Tool.ID+" "+e.Tool.Name+" "+string(e.Tool.Effect))
	}
	for _, e := range d.Kinds(event.ToolResult) {
		results = append(results, e.Tool.ID+" "+e.Tool.Output)
	}
	eventtest.Eq(t, "calls", calls, []string{"item_9 todo_list write", "item_1 command_execution shell",
		"item_2 command_execution shell", "item_10 web_search network"})
	eventtest.Eq(t, "results", results, []string{"item_2 two\n", "item_10 ", "item_1 one\n", "item_9 [x] run both"})
	eventtest.Eq(t, "final", d.Texts(event.Final), []string{"Done."})
	if len(d.Errs) != 0 {
		t.Errorf("diagnostics %q", d.Errs)
	}
}

func TestCodexHugeToolOutputKeptWhole(t *testing.T) {
	l := eventtest.Capture(t, "codex", "nightgauge-two-commands-0.153.4.jsonl")
	big := strings.Repeat("x", 5<<20)
	l[4] = bytes.Replace(l[4], []byte(`"aggregated_output":"one\n"`), []byte(`"aggregated_output":"`+big+`"`), 1)
	d := eventtest.Decode(t, Dialect, l)
	if r := d.Kinds(event.ToolResult); len(r) != 2 || r[0].Tool.Output != big {
		t.Fatalf("the 5 MB output is not kept whole")
	}
	eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusSuccess})
}

func TestCodexBadShapesAreDiagnosed(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"type":"item.completed","item":42}`, "item.completed.item: want object, got number 42"},
		{`{"type":"turn.completed","usage":7}`, "turn.completed.usage: want object, got number 7"},
		{`{"type":"thread.started","thread_id":{}}`, "thread.started.thread_id: want string, got object"},
		{`{"type":"thread.started"}`, `thread.started: missing field "thread_id"`},
		{`{"type":"thread.started","thread_id":""}`, "thread.started.thread_id: must not be empty"},
		{`{"type":"assistant","message":42}`, ""}, // not Codex's: kept as Other
		{`{"message":"x"}`, "codex: the line has no type"},
		{`[1,2]`, "codex: the line is not a JSON object"},
		{`{"type":"item.completed",`, "codex: the line is not a JSON object"},
	} {
		evs, err := Dialect.NewDecoder(testOptions).Decode(nil, []byte(c.line), 3)
		switch {
		case c.want == "" && (err != nil || len(evs) != 1 || evs[0].Kind != event.Other):
			t.Errorf("%s: %v %+v", c.line, err, evs)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.line, err, c.want)
		}
	}
}

func TestCodexResumedThreadCountsWhatItsTotalGrewBy(t *testing.T) {
	// Codex states the thread's running total on turn.completed: two runs
	// of one thread, one after the other, count each turn's own tokens.
	turn := func(in, cached, out int) []string {
		return []string{`{"type":"thread.started","thread_id":"t1"}`, `{"type":"turn.started"}`,
			`{"type":"turn.completed","usage":{"input_tokens":` + strconv.Itoa(in) + `,"cached_input_tokens":` + strconv.Itoa(cached) + `,"output_tokens":` + strconv.Itoa(out) + `}}`}
	}
	var lines [][]byte
	for _, l := range append(turn(100, 40, 10), turn(250, 140, 30)...) {
		lines = append(lines, []byte(l))
	}
	d := eventtest.Decode(t, Dialect, lines)
	eventtest.Eq(t, "runs", d.Statuses(), []event.Status{event.StatusSuccess, event.StatusSuccess})
	u := d.Kinds(event.Usage)
	if len(u) != 2 || u[1].Usage.Input != 50 || u[1].Usage.CacheRead != 100 || u[1].Usage.Output != 20 {
		t.Fatalf("second turn %+v", u[1].Usage)
	}
	checkTokens(t, d.Tokens, tokens{110, 30, 140, 0, 0})
}

func TestCodexDetect(t *testing.T) {
	for line, want := range map[string]event.Certainty{
		`{"type":"thread.started","thread_id":"x"}`:                 event.Sure,
		`{"type":"item.completed","item":{}}`:                       event.Sure,
		`{"type":"turn.failed","error":{"message":"m"}}`:            event.Sure,
		`{"type":"error","message":"m"}`:                            event.Maybe,
		`{"type":"error","timestamp":1,"sessionID":"s","error":{}}`: event.No,
		`{"type":"text","part":{}}`:                                 event.No,
		`{"type":"assistant","message":{}}`:                         event.No,
		`not json`:                                                  event.No,
		`{"type":7}`:                                                event.No,
	} {
		if got := Dialect.Detect([]byte(line)); got != want {
			t.Errorf("%s: %v, want %v", line, got, want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, name := range captures {
		for _, l := range eventtest.Capture(f, "codex", name) {
			f.Add(l, l)
		}
	}
	f.Add([]byte(`{"type":"item.updated","item":{"id":"a","type":"agent_message","text":"x"}}`), []byte(`{"type":"turn.failed"}`))
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
