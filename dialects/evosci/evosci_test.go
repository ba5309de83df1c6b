package evosci

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/zevo/zevo/event"
)

// testOptions know the dialect's own tools.
var testOptions = event.DecodeOptions{Effects: event.EffectsOf([]*event.Dialect{Dialect})}

// show is an event in one line, for tables.
func show(ev event.Event) string {
	s := ev.Kind.String()
	switch ev.Kind {
	case event.Prompt, event.Text, event.Reasoning, event.Final, event.Warning, event.Checkpoint, event.Error, event.SubStart, event.Compaction:
		s += " " + ev.Text
	case event.Notice:
		s += " " + ev.Label + ": " + ev.Text
	case event.ToolCall:
		s += fmt.Sprintf(" %s %s %s %s", ev.Tool.ID, ev.Tool.Name, ev.Tool.Effect, ev.Tool.Args)
	case event.ToolResult:
		out := ev.Tool.Output
		if len(out) > 100 {
			out = fmt.Sprintf("%d bytes", len(out))
		}
		s += fmt.Sprintf(" %s %s failed=%v truncated=%v %q", ev.Tool.ID, ev.Tool.Name, ev.Tool.Failed, ev.Tool.Truncated, out)
	case event.PermissionRequest, event.PermissionDecision:
		s += fmt.Sprintf(" %s %s %q", ev.Permission.ID, ev.Permission.Tool, ev.Permission.Reason)
		if ev.Label != "" {
			s += " (" + ev.Label + ")"
		}
		if a := ev.Permission.Args; a != nil {
			s += " args=" + string(a)
		}
		for _, q := range ev.Permission.Questions {
			s += fmt.Sprintf(" %q%q", q.Text, q.Choices)
		}
	case event.Usage:
		s += fmt.Sprintf(" in=%d out=%d has=%d", ev.Usage.Input, ev.Usage.Output, ev.Usage.Has)
	case event.RunEnd:
		s += " " + string(ev.Status)
	}
	if ev.Sub != "" {
		s += " sub=" + ev.Sub
		if ev.SubName != ev.Sub {
			s += "(" + ev.SubName + ")"
		}
	}
	return s
}

func decodeAll(t *testing.T, lines ...string) (shown, errs []string) {
	t.Helper()
	d := Dialect.NewDecoder(testOptions)
	var evs []event.Event
	for i, l := range lines {
		n := len(evs)
		var err error
		evs, err = d.Decode(evs, []byte(l), i+1)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%d: %v", i+1, err))
		}
		if len(evs) == n {
			t.Errorf("line %d gave no event", i+1)
		}
	}
	evs = d.End(evs)
	for _, ev := range evs {
		if ev.Dialect != Name || ev.Line == 0 || len(ev.Raw) == 0 || ev.Run != "" {
			t.Errorf("%s: dialect %q, line %d, raw %q, run %q", show(ev), ev.Dialect, ev.Line, ev.Raw, ev.Run)
		}
		shown = append(shown, show(ev))
	}
	return shown, errs
}

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got: %s\nwant: %s", what, strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
}

func lines(t *testing.T, file string) []string {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func TestDecodeBadlyTypedFieldsGivesEventsAndErrors(t *testing.T) {
	got, errs := decodeAll(t, lines(t, "../../testdata/hostile/wrong-types.evosci.jsonl")...)
	same(t, "events", got, []string{
		`tool_result c1 read_file failed=false truncated=false "x"`,
		"text ",
		"tool_call c2  unknown {}",
		"usage in=0 out=3 has=2",
		`permission_request i1  "" (approval needed)`,
		"final ",
		"run_end interrupted", // a done with a bad response still ends its run; right after an interrupt

		"reasoning ",
		"error ",
		"run_end error",
		"text fine",
	})
	same(t, "errors", errs, []string{
		`1: tool_result.success: want boolean, got string "true"`,
		"2: text.content: want string, got number 5",
		"3: tool_call.name: want string, got number 7",
		`4: usage_stats.input_tokens: want integer, got string "12"`,
		"5: interrupt.action_requests: want array, got object",
		"6: done.response: want string, got number 3",
		"7: thinking.content: want string, got array",
		"8: error.message: want string, got object",
	})
}

func TestDecodeLinesNotOfEvoScientistsShape(t *testing.T) {
	got, errs := decodeAll(t,
		`[1]`,
		`{}`,
		`{"type": 5}`,
		`{"type": "brand_new", "x": 1}`,
		`{"type": "tool_call", "name": "execute", "args": 42, "id": "c"}`,
		`{"type": "tool_result", "name": "execute", "content": "x", "id": "c"}`,
		`{"type": "usage_stats", "input_tokens": 18446744073709551616, "output_tokens": 1.5}`,
		`{"type": "usage_stats", "input_tokens": -0, "output_tokens": 1}`,
	)
	same(t, "events", got, []string{
		"other", "other", "other",
		"other", // a type newer than the decoder is kept
		"tool_call c execute shell ",
		`tool_result c execute failed=false truncated=false "x"`,
		"usage in=0 out=0 has=0",
		"usage in=0 out=1 has=3", // -0 is 0
	})
	same(t, "errors", errs, []string{
		"1: evosci: the line is not a JSON object",
		`2: event: missing field "type"`,
		"3: event.type: want string, got number 5",
		"5: tool_call.args: want object, got number 42",
		`6: tool_result: missing field "success"`,
		"7: usage_stats.input_tokens: 18446744073709551616 is not a token count; usage_stats.output_tokens: want integer, got number 1.5",
	})
}

func TestDecodeEveryEvoScientistType(t *testing.T) {
	got, errs := decodeAll(t, lines(t, "../../testdata/golden/evosci-all-types/input.jsonl")...)
	same(t, "events", got, []string{
		"reasoning Plan: read, then write. é中🚀",
		"notice tools selected: read_file, write_file, task",
		`tool_call call_1 read_file read {"path": "README.md", "limit": 18446744073709551615}`,
		`tool_result call_1 read_file failed=false truncated=false "# Title\n<html> & more"`,
		`tool_call call_2 task unknown {"description": "survey", "subagent_type": "researcher"}`,
		"sub_start survey papers sub=inst_1(researcher)",
		`tool_call sub_1 web_search network {"query": "attention"} sub=inst_1(researcher)`,
		`tool_result sub_1 web_search failed=false truncated=false "3 hits" sub=inst_1(researcher)`,
		"text Found 3 papers. sub=inst_1(researcher)",
		"sub_end sub=inst_1(researcher)",
		`tool_result call_2 task failed=false truncated=false "Found 3 papers."`,
		"compaction ", "compaction Summary so far.",
		"other", // panel_dispatch_start
		"usage in=5123 out=388 has=3",
		`tool_call call_3 execute shell {"command": "pytest -q"}`,
		`tool_result call_3 execute failed=true truncated=true "2016 bytes"`,
		`permission_request call_4 ask_user "Which file?" (question) "Which file?"["a" "b"]`,
		"text Done — notes.md ",
		"text summarizes attention.",
		"usage in=100 out=20 has=3",
		"final Done — notes.md summarizes attention.",
		"run_end success", // the question was answered: the run went on
	})
	same(t, "errors", errs, nil)
}

// --no-auto-mode: the run stops at the question; its done says so.
func TestDoneRightAfterAQuestionEndsTheRunInterrupted(t *testing.T) {
	got, _ := decodeAll(t, lines(t, "../../testdata/golden/evosci-interrupt/input.jsonl")...)
	same(t, "events", got, []string{
		`tool_call call_1 write_file write {"path": "notes.md", "content": "..."}`,
		`tool_call call_2 execute shell {"command": "make"}`,
		`tool_call call_3 write_file write {"path": "b.md", "content": "..."}`,
		`permission_request int_7 write_file "Write notes.md" (approval needed) args={"path": "notes.md"}`,
		`permission_request int_7 write_file "" (approval needed) args={"path": "b.md"}`,
		`permission_request int_7 execute "Run make" (approval needed) args={"command": "make"}`,
		`permission_request int_7 fetch_url "Fetch" (approval needed) args={"url": "https://example.com"}`,
		`permission_request int_7 custom_tool "" (approval needed) args={}`,
		"final ",
		"run_end interrupted",
	})
}

// Rule 9 of docs/runs.md: a done right after the error that ended a run
// ends nothing more.
func TestDoneRightAfterAnErrorEndsNothing(t *testing.T) {
	got, _ := decodeAll(t,
		`{"type": "text", "content": "a"}`,
		`{"type": "error", "message": "boom"}`,
		`{"type": "done", "content": "", "response": ""}`,
		`{"type": "text", "content": "b"}`,
		`{"type": "error", "message": "again"}`,
		`{"type": "text", "content": "c"}`,
		`{"type": "done", "content": "c", "response": "c"}`,
	)
	same(t, "events", got, []string{
		"text a", "error boom", "run_end error",
		"other", // no Final, no second RunEnd
		"text b", "error again", "run_end error",
		"text c", "final c", "run_end success", // not right after the error: a run of its own
	})
}

func TestDetect(t *testing.T) {
	for line, want := range map[string]event.Certainty{
		`{"type": "text", "content": "a"}`:                   event.Maybe,
		`{"type": "error", "message": "x"}`:                  event.Maybe, // Codex writes it too
		`{"type": "panel_dispatch_start", "eval_id": "e"}`:   event.Maybe,
		`{"schemaVersion": 2, "type": "text", "delta": "a"}`: event.No,
		`{"type": "assistant", "message": {}}`:               event.No,
		`{"type": 5}`:                                        event.No,
		`{}`:                                                 event.No,
		`not json`:                                           event.No,
	} {
		if got := Dialect.Detect([]byte(line)); got != want {
			t.Errorf("%s: %v, want %v", line, got, want)
		}
	}
}

func TestHugeOutputAndCutAtEveryLine(t *testing.T) {
	big := strings.Repeat("y", 5<<20)
	ls := []string{
		`{"type": "tool_call", "name": "read_file", "args": {"path": "a"}, "id": "c1"}`,
		`{"type": "tool_result", "name": "read_file", "content": "` + big + `", "success": true, "id": "c1"}`,
		`{"type": "usage_stats", "input_tokens": 10, "output_tokens": 2}`,
		`{"type": "done", "content": "ok", "response": "ok"}`,
	}
	for cut := 0; cut <= len(ls); cut++ {
		d := Dialect.NewDecoder(testOptions)
		var runs event.Runs
		var evs []event.Event
		for i, l := range ls[:cut] {
			var err error
			if evs, err = d.Decode(evs[:0], []byte(l), i+1); err != nil {
				t.Fatal(err)
			}
			for j := range evs {
				if evs[j].Kind == event.ToolResult && len(evs[j].Tool.Output) != len(big) {
					t.Errorf("output of %d bytes, want %d", len(evs[j].Tool.Output), len(big))
				}
				runs.Place(&evs[j])
			}
		}
		last := runs.End()
		switch {
		case cut == 0 && runs.Count() != 0:
			t.Errorf("cut 0: %d runs", runs.Count())
		case cut > 0 && cut < len(ls) && (last == nil || last.Status != event.StatusIncomplete || last.Cut != event.CutEndOfInput):
			t.Errorf("cut after %d lines: %+v", cut, last)
		case cut == len(ls) && (last != nil || runs.Count() != 1):
			t.Errorf("whole run: %+v, %d runs", last, runs.Count())
		}
	}
}

// The translation table (to-zero.json) gives Zero's
// sideEffect by EvoScientist's tool names; the model's effects table must
// say the same, but for the names it does not list yet.
func TestEffectsAgreeWithTheMappingTable(t *testing.T) {
	data, err := os.ReadFile("to-zero.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ SideEffects map[string]event.Effect }
	if err := json.Unmarshal(data, &m); err != nil || len(m.SideEffects) == 0 {
		t.Fatalf("%v, %d side effects", err, len(m.SideEffects))
	}
	missing := map[string]bool{} // none: every EvoScientist tool the mapping names is in its Effects
	for name, want := range m.SideEffects {
		got := testOptions.EffectOf(name)
		switch {
		case missing[name] && got == want:
			t.Errorf("%s: the Effects list it now: take it out of missing", name)
		case missing[name]:
			if got != event.EffectUnknown {
				t.Errorf("%s: %s, the mapping says %s", name, got, want)
			}
		case got != want:
			t.Errorf("%s: %s, the mapping says %s", name, got, want)
		}
	}
}

// What stats shows as EvoScientist wrote it stays on the events: done and
// error as the runs' own words (not a done that stops at a question: that
// run is interrupted, and no word of EvoScientist's says so), ask_user's
// questions counted (a question
// without text too), a sub-agent's name beside its instance id, and
// token counts past int64, exact.
func TestDecodeKeepsEvoScientistsOwnWords(t *testing.T) {
	d := Dialect.NewDecoder(event.DecodeOptions{})
	var evs []event.Event
	for i, l := range []string{
		`{"type":"subagent_tool_call","subagent":"researcher","instance_id":"i1","name":"search","args":{},"id":"c1"}`,
		`{"type":"usage_stats","input_tokens":18446744073709551616,"output_tokens":2}`,
		`{"type":"ask_user","interrupt_id":"q","questions":[{"question":"which?"},{"options":[]}]}`,
		`{"type":"done","content":"","response":""}`,
		`{"type":"error","message":"boom"}`,
	} {
		evs, _ = d.Decode(evs, []byte(l), i+1)
	}
	var got []string
	for _, ev := range evs {
		s := ev.Kind.String()
		switch ev.Kind {
		case event.ToolCall:
			s += fmt.Sprintf(" sub=%s agent=%s", ev.Sub, ev.SubName)
		case event.Usage:
			s += fmt.Sprintf(" in=%d out=%d past=%v", ev.Usage.Input, ev.Usage.Output, ev.Usage.Past.Input)
		case event.PermissionRequest:
			s += fmt.Sprintf(" question=%v questions=%d", ev.Permission.Questions != nil, len(ev.Permission.Questions))
		case event.RunEnd:
			s += fmt.Sprintf(" %s %q", ev.Status, ev.StatusWord)
		}
		got = append(got, s)
	}
	same(t, "events", got, []string{
		"tool_call sub=i1 agent=researcher",
		"usage in=0 out=2 past=18446744073709551616",
		"permission_request question=true questions=2",
		"final",
		`run_end interrupted ""`,
		"error",
		`run_end error "error"`,
	})
}

// An interrupt's id names the pause, not a call: its requests say so
// (Interrupt), and keep it as their ID as before; the producer is an
// agent named evoscientist.
func TestInterruptNamesThePause(t *testing.T) {
	d := Dialect.NewDecoder(event.DecodeOptions{})
	evs, err := d.Decode(nil, []byte(`{"type":"interrupt","interrupt_id":"int_1","action_requests":[{"name":"write_file","description":"Creates a file."},{"name":"execute"}]}`), 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range evs {
		p := ev.Permission
		got = append(got, fmt.Sprintf("%s id=%s interrupt=%s tool=%s", ev.Kind, p.ID, p.Interrupt, p.Tool))
	}
	same(t, "events", got, []string{
		"permission_request id=int_1 interrupt=int_1 tool=write_file",
		"permission_request id=int_1 interrupt=int_1 tool=execute",
	})
	if Dialect.AgentName() != "evoscientist" || !Dialect.OneCallPerLine || Dialect.RunTime != nil {
		t.Errorf("agent %q, one call per line %v", Dialect.AgentName(), Dialect.OneCallPerLine)
	}
}
