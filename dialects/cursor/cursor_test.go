package cursor

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects/claude"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/event/eventtest"
)

// testOptions know the dialect's own tools.
var testOptions = event.DecodeOptions{Effects: event.EffectsOf([]*event.Dialect{Dialect})}

const captures = "../../testdata/captures/cursor/"

type decoded struct {
	events []event.Event
	errs   []error
	runs   []*event.Run
	lines  map[int]bool
}

func decodeLines(t testing.TB, lines [][]byte) decoded {
	t.Helper()
	dec := Dialect.NewDecoder(testOptions)
	out := decoded{lines: map[int]bool{}}
	for i, l := range lines {
		n := len(out.events)
		var err error
		out.events, err = dec.Decode(out.events, l, i+1)
		if err != nil {
			out.errs = append(out.errs, fmt.Errorf("line %d: %w", i+1, err))
		}
		out.lines[i+1] = len(out.events) > n
	}
	out.events = dec.End(out.events)
	var runs event.Runs
	for i := range out.events {
		ev := &out.events[i]
		if ev.Dialect != Name || ev.Line == 0 {
			t.Fatalf("event %d lacks its dialect or line: %+v", i, ev)
		}
		if st := runs.Place(ev); st.Start {
			out.runs = append(out.runs, st.Run)
		}
	}
	runs.End()
	return out
}

func splitLines(data []byte) [][]byte {
	var lines [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			lines = append(lines, l)
		}
	}
	return lines
}

func readFile(t testing.TB, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return splitLines(data)
}

func (d decoded) of(k event.Kind) []event.Event {
	var out []event.Event
	for _, e := range d.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func (d decoded) text(k event.Kind) string {
	var b strings.Builder
	for _, e := range d.of(k) {
		b.WriteString(e.Text)
	}
	return b.String()
}

func lines(s ...string) [][]byte {
	var out [][]byte
	for _, l := range s {
		out = append(out, []byte(l))
	}
	return out
}

func TestCaptureCursorHackThinkingDeltasShell(t *testing.T) {
	d := decodeLines(t, readFile(t, captures+"cursor-hack-thinking-deltas-shell.jsonl"))
	if len(d.errs) > 0 {
		t.Fatal(d.errs)
	}
	// Line 1 system/init … line 90 result/success: one run.
	if len(d.runs) != 1 || d.runs[0].Status != event.StatusSuccess || !d.runs[0].Started || d.runs[0].ID != "a41193d9-b74e-4867-bf36-35e1c76ba3ef" {
		t.Fatalf("runs %+v", d.runs)
	}
	if s := d.of(event.RunStart); s[0].Model != "Auto" || s[0].Cwd != "/Users/travisbrown/code/cursor-hack" {
		t.Errorf("start %+v", s[0])
	}
	// Line 90's result joins lines 86 and 89 with no separator.
	final := "I'll run the `sleep 10` command via the shell, wait for it to finish, then reply.complete"
	if f := d.of(event.Final); len(f) != 1 || f[0].Text != final {
		t.Errorf("final %+v", f)
	}
	if got := d.text(event.Text); got != final {
		t.Errorf("text %q", got)
	}
	// Lines 3-84: 82 thinking deltas, starting "**Following", " developer".
	if r := d.of(event.Reasoning); len(r) != 82 || r[0].Line != 3 || r[81].Line != 84 || !strings.HasPrefix(d.text(event.Reasoning), "**Following developer instructions") {
		t.Errorf("%d reasoning deltas", len(r))
	}
	// Line 2: the prompt.
	if p := d.of(event.Prompt); len(p) != 1 || !strings.HasPrefix(p[0].Text, "Create a subagent using the Task tool.") {
		t.Errorf("prompt %+v", p)
	}
	// Line 87 starts shellToolCall `sleep 10` (call_id with a newline),
	// line 88 completes it: exit code 0, empty stdout and stderr.
	id := "call_WLqqt8u0mDTGpVmcrvNm1DuT\nfc_045b36603b11abca01698ca0e15278819ea2814839c4b778b8"
	c, r := d.of(event.ToolCall), d.of(event.ToolResult)
	if len(c) != 1 || c[0].Tool.ID != id || c[0].Tool.Name != "shellToolCall" || c[0].Tool.Effect != event.EffectShell || !strings.Contains(string(c[0].Tool.Args), `"command":"sleep 10"`) {
		t.Errorf("calls %+v", c)
	}
	if len(r) != 1 || r[0].Tool.ID != id || r[0].Tool.Failed || r[0].Tool.Output != "" || r[0].Line != 88 {
		t.Errorf("results %+v", r)
	}
	// No usage and no cost anywhere in the stream.
	if u := d.of(event.Usage); len(u) != 0 {
		t.Errorf("usage %+v", u)
	}
}

func TestEveryLineYieldsEventsAndCutsEndIncomplete(t *testing.T) {
	ls := readFile(t, captures+"cursor-hack-thinking-deltas-shell.jsonl")
	d := decodeLines(t, ls)
	for i := range ls {
		if !d.lines[i+1] {
			t.Errorf("line %d yields nothing", i+1)
		}
	}
	for n := 1; n < len(ls); n++ {
		d := decodeLines(t, ls[:n])
		if len(d.errs) > 0 || len(d.runs) != 1 || d.runs[0].Status != event.StatusIncomplete || d.runs[0].Cut != event.CutEndOfInput {
			t.Fatalf("cut at %d: %v %+v", n, d.errs, d.runs)
		}
	}
}

func TestDuplicatedLinesKeepOneRun(t *testing.T) {
	d := decodeLines(t, eventtest.Twice(readFile(t, captures+"cursor-hack-thinking-deltas-shell.jsonl")))
	// The second result line starts and ends a run of its own (rule 4);
	// nothing crashes, and the first run is whole.
	if len(d.errs) > 0 || d.runs[0].Status != event.StatusSuccess {
		t.Errorf("%v %+v", d.errs, d.runs)
	}
}

func TestStreamPartialOutputSaysTextOnce(t *testing.T) {
	// The four assistant forms of --stream-partial-output: chunks
	// (timestamp_ms), a model_call_id line repeating the segment before a
	// tool call, and a last line without timestamp_ms repeating it all.
	a := func(text, extra string) string {
		return `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"` + text + `"}]},"session_id":"s"` + extra + `}`
	}
	d := decodeLines(t, lines(
		`{"type":"system","subtype":"init","session_id":"s","model":"m"}`,
		a("Read", `,"timestamp_ms":1`),
		a("ing.", `,"timestamp_ms":2`),
		a("Reading.", `,"model_call_id":"c1","timestamp_ms":3`),
		`{"type":"tool_call","subtype":"started","call_id":"t1","tool_call":{"readToolCall":{"args":{"path":"a"}}},"session_id":"s"}`,
		`{"type":"tool_call","subtype":"completed","call_id":"t1","tool_call":{"readToolCall":{"args":{"path":"a"},"result":{"error":{"errorMessage":"no such file"}}}},"session_id":"s"}`,
		a("Do", `,"timestamp_ms":4`),
		a("ne.", `,"timestamp_ms":5`),
		a("Reading.Done.", ``),
		`{"type":"result","subtype":"success","is_error":false,"result":"Reading.Done.","session_id":"s","usage":{"inputTokens":10,"outputTokens":4,"cacheReadTokens":100,"cacheWriteTokens":0}}`,
	))
	if got := d.text(event.Text); got != "Reading.Done." {
		t.Errorf("text %q", got)
	}
	r := d.of(event.ToolResult)
	if len(r) != 1 || !r[0].Tool.Failed || r[0].Tool.Output != "no such file" || r[0].Tool.Name != "readToolCall" {
		t.Errorf("result %+v", r)
	}
	if c := d.of(event.ToolCall); c[0].Tool.Effect != event.EffectRead {
		t.Errorf("effect %v", c[0].Tool.Effect)
	}
	u := d.of(event.Usage)
	if len(u) != 1 || u[0].Usage.Scope != event.ScopeRun || u[0].Usage.Input != 10 || u[0].Usage.CacheRead != 100 || u[0].Usage.CostUSD != nil || u[0].Usage.Has&event.HasCacheWrite == 0 {
		t.Errorf("usage %+v", u)
	}
}

func TestCompleteMessagesSayTheSameTextTwice(t *testing.T) {
	// Without partial output every assistant line is a message of its
	// own: the same words after a tool call are said again.
	d := decodeLines(t, lines(
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Checking."}]},"session_id":"s","model_call_id":"c1","timestamp_ms":1}`,
		`{"type":"tool_call","subtype":"started","call_id":"t1","tool_call":{"shellToolCall":{"args":{"command":"false"}}},"session_id":"s"}`,
		`{"type":"tool_call","subtype":"completed","call_id":"t1","tool_call":{"shellToolCall":{"result":{"success":{"exitCode":1,"stdout":"","stderr":"bad"}}}},"session_id":"s"}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Checking."}]},"session_id":"s"}`,
	))
	if got := d.text(event.Text); got != "Checking.Checking." {
		t.Errorf("text %q", got)
	}
	if r := d.of(event.ToolResult); !r[0].Tool.Failed || r[0].Tool.Output != "bad" {
		t.Errorf("a non-zero exit: %+v", r[0].Tool)
	}
	if len(d.runs) != 1 || d.runs[0].Status != event.StatusIncomplete {
		t.Errorf("runs %+v", d.runs)
	}
}

func TestErrorResultFails(t *testing.T) {
	d := decodeLines(t, lines(`{"type":"result","subtype":"error","is_error":true,"result":"model unavailable","session_id":"s"}`))
	if d.runs[0].Status != event.StatusError || len(d.of(event.Final)) != 0 || d.of(event.Error)[0].Text != "model unavailable" {
		t.Errorf("%+v %+v", d.runs, d.events)
	}
}

func TestGarbageShapesAreErrorsNotPanics(t *testing.T) {
	// A bad field is worded as validate words it (event.FieldError).
	for l, want := range map[string]string{
		`{"type":"assistant","message":42}`:                        "assistant.message: want object, got number 42",
		`{"type":"assistant","message":{"content":{}}}`:            "assistant.message.content: want string or array, got object",
		`{"type":"user"}`:                                          `user: missing field "message"`,
		`{"type":"tool_call","subtype":"started","tool_call":[1]}`: "tool_call.tool_call: want object, got array",
		`{"type":null}`:                                            `cursor: the line has no string "type"`,
		`"x"`:                                                      "cursor: not a JSON object",
		`{"type":"result",`:                                        "cursor: not a JSON line",
	} {
		d := decodeLines(t, [][]byte{[]byte(l)})
		if len(d.errs) != 1 || d.errs[0].Error() != "line 1: "+want || !d.lines[1] {
			t.Errorf("%s: %v, want %q", l, d.errs, want)
		}
	}
}

func TestHugeToolOutputIsKept(t *testing.T) {
	big := strings.Repeat("y", 5<<20)
	d := decodeLines(t, lines(`{"type":"tool_call","subtype":"completed","call_id":"t","tool_call":{"shellToolCall":{"args":{},"result":{"success":{"exitCode":0,"stdout":"`+big+`","stderr":""}}}},"session_id":"s"}`))
	if r := d.of(event.ToolResult); len(d.errs) > 0 || len(r) != 1 || len(r[0].Tool.Output) != len(big) {
		t.Errorf("%v", d.errs)
	}
}

func TestDetect(t *testing.T) {
	// Every line of the Cursor capture is Cursor's: its thinking and
	// tool_call lines and the assistant line with model_call_id surely;
	// the bare shared shapes (lines 1, 2, 89, 90) maybe.
	for i, l := range readFile(t, captures+"cursor-hack-thinking-deltas-shell.jsonl") {
		want := event.Sure
		switch i + 1 {
		case 1, 2, 89, 90:
			want = event.Maybe
		}
		if c := Dialect.Detect(l); c != want {
			t.Errorf("line %d: %v, want %v", i+1, c, want)
		}
	}
	// No line of the Claude captures is Cursor's.
	names, _ := filepath.Glob("../../testdata/captures/claude/*.jsonl")
	for _, n := range names {
		for i, l := range readFile(t, n) {
			if c := Dialect.Detect(l); c != event.No {
				t.Errorf("%s:%d: %v", filepath.Base(n), i+1, c)
			}
		}
	}
	for l, want := range map[string]event.Certainty{
		`{"type":"thinking","content":"x","id":0}`:                       event.No, // EvoScientist's
		`{"type":"tool_call","name":"ls","args":{},"id":"1"}`:            event.No,
		`{"type":"result","usage":{"inputTokens":1}}`:                    event.Sure,
		`{"type":"assistant","message":{"content":[]}}`:                  event.Maybe,
		`{"type":"step_start","sessionID":"x","part":{}}`:                event.No,
		`{"type":"interaction_query","session_id":"s","timestamp_ms":1}`: event.Sure,
		// What rules a line out before the scan for Claude's fields, and
		// what that scan still rules out.
		`{"type":"interaction_query","timestamp_ms":1}`:                   event.No,
		`{"type":"text","session_id":"s"}`:                                event.No,
		`{"type":"tool_call","call_id":"c","uuid":"u"}`:                   event.No,
		`{"type":"thinking","subtype":"delta","parent_tool_use_id":null}`: event.No,
		`{"type":"x","session_id":"s","call_id":"c","modelUsage":{}}`:     event.No,
	} {
		if c := Dialect.Detect([]byte(l)); c != want {
			t.Errorf("%s: %v, want %v", l, c, want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, l := range readFile(f, captures+"cursor-hack-thinking-deltas-shell.jsonl") {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if len(line) > 1<<16 {
			return
		}
		dec := Dialect.NewDecoder(testOptions)
		var evs []event.Event
		for i := 1; i <= 3; i++ {
			n := len(evs)
			var err error
			evs, err = dec.Decode(evs, line, i)
			if len(evs) == n && err == nil {
				t.Fatalf("line %d yields nothing", i)
			}
		}
		for _, e := range dec.End(evs) {
			if e.Dialect != Name || e.Line == 0 {
				t.Fatalf("%+v", e)
			}
		}
	})
}

func TestDetectorTellsClaudeAndCursorApart(t *testing.T) {
	// With cursor before claude in the list, a bare shared line with no
	// line before it is Cursor's (Claude's real lines are all sure), and
	// every line of every capture goes to its own dialect.
	for dir, want := range map[string]*event.Dialect{"cursor": Dialect, "claude": claude.Dialect} {
		names, _ := filepath.Glob("../../testdata/captures/" + dir + "/*.jsonl")
		for _, n := range names {
			det := event.NewDetector([]*event.Dialect{Dialect, claude.Dialect})
			for i, l := range readFile(t, n) {
				if got := det.Detect(l); got != want {
					t.Errorf("%s:%d: %v", filepath.Base(n), i+1, got)
				}
			}
		}
	}
}

func TestLinesOutOfOrderDecodeWithoutErrors(t *testing.T) {
	ls := readFile(t, captures+"cursor-hack-thinking-deltas-shell.jsonl")
	rev := make([][]byte, len(ls))
	for i, l := range ls {
		rev[len(ls)-1-i] = l
	}
	d := decodeLines(t, rev)
	// The result (now first) ends a run of its own; the completed call
	// comes before its start and keeps its id.
	if len(d.errs) > 0 || len(d.of(event.ToolResult)) != 1 || d.of(event.ToolResult)[0].Tool.ID == "" {
		t.Errorf("%v", d.errs)
	}
	for i := range rev {
		if !d.lines[i+1] {
			t.Errorf("line %d yields nothing", i+1)
		}
	}
}

func TestDetectReadsTheLineOnceAndTellsItAsBefore(t *testing.T) {
	var lines [][]byte
	for _, glob := range []string{"../../testdata/captures/*/*.jsonl", "../../testdata/translate/*.jsonl", "../../testdata/inspect/*.jsonl"} {
		names, _ := filepath.Glob(glob)
		for _, n := range names {
			lines = append(lines, readFile(t, n)...)
		}
	}
	if len(lines) < 200 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range []string{
		`{"type":"thinking","subtype":"delta"}`, `{"type":"thinking","session_id":"s"}`, `{"type":"tool_call","call_id":"c"}`,
		`{"type":"tool_call","call_id":"c","uuid":"u"}`, `{"type":"assistant","message":{"id":"m"}}`,
		`{"type":"assistant","message":{"model":"m"},"timestamp_ms":1}`, `{"type":"result","usage":{"inputTokens":1},"tools":[]}`,
		`{"type":"result","usage":{"input_tokens":1}}`, `{"type":"other","call_id":"c"}`, `{"type":"other","call_id":"c","session_id":"s"}`,
		`{"type":1,"session_id":"s"}`, `{"session_id":"s","type":"user","model_call_id":"m"}`, `[1]`, `"x"`, `{}`,
	} {
		lines = append(lines, []byte(l))
	}
	for _, l := range lines {
		if got, want := Dialect.Detect(l), detectByField(l); got != want {
			t.Errorf("%s: %v, want %v", l, got, want)
		}
	}
}
