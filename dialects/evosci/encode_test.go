package evosci

import (
	"strings"
	"testing"

	"github.com/zevo/zevo/event"
)

func encode(t *testing.T, opt EncodeOptions, evs []event.Event) string {
	t.Helper()
	var lines []string
	enc := NewEncoder(opt, func(b []byte) error { lines = append(lines, string(b)); return nil })
	var runs event.Runs
	for i := range evs {
		ev := &evs[i]
		ev.Dialect, ev.Line = "test", i+1
		if _, err := enc.Encode(ev, runs.Place(ev)); err != nil {
			t.Fatal(err)
		}
	}
	if r := runs.End(); r != nil {
		if _, err := enc.Encode(nil, event.Step{Closed: r}); err != nil {
			t.Fatal(err)
		}
	}
	return strings.Join(lines, "\n")
}

// A run that fails ends with one error and no done, the run's own error
// message said; a run cut short ends the same way; EvoScientist's
// 0/0 usage_stats is never written.
func TestEncodeEndsFailedAndCutRunsWithErrorOnly(t *testing.T) {
	got := encode(t, EncodeOptions{}, []event.Event{
		{Kind: event.RunStart}, {Kind: event.Error, Text: "first"}, {Kind: event.Error, Text: "quota exceeded"},
		{Kind: event.Usage, Usage: &event.Tokens{}},
		{Kind: event.RunEnd, Status: event.StatusError},
		{Kind: event.RunStart}, {Kind: event.Text, Text: "par"},
	})
	want := `{"type": "error", "message": "quota exceeded"}
{"type": "text", "content": "par"}
{"type": "error", "message": "the input ended before the run finished"}`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// Python's json.dumps style; the args an object; tokens read include the
// cache.
func TestEncodeWritesEvoScientistsOwnShapes(t *testing.T) {
	got := encode(t, EncodeOptions{}, []event.Event{
		{Kind: event.RunStart},
		{Kind: event.Reasoning, Text: "é"},
		{Kind: event.ToolCall, Tool: &event.Tool{ID: "c1", Name: "x", Args: []byte(`"ls"`)}},
		{Kind: event.ToolResult, Tool: &event.Tool{ID: "c1", Failed: true, Output: "no"}},
		{Kind: event.Text, Text: "a<b"},
		{Kind: event.Usage, Usage: &event.Tokens{Input: 1, CacheRead: 2, CacheWrite: 3, Output: 4}},
		{Kind: event.RunEnd, Status: event.StatusSuccess},
	})
	want := `{"type": "thinking", "content": "\u00e9", "id": 0}
{"type": "tool_call", "name": "x", "args": {"arguments": "ls"}, "id": "c1"}
{"type": "tool_result", "name": "x", "content": "no", "success": false, "id": "c1"}
{"type": "text", "content": "a<b"}
{"type": "usage_stats", "input_tokens": 6, "output_tokens": 4}
{"type": "done", "content": "a<b", "response": "a<b"}`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// EvoScientist's answer is its run's text joined (done.response, and what
// its clients show): the producer's final answer is the run's text; the
// words it said besides (before a tool call) are thinking; a final answer
// that is all the text (Cursor's) is all of it; without one, the text.
func TestEncodeSaysTheFinalAnswerAsTheRunsText(t *testing.T) {
	got := encode(t, EncodeOptions{}, []event.Event{
		{Kind: event.RunStart},
		{Kind: event.Text, Text: "Let me look."},
		{Kind: event.ToolCall, Tool: &event.Tool{ID: "c1", Name: "x"}},
		{Kind: event.Text, Text: "Found "}, {Kind: event.Text, Text: "it."},
		{Kind: event.Final, Text: "Found it."},
		{Kind: event.RunEnd, Status: event.StatusSuccess},
		{Kind: event.RunStart},
		{Kind: event.Text, Text: "a"}, {Kind: event.Text, Text: "b"},
		{Kind: event.Final, Text: "ab"},
		{Kind: event.RunEnd, Status: event.StatusSuccess},
		{Kind: event.RunStart},
		{Kind: event.Text, Text: "t1"}, {Kind: event.Text, Text: "t2"},
		{Kind: event.RunEnd, Status: event.StatusSuccess},
	})
	want := `{"type": "tool_call", "name": "x", "args": {}, "id": "c1"}
{"type": "thinking", "content": "Let me look.", "id": 0}
{"type": "text", "content": "Found it."}
{"type": "done", "content": "Found it.", "response": "Found it."}
{"type": "text", "content": "ab"}
{"type": "done", "content": "ab", "response": "ab"}
{"type": "text", "content": "t1t2"}
{"type": "done", "content": "t1t2", "response": "t1t2"}`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
