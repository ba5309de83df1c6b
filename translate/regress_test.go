package translate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects/zero/zerotest"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
)

// Regression tests: each is named after the behaviour it keeps.

// lines translates input and returns the output lines.
func lines(t *testing.T, opt Options, input string) (out []string, diags []string, st *Stats) {
	t.Helper()
	b, diags, st := run(t, opt, []byte(input))
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out, diags, st
}

// zeroRunSteps decodes out strictly (strictZero) and names each event
// RUNID:TYPE, run_end with =STATUS.
func zeroRunSteps(t *testing.T, out []string) []string {
	t.Helper()
	var got []string
	for _, l := range out {
		ev, err := strictZero(l)
		if err != nil {
			t.Fatal(err)
		}
		s := ev.RunID + ":" + ev.Type
		if ev.Type == "run_end" {
			s += "=" + ev.Status
		}
		got = append(got, s)
	}
	return got
}

// evoTypes is the type of each EvoScientist event of out.
func evoTypes(t *testing.T, out []string) []string {
	t.Helper()
	var types []string
	for _, l := range out {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		types = append(types, fmt.Sprint(m["type"]))
	}
	return types
}

// permissionRequests decodes out strictly (strictZero) and returns its
// permission_request events.
func permissionRequests(t *testing.T, out []string) []zerotest.Event {
	t.Helper()
	var evs []zerotest.Event
	for _, l := range out {
		ev, err := strictZero(l)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == "permission_request" {
			evs = append(evs, ev)
		}
	}
	return evs
}

// strictZero decodes one line as a strict Zero client does: Zero's event
// struct, unknown fields (at any depth) refused.
func strictZero(line string) (zerotest.Event, error) {
	ev, err := zerotest.Decode([]byte(line))
	if err != nil {
		return zerotest.Event{}, err
	}
	return *ev, nil
}

// defaultTablesWith is the shipped tables with a user table loaded over them.
func defaultTablesWith(t *testing.T, table string) *mappings.Set {
	t.Helper()
	s := mappings.Default()
	if err := s.Load("user.json", []byte(table)); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRedactsTopLevelSensitiveKeysOfKeptEvents(t *testing.T) {
	in := `{"type": "auth_refresh", "token": "tok-1234567890", "api_key": "k-1234567890", "note": "fine"}` + "\n"
	out, _, _ := lines(t, Options{To: Zero, Redact: true, Unmapped: Keep, RunID: "R"}, in)
	joined := strings.Join(out, "\n")
	if strings.Contains(joined, "tok-1234567890") || strings.Contains(joined, "k-1234567890") {
		t.Fatalf("a top-level secret survived:\n%s", joined)
	}
	if !strings.Contains(joined, `"api_key":"[REDACTED]"`) || !strings.Contains(joined, `"token":"[REDACTED]"`) || !strings.Contains(joined, `"note":"fine"`) {
		t.Fatalf("want the sensitive keys redacted and the rest kept:\n%s", joined)
	}
}

func TestRedactsTopLevelSensitiveKeysOfZeroPassThrough(t *testing.T) {
	in := `{"schemaVersion":2,"type":"text","runId":"r1","delta":"hi","apiKey":"abcdefghijklmnop","password":7}` + "\n"
	out, _, _ := lines(t, Options{To: Zero, Redact: true, Unmapped: Keep}, in)
	if len(out) < 1 || strings.Contains(out[0], "abcdefghijklmnop") || !strings.Contains(out[0], `"apiKey":"[REDACTED]"`) || !strings.Contains(out[0], `"password":"[REDACTED]"`) {
		t.Fatalf("got %q", out)
	}
	// A rule of a user's table may write any key: it is redacted too.
	tables := defaultTablesWith(t, `{"from": "evosci", "to": "zero", "events": {"text": {"to": "text", "fields": {"secret": "content"}}}}`)
	out, _, _ = lines(t, Options{To: Zero, Redact: true, RunID: "R", Tables: tables}, `{"type": "text", "content": "hunter2"}`+"\n")
	if strings.Contains(strings.Join(out, "\n"), "hunter2") {
		t.Fatalf("a value written by a table rule under a sensitive key survived: %q", out)
	}
}

func TestInterruptNamesWrittenInPythonStyleAndRedacted(t *testing.T) {
	in := `{"schemaVersion":2,"type":"run_start","runId":"r1"}
{"schemaVersion":2,"type":"permission_request","runId":"r1","id":"p1","name":"wr\u00efte\u003cx\u003e","reason":"because"}
{"schemaVersion":2,"type":"permission_request","runId":"r1","id":"p2","name":"sk-abcdefghijklmnopqrstuvwxyz"}
`
	out, diags, _ := lines(t, Options{To: EvoSci, Redact: true}, in)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	want := `{"type": "interrupt", "interrupt_id": "p1", "action_requests": [{"name": "wr\u00efte<x>", "args": {}, "description": "because"}], "review_configs": [{"action_name": "wr\u00efte<x>", "allowed_decisions": ["approve", "reject"]}]}`
	if len(out) < 2 || out[0] != want {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(out, "\n"), want)
	}
	if strings.Contains(out[1], "abcdefghijklmnop") {
		t.Fatalf("a secret in a name survived: %s", out[1])
	}
}

func TestReannouncedToolCallIsOnePendingCall(t *testing.T) {
	// EvoScientist 0.1.x re-emits every tracked tool_call before each
	// result, and its results have no id.
	in := `{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}
{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}
{"type": "tool_result", "name": "ls", "content": "a", "success": true}
{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}
{"type": "tool_call", "name": "ls", "args": {"path": "b"}, "id": "c2"}
{"type": "tool_result", "name": "ls", "content": "b", "success": true}
{"type": "interrupt", "interrupt_id": "i1", "action_requests": [{"name": "ls"}]}
{"type": "done", "content": "", "response": ""}
`
	out, diags, _ := lines(t, Options{To: Zero, RunID: "R"}, in)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	calls, results, perms := keyedIDs(t, out)
	if fmt.Sprint(calls) != "[c1 c2]" || fmt.Sprint(results) != "[c1 c2]" || fmt.Sprint(perms) != "[i1]" {
		t.Fatalf("tool_call ids %v, tool_result ids %v, permission ids %v; want [c1 c2] twice and [i1]\n%s", calls, results, perms, strings.Join(out, "\n"))
	}
}

func TestInterruptWithoutActionRequestsIsCounted(t *testing.T) {
	in := `{"type": "interrupt", "interrupt_id": "i1", "action_requests": [], "review_configs": []}` + "\n"
	out, diags, st := lines(t, Options{To: Zero, RunID: "R"}, in)
	if len(diags) > 0 || st.Unmapped != 1 || st.UnmappedTypes["evosci.interrupt"] != 1 {
		t.Fatalf("diags %v, unmapped %v; want it counted as an unmapped evosci.interrupt (output %q)", diags, st.UnmappedTypes, out)
	}
	out, _, _ = lines(t, Options{To: Zero, RunID: "R", Unmapped: Keep}, in)
	if !strings.Contains(strings.Join(out, "\n"), `"type":"evosci.interrupt"`) {
		t.Fatalf("--unmapped keep: %q", out)
	}
	_, diags, _ = lines(t, Options{To: Zero, RunID: "R", Unmapped: Error}, in)
	if len(diags) != 1 {
		t.Fatalf("--unmapped error: diags %q", diags)
	}
}

func TestPermissionIDsDistinctWithinRun(t *testing.T) {
	in := `{"type": "interrupt", "interrupt_id": "i1", "action_requests": [{"name": "x"}, {"name": "y"}]}
{"type": "interrupt", "interrupt_id": "i1", "action_requests": [{"name": "x"}]}
{"type": "tool_call", "name": "z", "args": {}, "id": "c1"}
{"type": "interrupt", "interrupt_id": "i2", "action_requests": [{"name": "z"}]}
{"type": "interrupt", "interrupt_id": "i3", "action_requests": [{"name": "z"}]}
{"type": "done", "content": "", "response": ""}
{"type": "interrupt", "interrupt_id": "i1", "action_requests": [{"name": "x"}]}
`
	// Spelled with escapes too: the ids kept to tell the next ones apart
	// are then decoded into memory the next line reuses.
	for _, in := range []string{in, string(escapeLetters([]byte(in)))} {
		out, _, _ := lines(t, Options{To: Zero, RunID: "R"}, in)
		seen := map[string]bool{}
		var ids []string
		for _, ev := range permissionRequests(t, out) {
			key := ev.RunID + " " + ev.ID
			if seen[key] {
				t.Errorf("permission id %q twice in run %s", ev.ID, ev.RunID)
			}
			seen[key] = true
			ids = append(ids, ev.ID)
		}
		// The first request of each interrupt keeps the interrupt's id
		// when it is free; the next run starts afresh.
		if want := "[i1 i1:2 i1:3 c1 c1:2 i1]"; fmt.Sprint(ids) != want {
			t.Fatalf("ids %v, want %s", ids, want)
		}
	}
}

// The ids kept to tell permission ids apart are copies: spelled with
// escapes, an interrupt's id is decoded into memory that the next line's
// decoded strings reuse.
func TestPermissionIDsKeptAsCopies(t *testing.T) {
	in := `{"type": "interrupt", "interrupt_id": "\u0069\u0031", "action_requests": [{"name": "x"}]}
{"type": "interrupt", "interrupt_id": "\u0069\u0032", "action_requests": [{"name": "y"}]}
{"type": "interrupt", "interrupt_id": "i1", "action_requests": [{"name": "x"}]}
`
	out, _, _ := lines(t, Options{To: Zero, RunID: "R"}, in)
	var ids []string
	for _, ev := range permissionRequests(t, out) {
		ids = append(ids, ev.ID)
	}
	if want := "[i1 i2 i1:2]"; fmt.Sprint(ids) != want {
		t.Fatalf("ids %v, want %s", ids, want)
	}
}

func TestRoundTripKeepsPermissionIDWithTwoPendingCallsOfOneTool(t *testing.T) {
	in := `{"schemaVersion":2,"type":"run_start","runId":"r1"}
{"schemaVersion":2,"type":"tool_call","runId":"r1","id":"c1","name":"execute","args":{"command":"a"},"sideEffect":"shell"}
{"schemaVersion":2,"type":"tool_call","runId":"r1","id":"c2","name":"execute","args":{"command":"b"},"sideEffect":"shell"}
{"schemaVersion":2,"type":"permission_request","runId":"r1","id":"c2","name":"execute","action":"prompt","permission":"prompt","permissionGranted":false,"permissionMode":"ask","sideEffect":"shell","risk":{"level":"high"}}
{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}
`
	evo, _, _ := run(t, Options{To: EvoSci, Unmapped: Keep}, []byte(in))
	back, _, _ := lines(t, Options{To: Zero, Unmapped: Keep}, string(evo))
	for _, l := range back {
		if strings.Contains(l, `"permission_request"`) && !strings.Contains(l, `"id":"c2"`) {
			t.Fatalf("the permission for c2 came back as %s", l)
		}
	}
}

func TestZeroV1WritesViolationOnce(t *testing.T) {
	in := `{"schemaVersion":2,"type":"permission","runId":"r1","id":"p","name":"x","block":{"code":"denied","action":"a","risk":{"level":"low"},"reason":"r","recoverable":false},"violation":{"code":"network","action":"b","risk":{"level":"low"},"reason":"s","recoverable":false}}` + "\n"
	for _, keep := range []Unmapped{Drop, Keep} {
		out, _, _ := lines(t, Options{To: Zero1, Unmapped: keep}, in)
		if len(out) < 1 || strings.Count(out[0], `"violation"`) != 1 || !strings.Contains(out[0], `"code":"policy_denied"`) {
			t.Fatalf("--unmapped %v: %q", keep, out)
		}
	}
}

// targetInvalidZero are Zero inputs whose lines, passed through as they
// are, a strict Zero client would refuse.
var targetInvalidZero = []struct{ name, line, dropped string }{
	{"unknown top-level field", `{"schemaVersion":2,"type":"text","runId":"r1","delta":"x","colour":"red"}`, "zero.text.colour"},
	{"unknown nested field", `{"schemaVersion":2,"type":"permission","runId":"r1","id":"p","risk":{"level":"low","score":3}}`, "zero.permission.risk.score"},
	{"input event message", `{"schemaVersion":2,"type":"message","role":"user","content":"hi"}`, "zero.message"},
	{"input event prompt", `{"schemaVersion":1,"type":"prompt","content":"hi"}`, "zero.prompt"},
	{"v1 grant.maxAutonomy", `{"schemaVersion":1,"type":"permission","runId":"r1","id":"p","grant":{"toolName":"x","decision":"allow","approvedAt":"t","maxAutonomy":"high"}}`, "zero.permission.grant.maxAutonomy"},
	{"stray violation on v2", `{"schemaVersion":2,"type":"permission","runId":"r1","id":"p","violation":{"code":"network","action":"b","risk":{"level":"low"},"reason":"s","recoverable":false}}`, "zero.permission.violation"},
	{"meta value not a string", `{"schemaVersion":2,"type":"final","runId":"r1","text":"t","meta":{"count":1}}`, "zero.final.meta.count"},
}

func TestTargetValidByDefault(t *testing.T) {
	for _, c := range targetInvalidZero {
		t.Run(c.name, func(t *testing.T) {
			out, diags, st := lines(t, Options{To: Zero, Redact: true}, c.line+"\n")
			for _, l := range out {
				if _, err := strictZero(l); err != nil {
					t.Errorf("a strict Zero client refuses %s: %v", l, err)
				}
			}
			if len(diags) == 0 && st.Dropped[c.dropped] == 0 && st.UnmappedTypes[c.dropped] == 0 {
				t.Errorf("not counted as %s: diags %v, dropped %v, unmapped %v", c.dropped, diags, st.Dropped, st.UnmappedTypes)
			}
			kept, _, _ := lines(t, Options{To: Zero, Redact: true, Unmapped: Keep}, c.line+"\n")
			field := c.dropped[strings.LastIndexByte(c.dropped, '.')+1:]
			if !strings.Contains(strings.Join(kept, "\n"), field+`"`) {
				t.Errorf("--unmapped keep lost %s: %q", field, kept)
			}
		})
	}
}

func TestTokenCountsBeyondZeroIntAreDiagnosed(t *testing.T) {
	for _, in := range []string{
		`{"type": "usage_stats", "input_tokens": 18446744073709551617, "output_tokens": 1}`,
		`{"type": "usage_stats", "input_tokens": 9223372036854775807, "output_tokens": 1}`, // the sum overflows
		`{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":18446744073709551617,"completionTokens":0,"totalTokens":0}`,
	} {
		out, diags, _ := lines(t, Options{To: Zero, RunID: "R"}, in+"\n")
		for _, l := range out {
			if _, err := strictZero(l); err != nil {
				t.Errorf("%s: a strict Zero client refuses %s: %v", in, l, err)
			}
		}
		if len(diags) != 1 || !strings.Contains(diags[0], "Tokens") && !strings.Contains(diags[0], "_tokens") {
			t.Errorf("%s: diags %q, want one naming the count", in, diags)
		}
		kept, diags, _ := lines(t, Options{To: Zero, RunID: "R", Unmapped: Keep}, in+"\n")
		if len(diags) != 0 || !strings.Contains(strings.Join(kept, "\n"), "Tokens") {
			t.Errorf("%s with --unmapped keep: diags %q, output %q", in, diags, kept)
		}
	}
}

func TestEvoTextErrorDoneIsOneFailedRun(t *testing.T) {
	in := `{"type": "text", "content": "x"}
{"type": "error", "message": "boom"}
{"type": "done", "content": "x", "response": "x"}
`
	out, diags, st := lines(t, Options{To: Zero, RunID: "R"}, in)
	starts, ends := 0, []string{}
	for _, l := range out {
		ev, err := strictZero(l)
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Type {
		case "run_start":
			starts++
		case "run_end":
			ends = append(ends, ev.Status)
		}
	}
	if starts != 1 || fmt.Sprint(ends) != "[error]" || len(diags) != 0 || st.Lines != st.Mapped+st.Unmapped+st.Diagnosed+st.Blank {
		t.Fatalf("%d run_start, run_end %v, diags %v; want one failed run\n%s", starts, ends, diags, strings.Join(out, "\n"))
	}
}

func TestCutZeroRunClosedBeforeEvoRunToZero(t *testing.T) {
	in := `{"schemaVersion":2,"type":"run_start","runId":"zr1"}
{"schemaVersion":2,"type":"text","runId":"zr1","delta":"a"}
{"type": "text", "content": "b"}
{"type": "done", "content": "b", "response": "b"}
`
	out, _, _ := lines(t, Options{To: Zero, RunID: "R"}, in)
	got := zeroRunSteps(t, out)
	want := "[zr1:run_start zr1:text zr1:error zr1:run_end=incomplete R:run_start R:text R:final R:run_end=success]"
	if fmt.Sprint(got) != want {
		t.Fatalf("got  %v\nwant %s", got, want)
	}
}

func TestCutZeroRunClosedBeforeEvoRunToEvoSci(t *testing.T) {
	in := `{"schemaVersion":2,"type":"run_start","runId":"zr1"}
{"schemaVersion":2,"type":"text","runId":"zr1","delta":"a"}
{"type": "text", "content": "b"}
{"type": "done", "content": "b", "response": "b"}
`
	out, _, _ := lines(t, Options{To: EvoSci}, in)
	types := evoTypes(t, out)
	if want := "[text error text done]"; fmt.Sprint(types) != want {
		t.Fatalf("got %v, want %s\n%s", types, want, strings.Join(out, "\n"))
	}
}

func TestCutEvoRunClosedBeforeZeroRun(t *testing.T) {
	in := `{"type": "text", "content": "a"}
{"schemaVersion":2,"type":"run_start","runId":"zr1"}
{"schemaVersion":2,"type":"text","runId":"zr1","delta":"b"}
{"schemaVersion":2,"type":"run_end","runId":"zr1","status":"success","exitCode":0}
`
	out, _, _ := lines(t, Options{To: Zero, RunID: "R"}, in)
	got := zeroRunSteps(t, out)
	want := "[R:run_start R:text R:error R:run_end=incomplete zr1:run_start zr1:text zr1:run_end=success]"
	if fmt.Sprint(got) != want {
		t.Fatalf("got  %v\nwant %s", got, want)
	}
	evo, _, _ := lines(t, Options{To: EvoSci}, in)
	types := evoTypes(t, evo)
	if want := "[text error text done]"; fmt.Sprint(types) != want {
		t.Fatalf("--to evosci: got %v, want %s", types, want)
	}
}

func TestTranslateWholeInput(t *testing.T) {
	in := "{\"type\": \"text\", \"content\": \"a\"}\nnot json\n"
	var out bytes.Buffer
	st, err := Translate(strings.NewReader(in), "f.jsonl", Options{To: Zero, RunID: "R"}, &out)
	var d *jsonl.Diagnostic
	if err == nil || !errors.As(err, &d) || !strings.HasPrefix(d.Error(), "f.jsonl:2: ") {
		t.Fatalf("err %v, want the first diagnostic, naming f.jsonl:2", err)
	}
	if st.Lines != 2 || st.Diagnosed != 1 || !strings.Contains(out.String(), `"status":"incomplete"`) {
		t.Fatalf("stats %+v, output\n%s", st, out.String())
	}
}

func TestHandlersHonourTheRulesTo(t *testing.T) {
	tables := defaultTablesWith(t, `[{"from": "evosci", "to": "zero", "events": {"error": {"to": "warning", "handler": "error"}, "done": {"to": "text", "handler": "done"}}},
		{"from": "zero", "to": "evosci", "events": {"tool_call": {"to": "subagent_tool_call", "handler": "tool_call"}, "run_end": {"to": "summarization", "handler": "run_end"}}}]`)
	out, _, _ := lines(t, Options{To: Zero, RunID: "R", Tables: tables}, `{"type": "error", "message": "m"}`+"\n"+`{"type": "text", "content": "x"}`+"\n"+`{"type": "done", "content": "c", "response": "c"}`+"\n")
	joined := strings.Join(out, "\n")
	if !strings.Contains(joined, `"type":"warning"`) || !strings.Contains(joined, `"text":"c","type":"text"`) || strings.Contains(joined, `"type":"error"`) {
		t.Errorf("evosci -> zero: %s", joined)
	}
	out, _, _ = lines(t, Options{To: EvoSci, Tables: tables}, `{"schemaVersion":2,"type":"tool_call","runId":"r","id":"c","name":"ls"}`+"\n"+`{"schemaVersion":2,"type":"run_end","runId":"r","status":"success","exitCode":0}`+"\n")
	joined = strings.Join(out, "\n")
	if !strings.Contains(joined, `{"type": "subagent_tool_call", "name": "ls"`) || !strings.Contains(joined, `{"type": "summarization", "content": ""`) {
		t.Errorf("zero -> evosci: %s", joined)
	}
}

// A stream processor keeps one Translator per stream, calls Line per
// message and End when the stream goes idle; later messages start a new run.
func TestTranslatorGoesOnAfterEnd(t *testing.T) {
	var out []string
	tr := New(Options{To: Zero, RunID: "R"}, func(b []byte) error { out = append(out, string(b)); return nil })
	for i, msg := range []string{`{"type": "text", "content": "a"}`, "", `{"type": "text", "content": "b"}`, `{"type": "done", "content": "b", "response": "b"}`, ""} {
		if msg == "" {
			if err := tr.End("key-1"); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := tr.Line(jsonl.Line{Name: "key-1", Num: i + 1, Bytes: []byte(msg)}); err != nil {
			t.Fatal(err)
		}
	}
	var ends []string
	for _, l := range out {
		ev, err := strictZero(l)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == "run_end" {
			ends = append(ends, ev.RunID+"="+ev.Status)
		}
	}
	if want := "[R=incomplete R.2=success]"; fmt.Sprint(ends) != want {
		t.Fatalf("run_end %v, want %s", ends, want)
	}
}

func TestPermissionIDsNeverEmpty(t *testing.T) {
	// An interrupt without an id (empty, or missing), asking about no
	// pending call: a client keys pending permissions by id, so each
	// request still gets one of its own.
	in := `{"type": "interrupt", "interrupt_id": "", "action_requests": [{"name": "x"}, {"name": "x"}]}
{"type": "interrupt", "action_requests": [{"name": "y"}]}
{"type": "tool_call", "name": "z", "args": {}, "id": ""}
{"type": "interrupt", "interrupt_id": "", "action_requests": [{"name": "z"}]}
{"type": "done", "content": "", "response": ""}
`
	out, _, _ := lines(t, Options{To: Zero, RunID: "R"}, in)
	seen := map[string]bool{}
	var ids []string
	for _, ev := range permissionRequests(t, out) {
		if ev.ID == "" || strings.HasPrefix(ev.ID, ":") || seen[ev.ID] {
			t.Errorf("permission id %q: empty, stemless or seen before", ev.ID)
		}
		seen[ev.ID] = true
		ids = append(ids, ev.ID)
	}
	if len(ids) != 4 {
		t.Fatalf("want 4 permission_requests, got %v", ids)
	}
}

func TestZeroRunIDsZeroCannotWriteAreReplaced(t *testing.T) {
	// Zero writes no event whose runId does not match its pattern: a run
	// whose id it could not write gets one zevo makes, on all its events.
	long := strings.Repeat("r", 200)
	in := `{"schemaVersion":2,"type":"text","delta":"no runId"}
{"schemaVersion":2,"type":"run_end","status":"success","exitCode":0}
{"schemaVersion":2,"type":"run_start","runId":""}
{"schemaVersion":2,"type":"text","runId":"","delta":"empty"}
{"schemaVersion":2,"type":"run_start","runId":"bad id!"}
{"schemaVersion":2,"type":"run_end","runId":"bad id!","status":"success","exitCode":0}
{"schemaVersion":2,"type":"run_start","runId":"r\u00fcn"}
{"schemaVersion":2,"type":"text","runId":"` + long + `","delta":"long"}
{"schemaVersion":2,"type":"run_start","runId":"ok-1"}
`
	for _, to := range []Format{Zero, Zero1} {
		out, diags, _ := lines(t, Options{To: to, RunID: "R"}, in)
		ends := map[string]int{}
		var ids []string
		for _, l := range out {
			ev, err := strictZero(l)
			if err != nil {
				t.Fatal(err)
			}
			if !zeroIDPattern(ev.RunID) {
				t.Errorf("--to %s: runId %q Zero cannot write:\n%s", to, ev.RunID, l)
			}
			if ev.Type == "run_end" {
				ends[ev.RunID]++
				ids = append(ids, ev.RunID)
			}
		}
		// Five runs zevo names, each its own id, and ok-1 as it is.
		if want := "[R R.2 R.3 R.4 R.5 ok-1]"; fmt.Sprint(ids) != want {
			t.Errorf("--to %s: run_end runIds %v, want %s\n%s", to, ids, want, strings.Join(out, "\n"))
		}
		if len(diags) != 5 {
			t.Errorf("--to %s: want a diagnostic for each run renamed, got %q", to, diags)
		}
	}
}

func TestDoneBuiltFromTextDeltasIsRedacted(t *testing.T) {
	// EvoScientist's done holds the run's text, joined from Zero's deltas:
	// a secret that a delta begins is found in the delta, not after the
	// text before it ("plainsk-…" has no word boundary before "sk-").
	in := `{"runId":"r1","schemaVersion":2,"type":"run_start"}
{"delta":"plain","runId":"r1","schemaVersion":2,"type":"text"}
{"delta":"sk-abcdefghijklmnopqrstuvwxyz","runId":"r1","schemaVersion":2,"type":"text"}
{"delta":"Bearer","runId":"r1","schemaVersion":2,"type":"text"}
{"delta":" abcdefghijklmnopqrstuvwxyz0","runId":"r1","schemaVersion":2,"type":"text"}
{"exitCode":0,"runId":"r1","schemaVersion":2,"status":"success","type":"run_end"}
`
	out, _, _ := lines(t, Options{To: EvoSci, Redact: true}, in)
	joined := strings.Join(out, "\n")
	// (A secret split across deltas is redacted in the joined text only:
	// each event is redacted on its own, as Zero does.)
	if strings.Contains(joined, "sk-abcdefghijklmnopqrstuvwxyz") {
		t.Fatalf("a secret survived in the text joined from deltas:\n%s", joined)
	}
	if !strings.Contains(joined, `"content": "plain[REDACTED]Bearer [REDACTED]"`) {
		t.Fatalf("want the joined text redacted as a whole and per delta:\n%s", joined)
	}
}

func TestEvoRunLeftOpenByOneFileEndsBeforeTheNextFile(t *testing.T) {
	// Each file is its own input: an EvoScientist run the first file
	// leaves open must not run on into the second file's run in
	// EvoScientist output. At the end of the last file it ends as its
	// producer left it.
	files := []string{`{"type": "text", "content": "a"}` + "\n",
		`{"type": "text", "content": "b"}` + "\n" + `{"type": "done", "content": "b", "response": "b"}` + "\n",
		`{"type": "text", "content": "c"}` + "\n"}
	var out []string
	tr := New(Options{To: EvoSci}, func(b []byte) error { out = append(out, string(b)); return nil })
	for i, f := range files {
		name := fmt.Sprintf("f%d", i)
		r := jsonl.NewReader(strings.NewReader(f), name, nil)
		for {
			l, err := r.Next()
			if err != nil {
				break
			}
			if err := tr.Line(l); err != nil {
				t.Fatal(err)
			}
		}
		if err := tr.End(name); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{`{"type": "text", "content": "a"}`,
		`{"type": "error", "message": "the run was cut short: the input ended inside the run"}`,
		`{"type": "text", "content": "b"}`, `{"type": "done", "content": "b", "response": "b"}`,
		`{"type": "text", "content": "c"}`}
	if strings.Join(out, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(out, "\n"), strings.Join(want, "\n"))
	}
}

func TestIDsStayDistinctWhenRedacted(t *testing.T) {
	// Ids that hold a secret are redacted; two such ids of one run must
	// not become the same id, and each result must still name its call.
	in := `{"type": "tool_call", "name": "x", "args": {}, "id": "sk-aaaaaaaaaaaaaaaaaaaaaaaa"}
{"type": "tool_call", "name": "x", "args": {}, "id": "sk-bbbbbbbbbbbbbbbbbbbbbbbb"}
{"type": "tool_result", "name": "x", "content": "b", "success": true, "id": "sk-bbbbbbbbbbbbbbbbbbbbbbbb"}
{"type": "tool_result", "name": "x", "content": "a", "success": true, "id": "sk-aaaaaaaaaaaaaaaaaaaaaaaa"}
{"type": "interrupt", "interrupt_id": "Bearer cccccccccccccccccccccccc", "action_requests": [{"name": "y"}]}
{"type": "interrupt", "interrupt_id": "Bearer dddddddddddddddddddddddd", "action_requests": [{"name": "y"}]}
{"type": "done", "content": "", "response": ""}
`
	out, _, _ := lines(t, Options{To: Zero, Redact: true, RunID: "R"}, in)
	joined := strings.Join(out, "\n")
	if strings.Contains(joined, "aaaaaaaaaaaaaaaa") || strings.Contains(joined, "cccccccccccccccc") {
		t.Fatalf("a secret survived:\n%s", joined)
	}
	calls, results, perms := keyedIDs(t, out)
	// Distinct, and b answers the second call, a the first.
	if len(calls) != 2 || calls[0] == calls[1] || fmt.Sprint(results) != fmt.Sprint([]string{calls[1], calls[0]}) {
		t.Errorf("tool_call ids %v, tool_result ids %v:\n%s", calls, results, joined)
	}
	if len(perms) != 2 || perms[0] == perms[1] {
		t.Errorf("permission_request ids %v:\n%s", perms, joined)
	}
}

// keyedIDs are the ids a Zero client keys on, in output order, each line
// decoded as Zero's strict decoder does.
func keyedIDs(t *testing.T, out []string) (calls, results, perms []string) {
	t.Helper()
	for _, l := range out {
		ev, err := strictZero(l)
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Type {
		case "tool_call":
			calls = append(calls, ev.ID)
		case "tool_result":
			results = append(results, ev.ID)
		case "permission_request":
			perms = append(perms, ev.ID)
		}
	}
	return calls, results, perms
}

func TestEvoSci01PassedThroughGetsTheFieldsConsumersIndex(t *testing.T) {
	// EvoScientist's stream state indexes tool_result["id"] and the
	// sub-agent events' "instance_id" (and subagent_start's
	// "tool_call_id"); EvoScientist 0.1.x wrote none of them. Passed
	// through, such lines get them: a result the id of the call it
	// answers, a sub-agent event its sub-agent's name.
	in := `{"type": "tool_call", "name": "read_file", "args": {"path": "a"}, "id": "t1"}
{"type": "tool_call", "name": "read_file", "args": {"path": "b"}, "id": "t2"}
{"type": "tool_call", "name": "read_file", "args": {"path": "a"}, "id": "t1"}
{"type": "tool_result", "name": "read_file", "content": "A", "success": true}
{"type": "subagent_start", "name": "research", "description": "d"}
{"type": "subagent_tool_call", "subagent": "research", "name": "web", "args": {}, "id": "s1"}
{"type": "subagent_tool_result", "subagent": "research", "name": "web", "content": "r", "success": true, "id": "s1"}
{"type": "subagent_end", "name": "research"}
{"type": "tool_result", "name": "read_file", "content": "B", "success": true}
{"type": "tool_result", "name": "read_file", "content": "C", "success": true, "id": "t9"}
{"type": "done", "content": "", "response": ""}
`
	want := `{"type": "tool_call", "name": "read_file", "args": {"path": "a"}, "id": "t1"}
{"type": "tool_call", "name": "read_file", "args": {"path": "b"}, "id": "t2"}
{"type": "tool_call", "name": "read_file", "args": {"path": "a"}, "id": "t1"}
{"type": "tool_result", "name": "read_file", "content": "A", "success": true, "id": "t1"}
{"type": "subagent_start", "name": "research", "description": "d", "instance_id": "research", "tool_call_id": ""}
{"type": "subagent_tool_call", "subagent": "research", "name": "web", "args": {}, "id": "s1", "instance_id": "research"}
{"type": "subagent_tool_result", "subagent": "research", "name": "web", "content": "r", "success": true, "id": "s1", "instance_id": "research"}
{"type": "subagent_end", "name": "research", "instance_id": "research"}
{"type": "tool_result", "name": "read_file", "content": "B", "success": true, "id": "t2"}
{"type": "tool_result", "name": "read_file", "content": "C", "success": true, "id": "t9"}
{"type": "done", "content": "", "response": ""}`
	for _, redact := range []bool{false, true} {
		out, diags, _ := lines(t, Options{To: EvoSci, Redact: redact}, in)
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		if got := strings.Join(out, "\n"); got != want {
			t.Errorf("redact %v: got\n%s\nwant\n%s", redact, got, want)
		}
	}
}
