package translate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/mappings"
)

// bothPaths translates input with the shortcuts and on the plain path
// (Options.Plain), and fails unless both write the same lines and
// diagnostics.
func bothPaths(t *testing.T, opt Options, input string) (out []byte, diags []string) {
	t.Helper()
	today, todayDiags, _ := run(t, opt, []byte(input))
	opt.Plain = true
	events, eventDiags, _ := run(t, opt, []byte(input))
	if string(today) != string(events) || !slices.Equal(todayDiags, eventDiags) {
		t.Fatalf("--to %s: the plain path writes\n%s%q\nthe shortcuts\n%s%q", opt.To, events, eventDiags, today, todayDiags)
	}
	return events, eventDiags
}

func tablesFrom(t *testing.T, file string) *mappings.Set {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := mappings.Default()
	if err := s.Load(filepath.Base(file), data); err != nil {
		t.Fatal(err)
	}
	return s
}

// The worked examples of docs/mapping.md, with the user's field rules,
// on the event path: its goldens' output, and line 4's field of the wrong
// type reported with the file and line, worded as today.
func TestEventPathWritesUserFieldRules(t *testing.T) {
	for _, c := range []struct {
		dir, table string
		to         Format
	}{
		{"user-mapping-evosci", "evosci-panels.json", Zero},
		{"user-mapping-zero", "zero-fork-plan.json", EvoSci},
	} {
		in, err := os.ReadFile("../testdata/golden/" + c.dir + "/input.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		opt := Options{To: c.to, RunID: "R", Cwd: "/repo", Redact: c.to != EvoSci, Tables: tablesFrom(t, "../mappings/examples/"+c.table)}
		out, diags := bothPaths(t, opt, string(in))
		if !strings.Contains(string(out), `"reviewer A"`) && !strings.Contains(string(out), `"summarization"`) {
			t.Errorf("%s: the user's rules wrote nothing:\n%s", c.dir, out)
		}
		if c.to == Zero && (len(diags) != 1 || diags[0] != "in:4: panel_dispatch_error.error: want string, got object") {
			t.Errorf("%s: diagnostics %q", c.dir, diags)
		}
	}
}

// A handler rule moves a built-in translation to another type, on the
// event path as today; a rule for another type reads its line as the
// handler's type.
func TestEventPathHonoursHandlerRules(t *testing.T) {
	tables := defaultTablesWith(t, `[{"from": "evosci", "to": "zero", "events": {"error": {"to": "warning", "handler": "error"}, "done": {"to": "text", "handler": "done"},
			"panel_tool_call": {"to": "tool_call", "handler": "tool_call"}}},
		{"from": "zero", "to": "evosci", "events": {"tool_call": {"to": "subagent_tool_call", "handler": "tool_call"}, "run_end": {"to": "summarization", "handler": "run_end"}}}]`)
	out, _ := bothPaths(t, Options{To: Zero, RunID: "R", Tables: tables},
		`{"type": "error", "message": "m"}`+"\n"+`{"type": "text", "content": "x"}`+"\n"+
			`{"type": "panel_tool_call", "name": "ls", "args": {}, "id": "c1"}`+"\n"+`{"type": "done", "content": "c", "response": "c"}`+"\n")
	if !strings.Contains(string(out), `"type":"warning"`) || !strings.Contains(string(out), `"name":"ls"`) {
		t.Errorf("evosci -> zero:\n%s", out)
	}
	out, _ = bothPaths(t, Options{To: EvoSci, Tables: tables},
		`{"schemaVersion":2,"type":"tool_call","runId":"r","id":"c","name":"ls"}`+"\n"+`{"schemaVersion":2,"type":"run_end","runId":"r","status":"success","exitCode":0}`+"\n")
	if !strings.Contains(string(out), `"subagent_tool_call"`) || !strings.Contains(string(out), `"summarization"`) {
		t.Errorf("zero -> evosci:\n%s", out)
	}
}

// "unmapped": true in a user's table takes a type out of the target, on
// the event path as today, with each --unmapped policy.
func TestEventPathHonoursUnmappedRules(t *testing.T) {
	tables := defaultTablesWith(t, `[{"from": "evosci", "to": "zero", "events": {"thinking": {"unmapped": true}}},
		{"from": "zero", "to": "evosci", "events": {"reasoning": {"unmapped": true}}}]`)
	for _, u := range []Unmapped{Drop, Keep, Error} {
		out, diags := bothPaths(t, Options{To: Zero, RunID: "R", Tables: tables, Unmapped: u},
			`{"type": "thinking", "content": "hm"}`+"\n"+`{"type": "text", "content": "x"}`+"\n")
		if u == Error && (len(diags) != 1 || !strings.HasPrefix(diags[0], "in:1: ")) || strings.Contains(string(out), `"reasoning"`) {
			t.Errorf("evosci -> zero, %v: %q\n%s", u, diags, out)
		}
		out, _ = bothPaths(t, Options{To: EvoSci, Tables: tables, Unmapped: u},
			`{"schemaVersion":2,"type":"reasoning","runId":"r","delta":"hm"}`+"\n"+`{"schemaVersion":2,"type":"text","runId":"r","delta":"x"}`+"\n")
		if strings.Contains(string(out), `"thinking"`) {
			t.Errorf("zero -> evosci, %v:\n%s", u, out)
		}
	}
}

// The shipped tables describe what the decoders and encoders do: each
// source type a shipped rule maps, translated on the event path, writes
// the target type the rule names (a rule without one, a handler that
// holds the event, writes nothing of its own), and each type a rule
// leaves unmapped writes nothing with --unmapped drop.
func TestShippedTablesDescribeTheEncoders(t *testing.T) {
	// A line of each source type, as its producer writes it.
	samples := map[string]string{
		"evosci.thinking":             `{"type": "thinking", "content": "hm"}`,
		"evosci.text":                 `{"type": "text", "content": "hi"}`,
		"evosci.tool_call":            `{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}`,
		"evosci.tool_result":          `{"type": "tool_result", "name": "ls", "content": "a", "success": true, "id": "c1"}`,
		"evosci.usage_stats":          `{"type": "usage_stats", "input_tokens": 3, "output_tokens": 2}`,
		"evosci.interrupt":            `{"type": "interrupt", "interrupt_id": "i", "action_requests": [{"name": "ls", "args": {}, "description": "d"}], "review_configs": []}`,
		"evosci.done":                 `{"type": "done", "content": "ok", "response": "ok"}`,
		"evosci.error":                `{"type": "error", "message": "m"}`,
		"evosci.subagent_start":       `{"type": "subagent_start", "name": "r", "description": "d", "instance_id": "s1", "tool_call_id": "c0"}`,
		"evosci.subagent_tool_call":   `{"type": "subagent_tool_call", "subagent": "r", "name": "ls", "args": {}, "id": "c2", "instance_id": "s1"}`,
		"evosci.subagent_tool_result": `{"type": "subagent_tool_result", "subagent": "r", "name": "ls", "content": "a", "success": true, "id": "c2", "instance_id": "s1"}`,
		"evosci.subagent_text":        `{"type": "subagent_text", "subagent": "r", "content": "x", "instance_id": "s1"}`,
		"evosci.subagent_end":         `{"type": "subagent_end", "name": "r", "instance_id": "s1"}`,
		"evosci.tool_selection":       `{"type": "tool_selection", "tools": ["ls"]}`,
		"evosci.summarization_start":  `{"type": "summarization_start"}`,
		"evosci.summarization":        `{"type": "summarization", "content": "s"}`,
		"evosci.ask_user":             `{"type": "ask_user", "questions": [{"question": "q?"}], "interrupt_id": "i2"}`,
		"zero.reasoning":              `{"schemaVersion":2,"type":"reasoning","runId":"r","delta":"hm"}`,
		"zero.text":                   `{"schemaVersion":2,"type":"text","runId":"r","delta":"hi"}`,
		"zero.tool_call":              `{"schemaVersion":2,"type":"tool_call","runId":"r","id":"c1","name":"ls","args":{}}`,
		"zero.tool_result":            `{"schemaVersion":2,"type":"tool_result","runId":"r","id":"c1","name":"ls","status":"ok","output":"a"}`,
		"zero.usage":                  `{"schemaVersion":2,"type":"usage","runId":"r","promptTokens":3,"completionTokens":2,"totalTokens":5}`,
		"zero.permission_request":     `{"schemaVersion":2,"type":"permission_request","runId":"r","id":"c1","name":"ls","reason":"r"}`,
		"zero.error":                  `{"schemaVersion":2,"type":"error","runId":"r","code":"x","message":"m"}`,
		"zero.final":                  `{"schemaVersion":2,"type":"final","runId":"r","text":"ok"}`,
		"zero.run_start":              `{"schemaVersion":2,"type":"run_start","runId":"r","provider":"p"}`,
		"zero.run_end": `{"schemaVersion":2,"type":"final","runId":"r","text":"ok"}` + "\n" +
			`{"schemaVersion":2,"type":"run_end","runId":"r","status":"success","exitCode":0}`,
		"zero.permission":          `{"schemaVersion":2,"type":"permission","runId":"r","id":"c1","name":"ls","action":"prompt"}`,
		"zero.permission_decision": `{"schemaVersion":2,"type":"permission_decision","runId":"r","id":"c1","name":"ls","action":"allow","permissionGranted":true}`,
		"zero.checkpoint":          `{"schemaVersion":2,"type":"checkpoint","runId":"r","checkpoint":{"sequence":1,"tool":"edit","files":["a"]}}`,
		"zero.restore":             `{"schemaVersion":2,"type":"restore","runId":"r"}`,
		"zero.warning":             `{"schemaVersion":2,"type":"warning","runId":"r","message":"w"}`,
		"zero.message":             `{"schemaVersion":2,"type":"message","role":"user","content":"c"}`,
		"zero.prompt":              `{"schemaVersion":2,"type":"prompt","content":"c"}`,
	}
	// What a run around the line writes without it.
	frame := map[string]bool{"run_start": true, "run_end": true, "done": true, "error": true}
	shipped := mappings.Default()
	seen := 0
	for _, tb := range []*mappings.Table{shipped.Between("evosci", "zero"), shipped.Between("zero", "evosci")} {
		to := Zero
		if tb.To == "evosci" {
			to = EvoSci
		}
		for typ, rule := range tb.Events {
			line, ok := samples[tb.From+"."+typ]
			if !ok {
				t.Errorf("%s.%s: no sample line", tb.From, typ)
				continue
			}
			seen++
			out, diags, _ := run(t, Options{To: to, RunID: "R"}, []byte(line+"\n"))
			if len(diags) > 0 {
				t.Errorf("%s.%s: %q", tb.From, typ, diags)
			}
			var types []string
			for _, l := range outputLines(out) {
				if ty := gjson.Get(l, "type").Str; !frame[ty] || ty == rule.To {
					types = append(types, ty)
				}
			}
			switch {
			case rule.Unmapped && len(types) > 0:
				t.Errorf("%s.%s: unmapped in the table, the encoder writes %q", tb.From, typ, types)
			case !rule.Unmapped && rule.To != "" && !slices.Contains(types, rule.To):
				t.Errorf("%s.%s: the table writes %s, the encoder %q\n%s", tb.From, typ, rule.To, types, out)
			case !rule.Unmapped && rule.To == "" && len(types) > 0:
				t.Errorf("%s.%s: the table writes nothing of its own, the encoder %q", tb.From, typ, types)
			}
		}
	}
	if seen != len(samples) {
		t.Errorf("%d samples, %d shipped rules", len(samples), seen)
	}
}

// EvoScientist 0.1.x announces every call again before each result: in
// Zero output, on the event path as today, it is one call, written once.
func TestEventPathWritesReannouncedCallsOnce(t *testing.T) {
	in := `{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}
{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}
{"type": "tool_result", "name": "ls", "content": "a", "success": true}
{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}
{"type": "tool_call", "name": "ls", "args": {"path": "b"}, "id": "c2"}
{"type": "tool_result", "name": "ls", "content": "b", "success": true}
{"type": "done", "content": "", "response": ""}
`
	for _, redact := range []bool{false, true} {
		out, _ := bothPaths(t, Options{To: Zero, RunID: "R", Redact: redact}, in)
		if n := strings.Count(string(out), `"type":"tool_call"`); n != 2 {
			t.Errorf("%d tool calls written:\n%s", n, out)
		}
	}
}

// An interrupt that asks nothing (no action requests) has no Zero
// counterpart, on the event path as today.
func TestEventPathLeavesAnEmptyInterruptUnmapped(t *testing.T) {
	in := `{"type": "text", "content": "x"}
{"type": "interrupt", "interrupt_id": "i1", "action_requests": []}
{"type": "done", "content": "x", "response": "x"}
`
	for _, u := range []Unmapped{Drop, Keep, Error} {
		out, _ := bothPaths(t, Options{To: Zero, RunID: "R", Unmapped: u}, in)
		if strings.Contains(string(out), `"permission_request"`) {
			t.Errorf("--unmapped %v: a permission request written:\n%s", u, out)
		}
	}
}

// EvoScientist into EvoScientist passes each line through, on the event
// path as today: byte for byte, the fields EvoScientist 0.1.x lines lack
// filled in, redacted with --redact, and a run one input leaves open
// ended only when another input follows.
func TestEventPathPassesEvoScientistThrough(t *testing.T) {
	in := `{"type": "thinking", "content": "hm", "id": 3}
{"type":"text","content":"compact"}
{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}
{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}
{"type": "tool_result", "name": "ls", "content": "sk-abcdefghijklmnopqrstuv", "success": true}
{"type": "subagent_start", "name": "r", "description": "d"}
{"type": "subagent_text", "subagent": "r", "content": "x"}
{"type": "tool_selection", "tools": ["ls"]}
{"type": "panel_dispatch_start", "label": "A"}
{"type": "interrupt", "interrupt_id": "i", "action_requests": [{"name": "a"}, {"name": "b"}], "review_configs": []}
{"type": "done", "content": "c", "response": "r"}
{"type": "error", "message": "m"}
{"type": "done", "content": "", "response": ""}
{"type": "text", "content": "left open"}
`
	for _, redact := range []bool{false, true} {
		out, _ := bothPaths(t, Options{To: EvoSci, Redact: redact}, in)
		if !redact && !strings.HasPrefix(string(out), `{"type": "thinking", "content": "hm", "id": 3}`+"\n"+`{"type":"text","content":"compact"}`) {
			t.Errorf("not passed through:\n%s", out)
		}
	}
}

// Zero's input events alone (a client's messages, never Zero's output)
// are no run of Zero output: nothing is written, each counted unmapped,
// on the event path as today.
func TestEventPathWritesNoRunOfZeroInputAlone(t *testing.T) {
	in := `{"content":"Inspect this repo.","role":"user","schemaVersion":1,"type":"message"}
{"content":"v2 already","schemaVersion":2,"type":"prompt"}
`
	for _, u := range []Unmapped{Drop, Keep} {
		for _, to := range []Format{Zero, Zero1} {
			out, _ := bothPaths(t, Options{To: to, RunID: "R", Unmapped: u}, in)
			if strings.Contains(string(out), `"run_start"`) {
				t.Errorf("--to %s --unmapped %v:\n%s", to, u, out)
			}
		}
	}
}

// A bare NaN is a warning about its line, which is still translated with
// null in its place, on the event path as today.
func TestEventPathWarnsOfNonFiniteNumbers(t *testing.T) {
	in := `{"type": "tool_call", "name": "ls", "args": {"n": NaN}, "id": "c1"}` + "\n"
	out, diags := bothPaths(t, Options{To: Zero, RunID: "R"}, in)
	if len(diags) != 1 || !strings.Contains(diags[0], "warning: tool_call: bare NaN") || !strings.Contains(string(out), `"n":null`) {
		t.Errorf("diagnostics %q, output\n%s", diags, out)
	}
}

// EvoScientist events a Zero stream kept (--unmapped keep) come back as
// they were in EvoScientist output, on the event path, in the run around
// them. (Today's path reads the kept line, its runId dropped, as of
// another run, and cuts the run short there: the event path does not.)
func TestEventPathRestoresKeptEvoScientistEvents(t *testing.T) {
	in := `{"type": "text", "content": "a"}
{"type": "subagent_start", "name": "coder", "description": "writes code"}
{"type": "panel_dispatch_start", "label": "A"}
{"type": "done", "content": "a", "response": "a"}
`
	var zero strings.Builder
	if _, err := Translate(strings.NewReader(in), "in", Options{To: Zero, RunID: "R", Unmapped: Keep}, &zero); err != nil {
		t.Fatal(err)
	}
	out, diags, _ := run(t, Options{To: EvoSci, Unmapped: Keep}, []byte(zero.String()))
	want := `{"type": "text", "content": "a"}
{"type": "subagent_start", "description": "writes code", "name": "coder"}
{"type": "panel_dispatch_start", "label": "A"}
{"type": "done", "content": "a", "response": "a"}
`
	if string(out) != want || len(diags) > 0 {
		t.Errorf("got\n%s%q\nwant\n%s", out, diags, want)
	}
}

// Zero events an EvoScientist stream kept (--unmapped keep) belong to
// the EvoScientist run around them, and come back as they were in Zero
// output: a kept run_start restores its run with its own runId, on the
// event path as today.
func TestEventPathRestoresKeptZeroEvents(t *testing.T) {
	in := `{"schemaVersion":2,"type":"run_start","runId":"run_20260603100000_abc123","provider":"openai","model":"m"}
{"schemaVersion":2,"type":"text","runId":"run_20260603100000_abc123","delta":"a"}
{"schemaVersion":2,"type":"checkpoint","runId":"run_20260603100000_abc123","checkpoint":{"sequence":1,"tool":"edit","files":["a"]}}
{"schemaVersion":2,"type":"final","runId":"run_20260603100000_abc123","text":"a"}
{"schemaVersion":2,"type":"run_end","runId":"run_20260603100000_abc123","status":"success","exitCode":0}
`
	var evo strings.Builder
	if _, err := Translate(strings.NewReader(in), "in", Options{To: EvoSci, Unmapped: Keep}, &evo); err != nil {
		t.Fatal(err)
	}
	out, _ := bothPaths(t, Options{To: Zero, Unmapped: Keep}, evo.String())
	if !strings.HasPrefix(string(out), `{"model":"m","provider":"openai","runId":"run_20260603100000_abc123","schemaVersion":2,"type":"run_start"}`) ||
		!strings.Contains(string(out), `"type":"checkpoint"`) || strings.Count(string(out), "\n") != 5 {
		t.Errorf("the round trip gives\n%s", out)
	}
}

// A done right after the error that ended a run belongs to that run: in
// Zero output nothing, and it is no unmapped event, on the event path as
// today.
func TestEventPathCountsADoneAfterAnErrorWithItsRun(t *testing.T) {
	in := `{"type": "text", "content": "second"}
{"type": "error", "message": "model overloaded"}
{"type": "done", "content": "", "response": ""}
`
	for _, u := range []Unmapped{Drop, Keep, Error} {
		opt := Options{To: Zero, RunID: "R", Unmapped: u}
		bothPaths(t, opt, in)
		opt.Plain = true
		if _, _, st := run(t, opt, []byte(in)); st.Unmapped != 0 || st.Mapped != 3 {
			t.Errorf("--unmapped %v: %+v", u, st)
		}
	}
}

// A usage whose counts fit Zero's 64-bit integers one by one but whose
// total does not is no usage line with a wrapped total: as today, its
// line is reported and not written, or with --unmapped keep written with
// its exact total.
func TestEventPathWritesNoWrappedTokenTotal(t *testing.T) {
	in := `{"type": "usage_stats", "input_tokens": 9223372036854775807, "output_tokens": 1}` + "\n"
	for _, u := range []Unmapped{Drop, Keep} {
		out, diags, st := run(t, Options{To: Zero, RunID: "R", Unmapped: u}, []byte(in))
		if strings.Contains(string(out), `"totalTokens":-`) {
			t.Errorf("--unmapped %v: a wrapped total\n%s", u, out)
		}
		switch {
		case u == Drop && (strings.Contains(string(out), `"type":"usage"`) || len(diags) != 1 || st.Diagnosed != 1):
			t.Errorf("--unmapped drop: %+v %q\n%s", st, diags, out)
		case u == Keep && (!strings.Contains(string(out), `"totalTokens":9223372036854775808`) || len(diags) != 0):
			t.Errorf("--unmapped keep: %+v %q\n%s", st, diags, out)
		}
	}
}

// rule answers as the map does, whatever the order of the types asked:
// the same one again, another, one without a rule, "".
func TestPathRuleIsTheMapsRule(t *testing.T) {
	a, b := &mappings.Rule{To: "a"}, &mappings.Rule{To: "b"}
	r := &pathRules{rules: map[string]*mappings.Rule{"x": a, "y": b, "": a}}
	for _, typ := range []string{"x", "x", "y", "z", "z", "x", "", "y", "", "zz", "y"} {
		if got := r.rule(typ); got != r.rules[typ] {
			t.Errorf("rule(%q) = %v, want %v", typ, got, r.rules[typ])
		}
	}
}
