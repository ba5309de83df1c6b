package mappings

import (
	"strings"
	"testing"

	"github.com/zevo/zevo/jsonl"
)

func TestDefaultTables(t *testing.T) {
	s := Default()
	for typ, to := range map[string]string{"thinking": "reasoning", "text": "text", "tool_call": "tool_call", "usage_stats": "usage"} {
		if r := s.EvosciToZero.Events[typ]; r == nil || r.To != to {
			t.Errorf("evosci %s → %+v, want %s", typ, r, to)
		}
	}
	if r := s.ZeroToEvosci.Events["usage"]; r == nil || len(r.Fields) != 2 || r.Fields[0].To != "input_tokens" || r.Fields[0].Type != jsonl.KindInteger {
		t.Errorf("zero usage rule: %+v", r)
	}
	if !s.EvosciToZero.Events["subagent_text"].Unmapped || !s.ZeroToEvosci.Events["checkpoint"].Unmapped {
		t.Error("unmapped types lost")
	}
	for tool, se := range map[string]string{"read_file": "read", "execute": "shell", "fetch_url": "network", "write_todos": "none", "task": "unknown", "anything": "unknown"} {
		if got := s.EvosciToZero.SideEffect(tool); got != se {
			t.Errorf("sideEffect(%s) = %s, want %s", tool, got, se)
		}
	}
	if s.Versions.Fields["violation"] != "block" || s.Versions.BlockCodes["policy_denied"] != "denied" || !s.Versions.V2Only["reasoning"] {
		t.Errorf("versions: %+v", s.Versions)
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
	r := s.EvosciToZero.Events["panel_dispatch_start"]
	if r == nil || r.To != "reasoning" || r.Fields[0] != (Field{To: "delta", From: "label"}) || r.Const[0].Raw != "[1]" {
		t.Errorf("new rule: %+v", r)
	}
	if s.EvosciToZero.SideEffect("execute") != "none" || s.EvosciToZero.SideEffect("mine") != "write" || s.EvosciToZero.SideEffect("grep") != "read" {
		t.Error("sideEffects not merged")
	}
	if w := s.ZeroToEvosci.Events["warning"]; w.Unmapped || w.To != "text" {
		t.Errorf("override: %+v", w)
	}
	if Default().ZeroToEvosci.Events["warning"].To != "" {
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
		Handlers = func(dir string) []string { return []string{"tool_call", "done"} }
		err := set.Load("m.json", []byte(in))
		Handlers = nil
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "m.json: ") {
			t.Errorf("Load(%s) = %v, want an error naming the file and %q", in, err, want)
		}
	}
}
