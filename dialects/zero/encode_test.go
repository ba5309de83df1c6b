package zero_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/dialects/zero/zerotest"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/redact"
)

// encode runs events through an Encoder as event.Runs places them, and
// returns the lines written, each checked with Zero's own decoder.
func encode(t *testing.T, opt zero.EncodeOptions, evs []event.Event) []*zerotest.Event {
	t.Helper()
	n := 0
	opt.NewRunID = func() string { n++; return "run_" + string(rune('0'+n)) }
	opt.NewSessionID = func() string { return "zero_s" }
	var out []*zerotest.Event
	var lines []string
	enc := zero.NewEncoder(opt, func(b []byte) error {
		lines = append(lines, string(b))
		z, err := zerotest.Decode(b)
		if opt.Version == 1 {
			z, err = zerotest.DecodeV1(b)
		}
		if err != nil {
			t.Fatalf("Zero's decoder: %v\n%s", err, b)
		}
		out = append(out, z)
		return nil
	})
	var runs event.Runs
	for i := range evs {
		ev := &evs[i]
		if ev.Dialect == "" {
			ev.Dialect = "test"
		}
		ev.Line = i + 1
		if _, err := enc.Encode(ev, runs.Place(ev)); err != nil {
			t.Fatal(err)
		}
	}
	if r := runs.End(); r != nil {
		if _, err := enc.Encode(nil, event.Step{Closed: r}); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("\n%s", strings.Join(lines, "\n"))
	return out
}

func types(evs []*zerotest.Event) string {
	var b []string
	for _, e := range evs {
		b = append(b, e.Type)
	}
	return strings.Join(b, " ")
}

func call(id, name string) event.Event {
	return event.Event{Kind: event.ToolCall, Tool: &event.Tool{ID: id, Name: name, Effect: event.EffectShell}}
}

func result(id string, failed bool) event.Event {
	return event.Event{Kind: event.ToolResult, Tool: &event.Tool{ID: id, Failed: failed, Output: "out"}}
}

func TestEncodeKeepsRepeatedCallIDsDistinct(t *testing.T) {
	out := encode(t, zero.EncodeOptions{}, []event.Event{
		{Kind: event.RunStart},
		call("c1", "Bash"), call("c1", "Bash"), result("c1", false), result("c1", true),
		{Kind: event.RunEnd, Status: event.StatusSuccess},
	})
	var calls, results []string
	for _, e := range out {
		switch e.Type {
		case "tool_call":
			calls = append(calls, e.ID)
		case "tool_result":
			results = append(results, e.ID+"/"+e.Status)
		}
	}
	if strings.Join(calls, " ") != "c1 c1:2" || strings.Join(results, " ") != "c1/ok c1:2/error" {
		t.Fatalf("calls %q, results %q", calls, results)
	}
}

func TestEncodeKeepsRedactedCallIDsDistinct(t *testing.T) {
	a, b := "sk-aaaaaaaaaaaaaaaaaaaaaa", "sk-bbbbbbbbbbbbbbbbbbbbbb"
	out := encode(t, zero.EncodeOptions{Redactor: &redact.Redactor{}}, []event.Event{
		call(a, "Bash"), call(b, "Bash"), result(b, false),
	})
	ids := map[string]bool{}
	for _, e := range out {
		if strings.Contains(e.ID, "sk-a") || strings.Contains(e.ID, "sk-b") {
			t.Fatalf("id %q leaks", e.ID)
		}
		if e.Type == "tool_call" {
			ids[e.ID] = true
		}
		if e.Type == "tool_result" && e.ID != "[REDACTED]:2" {
			t.Errorf("the result names %q, not its call's id", e.ID)
		}
	}
	if len(ids) != 2 {
		t.Fatalf("call ids %v", ids)
	}
}

func TestEncodeClosesACutRunAsZeroDoes(t *testing.T) {
	out := encode(t, zero.EncodeOptions{}, []event.Event{
		{Kind: event.RunStart, Session: "s"}, {Kind: event.Text, Text: "hi"},
	})
	if got := types(out); got != "run_start text error run_end" {
		t.Fatalf("types %q", got)
	}
	end, fail := out[3], out[2]
	if end.Status != "incomplete" || *end.ExitCode != 4 || fail.Code != "incomplete" {
		t.Fatalf("ended %q %d, error %q", end.Status, *end.ExitCode, fail.Code)
	}
}

func TestEncodeFailedRunHasAnErrorAndItsExitCode(t *testing.T) {
	out := encode(t, zero.EncodeOptions{}, []event.Event{
		{Kind: event.RunStart}, {Kind: event.RunEnd, Status: event.StatusMaxTurns},
		{Kind: event.RunStart}, {Kind: event.Error, Text: "boom"}, {Kind: event.RunEnd, Status: event.StatusError},
		{Kind: event.RunStart}, {Kind: event.RunEnd, Status: event.StatusCancelled},
	})
	if got := types(out); got != "run_start error run_end run_start error run_end run_start error run_end" {
		t.Fatalf("types %q", got)
	}
	if out[1].Code != "max_turns" || out[2].Status != "error" || *out[2].ExitCode != 1 {
		t.Errorf("max_turns: %+v %+v", out[1], out[2])
	}
	if out[4].Message != "boom" || out[4].Code != "agent_error" {
		t.Errorf("error: %+v", out[4])
	}
	if out[8].Status != "interrupted" || *out[8].ExitCode != 130 {
		t.Errorf("cancelled: %+v", out[8])
	}
	if out[0].RunID == out[3].RunID || out[3].RunID == out[6].RunID {
		t.Errorf("run ids repeat")
	}
}

func usd(c float64) *float64 { return &c }

// Usage: each usage event is written as it comes (a live client sees it
// then), the prompt is all the model read (cache reads and writes
// included), and a run total (Claude's result) writes what it adds to
// the messages' usage, so a run's usage events add up to its total; the
// cost is the producer's.
func TestEncodeUsageCountsEveryTokenOnce(t *testing.T) {
	out := encode(t, zero.EncodeOptions{}, []event.Event{
		{Kind: event.RunStart},
		{Kind: event.Usage, Usage: &event.Tokens{Input: 10, CacheRead: 100, Output: 5}},
		{Kind: event.Usage, Usage: &event.Tokens{Input: 1, CacheWrite: 20, Output: 1}},
		{Kind: event.Final, Text: "ok"},
		{Kind: event.RunEnd, Status: event.StatusSuccess},
		{Kind: event.RunStart},
		{Kind: event.Usage, Usage: &event.Tokens{Input: 10, Output: 5}},
		{Kind: event.Usage, Usage: &event.Tokens{Scope: event.ScopeRun, Input: 7, CacheRead: 3, Output: 9, CostUSD: usd(0.25)}},
		{Kind: event.Usage, Usage: &event.Tokens{Scope: event.ScopeRun, Input: 7, CacheRead: 3, Output: 9, CostUSD: usd(0.25)}},
		{Kind: event.RunEnd, Status: event.StatusSuccess},
	})
	if got := types(out); got != "run_start usage usage final run_end run_start usage usage run_end" {
		t.Fatalf("types %q", got)
	}
	for i, want := range []struct {
		prompt, completion int
		cost               float64
	}{1: {110, 5, -1}, 2: {21, 1, -1}, 6: {10, 5, -1}, 7: {0, 4, 0.25}} {
		if want.prompt == 0 && want.completion == 0 {
			continue
		}
		u := out[i]
		if *u.PromptTokens != want.prompt || *u.CompletionTokens != want.completion || *u.TotalTokens != want.prompt+want.completion {
			t.Errorf("usage %d: %d %d %d, want %d %d", i, *u.PromptTokens, *u.CompletionTokens, *u.TotalTokens, want.prompt, want.completion)
		}
		if (u.CostUSD == nil) != (want.cost < 0) || u.CostUSD != nil && *u.CostUSD != want.cost {
			t.Errorf("usage %d: cost %v, want %v", i, u.CostUSD, want.cost)
		}
	}
}

func TestEncodeV1HasNoReasoning(t *testing.T) {
	out := encode(t, zero.EncodeOptions{Version: 1}, []event.Event{
		{Kind: event.RunStart}, {Kind: event.Reasoning, Text: "hm"}, {Kind: event.Text, Text: "a"},
		{Kind: event.RunEnd, Status: event.StatusSuccess},
	})
	if got := types(out); got != "run_start text run_end" || out[0].SchemaVersion != 1 {
		t.Fatalf("types %q, version %d", got, out[0].SchemaVersion)
	}
}

func TestEncodeKeepsOtherLinesUnderTheirDialect(t *testing.T) {
	raw := []byte(`{"type":"rate_limit_event","password":"hunter2","info":{"status":"allowed"}}`)
	var lines []string
	enc := zero.NewEncoder(zero.EncodeOptions{Keep: true, Redactor: &redact.Redactor{}, NewRunID: func() string { return "r" }, NewSessionID: func() string { return "s" }},
		func(b []byte) error { lines = append(lines, string(b)); return nil })
	var runs event.Runs
	for _, ev := range []event.Event{{Kind: event.RunStart, Dialect: "claude"}, {Kind: event.Other, Dialect: "claude", Type: "rate_limit_event", Raw: raw}} {
		mapped, err := enc.Encode(&ev, runs.Place(&ev))
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == event.Other && mapped {
			t.Error("an Other event reported mapped")
		}
	}
	want := `{"info":{"status":"allowed"},"password":"[REDACTED]","runId":"r","schemaVersion":2,"type":"claude.rate_limit_event"}`
	if len(lines) != 2 || lines[1] != want {
		t.Fatalf("got %q\nwant %s", lines, want)
	}
}

// A run of a producer that names no session and no provider, paused at a
// line asking two permissions (EvoScientist's interrupt, then done): no
// sessionId, the provider the options name for the dialect, the second
// request about no call named by the interrupt's id with ":2", a usage
// past Zero's int64 not written, and the run ends as its producer's CLI
// exits, 0.
func TestEncodeRunWithoutSessionPausedForAnAnswer(t *testing.T) {
	line := []byte(`{"type":"interrupt"}`)
	ask := func(tool string) event.Event {
		return event.Event{Kind: event.PermissionRequest, Raw: line, Permission: &event.Permission{ID: "int_1", Tool: tool}}
	}
	evs := []event.Event{
		call("call_9", "write_file"),
		ask("write_file"), ask("execute"),
		{Kind: event.Usage, Usage: &event.Tokens{Past: &event.PastCounts{Input: new(big.Int).Lsh(big.NewInt(1), 64)}}},
		{Kind: event.RunEnd, Status: event.StatusInterrupted},
	}
	for i := 1; i <= 2; i++ {
		evs[i].Line = 2 // one line
	}
	out := encode(t, zero.EncodeOptions{Provider: func(d string) string { return d + "-agent" }}, evs)
	if got := types(out); got != "run_start tool_call permission_request permission_request run_end" {
		t.Fatalf("types %q", got)
	}
	if s := out[0]; s.SessionID != "" || s.Provider != "test-agent" {
		t.Errorf("run_start session %q provider %q", s.SessionID, s.Provider)
	}
	if a, b := out[2].ID, out[3].ID; a != "call_9" || b != "int_1:2" || out[2].SessionID != "" {
		t.Errorf("permission ids %q %q, session %q", a, b, out[2].SessionID)
	}
	if e := out[4]; e.Status != "success" || e.ExitCode == nil || *e.ExitCode != 0 {
		t.Errorf("run_end %q %v", e.Status, e.ExitCode)
	}
}

func TestV1RenamesReadTheVersionsFile(t *testing.T) {
	v := zero.V1Renames()
	if v.Fields["violation"] != "block" || v.BlockCodes["policy_denied"] != "denied" || !v.V2Only["reasoning"] {
		t.Errorf("versions: %+v", v)
	}
}
