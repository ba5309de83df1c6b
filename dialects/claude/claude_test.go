package claude

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/event/eventtest"
)

// testOptions know the dialect's own tools.
var testOptions = event.DecodeOptions{Effects: event.EffectsOf([]*event.Dialect{Dialect})}

const captures = "../../testdata/captures/claude/"

// decoded is one input run through the decoder and event.Runs.
type decoded struct {
	events []event.Event
	errs   []error
	runs   []*event.Run
	lines  map[int]bool // lines that yielded events
}

func decodeLines(t testing.TB, lines [][]byte) decoded {
	t.Helper()
	dec := Dialect.NewDecoder(testOptions)
	var out decoded
	out.lines = map[int]bool{}
	for i, l := range lines {
		n := len(out.events)
		var err error
		out.events, err = dec.Decode(out.events, l, i+1)
		if err != nil {
			out.errs = append(out.errs, fmt.Errorf("line %d: %w", i+1, err))
		}
		if len(out.events) > n {
			out.lines[i+1] = true
		}
	}
	out.events = dec.End(out.events)
	var runs event.Runs
	for i := range out.events {
		ev := &out.events[i]
		if ev.Dialect != Name || ev.Line == 0 {
			t.Fatalf("event %d lacks its dialect or line: %+v", i, ev)
		}
		st := runs.Place(ev)
		if st.Start {
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

func readCapture(t testing.TB, name string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(captures + name)
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

func (d decoded) text(k event.Kind, sub bool) string {
	var b strings.Builder
	for _, e := range d.of(k) {
		if (e.Sub != "") == sub {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// usage sums usage the way its Scope says: message usage summed over a
// run, a run's usage replacing it; runs summed.
func (d decoded) usage(scope event.Scope) event.Tokens {
	var total event.Tokens
	for _, e := range d.of(event.Usage) {
		if e.Usage.Scope == scope {
			total.Add(e.Usage)
		}
	}
	return total
}

type toolFact struct {
	name   string
	effect event.Effect
	sub    bool
}

type runFact struct {
	status event.Status
	final  string
}

type captureFacts struct {
	runs    []runFact
	tools   []toolFact
	results int // tool results
	failed  int // failed tool results
	run     event.Tokens
	cost    float64
	message event.Tokens // the per-message usage summed, each message once
}

func checkCapture(t *testing.T, name string, want captureFacts) decoded {
	t.Helper()
	d := decodeLines(t, readCapture(t, name))
	if len(d.errs) > 0 {
		t.Errorf("errors: %v", d.errs)
	}
	if len(d.runs) != len(want.runs) {
		t.Fatalf("%d runs, want %d: %+v", len(d.runs), len(want.runs), d.runs)
	}
	finals := d.of(event.Final)
	if len(finals) != len(want.runs) {
		t.Fatalf("%d finals, want %d", len(finals), len(want.runs))
	}
	for i, r := range d.runs {
		if r.Status != want.runs[i].status {
			t.Errorf("run %d: status %q, want %q", i+1, r.Status, want.runs[i].status)
		}
		if finals[i].Text != want.runs[i].final {
			t.Errorf("run %d: final %q, want %q", i+1, finals[i].Text, want.runs[i].final)
		}
	}
	var tools []toolFact
	for _, e := range d.of(event.ToolCall) {
		tools = append(tools, toolFact{e.Tool.Name, e.Tool.Effect, e.Sub != ""})
	}
	if fmt.Sprint(tools) != fmt.Sprint(want.tools) {
		t.Errorf("tools %v, want %v", tools, want.tools)
	}
	results, failed := d.of(event.ToolResult), 0
	for _, e := range results {
		if e.Tool.Failed {
			failed++
		}
		if e.Tool.Name == "" {
			t.Errorf("line %d: tool result %s without its tool's name", e.Line, e.Tool.ID)
		}
	}
	if len(results) != want.results || failed != want.failed {
		t.Errorf("%d tool results, %d failed; want %d, %d", len(results), failed, want.results, want.failed)
	}
	run := d.usage(event.ScopeRun)
	if run.Input != want.run.Input || run.Output != want.run.Output || run.CacheRead != want.run.CacheRead || run.CacheWrite != want.run.CacheWrite {
		t.Errorf("run usage %+v, want %+v", run, want.run)
	}
	if run.CostUSD == nil || *run.CostUSD != want.cost {
		t.Errorf("cost %v, want %v", run.CostUSD, want.cost)
	}
	msg := d.usage(event.ScopeMessage)
	if msg.Input != want.message.Input || msg.Output != want.message.Output || msg.CacheRead != want.message.CacheRead || msg.CacheWrite != want.message.CacheWrite {
		t.Errorf("message usage %+v, want %+v", msg, want.message)
	}
	return d
}

func TestCaptureAgentHarnessThinkingBash(t *testing.T) {
	d := checkCapture(t, "agent-harness-thinking-bash.jsonl", captureFacts{
		runs:    []runFact{{event.StatusSuccess, "done"}},       // line 10: subtype success, result "done"
		tools:   []toolFact{{"Bash", event.EffectShell, false}}, // line 5
		results: 1,                                              // line 7, is_error false
		// line 10 modelUsage: inputTokens 18, outputTokens 259,
		// cacheReadInputTokens 48359, cacheCreationInputTokens 5101.
		run:  event.Tokens{Input: 18, Output: 259, CacheRead: 48359, CacheWrite: 5101},
		cost: 0.0163509, // line 10 total_cost_usd
		// msg_…62qi (lines 4-5): 10 in, 4 out, 21752 read, 4855 write;
		// msg_…1Hnf (lines 8-9): 8 in, 2 out, 26607 read, 246 write.
		message: event.Tokens{Input: 18, Output: 6, CacheRead: 48359, CacheWrite: 5101},
	})
	// Thinking blocks on lines 4 and 8, the answer on line 9.
	if r := d.of(event.Reasoning); len(r) != 2 || r[0].Line != 4 || !strings.HasPrefix(r[1].Text, "The bash command executed") {
		t.Errorf("reasoning: %+v", r)
	}
	if s := d.of(event.RunStart); len(s) != 1 || s[0].Model != "claude-haiku-4-5-20251001" || s[0].Cwd != "/workspace" || s[0].Session != "30b3e9a3-4fac-468c-a5b1-f2824b027ab3" {
		t.Errorf("run start: %+v", s)
	}
	if r := d.of(event.ToolResult); r[0].Tool.Output != "one" || r[0].Tool.ID != "toolu_01GdNdLYYrREwSLbrW639djB" {
		t.Errorf("tool result: %+v", r[0].Tool)
	}
}

func TestCaptureYokeThreeBashCalls(t *testing.T) {
	final := "All three pass. Summary:\n\n| # | Method | Code | Notes |\n|---|--------|------|-------|\n| 1 | **Slicing** | `s[::-1]` | Fastest, most idiomatic |\n| 2 | **`reversed()` + `join()`** | `''.join(reversed(s))` | Readable, lazy iterator |\n| 3 | **Loop accumulation** | prepend each char | Manual, least efficient (O(n²) due to string concat) |\n\nFor production code, `s[::-1]` is the standard choice."
	bash := toolFact{"Bash", event.EffectShell, false}
	d := checkCapture(t, "yoke-thinking-three-bash-calls-2.1.104.jsonl", captureFacts{
		runs:    []runFact{{event.StatusSuccess, final}}, // line 12
		tools:   []toolFact{bash, bash, bash},            // lines 4, 6, 8
		results: 3,                                       // lines 5, 7, 10
		// line 12 modelUsage claude-opus-4-6.
		run:  event.Tokens{Input: 4, Output: 685, CacheRead: 18637, CacheWrite: 19346},
		cost: 0.147376,
		// msg_01ErX… (lines 2-8, five lines): 3 in, 31 out, 0 read, 18637
		// write; msg_01BKT… (line 11): 1 in, 1 out, 18637 read, 709 write.
		message: event.Tokens{Input: 4, Output: 32, CacheRead: 18637, CacheWrite: 19346},
	})
	// The answer text is line 11's; line 3's text is said once.
	if got := d.text(event.Text, false); !strings.HasPrefix(got, "Here are three ways") || !strings.HasSuffix(got, final) || strings.Count(got, "Here are three") != 1 {
		t.Errorf("text %q", got)
	}
}

func TestCaptureYokePartialMessagesSayTheTextOnce(t *testing.T) {
	answer := "\n\nSilent print statement\nreveals the hidden truth now—\noff by one, again"
	d := checkCapture(t, "yoke-partial-messages-2.1.104.jsonl", captureFacts{
		runs: []runFact{{event.StatusSuccess, answer}}, // line 12
		// line 12 modelUsage claude-opus-4-6.
		run:  event.Tokens{Input: 3, Output: 20, CacheRead: 12449, CacheWrite: 6289},
		cost: 0.04604575,
		// message_start (line 2) says 2 output tokens, message_delta
		// (line 9) 20: the message's usage is the final one, once.
		message: event.Tokens{Input: 3, Output: 20, CacheRead: 12449, CacheWrite: 6289},
	})
	// Lines 4-6 stream the text; line 7 repeats it whole.
	if got := d.text(event.Text, false); got != answer {
		t.Errorf("text said %q, want it once: %q", got, answer)
	}
	for _, e := range d.of(event.Text) {
		if e.Line == 7 {
			t.Errorf("the complete message repeats streamed text: %q", e.Text)
		}
	}
}

func TestCaptureNightgaugeTwoResultsOneSession(t *testing.T) {
	d := checkCapture(t, "nightgauge-subagent-two-results-2.1.223.jsonl", captureFacts{
		// Line 55 is the first turn's result (written after the second
		// turn's lines 46-54), line 56 the second's.
		runs: []runFact{
			{event.StatusSuccess, "Subagent launched successfully. It will run `echo subagent-ran` in the background and I'll receive a notification when it completes.\n\nDone."},
			{event.StatusSuccess, "The subagent completed successfully. The output of running `echo subagent-ran` is:\n\n```\nsubagent-ran\n```"},
		},
		// ToolSearch line 12, Agent line 25, the sub-agent's Bash line 33.
		tools:   []toolFact{{"ToolSearch", event.EffectRead, false}, {"Agent", event.EffectUnknown, false}, {"Bash", event.EffectShell, true}},
		results: 3, // lines 13, 28, 40
		// modelUsage on line 56 (the session's total, sub-agent included).
		run: event.Tokens{Input: 56, Output: 1095, CacheRead: 72701, CacheWrite: 13350},
		// total_cost_usd is a running total: 0.0280542 (line 55), then
		// 0.0335836 (line 56); the runs' costs add up to the last.
		cost: 0.0335836,
		// Six messages, counted once each: lines 11-12 (10/4/13287/3177),
		// 24-25 (10/3/16464/1062), 31-33 (10/4/0/7234), 38-39
		// (8/1/17526/664), 41-42 (8/2/7234/656), 53-54 (10/2/18190/557).
		message: event.Tokens{Input: 56, Output: 16, CacheRead: 72701, CacheWrite: 13350},
	})
	if c := *d.of(event.Usage)[len(d.of(event.Usage))-1].Usage.CostUSD; c <= 0 || c >= 0.0335836 {
		t.Errorf("the second result's cost %v is not its share of the running total", c)
	}
	if d.runs[1].FirstLine != 55 || !d.runs[1].Started || d.runs[0].LastLine != 55 {
		t.Errorf("runs: %+v %+v", d.runs[0], d.runs[1])
	}
	for _, e := range d.events {
		if e.Line >= 31 && e.Line <= 42 && (e.Kind == event.Text || e.Kind == event.ToolCall) && strings.Contains(string(e.Raw), `"parent_tool_use_id":"toolu_01Km`) != (e.Sub == "toolu_01KmjC644ECSdrn55vf1SEgr") {
			t.Errorf("line %d: sub %q", e.Line, e.Sub)
		}
	}
}

func allCaptures(t testing.TB) map[string][][]byte {
	names, err := filepath.Glob(captures + "*.jsonl")
	if err != nil || len(names) == 0 {
		t.Fatal("no captures", err)
	}
	out := map[string][][]byte{}
	for _, n := range names {
		out[filepath.Base(n)] = readCapture(t, filepath.Base(n))
	}
	return out
}

func TestEveryLineYieldsEventsOrAnError(t *testing.T) {
	for name, lines := range allCaptures(t) {
		d := decodeLines(t, lines)
		for i := range lines {
			if !d.lines[i+1] {
				t.Errorf("%s:%d yields nothing", name, i+1)
			}
		}
	}
}

func TestCutAtEveryLineEndsIncomplete(t *testing.T) {
	for name, lines := range allCaptures(t) {
		for n := 1; n < len(lines); n++ {
			d := decodeLines(t, lines[:n])
			if len(d.errs) > 0 {
				t.Fatalf("%s cut at %d: %v", name, n, d.errs)
			}
			last := d.runs[len(d.runs)-1]
			ended := false
			for _, e := range d.of(event.RunEnd) {
				ended = ended || e.Line == n
			}
			if !ended && last.Status != event.StatusIncomplete {
				t.Errorf("%s cut at %d: last run %+v", name, n, last)
			}
		}
	}
}

func TestCutAfterQueuedInitStartsThatRunIncomplete(t *testing.T) {
	// Cut after line 54: the session's second init (line 46) came while
	// the first turn's run was open, and neither result came.
	d := decodeLines(t, readCapture(t, "nightgauge-subagent-two-results-2.1.223.jsonl")[:54])
	if len(d.runs) != 2 || d.runs[0].Status != event.StatusIncomplete || d.runs[1].Status != event.StatusIncomplete {
		t.Errorf("runs: %+v", d.runs)
	}
}

func TestDuplicatedLinesCountUsageOnce(t *testing.T) {
	for name, lines := range allCaptures(t) {
		a, b := decodeLines(t, lines), decodeLines(t, eventtest.Twice(lines))
		for _, scope := range []event.Scope{event.ScopeMessage, event.ScopeRun} {
			ua, ub := a.usage(scope), b.usage(scope)
			if ua.Total() != ub.Total() || ua.Output != ub.Output || (ua.CostUSD == nil) != (ub.CostUSD == nil) || ua.CostUSD != nil && *ua.CostUSD != *ub.CostUSD {
				t.Errorf("%s: scope %d: duplicated lines count usage %+v, once %+v", name, scope, ub, ua)
			}
		}
		if len(b.errs) > 0 {
			t.Errorf("%s: %v", name, b.errs)
		}
	}
}

func TestGarbageShapesAreErrorsNotPanics(t *testing.T) {
	// A bad field is worded as validate words it (event.FieldError).
	for l, want := range map[string]string{
		`{"type":"assistant","message":42}`:                          "assistant.message: want object, got number 42",
		`{"type":"assistant","message":{"id":"m","content":"text"}}`: `assistant.message.content: want array, got string "text"`,
		`{"type":"user","message":{"content":7}}`:                    "user.message.content: want string or array, got number 7",
		`{"type":"user","message":null}`:                             "user.message: want object, got null",
		`{"type":"stream_event","event":[]}`:                         "stream_event.event: want object, got array",
		`{"type":42}`:                                                `claude: the line has no string "type"`,
		`[1,2]`:                                                      "claude: not a JSON object",
		`{"type":"assistant",`:                                       "claude: not a JSON line",
	} {
		d := decodeLines(t, [][]byte{[]byte(l)})
		if len(d.errs) != 1 || d.errs[0].Error() != "line 1: "+want {
			t.Errorf("%s: errors %v, want %q", l, d.errs, want)
		}
		if !d.lines[1] {
			t.Errorf("%s: the line is lost", l)
		}
	}
}

func TestHugeToolOutputIsKept(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	line := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"` + big + `"},{"type":"text","text":"end"}],"is_error":true}]},"parent_tool_use_id":null,"session_id":"s"}`
	d := decodeLines(t, [][]byte{[]byte(line)})
	r := d.of(event.ToolResult)
	if len(d.errs) > 0 || len(r) != 1 || len(r[0].Tool.Output) != len(big)+4 || !strings.HasSuffix(r[0].Tool.Output, "\nend") || !r[0].Tool.Failed {
		t.Errorf("errors %v, %d results", d.errs, len(r))
	}
}

func lines(s ...string) [][]byte {
	var out [][]byte
	for _, l := range s {
		out = append(out, []byte(l))
	}
	return out
}

const initLine = `{"type":"system","subtype":"init","session_id":"s1","model":"claude-x","cwd":"/w","uuid":"u"}`

func TestInitOfAnotherSessionCutsTheOpenRun(t *testing.T) {
	d := decodeLines(t, lines(initLine, strings.Replace(initLine, `"s1"`, `"s2"`, 1),
		`{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s2"}`))
	if len(d.runs) != 2 || d.runs[0].Cut != event.CutRunStart || d.runs[1].Status != event.StatusSuccess || d.runs[1].ID != "s2" {
		t.Errorf("runs %+v %+v", d.runs[0], d.runs[len(d.runs)-1])
	}
}

func TestResultSubtypesGiveStatuses(t *testing.T) {
	for subtype, want := range map[string]event.Status{
		"success":                             event.StatusSuccess,
		"error_during_execution":              event.StatusError,
		"error_max_turns":                     event.StatusMaxTurns,
		"error_max_budget_usd":                event.StatusMaxBudget,
		"error_max_structured_output_retries": event.StatusError,
		"error_something_new":                 event.StatusError,
	} {
		d := decodeLines(t, lines(initLine, `{"type":"result","subtype":"`+subtype+`","is_error":`+fmt.Sprint(subtype != "success")+`,"errors":["boom"],"session_id":"s1","total_cost_usd":0.5}`))
		if len(d.runs) != 1 || d.runs[0].Status != want {
			t.Errorf("%s: %+v", subtype, d.runs)
		}
		if subtype != "success" && (len(d.of(event.Error)) != 1 || d.of(event.Error)[0].Text != "boom") {
			t.Errorf("%s: errors %+v", subtype, d.of(event.Error))
		}
	}
}

func TestResultIsErrorWithSuccessSubtypeFails(t *testing.T) {
	// is_error first and type late, as Claude writes it; the result is
	// the API error's text, not an answer.
	d := decodeLines(t, lines(initLine, `{"is_error":true,"subtype":"success","result":"API Error: 529 overloaded","session_id":"s1","type":"result"}`))
	if d.runs[0].Status != event.StatusError || len(d.of(event.Final)) != 0 || d.of(event.Error)[0].Text != "API Error: 529 overloaded" {
		t.Errorf("runs %+v, events %+v", d.runs, d.events)
	}
}

func TestRunningCostSharesSumToTheLastTotal(t *testing.T) {
	// Totals that more than double from one result to the next: a plain
	// difference rounds, and the sum of the shares may miss the total.
	// The shares hit it exactly when some float does (for 0.9 after
	// 0.147376 none does: both neighbours round to even), else by an ulp.
	totals := []float64{0.0001, 0.0163509, 0.147376, 0.9, 3.3335836, 3.3335837}
	var ls []string
	for _, c := range totals {
		ls = append(ls, initLine, fmt.Sprintf(`{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s1","total_cost_usd":%v}`, c))
	}
	d := decodeLines(t, lines(ls...))
	var sum float64
	for i, e := range d.of(event.Usage) {
		sum += *e.Usage.CostUSD
		if math.Abs(sum-totals[i]) > math.Nextafter(totals[i], 10)-totals[i] || i < 3 && sum != totals[i] {
			t.Errorf("after run %d: %v, want %v", i+1, sum, totals[i])
		}
	}
	// Without total_cost_usd, modelUsage's costs are the run's.
	d = decodeLines(t, lines(initLine, `{"type":"result","subtype":"success","session_id":"s1","modelUsage":{"a":{"inputTokens":1,"costUSD":0.25},"b":{"outputTokens":2,"costUSD":0.5}}}`))
	if u := d.of(event.Usage)[0].Usage; *u.CostUSD != 0.75 || u.Input != 1 || u.Output != 2 || u.Model != "" {
		t.Errorf("%+v", u)
	}
}

func TestKilledRunWithoutResultIsIncomplete(t *testing.T) {
	d := decodeLines(t, lines(initLine,
		`{"type":"assistant","message":{"id":"m1","model":"claude-x","content":[{"type":"text","text":"working"}],"usage":{"input_tokens":5,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s1"}`))
	if len(d.runs) != 1 || d.runs[0].Status != event.StatusIncomplete || d.runs[0].Cut != event.CutEndOfInput {
		t.Errorf("runs %+v", d.runs)
	}
	if u := d.usage(event.ScopeMessage); u.Input != 5 || u.Output != 1 {
		t.Errorf("usage of a cut run: %+v", u)
	}
}

func TestToolResultsFailedAndJoined(t *testing.T) {
	d := decodeLines(t, lines(initLine,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/x"}},{"type":"tool_use","id":"t2","name":"mcp__gh__issue","input":{}}]},"parent_tool_use_id":null,"session_id":"s1"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"no such file","is_error":true},{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"a"},{"type":"image","source":{}},{"type":"text","text":"b"}]}]},"parent_tool_use_id":null,"session_id":"s1"}`))
	calls, res := d.of(event.ToolCall), d.of(event.ToolResult)
	if len(calls) != 2 || calls[0].Tool.Effect != event.EffectRead || calls[1].Tool.Effect != event.EffectUnknown || string(calls[0].Tool.Args) != `{"file_path":"/x"}` {
		t.Errorf("calls %+v", calls)
	}
	if len(res) != 2 || !res[0].Tool.Failed || res[0].Tool.Output != "no such file" || res[0].Tool.Name != "Read" ||
		res[1].Tool.Failed || res[1].Tool.Output != "a\n{\"type\":\"image\",\"source\":{}}\nb" {
		t.Errorf("results %+v %+v", res[0].Tool, res[1].Tool)
	}
}

func TestEmptyThinkingSaysNothing(t *testing.T) {
	d := decodeLines(t, lines(initLine,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"thinking","thinking":"","signature":"EqQB"}]},"parent_tool_use_id":null,"session_id":"s1"}`))
	if r := d.of(event.Reasoning); len(r) != 0 {
		t.Errorf("empty thinking gave %+v", r)
	}
	if !d.lines[2] {
		t.Error("the line is lost")
	}
}

func TestPermissionDenialsAreDecisions(t *testing.T) {
	d := decodeLines(t, lines(initLine,
		`{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s1","permission_denials":[{"tool_name":"Bash","tool_use_id":"t9","tool_input":{"command":"rm -rf /"}}]}`))
	p := d.of(event.PermissionDecision)
	if len(p) != 1 || p[0].Permission.Decision != event.Denied || p[0].Permission.ID != "t9" || p[0].Permission.Tool != "Bash" {
		t.Errorf("%+v", p)
	}
}

func TestStreamedTextAfterTheCompleteMessageIsNotRepeated(t *testing.T) {
	// The complete message may come before the block's last delta, or
	// the deltas may stop early: each source says only what extends the
	// other.
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"parent_tool_use_id":null,"session_id":"s1"}`
	}
	d := decodeLines(t, lines(initLine,
		se(`{"type":"message_start","message":{"id":"m1","usage":{"input_tokens":3,"output_tokens":1}}}`),
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}}`),
		se(`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hello"}}`),
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"thinking","thinking":"hmm"}]},"parent_tool_use_id":null,"session_id":"s1"}`,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"Hello, wor"}]},"parent_tool_use_id":null,"session_id":"s1"}`,
		se(`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":", world"}}`),
		se(`{"type":"message_delta","usage":{"output_tokens":9}}`),
	))
	if got := d.text(event.Text, false); got != "Hello, world" {
		t.Errorf("text %q", got)
	}
	if got := d.text(event.Reasoning, false); got != "hmm" {
		t.Errorf("reasoning %q", got)
	}
	if u := d.usage(event.ScopeMessage); u.Input != 3 || u.Output != 9 {
		t.Errorf("usage %+v", u)
	}
}

func TestKilledWhileStreamingACallFlushesIt(t *testing.T) {
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"parent_tool_use_id":null,"session_id":"s1"}`
	}
	start := se(`{"type":"message_start","message":{"id":"m1","usage":{"input_tokens":3,"output_tokens":1}}}`)
	block := se(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"Write","input":{}}}`)
	delta := se(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"file_path\":\"/a\"}"}}`)
	whole := `{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/a"}}]},"parent_tool_use_id":null,"session_id":"s1"}`

	d := decodeLines(t, lines(initLine, start, block, delta))
	c := d.of(event.ToolCall)
	if len(c) != 1 || c[0].Line != 3 || c[0].Tool.ID != "t1" || c[0].Tool.Effect != event.EffectWrite || string(c[0].Tool.Args) != `{"file_path":"/a"}` {
		t.Errorf("a call cut while streaming: %+v", c)
	}
	if d.runs[0].Status != event.StatusIncomplete {
		t.Errorf("runs %+v", d.runs)
	}
	// When the complete message comes, it alone makes the call.
	d = decodeLines(t, lines(initLine, start, block, delta, whole))
	if c := d.of(event.ToolCall); len(c) != 1 || c[0].Line != 5 {
		t.Errorf("calls %+v", c)
	}
}

func TestDetect(t *testing.T) {
	// Every line of the Claude captures is Claude's, most of them surely.
	for name, ls := range allCaptures(t) {
		for i, l := range ls {
			if c := Dialect.Detect(l); c != event.Sure {
				t.Errorf("%s:%d: %v", name, i+1, c)
			}
		}
	}
	// Cursor's lines: its bare shared shapes are Maybe, its own No.
	for i, l := range readCapture(t, "../cursor/cursor-hack-thinking-deltas-shell.jsonl") {
		c := Dialect.Detect(l)
		typ := string(l[9:20])
		switch {
		case strings.HasPrefix(typ, "thinking") || strings.HasPrefix(typ, "tool_call"):
			if c != event.No {
				t.Errorf("cursor:%d: %v", i+1, c)
			}
		case c != event.Maybe:
			t.Errorf("cursor:%d: %v", i+1, c)
		}
	}
	for l, want := range map[string]event.Certainty{
		`{"type":"text","content":"hi"}`:                                      event.No,
		`{"type":"error","message":"x"}`:                                      event.No,
		`{"type":"result","result":"x"}`:                                      event.Maybe,
		`{"type":"control_request","request_id":"r"}`:                         event.Sure,
		`{"type":"rate_limit_event"}`:                                         event.Sure,
		`{"type":"user","message":{"content":"x"},"parent_tool_use_id":null}`: event.Sure,
		`[]`: event.No,
	} {
		if c := Dialect.Detect([]byte(l)); c != want {
			t.Errorf("%s: %v, want %v", l, c, want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, ls := range allCaptures(f) {
		for _, l := range ls {
			f.Add(l)
		}
	}
	f.Add([]byte(`{"type":"assistant","message":42}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if len(line) > 1<<16 {
			return
		}
		dec := Dialect.NewDecoder(testOptions)
		var evs []event.Event
		for i := 1; i <= 3; i++ { // the same line thrice: state carried over
			n := len(evs)
			var err error
			evs, err = dec.Decode(evs, line, i)
			if len(evs) == n && err == nil {
				t.Fatalf("line %d yields nothing", i)
			}
		}
		evs = dec.End(evs)
		for _, e := range evs {
			if e.Dialect != Name || e.Line == 0 {
				t.Fatalf("%+v", e)
			}
		}
	})
}

func TestLinesOutOfOrderDecodeWithoutErrors(t *testing.T) {
	// Results before their calls, results before inits, deltas before
	// their message's start: every line still yields its events.
	for name, ls := range allCaptures(t) {
		rev := make([][]byte, len(ls))
		for i, l := range ls {
			rev[len(ls)-1-i] = l
		}
		d := decodeLines(t, rev)
		if len(d.errs) > 0 || len(d.of(event.ToolResult)) != len(decodeLines(t, ls).of(event.ToolResult)) {
			t.Errorf("%s reversed: %v", name, d.errs)
		}
		for i := range rev {
			if !d.lines[i+1] {
				t.Errorf("%s reversed: line %d yields nothing", name, i+1)
			}
		}
	}
}

func TestManyDeltasOfOneBlockSayEachOnce(t *testing.T) {
	// 50000 deltas of one thinking block: each says itself (the text
	// said so far is not compared again for each, which would be slow).
	ls := [][]byte{[]byte(initLine), []byte(`{"type":"stream_event","event":{"type":"message_start","message":{"id":"m1"}},"parent_tool_use_id":null,"session_id":"s1"}`)}
	delta := []byte(`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"abcde"}},"parent_tool_use_id":null,"session_id":"s1"}`)
	for range 50000 {
		ls = append(ls, delta)
	}
	ls = append(ls, []byte(`{"type":"assistant","message":{"id":"m1","content":[{"type":"thinking","thinking":"`+strings.Repeat("abcde", 50000)+`"}]},"parent_tool_use_id":null,"session_id":"s1"}`))
	d := decodeLines(t, ls)
	if r := d.of(event.Reasoning); len(r) != 50000 || len(d.text(event.Reasoning, false)) != 250000 {
		t.Errorf("%d reasoning events", len(r))
	}
}
