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
		ev.Dialect = "test"
		if ev.Line == 0 {
			ev.Line = i + 1
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
	return strings.Join(lines, "\n")
}

// A run that fails ends with an error and no done: each error as it
// comes (as a Zero run's errors are written), and the run's end adds
// none; a run cut short ends with one; a usage that states no count is
// no usage_stats.
func TestEncodeEndsFailedAndCutRunsWithErrorOnly(t *testing.T) {
	code := 3
	got := encode(t, EncodeOptions{}, []event.Event{
		{Kind: event.RunStart}, {Kind: event.Error, Text: "first"}, {Kind: event.Error, Text: "quota exceeded"},
		{Kind: event.Usage, Usage: &event.Tokens{}},
		{Kind: event.RunEnd, Status: event.StatusError},
		{Kind: event.RunStart}, {Kind: event.Text, Text: "x"},
		{Kind: event.RunEnd, Status: event.StatusError, StatusWord: "error", ExitCode: &code},
		{Kind: event.RunStart}, {Kind: event.Text, Text: "par"},
	})
	want := `{"type": "error", "message": "first"}
{"type": "error", "message": "quota exceeded"}
{"type": "text", "content": "x"}
{"type": "error", "message": "run ended with status error (exit code 3)"}
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

// Each event goes out the moment it comes in: a run's text is written
// where it came, not held for the run's end. done says the producer's
// final answer (EvoScientist's authoritative answer), else the run's text
// joined; its clients join the text events as they come.
func TestEncodeWritesTextAsItComes(t *testing.T) {
	var lines []string
	enc := NewEncoder(EncodeOptions{}, func(b []byte) error { lines = append(lines, string(b)); return nil })
	var runs event.Runs
	evs := []event.Event{
		{Kind: event.RunStart},
		{Kind: event.Text, Text: "Let me look."},
		{Kind: event.ToolCall, Tool: &event.Tool{ID: "c1", Name: "x"}},
		{Kind: event.Text, Text: "Found "}, {Kind: event.Text, Text: "it."},
		{Kind: event.Final, Text: "Found it."},
		{Kind: event.RunEnd, Status: event.StatusSuccess},
		{Kind: event.RunStart},
		{Kind: event.Text, Text: "t1"}, {Kind: event.Text, Text: "t2"},
		{Kind: event.RunEnd, Status: event.StatusSuccess},
	}
	for i := range evs {
		ev := &evs[i]
		ev.Dialect, ev.Line = "test", i+1
		if _, err := enc.Encode(ev, runs.Place(ev)); err != nil {
			t.Fatal(err)
		}
		if i == 1 && (len(lines) != 1 || lines[0] != `{"type": "text", "content": "Let me look."}`) {
			t.Fatalf("after the run's first text: %q", lines)
		}
	}
	want := `{"type": "text", "content": "Let me look."}
{"type": "tool_call", "name": "x", "args": {}, "id": "c1"}
{"type": "text", "content": "Found "}
{"type": "text", "content": "it."}
{"type": "done", "content": "Found it.", "response": "Found it."}
{"type": "text", "content": "t1"}
{"type": "text", "content": "t2"}
{"type": "done", "content": "t1t2", "response": "t1t2"}`
	if got := strings.Join(lines, "\n"); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// Usage goes out as it comes too, as usage_stats that EvoScientist's
// clients sum: a message's as it is, a run's total as what it adds to
// those before it; none that adds nothing (EvoScientist never writes a
// 0/0 usage_stats).
func TestEncodeWritesUsageAsItComes(t *testing.T) {
	has := event.HasInput | event.HasOutput
	got := encode(t, EncodeOptions{}, []event.Event{
		{Kind: event.RunStart},
		{Kind: event.Usage, Usage: &event.Tokens{Input: 10, CacheRead: 5, Output: 1, Has: has | event.HasCacheRead}},
		{Kind: event.Usage, Usage: &event.Tokens{Input: 0, Output: 0, Has: has}},
		{Kind: event.Usage, Usage: &event.Tokens{Input: 20, Output: 2, Has: has}},
		{Kind: event.Usage, Usage: &event.Tokens{Scope: event.ScopeRun, Input: 30, CacheRead: 5, Output: 9, Has: has}},
		{Kind: event.Usage, Usage: &event.Tokens{Scope: event.ScopeRun, Input: 30, CacheRead: 5, Output: 9, Has: has}},
		{Kind: event.RunEnd, Status: event.StatusSuccess},
	})
	want := `{"type": "usage_stats", "input_tokens": 15, "output_tokens": 1}
{"type": "usage_stats", "input_tokens": 20, "output_tokens": 2}
{"type": "usage_stats", "input_tokens": 0, "output_tokens": 6}
{"type": "done", "content": "", "response": ""}`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// A run that wrote nothing says its final answer as text when its done
// would come right after the previous run's (a done after a done reads
// as one run's two); a run of the user's prompt alone writes nothing; a
// run paused for an answer ends with done, as EvoScientist's own does; a
// status word the producer states and the model does not know is no
// success.
func TestEncodeEndsRunsAsEvoScientist(t *testing.T) {
	got := encode(t, EncodeOptions{}, []event.Event{
		{Kind: event.RunStart}, {Kind: event.Final, Text: "one"}, {Kind: event.RunEnd, Status: event.StatusSuccess},
		{Kind: event.RunStart}, {Kind: event.Final, Text: "two"}, {Kind: event.RunEnd, Status: event.StatusSuccess},
		{Kind: event.Prompt, Text: "hi"}, {Kind: event.RunEnd, Status: event.StatusEnded},
		{Kind: event.RunStart}, {Kind: event.Text, Text: "ok?"}, {Kind: event.RunEnd, Status: event.StatusInterrupted},
		{Kind: event.RunStart}, {Kind: event.RunEnd, Status: event.StatusEnded, StatusWord: "frobbed", StatusStated: true},
	})
	want := `{"type": "done", "content": "one", "response": "one"}
{"type": "text", "content": "two"}
{"type": "done", "content": "two", "response": "two"}
{"type": "text", "content": "ok?"}
{"type": "done", "content": "ok?", "response": "ok?"}
{"type": "error", "message": "run ended with status frobbed"}`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// With Keep, every line whose event EvoScientist has no room for is
// written under DIALECT.TYPE, once however many of its events are
// unmapped, as a Zero line's is kept: a run's start (but the one zevo
// writes for an EvoScientist run, which says nothing the stream lacks),
// a checkpoint, a decision, a warning.
func TestEncodeKeepsEveryUnmappedLineOnce(t *testing.T) {
	start := []byte(`{"type":"run_start","runId":"r1","model":"m"}`)
	result := []byte(`{"type":"result","denials":[1,2]}`)
	warn := []byte(`{"type":"warning","message":"slow"}`)
	evoStart := []byte(`{"type":"run_start","runId":"r2","provider":"evoscientist"}`)
	got := encode(t, EncodeOptions{Keep: true}, []event.Event{
		{Kind: event.RunStart, Type: "run_start", Raw: start},
		{Kind: event.Warning, Type: "warning", Raw: warn, Text: "slow"},
		{Kind: event.PermissionDecision, Type: "result", Raw: result, Line: 3, Permission: &event.Permission{ID: "a"}},
		{Kind: event.PermissionDecision, Type: "result", Raw: result, Line: 3, Permission: &event.Permission{ID: "b"}},
		{Kind: event.RunEnd, Type: "result", Raw: result, Line: 3, Status: event.StatusSuccess},
		{Kind: event.RunStart, Type: "run_start", Raw: evoStart, Provider: "evoscientist"},
		{Kind: event.Text, Text: "hi"},
		{Kind: event.RunEnd, Status: event.StatusSuccess},
	})
	want := `{"type": "test.run_start", "runId": "r1", "model": "m"}
{"type": "test.warning", "message": "slow"}
{"type": "test.result", "denials": [1, 2]}
{"type": "done", "content": "", "response": ""}
{"type": "text", "content": "hi"}
{"type": "done", "content": "hi", "response": "hi"}`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
