package mappings

import (
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

func TestDefaultTables(t *testing.T) {
	s := Default()
	for typ, to := range map[string]string{"thinking": "reasoning", "text": "text", "tool_call": "tool_call", "usage_stats": "usage"} {
		if r := s.Between("evosci", "zero").Events[typ]; r == nil || r.To != to {
			t.Errorf("evosci %s → %+v, want %s", typ, r, to)
		}
	}
	if r := s.Between("zero", "evosci").Events["usage"]; r == nil || len(r.Fields) != 2 || r.Fields[0].To != "input_tokens" || r.Fields[0].Type != jsonl.KindInteger {
		t.Errorf("zero usage rule: %+v", r)
	}
	if !s.Between("evosci", "zero").Events["subagent_text"].Unmapped || !s.Between("zero", "evosci").Events["checkpoint"].Unmapped {
		t.Error("unmapped types lost")
	}
	for tool, se := range map[string]string{"read_file": "read", "execute": "shell", "fetch_url": "network", "write_todos": "none", "task": "unknown", "anything": "unknown"} {
		if got := s.Between("evosci", "zero").SideEffect(tool); got != se {
			t.Errorf("sideEffect(%s) = %s, want %s", tool, got, se)
		}
	}
}

func TestLoadOverrides(t *testing.T) {
	s := Default()
	err := s.Load("user.json", []byte(`[
	  {"from": "evosci", "to": "zero", "events": {"panel_dispatch_start": {"to": "reasoning", "fields": {"delta": "label"}, "const": {"x": [1]}}},
	   "sideEffects": {"execute": "none", "mine": "write"}},
	  {"from": "zero", "to": "evosci", "events": {"warning": {"to": "text", "fields": {"content": {"from": "message", "type": "string"}}}}}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Between("evosci", "zero").Events["panel_dispatch_start"]
	if r == nil || r.To != "reasoning" || r.Fields[0] != (Field{To: "delta", From: "label"}) || r.Const[0].Raw != "[1]" {
		t.Errorf("new rule: %+v", r)
	}
	if s.Between("evosci", "zero").SideEffect("execute") != "none" || s.Between("evosci", "zero").SideEffect("mine") != "write" || s.Between("evosci", "zero").SideEffect("grep") != "read" {
		t.Error("sideEffects not merged")
	}
	if w := s.Between("zero", "evosci").Events["warning"]; w.Unmapped || w.To != "text" {
		t.Errorf("override: %+v", w)
	}
	if Default().Between("zero", "evosci").Events["warning"].To != "" {
		t.Error("loading changed the defaults of another set")
	}
}

func TestLoadErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{`:                              "not valid JSON",
		`[1]`:                            "a table is a JSON object",
		`{"from": "zero", "to": "zero"}`: `"from" and "to"`,
		`{"from": "evosci", "to": "zero", "events": {"x": 1}}`:                                                           "events.x: a rule is a JSON object",
		`{"from": "evosci", "to": "zero", "events": {"x": {}}}`:                                                          `events.x: a rule needs "to"`,
		`{"from": "evosci", "to": "zero", "events": {"x": {"handler": "final"}}}`:                                        `unknown handler "final"`,
		`{"from": "evosci", "to": "zero", "events": {"x": {"to": "t", "fields": {"a": 1}}}}`:                             "events.x.fields.a",
		`{"from": "evosci", "to": "zero", "events": {"x": {"to": "t", "fields": {"a": {"from": ""}}}}}`:                  "empty source field",
		`{"from": "evosci", "to": "zero", "events": {"x": {"to": "t", "fields": {"a": {"from": "b", "type": "int"}}}}}`:  `unknown type "int"`,
		`{"from": "evosci", "to": "zero", "events": {"x": {"to": "t", "fields": {"a": {"from": "b", "type": "any"}}}}}`:  `unknown type "any"`,
		`{"from": "evosci", "to": "zero", "events": {"x": {"to": "t", "fields": {"a": {"from": "b", "type": "null"}}}}}`: `unknown type "null"`,
		`{"from": "evosci", "to": "zero", "events": {"x": {"to": "t", "fields": {"a": {"from": "", "type": "int"}}}}}`:   "empty source field",
	} {
		set := Default()
		err := set.Load("m.json", []byte(in))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "m.json: ") {
			t.Errorf("Load(%s) = %v, want an error naming the file and %q", in, err, want)
		}
	}
}

// A translation reads the shipped table it needs and no other.
func TestBetweenReadsOnlyTheTableAsked(t *testing.T) {
	s := Default()
	if s.Between("evosci", "zero") == nil || s.Between("zero", "evosci") == nil {
		t.Fatal("a shipped table is missing")
	}
	if s.Between("zero", "claude") != nil {
		t.Error("a table no dialect ships")
	}
	s = Default()
	s.Between("zero", "evosci")
	for _, e := range s.tables {
		if read := e.t != nil; read != (e.from == "zero" && e.to == "evosci") {
			t.Errorf("%s -> %s read: %v", e.from, e.to, read)
		}
	}
}

func TestLoadNamesTheShippedDirections(t *testing.T) {
	err := Default().Load("m.json", []byte(`{"from": "claude", "to": "zero"}`))
	want := `m.json: "from" and "to" must be "evosci" and "zero", or "zero" and "evosci"`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// A target's risk levels are those of the tables into it, a user's
// over the shipped, and no other table is read for them.
func TestRiskIntoReadsTheTablesIntoTheTarget(t *testing.T) {
	s := Default()
	if r := s.RiskInto("claude"); r != nil {
		t.Errorf("risk into a dialect no table writes: %v", r)
	}
	for _, e := range s.tables {
		if e.t != nil {
			t.Errorf("%s -> %s read for no table's risk", e.from, e.to)
		}
	}
	if err := s.Load("m.json", []byte(`{"from": "evosci", "to": "zero", "risk": {"shell": "low"}}`)); err != nil {
		t.Fatal(err)
	}
	r := s.RiskInto("zero")
	if r["shell"] != "low" || r["write"] != Default().Between("evosci", "zero").Risk["write"] || r["write"] == "" {
		t.Errorf("risk into zero: %v", r)
	}
}

// A dialect's table reaches translate through the registry alone: a
// dialect known only to it is a direction a user's table may extend.
func TestATableOfADialectOnlyTheRegistryKnows(t *testing.T) {
	saved := dialects.All
	defer func() { dialects.All = saved }()
	d := &event.Dialect{Name: "standin", Tables: map[string][]byte{"zero": []byte(`{"from": "standin", "to": "zero", "events": {"note": {"to": "text", "fields": {"delta": "body"}}}}`)}}
	dialects.All = append(slices.Clone(saved), d)
	s := Default()
	if err := s.Load("m.json", []byte(`{"from": "standin", "to": "zero", "events": {"ping": {"unmapped": true}}}`)); err != nil {
		t.Fatal(err)
	}
	tb := s.Between("standin", "zero")
	if tb == nil || tb.Events["note"] == nil || !tb.Events["note"].Builtin || tb.Events["note"].Fields[0].From != "body" || tb.Events["ping"] == nil || tb.Events["ping"].Builtin {
		t.Fatalf("standin -> zero: %+v", tb)
	}
	err := s.Load("m.json", []byte(`{"from": "claude", "to": "zero"}`))
	if err == nil || !strings.Contains(err.Error(), `"standin" and "zero"`) {
		t.Errorf("the directions named: %v", err)
	}
}

// SideEffects reads every table that has sideEffects, shipped or a
// user's, and leaves the others unread (a translation reads only the
// tables it asks for).
func TestSideEffectsOfEveryTable(t *testing.T) {
	s := Default()
	if got := s.SideEffects()["execute"]; got != "shell" {
		t.Errorf("execute: %q, want the shipped EvoScientist table's", got)
	}
	for _, e := range s.tables {
		if e.t != nil && !gjson.GetBytes(e.data, "sideEffects").Exists() {
			t.Errorf("%s -> %s read for its sideEffects, and ships none", e.from, e.to)
		}
	}
	if err := s.Load("mine.json", []byte(`{"from":"zero","to":"evosci","sideEffects":{"mytool":"network"}}`)); err != nil {
		t.Fatal(err)
	}
	if got := s.SideEffects()["mytool"]; got != "network" {
		t.Errorf("mytool: %q, want the user's table's", got)
	}
}
