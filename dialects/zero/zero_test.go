package zero

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/zevo/zevo/dialects/claude"
	"github.com/zevo/zevo/dialects/evosci"
	"github.com/zevo/zevo/event"
)

// testOptions know the tools of the agents whose streams Zero's are
// translated from, as the registry's table does.
var testOptions = event.DecodeOptions{Effects: event.EffectsOf([]*event.Dialect{Dialect, evosci.Dialect, claude.Dialect})}

// show is an event in one line, for tables.
func show(ev event.Event) string {
	s := ev.Kind.String()
	switch ev.Kind {
	case event.RunStart:
		s += fmt.Sprintf(" %s %s %s %s", ev.Session, ev.Model, ev.Cwd, ev.Provider)
	case event.Prompt, event.Text, event.Reasoning, event.Final, event.Warning:
		s += " " + ev.Text
	case event.Checkpoint:
		s += " " + ev.Label + ": " + ev.Text
	case event.Error:
		s += fmt.Sprintf(" %s: %s", ev.Code, ev.Text)
	case event.ToolCall:
		s += fmt.Sprintf(" %s %s %s %s", ev.Tool.ID, ev.Tool.Name, ev.Tool.Effect, ev.Tool.Args)
	case event.ToolResult:
		s += fmt.Sprintf(" %s %s failed=%v truncated=%v %q", ev.Tool.ID, ev.Tool.Name, ev.Tool.Failed, ev.Tool.Truncated, ev.Tool.Output)
	case event.PermissionRequest, event.PermissionDecision:
		p := ev.Permission
		s += fmt.Sprintf(" %s %s %d %q", p.ID, p.Tool, p.Decision, p.Why())
		if p.Action != "" || p.Effect != "" || p.Risk != "" {
			s += fmt.Sprintf(" action=%s effect=%s risk=%s", p.Action, p.Effect, p.Risk)
		}
		if p.Block != nil {
			s += fmt.Sprintf(" block=%+v", *p.Block)
		}
	case event.Usage:
		s += fmt.Sprintf(" in=%d out=%d has=%d", ev.Usage.Input, ev.Usage.Output, ev.Usage.Has)
		if ev.Usage.Has&event.HasTotal != 0 {
			s += fmt.Sprintf(" total=%d", ev.Usage.StatedTotal)
		}
		if p := ev.Usage.Past; p != nil {
			s += fmt.Sprintf(" past=%v/%v/%v", p.Input, p.Output, p.Total)
		}
		if ev.Usage.CostUSD != nil {
			s += fmt.Sprintf(" cost=%v", *ev.Usage.CostUSD)
		}
	case event.RunEnd:
		s += " " + string(ev.Status)
		if ev.StatusStated && ev.StatusWord != "" && ev.StatusWord != string(ev.Status) {
			s += " (" + ev.StatusWord + ")"
		}
		if ev.ExitCode != nil {
			s += fmt.Sprintf(" exit=%d", *ev.ExitCode)
		}
	}
	if ev.Run != "" {
		s += " @" + ev.Run
	}
	return s
}

// decodeAll decodes lines with one decoder, checks what every event
// carries, and returns the events shown and the errors.
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
		if ev.Dialect != Name || ev.Line == 0 || len(ev.Raw) == 0 {
			t.Errorf("%s: dialect %q, line %d, raw %q", show(ev), ev.Dialect, ev.Line, ev.Raw)
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

func TestDecodeBadlyTypedFieldsGivesEventsAndErrors(t *testing.T) {
	data, err := os.ReadFile("../../testdata/hostile/wrong-types.zero.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	got, errs := decodeAll(t, strings.Split(strings.TrimSpace(string(data)), "\n")...)
	same(t, "events", got, []string{
		"run_start   /w p @run_1",
		`tool_result c1 bash failed=false truncated=false "x" @run_1`,
		"text  @run_1",
		"usage in=0 out=1 has=34 total=13 @run_1",
		`permission_request  bash 0 "r" @run_1`,
		"error x:  @run_1",
		"tool_call c2  unknown {} @run_1",
		"final  @run_1",
		"run_end success @run_1", // a bad exitCode does not keep the run from ending
		"run_end success exit=0 @run_1",
	})
	same(t, "errors", errs, []string{
		"2: tool_result.status: want string, got boolean true",
		"3: text.delta: want string, got number 5",
		`4: usage.promptTokens: want integer, got string "12"`,
		"5: permission_request.id: want string, got number 5",
		"6: error.message: want string, got number 7",
		"7: tool_call.name: want string, got array",
		"8: final.text: want string, got boolean false",
		`9: run_end.exitCode: want integer, got string "0"`,
	})
}

func TestDecodeLinesNotOfZerosShape(t *testing.T) {
	got, errs := decodeAll(t,
		`[1, 2]`,
		`{"schemaVersion": 2}`,
		`{"schemaVersion": 3, "type": "text", "runId": "r", "delta": "v3"}`,
		`{"schemaVersion": "2", "type": "text", "runId": "r", "delta": "s"}`,
		`{"schemaVersion": 2, "type": "tool_call", "runId": "r", "id": "c", "name": "x", "sideEffect": "delete"}`,
		`{"schemaVersion": 2, "type": "tool_result", "runId": "r", "id": "c", "status": "maybe", "truncated": "no"}`,
		`{"schemaVersion": 2, "type": "usage", "runId": "r", "promptTokens": 18446744073709551616, "completionTokens": -1, "totalTokens": 1.5, "costUsd": -2}`,
		`{"schemaVersion": 2, "type": "brand_new", "runId": "r"}`,
		`{"schemaVersion": 2, "type": "restore", "runId": "r", "checkpoint": {}}`,
	)
	same(t, "events", got, []string{
		"other",
		"other",
		"text v3 @r",
		"text s @r",
		"tool_call c x unknown  @r",
		`tool_result c  failed=false truncated=false "" @r`,
		"usage in=0 out=0 has=0 past=18446744073709551616/-1/<nil> @r",
		"other @r", // a type newer than the decoder is kept, not dropped
		"other @r", // restore is reserved: Zero writes none yet
	})
	same(t, "errors", errs, []string{
		"1: zero: the line is not a JSON object",
		`2: event: missing field "type"; event: missing field "runId"`,
		"3: text.schemaVersion: 3 is not 1 or 2",
		`4: text.schemaVersion: want integer, got string "2"`,
		`5: tool_call.sideEffect: "delete" is not read, write, shell, network, none or unknown`,
		`6: tool_result.status: "maybe" is not ok or error; tool_result.truncated: want boolean, got string "no"`,
		"7: usage.promptTokens: 18446744073709551616 is not a token count; usage.completionTokens: -1 is not a token count; usage.totalTokens: want integer, got number 1.5; usage.costUsd: -2 is not a cost in USD",
	})
}

func TestDecodeEveryZeroType(t *testing.T) {
	got, errs := decodeAll(t,
		`{"apiModel":"gpt-4.1-x","cwd":"/repo","provider":"openai","runId":"r1","schemaVersion":2,"sessionId":"s1","type":"run_start"}`,
		`{"delta":"Thinking...","runId":"r1","schemaVersion":2,"type":"reasoning"}`,
		`{"delta":"Hello","runId":"r1","schemaVersion":2,"type":"text"}`,
		`{"args":{"path":"README.md"},"id":"c1","name":"read_file","runId":"r1","schemaVersion":2,"sideEffect":"read","type":"tool_call"}`,
		`{"id":"c0","name":"write_todos","runId":"r1","schemaVersion":2,"sideEffect":"none","type":"tool_call"}`,
		`{"id":"c2","name":"Bash","runId":"r1","schemaVersion":2,"type":"tool_call"}`,
		`{"checkpoint":{"files":["a.go","b.go"],"sequence":3,"tool":"write_file"},"runId":"r1","schemaVersion":2,"type":"checkpoint"}`,
		`{"action":"prompt","id":"c2","name":"bash","permission":"prompt","permissionGranted":false,"risk":{"level":"critical"},"block":{"code":"network","reason":"network access requires approval"},"runId":"r1","schemaVersion":2,"sideEffect":"shell","type":"permission_request"}`,
		`{"action":"allow","decisionReason":"approved in TUI","id":"c2","name":"bash","permission":"prompt","permissionGranted":true,"risk":{},"runId":"r1","schemaVersion":2,"type":"permission_decision"}`,
		`{"action":"deny","id":"c3","name":"bash","permissionGranted":false,"risk":{},"runId":"r1","schemaVersion":2,"type":"permission_decision"}`,
		`{"action":"cancel","id":"c4","name":"bash","permissionGranted":false,"risk":{},"runId":"r1","schemaVersion":2,"type":"permission_decision"}`,
		`{"action":"auto","id":"c5","name":"read_file","permissionGranted":true,"risk":{},"runId":"r1","schemaVersion":2,"type":"permission"}`,
		`{"id":"c1","name":"read_file","output":"abc\n[truncated]","runId":"r1","schemaVersion":2,"status":"ok","truncated":true,"type":"tool_result"}`,
		`{"id":"c2","output":"denied","runId":"r1","schemaVersion":2,"status":"error","truncated":false,"type":"tool_result"}`,
		`{"completionTokens":8,"costUsd":0.0125,"promptTokens":12,"runId":"r1","schemaVersion":2,"totalTokens":20,"type":"usage"}`,
		`{"message":"slow","runId":"r1","schemaVersion":2,"type":"warning"}`,
		`{"runId":"r1","schemaVersion":2,"text":"Done.","type":"final"}`,
		`{"code":"incomplete","message":"stopped early","recoverable":false,"runId":"r1","schemaVersion":2,"type":"error"}`,
		`{"exitCode":4,"runId":"r1","schemaVersion":2,"status":"incomplete","type":"run_end"}`,
	)
	same(t, "events", got, []string{
		"run_start s1 gpt-4.1-x /repo openai @r1", // apiModel when model is missing
		"reasoning Thinking... @r1",
		"text Hello @r1",
		`tool_call c1 read_file read {"path":"README.md"} @r1`,
		"tool_call c0 write_todos none  @r1", // Zero's sideEffect wins over the table
		"tool_call c2 Bash shell  @r1",       // no sideEffect: the table's
		"checkpoint checkpoint 3: write_file a.go, b.go @r1",
		`permission_request c2 bash 0 "network access requires approval" action=prompt effect=shell risk=critical block={Code:network Reason:network access requires approval Path:} @r1`, // the block's reason
		`permission_decision c2 bash 1 "approved in TUI" action=allow effect= risk= @r1`,
		`permission_decision c3 bash 2 "" action=deny effect= risk= @r1`,
		`permission_decision c4 bash 3 "" action=cancel effect= risk= @r1`,
		`permission_decision c5 read_file 1 "" action=auto effect= risk= @r1`, // a plain permission event: its own word kept
		`tool_result c1 read_file failed=false truncated=true "abc\n[truncated]" @r1`,
		`tool_result c2  failed=true truncated=false "denied" @r1`,
		"usage in=12 out=8 has=35 total=20 cost=0.0125 @r1",
		"warning slow @r1",
		"final Done. @r1",
		"error incomplete: stopped early @r1",
		"run_end incomplete exit=4 @r1",
	})
	same(t, "errors", errs, nil)
}

func TestDecodeV1ViolationGivesTheReason(t *testing.T) {
	got, errs := decodeAll(t,
		`{"action":"prompt","id":"c1","name":"bash","permissionGranted":false,"risk":{},"runId":"r","schemaVersion":1,"type":"permission_request","violation":{"code":"policy_denied","reason":"outside the workspace"}}`)
	same(t, "events", got, []string{`permission_request c1 bash 0 "outside the workspace" action=prompt effect= risk= block={Code:policy_denied Reason:outside the workspace Path:} @r`})
	same(t, "errors", errs, nil)
}

// The field v1 names the block is the one versions.json renames to block,
// not a name of the decoder's own: a field of another name is no block.
func TestDecodeV1BlockNamedByTheTable(t *testing.T) {
	v1 := ""
	for old, now := range V1Renames().Fields {
		if now == "block" {
			v1 = old
		}
	}
	if v1 == "" {
		t.Fatal("versions.json renames no v1 field to block")
	}
	line := func(field string) string {
		return `{"action":"prompt","id":"c1","name":"bash","runId":"r","schemaVersion":1,"type":"permission_request","` + field + `":{"code":"policy_denied","reason":"outside"}}`
	}
	got, _ := decodeAll(t, line(v1+"s"))
	same(t, "a field versions.json does not name", got, []string{`permission_request c1 bash 0 "" action=prompt effect= risk= @r`})
	got, _ = decodeAll(t, line(v1))
	same(t, "versions.json's v1 name of block", got, []string{`permission_request c1 bash 0 "outside" action=prompt effect= risk= block={Code:policy_denied Reason:outside Path:} @r`})
}

func TestRunEndStatuses(t *testing.T) {
	for zs, want := range map[string]event.Status{
		"success": event.StatusSuccess, "error": event.StatusError, "incomplete": event.StatusIncomplete,
		"interrupted": event.StatusCancelled, "spec_review_required": event.StatusInterrupted,
		"": event.StatusEnded, "odd": event.StatusEnded,
	} {
		if got := Status(zs); got != want {
			t.Errorf("%q: %q, want %q", zs, got, want)
		}
	}
}

// Zero's input events are the user's side: a run of their own, ended
// where Zero's output starts, or where the input ends.
func TestInputEventsEndTheirRunWhereOutputStarts(t *testing.T) {
	got, _ := decodeAll(t,
		`{"content":"Inspect this repo.","role":"user","schemaVersion":2,"type":"message"}`,
		`{"content":"Return only blockers.","schemaVersion":2,"type":"prompt"}`,
		`{"runId":"r1","schemaVersion":2,"type":"run_start"}`,
		`{"content":"steer","schemaVersion":2,"type":"prompt"}`,
		`{"exitCode":0,"runId":"r1","schemaVersion":2,"status":"success","type":"run_end"}`,
		`{"content":"again","schemaVersion":2,"type":"prompt"}`,
	)
	same(t, "events", got, []string{
		"prompt Inspect this repo.",
		"prompt Return only blockers.",
		"run_end ended",
		"run_start     @r1",
		"prompt steer", // inside an output run: it steers that run
		"run_end success exit=0 @r1",
		"prompt again",
		"run_end ended", // End: the input's end
	})
	d := Dialect.NewDecoder(testOptions)
	evs, _ := d.Decode(nil, []byte(`{"content":"a","schemaVersion":2,"type":"prompt"}`), 7)
	evs, _ = d.Decode(evs, []byte(`{"schemaVersion":2,"type":"text","runId":"r","delta":"x"}`), 9)
	if evs[1].Kind != event.RunEnd || evs[1].Line != 7 {
		t.Errorf("the input's run ends on line %d, want its last line 7", evs[1].Line)
	}
}

func TestDetect(t *testing.T) {
	for line, want := range map[string]event.Certainty{
		`{"schemaVersion":2,"type":"text"}`:       event.Sure,
		`{"schemaVersion":null}`:                  event.Sure, // a wrong version is Zero's still
		`{"type":"text","content":"a"}`:           event.No,
		`{"type":"error","message":"x"}`:          event.No,
		`{"type":"x","data":{"schemaVersion":2}}`: event.No, // only at the top
		`not json`: event.No,
	} {
		if got := Dialect.Detect([]byte(line)); got != want {
			t.Errorf("%s: %v, want %v", line, got, want)
		}
	}
}

func TestHugeOutputAndCutAtEveryLine(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	lines := []string{
		`{"runId":"r1","schemaVersion":2,"type":"run_start"}`,
		`{"id":"c1","name":"read_file","output":"` + big + `","runId":"r1","schemaVersion":2,"status":"ok","truncated":false,"type":"tool_result"}`,
		`{"runId":"r1","schemaVersion":2,"text":"ok","type":"final"}`,
		`{"exitCode":0,"runId":"r1","schemaVersion":2,"status":"success","type":"run_end"}`,
	}
	for cut := 0; cut <= len(lines); cut++ {
		d := Dialect.NewDecoder(testOptions)
		var runs event.Runs
		var evs []event.Event
		for i, l := range lines[:cut] {
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
		for _, ev := range d.End(nil) {
			runs.Place(&ev)
		}
		last := runs.End()
		switch {
		case cut == 0 && runs.Count() != 0:
			t.Errorf("cut 0: %d runs", runs.Count())
		case cut > 0 && cut < len(lines) && (last == nil || last.Status != event.StatusIncomplete || last.Cut != event.CutEndOfInput):
			t.Errorf("cut after %d lines: %+v", cut, last)
		case cut == len(lines) && (last != nil || runs.Count() != 1):
			t.Errorf("whole run: %+v, %d runs", last, runs.Count())
		}
	}
}

// What stats shows as Zero wrote it stays on the events: the version of
// each line, run_end's own status word (and "input" for a run of input
// events), a plain permission event as a check made without asking.
func TestDecodeKeepsZerosOwnWords(t *testing.T) {
	d := Dialect.NewDecoder(event.DecodeOptions{})
	var evs []event.Event
	for i, l := range []string{
		`{"schemaVersion":2,"type":"prompt","content":"go"}`,
		`{"schemaVersion":1,"type":"run_start","runId":"r"}`,
		`{"schemaVersion":1,"type":"permission","runId":"r","id":"c","name":"read_file","action":"auto","permissionGranted":true}`,
		`{"schemaVersion":1,"type":"permission_decision","runId":"r","id":"c","name":"read_file","action":"allow"}`,
		`{"schemaVersion":1,"type":"run_end","runId":"r","status":"spec_review_required","exitCode":0}`,
	} {
		evs, _ = d.Decode(evs, []byte(l), i+1)
	}
	var got []string
	for _, ev := range evs {
		s := fmt.Sprintf("%s %s", ev.Kind, ev.Variant)
		if ev.Kind == event.RunEnd {
			s += fmt.Sprintf(" %s %q", ev.Status, ev.StatusWord)
		}
		if ev.Permission != nil {
			s += fmt.Sprintf(" auto=%v", ev.Permission.Auto)
		}
		got = append(got, s)
	}
	want := []string{
		"prompt zero-input",
		`run_end zero-input ended "input"`,
		"run_start zero@1",
		"permission_decision zero@1 auto=true",
		"permission_decision zero@1 auto=false",
		`run_end zero@1 interrupted "spec_review_required"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// What Zero states of a permission beyond the model's decision is kept
// as written: its action, mode, risk, permissionGranted, and the
// request's and the decision's reasons apart (Reason stays the one people
// read); a wrongly typed one of them is no problem of the line.
func TestDecodePermissionKeepsWhatZeroStates(t *testing.T) {
	d := Dialect.NewDecoder(event.DecodeOptions{})
	var evs []event.Event
	var errs []error
	for i, l := range []string{
		`{"schemaVersion":2,"type":"permission_request","runId":"r","id":"c","name":"write_file","action":"prompt","permissionMode":"ask","risk":{"level":"medium"},"reason":"writes","permissionGranted":false}`,
		`{"schemaVersion":2,"type":"permission_decision","runId":"r","id":"c","name":"write_file","action":"allow","reason":"writes","decisionReason":"approved","permissionGranted":true}`,
		`{"schemaVersion":2,"type":"permission","runId":"r","id":"d","name":"bash","action":"auto","permissionMode":7,"risk":{"level":3}}`,
	} {
		var err error
		evs, err = d.Decode(evs, []byte(l), i+1)
		errs = append(errs, err)
	}
	var got []string
	for _, ev := range evs {
		p := ev.Permission
		g := "nil"
		if p.Granted != nil {
			g = fmt.Sprint(*p.Granted)
		}
		got = append(got, fmt.Sprintf("%s action=%s mode=%s risk=%s granted=%s reason=%q request=%q decision=%q",
			ev.Kind, p.Action, p.Mode, p.Risk, g, p.Reason, p.RequestReason, p.DecisionReason))
	}
	same(t, "events", got, []string{
		`permission_request action=prompt mode=ask risk=medium granted=false reason="writes" request="writes" decision=""`,
		`permission_decision action=allow mode= risk= granted=true reason="approved" request="writes" decision="approved"`,
		`permission_decision action=auto mode= risk=3 granted=nil reason="" request="" decision=""`,
	})
	if fmt.Sprint(errs) != "[<nil> <nil> <nil>]" {
		t.Errorf("errors: %v", errs)
	}
}

// A Zero run's id states when it began; a line holds one tool call.
func TestDialectStatesRunTimeAndOneCallPerLine(t *testing.T) {
	at, ok := Dialect.RunTime("run_20260603100000_abc123")
	if !ok || !at.Equal(time.Date(2026, 6, 3, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("RunTime: %v %v", at, ok)
	}
	if _, ok := Dialect.RunTime("r1"); ok {
		t.Error("RunTime of an id without a time")
	}
	if !Dialect.OneCallPerLine || Dialect.AgentName() != "zero" {
		t.Errorf("OneCallPerLine %v, agent %q", Dialect.OneCallPerLine, Dialect.AgentName())
	}
}

// run_start's apiModel is kept apart from its model (a price table may
// know only one of them), and stands for the model when none is stated.
func TestDecodeRunStartKeepsAPIModel(t *testing.T) {
	d := Dialect.NewDecoder(event.DecodeOptions{})
	evs, _ := d.Decode(nil, []byte(`{"schemaVersion":2,"type":"run_start","runId":"a","model":"claude-sonnet-4.5","apiModel":"claude-sonnet-4-5-20250929"}`), 1)
	evs, _ = d.Decode(evs, []byte(`{"schemaVersion":2,"type":"run_start","runId":"b","apiModel":"gpt-4.1"}`), 2)
	if evs[0].Model != "claude-sonnet-4.5" || evs[0].APIModel != "claude-sonnet-4-5-20250929" || evs[1].Model != "gpt-4.1" || evs[1].APIModel != "gpt-4.1" {
		t.Errorf("models %q %q, %q %q", evs[0].Model, evs[0].APIModel, evs[1].Model, evs[1].APIModel)
	}
}
