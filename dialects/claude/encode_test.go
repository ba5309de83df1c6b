package claude

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/redact"
)

// encode writes evs through an Encoder, placed in runs as event.Input
// places them, and returns the lines written.
func encode(t *testing.T, opt EncodeOptions, evs ...event.Event) []gjson.Result {
	t.Helper()
	var out []gjson.Result
	if opt.NewSeed == nil {
		n := 0
		opt.NewSeed = func() string { n++; return "seed" + string(rune('0'+n)) }
	}
	enc := NewEncoder(opt, func(b []byte) error {
		if !json.Valid(b) {
			t.Fatalf("not JSON: %s", b)
		}
		out = append(out, gjson.ParseBytes(append([]byte(nil), b...)))
		return nil
	})
	var runs event.Runs
	for i := range evs {
		ev := &evs[i]
		if ev.Dialect == "" {
			ev.Dialect = "zero"
		}
		if _, err := enc.Encode(ev, runs.Place(ev)); err != nil {
			t.Fatal(err)
		}
	}
	if r := runs.End(); r != nil {
		if _, err := enc.Encode(nil, event.Step{Closed: r}); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func ofType(lines []gjson.Result, typ string) []gjson.Result {
	var out []gjson.Result
	for _, l := range lines {
		if l.Get("type").Str == typ {
			out = append(out, l)
		}
	}
	return out
}

func call(id, name, args string) event.Event {
	return event.Event{Kind: event.ToolCall, Tool: &event.Tool{ID: id, Name: name, Args: json.RawMessage(args)}}
}

func result(id string, failed bool, out string) event.Event {
	return event.Event{Kind: event.ToolResult, Tool: &event.Tool{ID: id, Failed: failed, Output: out}}
}

func end(s event.Status) event.Event { return event.Event{Kind: event.RunEnd, Status: s} }

// A run without any cost stated has no total_cost_usd (never an invented
// 0); one whose usage states a cost has it, as the session's running
// total, and a run's cache tokens are said only when its source says
// them.
func TestEncodeCostOnlyWhenStated(t *testing.T) {
	one, two := 0.25, 0.5
	lines := encode(t, EncodeOptions{SessionID: "s"},
		event.Event{Kind: event.RunStart},
		event.Event{Kind: event.Usage, Usage: &event.Tokens{Input: 3, Output: 2, Has: event.HasInput | event.HasOutput}},
		end(event.StatusSuccess),
		event.Event{Kind: event.RunStart},
		event.Event{Kind: event.Usage, Usage: &event.Tokens{Input: 5, CacheRead: 7, Has: event.HasInput | event.HasCacheRead, CostUSD: &one}},
		event.Event{Kind: event.Usage, Usage: &event.Tokens{Output: 1, Has: event.HasOutput, CostUSD: &one}},
		end(event.StatusSuccess),
		event.Event{Kind: event.RunStart},
		event.Event{Kind: event.Usage, Usage: &event.Tokens{Scope: event.ScopeRun, Input: 1, Has: event.HasInput, CostUSD: &two}},
		end(event.StatusSuccess),
	)
	res := ofType(lines, "result")
	if len(res) != 3 {
		t.Fatalf("%d results", len(res))
	}
	if c := res[0].Get("total_cost_usd"); c.Exists() {
		t.Errorf("run 1 states no cost, writes %s", c.Raw)
	}
	if u := res[0].Get("usage"); u.Raw != `{"input_tokens":3,"output_tokens":2}` {
		t.Errorf("run 1 usage %s", u.Raw)
	}
	if c := res[1].Get("total_cost_usd"); c.Raw != "0.5" {
		t.Errorf("run 2 cost %s, want 0.5", c.Raw)
	}
	if u := res[1].Get("usage"); u.Raw != `{"input_tokens":5,"cache_read_input_tokens":7,"output_tokens":1}` {
		t.Errorf("run 2 usage %s", u.Raw)
	}
	if c := res[2].Get("total_cost_usd"); c.Raw != "1" {
		t.Errorf("run 3 cost %s, want the session's 1", c.Raw)
	}
}

// A failed result is is_error; each message id is written once, each
// tool use id once (a call id the input repeats included), and results
// name their calls.
func TestEncodeToolIDs(t *testing.T) {
	lines := encode(t, EncodeOptions{},
		event.Event{Kind: event.RunStart, Session: "s1", Model: "m"},
		event.Event{Kind: event.Text, Text: "let me "},
		event.Event{Kind: event.Text, Text: "look"},
		call("c1", "read", `{"path":"a"}`),
		call("c1", "read", `"not an object"`), // the same id again
		result("c1", false, "A"),
		result("c1", true, "no such file"),
		event.Event{Kind: event.Final, Text: "done"},
		end(event.StatusSuccess),
	)
	as := ofType(lines, "assistant")
	if len(as) != 2 {
		t.Fatalf("%d assistant lines", len(as))
	}
	if got := as[0].Get("message.content.#.type").Raw; got != `["text","tool_use"]` {
		t.Errorf("first message blocks %s", got)
	}
	if got := as[0].Get("message.content.0.text").Str; got != "let me look" {
		t.Errorf("text %q, want the deltas joined", got)
	}
	if got := as[1].Get("message.content.0.input").Raw; got != `{"arguments":"not an object"}` {
		t.Errorf("input %s, want an object", got)
	}
	ids := map[string]bool{}
	var uses []string
	for _, a := range as {
		id := a.Get("message.id").Str
		if !strings.HasPrefix(id, "msg_") || ids[id] {
			t.Errorf("message id %q", id)
		}
		ids[id] = true
		use := a.Get("message.content.#(type==\"tool_use\").id").Str
		if !strings.HasPrefix(use, "toolu_") || ids[use] {
			t.Errorf("tool use id %q", use)
		}
		ids[use] = true
		uses = append(uses, use)
	}
	us := ofType(lines, "user")
	if len(us) != 2 {
		t.Fatalf("%d user lines", len(us))
	}
	for i, want := range []string{uses[0], uses[1]} {
		if got := us[i].Get("message.content.0.tool_use_id").Str; got != want {
			t.Errorf("result %d names %q, want %q", i+1, got, want)
		}
	}
	for i, want := range []bool{false, true} {
		if got := us[i].Get("message.content.0.is_error").Bool(); got != want {
			t.Errorf("result %d is_error %v", i+1, got)
		}
	}
	if r := ofType(lines, "result")[0]; r.Get("result").Str != "done" || r.Get("num_turns").Int() != 2 || r.Get("is_error").Bool() {
		t.Errorf("result %s", r.Raw)
	}
}

// The same events and seeds give the same lines; other seeds other ids.
func TestEncodeIDsDeriveFromTheSeed(t *testing.T) {
	evs := func() []event.Event {
		return []event.Event{{Kind: event.RunStart}, call("c", "x", "{}"), result("c", false, ""), end(event.StatusSuccess)}
	}
	seeds := func(s string) func() string { return func() string { return s } }
	a := encode(t, EncodeOptions{NewSeed: seeds("a")}, evs()...)
	b := encode(t, EncodeOptions{NewSeed: seeds("a")}, evs()...)
	c := encode(t, EncodeOptions{NewSeed: seeds("c")}, evs()...)
	for i := range a {
		if a[i].Raw != b[i].Raw {
			t.Errorf("line %d differs:\n%s\n%s", i+1, a[i].Raw, b[i].Raw)
		}
		if a[i].Get("uuid").Str == c[i].Get("uuid").Str {
			t.Errorf("line %d: another seed, the same uuid", i+1)
		}
	}
	if s := a[0].Get("session_id").Str; len(s) != 36 || s[14] != '4' {
		t.Errorf("session id %q, want a UUID", s)
	}
}

// Each status ends the run with Claude Code's subtype; a failed run's
// result says why, and a run stopped by its user says it was aborted.
func TestEncodeStatuses(t *testing.T) {
	for s, want := range map[event.Status]string{
		event.StatusSuccess: "success", event.StatusEnded: "success",
		event.StatusError: "error_during_execution", event.StatusIncomplete: "error_during_execution",
		event.StatusBlocked: "error_during_execution", event.StatusCancelled: "error_during_execution",
		event.StatusMaxTurns: "error_max_turns", event.StatusMaxBudget: "error_max_budget_usd",
	} {
		r := ofType(encode(t, EncodeOptions{}, event.Event{Kind: event.RunStart}, end(s)), "result")[0]
		if r.Get("subtype").Str != want || r.Get("is_error").Bool() != (want != "success") {
			t.Errorf("%s: %s", s, r.Raw)
		}
		if want != "success" && r.Get("errors.0").Str == "" {
			t.Errorf("%s: no error said: %s", s, r.Raw)
		}
		if aborted := r.Get("terminal_reason").Str == "aborted_streaming"; aborted != (s == event.StatusCancelled) {
			t.Errorf("%s: %s", s, r.Raw)
		}
	}
}

// A permission request never answered, and one denied, are the result's
// permission_denials, naming the call as written; an allowed one is not.
func TestEncodePermissionDenials(t *testing.T) {
	perm := func(k event.Kind, id, tool string, d event.Decision) event.Event {
		return event.Event{Kind: k, Permission: &event.Permission{ID: id, Tool: tool, Decision: d}}
	}
	lines := encode(t, EncodeOptions{},
		event.Event{Kind: event.RunStart},
		call("c1", "write", `{"path":"a"}`),
		perm(event.PermissionRequest, "c1", "write", event.Pending),
		perm(event.PermissionDecision, "c1", "write", event.Denied),
		call("c2", "read", `{}`),
		perm(event.PermissionRequest, "c2", "read", event.Pending),
		perm(event.PermissionDecision, "c2", "read", event.Allowed),
		perm(event.PermissionRequest, "int_1", "shell", event.Pending),
		end(event.StatusInterrupted),
	)
	r := ofType(lines, "result")[0]
	use := ofType(lines, "assistant")[0].Get("message.content.0.id").Str
	want := `[{"tool_name":"write","tool_use_id":"` + use + `","tool_input":{"path":"a"}},{"tool_name":"shell","tool_use_id":"int_1","tool_input":{}}]`
	if got := r.Get("permission_denials").Raw; got != want {
		t.Errorf("denials\n got %s\nwant %s", got, want)
	}
}

// What Claude Code's stream has no room for is reported unmapped, and
// with Keep written under its dialect's prefixed type; a line outside
// every run writes nothing of a run.
func TestEncodeUnmapped(t *testing.T) {
	var n int
	enc := NewEncoder(EncodeOptions{Keep: true, NewSeed: func() string { return "s" }}, func(b []byte) error {
		n++
		if !strings.Contains(string(b), `"type":"zero.checkpoint"`) {
			t.Errorf("kept as %s", b)
		}
		return nil
	})
	var runs event.Runs
	for _, ev := range []event.Event{
		{Kind: event.Other, Dialect: "zero", Type: "checkpoint", Raw: []byte(`{"type":"checkpoint","files":["a"]}`), Aside: true},
		{Kind: event.Prompt, Dialect: "zero", Type: "prompt", Text: "hi", Aside: true},
	} {
		mapped, err := enc.Encode(&ev, runs.Place(&ev))
		if err != nil || mapped {
			t.Errorf("%s: mapped %v, %v", ev.Kind, mapped, err)
		}
	}
	if n != 1 {
		t.Errorf("%d lines kept, want 1", n)
	}
}

// Every string written goes through the redactor, the ids zevo derives
// included, and none of those is taken for a secret.
func TestEncodeRedacts(t *testing.T) {
	lines := encode(t, EncodeOptions{Redactor: &redact.Redactor{}},
		event.Event{Kind: event.RunStart},
		call("c", "bash", `{"command":"export API_KEY=sk-live-0123456789abcdef0123"}`),
		result("c", false, "token sk-live-0123456789abcdef0123"),
		event.Event{Kind: event.Final, Text: "sk-live-0123456789abcdef0123"},
		end(event.StatusSuccess),
	)
	for _, l := range lines {
		if strings.Contains(l.Raw, "0123456789abcdef0123") {
			t.Errorf("leaks: %s", l.Raw)
		}
		for _, id := range []string{l.Get("uuid").Str, l.Get("message.id").Str, l.Get("message.content.0.id").Str} {
			if strings.Contains(id, redact.Marker) {
				t.Errorf("an id redacted: %s", l.Raw)
			}
		}
	}
}

// duration_ms is the source's own, else the span of the times its lines
// state, else 0 (the Claude Agent SDK's parser requires it, as it does
// duration_api_ms: the source's own, else 0).
func TestEncodeDuration(t *testing.T) {
	at := func(k event.Kind, line int, raw string) event.Event {
		return event.Event{Kind: k, Line: line, Raw: []byte(raw), Status: event.StatusSuccess}
	}
	for _, c := range []struct {
		name string
		evs  []event.Event
		want string
	}{
		{"none", []event.Event{at(event.RunStart, 1, `{}`), at(event.RunEnd, 2, `{}`)}, "0"},
		{"timestamps", []event.Event{at(event.RunStart, 1, `{"timestamp":"2026-06-03T10:00:00Z"}`),
			at(event.RunEnd, 2, `{"timestamp":"2026-06-03T10:00:01.5Z"}`)}, "1500"},
		{"timestamp_ms", []event.Event{at(event.RunStart, 1, `{"timestamp_ms":1000}`),
			at(event.RunEnd, 2, `{"timestamp_ms":1250}`)}, "250"},
		{"its own", []event.Event{at(event.RunStart, 1, `{"timestamp_ms":1000}`),
			at(event.RunEnd, 2, `{"timestamp_ms":1250,"duration_ms":7,"duration_api_ms":5}`)}, "7"},
	} {
		r := ofType(encode(t, EncodeOptions{}, c.evs...), "result")[0]
		if got := r.Get("duration_ms").Raw; got != c.want {
			t.Errorf("%s: duration_ms %q, want %q", c.name, got, c.want)
		}
		api := "0"
		if c.name == "its own" {
			api = "5"
		}
		if got := r.Get("duration_api_ms").Raw; got != api {
			t.Errorf("%s: duration_api_ms %q, want %q", c.name, got, api)
		}
	}
}

// What a Claude reader cannot hold is reported unmapped and not written:
// a call without a tool's name (tool_use names one) and a result that
// answers no call of its run (a tool_result answers a tool_use).
func TestEncodeDropsWhatClaudeCannotHold(t *testing.T) {
	var lines []string
	enc := NewEncoder(EncodeOptions{NewSeed: func() string { return "s" }}, func(b []byte) error {
		lines = append(lines, gjson.GetBytes(b, "type").Str)
		return nil
	})
	var runs event.Runs
	for _, c := range []struct {
		ev     event.Event
		mapped bool
	}{
		{event.Event{Kind: event.RunStart}, true},
		{result("c0", false, "before any call"), false},
		{call("c1", "", "{}"), false},
		{result("c1", false, "of the nameless call"), false},
		{result("", true, "no call at all"), false},
		{call("c2", "read", "{}"), true},
		{result("c2", false, "ok"), true},
		{end(event.StatusSuccess), true},
	} {
		ev := c.ev
		ev.Dialect = "evosci"
		mapped, err := enc.Encode(&ev, runs.Place(&ev))
		if err != nil || mapped != c.mapped {
			t.Errorf("%s %+v: mapped %v, %v; want %v", ev.Kind, ev.Tool, mapped, err, c.mapped)
		}
	}
	if got := strings.Join(lines, " "); got != "system assistant user result" {
		t.Errorf("lines %q", got)
	}
}

// A translation stopped by a signal ends its open run as Claude Code
// ends a run its user stopped: an error result, aborted, with what was
// said before it; with no run open, nothing is written.
func TestEncodeInterrupt(t *testing.T) {
	var lines []gjson.Result
	enc := NewEncoder(EncodeOptions{NewSeed: func() string { return "s" }}, func(b []byte) error {
		lines = append(lines, gjson.ParseBytes(append([]byte(nil), b...)))
		return nil
	})
	if err := enc.Interrupt(); err != nil || len(lines) != 0 {
		t.Fatalf("no run: %v, %d lines", err, len(lines))
	}
	var runs event.Runs
	for _, ev := range []event.Event{{Kind: event.RunStart}, {Kind: event.Text, Text: "half"}} {
		ev.Dialect = "zero"
		if _, err := enc.Encode(&ev, runs.Place(&ev)); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Interrupt(); err != nil {
		t.Fatal(err)
	}
	if err := enc.Interrupt(); err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, l := range lines {
		types = append(types, l.Get("type").Str)
	}
	if got := strings.Join(types, " "); got != "system assistant result" {
		t.Fatalf("lines %q", got)
	}
	r := lines[2]
	if r.Get("subtype").Str != "error_during_execution" || !r.Get("is_error").Bool() ||
		r.Get("terminal_reason").Str != "aborted_streaming" || r.Get("errors").Raw != `["run cancelled by signal"]` {
		t.Errorf("result %s", r.Raw)
	}
}
