package dialects_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/cli"
	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
)

// standIn is a dialect made here, as a new folder would make one: its
// name, title, schema, tools' effects, detection and decoder. TestMain
// registers it as the registry's line would, before any command reads
// the registry; nothing else of zevo learns of it.
var standIn = &event.Dialect{
	Name:    "toy",
	Aliases: []string{"toy-agent"},
	Title:   "Toy Agent",
	Schema:  []byte(standInSchema),
	Effects: map[string]event.Effect{"zap": event.EffectShell, "peek": event.EffectRead},
	DetectLine: func(l *event.Line) event.Certainty {
		if typ, _ := l.Type(); strings.HasPrefix(typ, "toy.") {
			return event.Sure
		}
		return event.No
	},
	NewDecoder: func(opt event.DecodeOptions) event.Decoder { return &standInDecoder{opt: opt} },
	Corpus: &event.Corpus{
		Write: func(w io.Writer, size int64, seed uint64) (int64, error) {
			var n int64
			for n < size {
				m, err := io.WriteString(w, standInLines)
				if n += int64(m); err != nil {
					return n, err
				}
			}
			return n, nil
		},
		Huge: func(w io.Writer, size int) error {
			_, err := fmt.Fprintf(w, `{"type":"toy.result","session":"s1","id":"c1","output":%q}`+"\n", strings.Repeat("x", size))
			return err
		},
	},
}

func TestMain(m *testing.M) {
	dialects.All = append(dialects.All, standIn)
	os.Exit(m.Run())
}

// The stand-in's lines: every type needs its own fields; toy.say without
// text breaks its schema.
const standInSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "Toy Agent line",
  "$ref": "#/$defs/envelope",
  "allOf": [
    {"if": {"required": ["type"], "properties": {"type": {"const": "toy.say"}}}, "then": {"$ref": "#/$defs/say"}},
    {"if": {"required": ["type"], "properties": {"type": {"const": "toy.tool"}}}, "then": {"$ref": "#/$defs/tool"}}
  ],
  "$defs": {
    "envelope": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string", "pattern": "^toy\\."}}},
    "say": {"required": ["text"], "properties": {"text": {"type": "string"}}},
    "tool": {"required": ["id", "name"], "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
  }
}`

type standInDecoder struct{ opt event.DecodeOptions }

func (d *standInDecoder) Decode(dst []event.Event, line []byte, num int) ([]event.Event, error) {
	v := gjson.ParseBytes(line)
	ev := event.Event{Dialect: standIn.Name, Type: v.Get("type").Str, Line: num, Raw: line, Run: v.Get("session").Str}
	switch ev.Type {
	case "toy.start":
		ev.Kind, ev.Session, ev.Model, ev.Provider = event.RunStart, v.Get("session").Str, v.Get("model").Str, standIn.Name
	case "toy.say":
		if !v.Get("text").Exists() {
			return dst, errors.New("toy.say without text")
		}
		ev.Kind, ev.Text = event.Text, v.Get("text").Str
	case "toy.tool":
		name := v.Get("name").Str
		ev.Kind, ev.Tool = event.ToolCall, &event.Tool{ID: v.Get("id").Str, Name: name, Args: json.RawMessage(v.Get("args").Raw), Effect: d.opt.EffectOf(name)}
	case "toy.result":
		ev.Kind, ev.Tool = event.ToolResult, &event.Tool{ID: v.Get("id").Str, Output: v.Get("output").Str, Truncated: v.Get("truncated").Bool()}
	case "toy.end":
		dst = append(dst, event.Event{Kind: event.Usage, Dialect: standIn.Name, Type: ev.Type, Line: num, Raw: line, Run: ev.Run,
			Usage: &event.Tokens{Scope: event.ScopeRun, Input: v.Get("in").Int(), Output: v.Get("out").Int(), Has: event.HasInput | event.HasOutput}})
		dst = append(dst, event.Event{Kind: event.Final, Dialect: standIn.Name, Type: ev.Type, Line: num, Raw: line, Run: ev.Run, Text: v.Get("answer").Str})
		ev.Kind, ev.Status = event.RunEnd, event.StatusSuccess
	}
	return append(dst, ev), nil
}

func (d *standInDecoder) End(dst []event.Event) []event.Event { return dst }

const standInLines = `{"type":"toy.start","session":"s1","model":"gpt-4.1"}
{"type":"toy.say","session":"s1","text":"Looking at the tree."}
{"type":"toy.tool","session":"s1","id":"c1","name":"zap","args":{"cmd":"ls"}}
{"type":"toy.result","session":"s1","id":"c1","output":"go.mod\nmain.go","truncated":true}
{"type":"toy.end","session":"s1","in":120,"out":30,"answer":"Two files."}
`

// A dialect registered through the registry, and known nowhere else, is
// read by every command: validate checks its lines against its schema
// and its runs; stats counts its run, tokens and tools; view shows it
// under its title; translate writes it as Zero's events with its tools'
// effects; otel makes its run a trace.
func TestStandInDialectReachesEveryCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "toy.jsonl")
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(good, []byte(standInLines), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(strings.Replace(standInLines, `"text":"Looking at the tree."`, `"words":1`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	zevo := func(args ...string) (int, string, string) {
		var out, errs strings.Builder
		code := cli.Run(append([]string{"zevo"}, args...), strings.NewReader(""), &out, &errs)
		return code, out.String(), errs.String()
	}
	must := func(what string, code int, out, errs string, wantCode int, wants ...string) {
		t.Helper()
		if code != wantCode {
			t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", what, code, wantCode, out, errs)
		}
		for _, w := range wants {
			if !strings.Contains(out+errs, w) {
				t.Errorf("%s: no %q in\nstdout: %s\nstderr: %s", what, w, out, errs)
			}
		}
	}

	code, out, errs := zevo("schema")
	must("schema", code, out, errs, 0, "toy, toy-agent", "toy.schema.json", "Toy Agent line")
	code, out, errs = zevo("schema", "toy-agent")
	must("schema toy-agent", code, out, errs, 0, `"#/$defs/envelope"`)

	code, out, errs = zevo("validate", good)
	must("validate", code, out, errs, 0)
	code, out, errs = zevo("validate", "--as", "toy", good)
	must("validate --as toy", code, out, errs, 0)
	code, out, errs = zevo("validate", bad)
	must("validate of a bad line", code, out, errs, 1, `bad.jsonl:2: error: toy.say: missing field "text"`)

	code, out, errs = zevo("stats", "--json", good)
	must("stats", code, out, errs, 0, `"protocol":"toy"`, `"status":"success"`,
		`"tokens":{"input":120,"output":30,"total":150}`, `"tools":{"zap":{"calls":1,"results":1,"errors":0}}`, `"finalLength":10`)

	code, out, errs = zevo("view", good)
	must("view", code, out, errs, 0, "Looking at the tree.", "zap", "(cut by Toy Agent)", "Two files.")
	code, out, errs = zevo("view", "--format", "markdown", good)
	must("view --format markdown", code, out, errs, 0, "150 tokens", "zap", "cut by Toy Agent", "Two files.")

	code, out, errs = zevo("translate", "--to", "zero", good)
	must("translate --to zero", code, out, errs, 0,
		`"type":"run_start"`, `"model":"gpt-4.1"`, `"provider":"toy"`,
		`"type":"tool_call"`, `"name":"zap"`, `"sideEffect":"shell"`,
		`"type":"final"`, `"type":"run_end"`, `"status":"success"`)

	code, out, errs = zevo("otel", good)
	must("otel", code, out, errs, 0, `"name":"invoke_agent"`, `"key":"gen_ai.usage.input_tokens","value":{"intValue":"120"}`,
		`"name":"execute_tool zap"`, `"key":"zevo.tool.side_effect","value":{"stringValue":"shell"}`)

	// Its generator, known through the registry too, writes the
	// benchmarks' corpora (bench/corpus, bench/cmd/gen).
	p, err := corpus.Lookup("toy-agent")
	if err != nil {
		t.Fatal(err)
	}
	var gen strings.Builder
	if n, err := corpus.Write(&gen, corpus.Options{Protocol: p, Size: 1000, Seed: 1}); err != nil || n < 1000 || !strings.HasPrefix(gen.String(), standInLines) {
		t.Errorf("corpus.Write: %d, %v: %.100q", n, err, gen.String())
	}
	var huge strings.Builder
	if err := corpus.WriteHuge(&huge, p, 100); err != nil || !strings.Contains(huge.String(), strings.Repeat("x", 100)) {
		t.Errorf("corpus.WriteHuge: %v: %.100q", err, huge.String())
	}
}
