package inspect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects"
	zevent "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// captures maps each real capture of testdata/captures to its dialect
// (the folder's name).
func captures(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../testdata/captures/*/*.jsonl")
	if err != nil || len(files) < 4 {
		t.Fatalf("captures: %v %v", files, err)
	}
	m := map[string]string{}
	for _, f := range files {
		m[f] = filepath.Base(filepath.Dir(f))
	}
	return m
}

// Every real capture validates clean, each line read as its own
// dialect's: the schemas accept what the producers write.
func TestValidateCapturesClean(t *testing.T) {
	for f, dialect := range captures(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		diags, rep := validateString(t, f, string(b), nil)
		if diags != "" || rep.Errors+rep.Warnings != 0 {
			t.Errorf("%s:\n%s", f, diags)
		}
		if rep.Protocol != dialect || rep.Runs == 0 || rep.Events != rep.Lines {
			t.Errorf("%s: read as %q, %d runs, %d events of %d lines", f, rep.Protocol, rep.Runs, rep.Events, rep.Lines)
		}
		for _, r := range rep.RunList {
			if r.Protocol != dialect || r.Cut != "" || r.Status == "incomplete" {
				t.Errorf("%s: run %+v", f, r)
			}
		}
	}
}

// Each line of each capture, on its own, is valid against its dialect's
// schema: no line is accepted only because another line came first.
func TestDialectSchemasAcceptEveryCaptureLine(t *testing.T) {
	for f, dialect := range captures(t) {
		d, ok := dialects.ByName(dialect)
		if !ok {
			t.Fatalf("%s: no dialect %q", f, dialect)
		}
		cs, err := compiledFor(d.SchemaList()[0])
		if err != nil || cs == nil {
			t.Fatalf("%s: schema: %v", dialect, err)
		}
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			dec.UseNumber()
			var v map[string]any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s:%d: %v", f, n, err)
			}
			typ, _ := v["type"].(string)
			if errs := cs.validate(v, typ); errs != nil {
				t.Errorf("%s:%d: %v", f, n, cs.problems(errs, typ, &zevent.SchemaWords{}))
			}
			if err := cs.root.Validate(v); err != nil {
				t.Errorf("%s:%d: the whole schema: %v", f, n, err)
			}
		}
		fh.Close()
	}
}

// variant is a capture with some of its lines changed.
func variant(t *testing.T, file string, edit func(t *testing.T, lines []string) []string) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/captures/" + file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	return strings.Join(edit(t, lines), "\n") + "\n"
}

// replace changes old to new in line n (1-based) of lines, once.
func replace(n int, old, new string) func(*testing.T, []string) []string {
	return func(t *testing.T, lines []string) []string {
		if strings.Count(lines[n-1], old) != 1 {
			t.Fatalf("line %d does not hold %q once", n, old)
		}
		lines[n-1] = strings.Replace(lines[n-1], old, new, 1)
		return lines
	}
}

// drop removes line n (1-based); 0 is the last line.
func drop(n int) func(*testing.T, []string) []string {
	return func(_ *testing.T, lines []string) []string {
		if n == 0 {
			n = len(lines)
		}
		return append(lines[:n-1:n-1], lines[n:]...)
	}
}

// Streams a client could not trust are reported at their line, with the
// field at fault, in the wording of every other diagnostic.
func TestValidateDialectAdversarial(t *testing.T) {
	const (
		claudeBash = "claude/agent-harness-thinking-bash.jsonl"
		codexShell = "codex/agent-harness-shell-command.jsonl"
		ocRead     = "opencode/nightgauge-read-edit-local-model.jsonl"
		ocReject   = "opencode/nightgauge-bash-permission-rejected.jsonl"
		cursorRun  = "cursor/cursor-hack-thinking-deltas-shell.jsonl"
	)
	cases := []struct {
		name, file string
		edit       func(*testing.T, []string) []string
		want       string
	}{
		{"claude result num_turns a string", claudeBash, replace(10, `"num_turns":2`, `"num_turns":"2"`),
			"x:10: result.num_turns: want integer, got string \"2\"\n"},
		{"claude negative output tokens", claudeBash, replace(10, `"output_tokens":259`, `"output_tokens":-259`),
			"x:10: result.usage.output_tokens: -259 is less than the minimum 0\n"},
		{"claude negative cost", claudeBash, replace(10, `"total_cost_usd":0.0163509`, `"total_cost_usd":-0.0163509`),
			"x:10: result.total_cost_usd: -0.0163509 is less than the minimum 0\n"},
		{"claude fractional cache count", claudeBash, replace(4, `"cache_read_input_tokens":21752`, `"cache_read_input_tokens":21752.5`),
			"x:4: assistant.message.usage.cache_read_input_tokens: want null or integer, got number 21752.5\n"},
		{"claude tool_use without id", claudeBash, replace(5, `"id":"toolu_01GdNdLYYrREwSLbrW639djB",`, ``),
			"x:5: assistant.message.content[0]: missing field \"id\"\n" +
				"x:7: user: tool result \"toolu_01GdNdLYYrREwSLbrW639djB\" answers no earlier tool call of this run\n"},
		{"claude tool result without its call", claudeBash, drop(5),
			"x:6: user: tool result \"toolu_01GdNdLYYrREwSLbrW639djB\" answers no earlier tool call of this run\n"},
		{"claude result without usage", claudeBash, replace(10, `"usage":{`, `"usage_":{`),
			"x:10: result: missing field \"usage\"\n"},
		{"claude killed run", claudeBash, drop(0),
			"x:9: the input ends inside run \"30b3e9a3-4fac-468c-a5b1-f2824b027ab3\" (line 1): no end of run\n"},
		{"codex thread_id missing", codexShell, replace(1, `"thread_id":"019fa78c-0329-7812-8dce-65636bb17ea6"`, `"thread":"x"`),
			"x:1: thread.started: missing field \"thread_id\"\n"},
		{"codex negative tokens", codexShell, replace(7, `"output_tokens":168`, `"output_tokens":-168`),
			"x:7: turn.completed.usage.output_tokens: -168 is less than the minimum 0\n"},
		{"codex new usage field not a count", codexShell, replace(7, `"reasoning_output_tokens":0`, `"reasoning_output_tokens":0,"future_tokens":"many"`),
			"x:7: turn.completed.usage.future_tokens: want integer, got string \"many\"\n"},
		{"codex item id empty", codexShell, replace(3, `"id":"item_0"`, `"id":""`),
			"x:3: item.completed.item.id: must not be empty\n"},
		{"codex cut turn", codexShell, drop(0),
			"x:6: the input ends inside run \"019fa78c-0329-7812-8dce-65636bb17ea6\" (line 1): no end of run\n"},
		{"opencode callID missing", ocRead, replace(2, `"callID":"675826841",`, ``),
			"x:2: tool_use.part: missing field \"callID\"\n"},
		{"opencode negative cache read", ocRead, replace(4, `"read":0`, `"read":-3`),
			"x:4: step_finish.part.tokens.cache.read: -3 is less than the minimum 0\n"},
		{"opencode cost a string", ocReject, replace(3, `"cost":0`, `"cost":"0"`),
			"x:3: step_finish.part.cost: want number, got string \"0\"\n"},
		{"opencode run dies without step_finish", ocReject, drop(0),
			"x:2: the input ends inside run \"ses_fixture0000000000000000001\" (line 1): no end of run\n"},
		{"cursor call_id missing", cursorRun, replace(87, `"call_id":"call_WLqqt8u0mDTGpVmcrvNm1DuT\nfc_045b36603b11abca01698ca0e15278819ea2814839c4b778b8",`, ``),
			"x:87: tool_call: missing field \"call_id\"\n" +
				"x:88: tool_call: tool result \"call_WLqqt8u0mDTGpVmcrvNm1DuT\\nfc_045b36603b11abca01698ca0\"... answers no earlier tool call of this run\n"},
		{"cursor cut run", cursorRun, drop(0),
			"x:89: the input ends inside run \"a41193d9-b74e-4867-bf36-35e1c76ba3ef\" (line 1): no end of run\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := validateString(t, "x", variant(t, c.file, c.edit), nil)
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// A line of another dialect or protocol cuts the open run, whichever path
// each takes; a line several dialects may write is read as the dialect
// of the lines before it.
func TestValidateMixedDialects(t *testing.T) {
	const (
		cInit = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","model":"m","uuid":"u1"}`
		cText = `{"type":"assistant","message":{"id":"msg_1","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"u2"}`
		xOpen = `{"type":"thread.started","thread_id":"t1"}` + "\n" + `{"type":"turn.started"}`
		xErr  = `{"type":"error","message":"boom"}`
	)
	cases := []struct {
		name, in, want, protocols string
	}{
		{"zero run cut by a claude line", zStart + "\n" + cInit + "\n",
			"x:2: a line of claude starts a new run inside run \"r1\" (line 1): no run_end\n" +
				"x:2: the input ends inside run \"s1\" (line 2): no end of run\n", "zero@2, claude"},
		{"claude run cut by a zero line", cInit + "\n" + cText + "\n" + zStart + "\n" + zEnd + "\n",
			"x:3: a line of zero@2 starts a new run inside run \"s1\" (line 1): no end of run\n", "claude, zero@2"},
		{"claude init inside a run", cInit + "\n" + cText + "\n" + cInit + "\n",
			"x:3: system: starts a run inside run \"s1\" (line 1): no end of run\n" +
				"x:3: the input ends inside run \"s1\" (line 3): no end of run\n", "claude"},
		{"a bare error after codex lines is codex's", xOpen + "\n" + xErr + "\n" + `{"type":"turn.failed","error":{"message":"boom"}}` + "\n", "", "codex"},
		{"a bare error alone is evosci's", xErr + "\n", "", "evosci"},
		{"codex error without its message", xOpen + "\n" + `{"type":"turn.failed","error":{}}` + "\n",
			"x:3: turn.failed.error: missing field \"message\"\n", "codex"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, rep := validateString(t, "x", c.in, nil)
			if got != c.want || rep.Protocol != c.protocols {
				t.Errorf("got (%s)\n%s\nwant (%s)\n%s", rep.Protocol, got, c.protocols, c.want)
			}
		})
	}
}

// --as names a dialect: every line is checked against its schema, even one
// the registry would give another dialect.
func TestValidateAsDialect(t *testing.T) {
	d, sch, err := ParseValidateAs("codex-exec")
	if err != nil || sch == nil || d == nil || d.Name != "codex" {
		t.Fatalf("ParseValidateAs: %v %v %v", d, sch, err)
	}
	var b strings.Builder
	rep, err := Validate(strings.NewReader(`{"type":"text","content":"a"}`+"\n"), "x", ValidateOptions{Dialect: d}, func(d jsonl.Diagnostic) {
		b.WriteString(d.String() + "\n")
	})
	if err != nil || rep.Protocol != "codex" || b.String() != "x:1: the input ends inside the run that began at line 1: no end of run\n" {
		t.Errorf("%s: %q", rep.Protocol, b.String())
	}
	if _, _, err := ParseValidateAs("nope"); err == nil || !strings.Contains(err.Error(), "claude, codex") {
		t.Errorf("unknown name: %v", err)
	}
}

// cutDecoder ends the input as a decoder that knows its run was cut: with
// a RunEnd of StatusIncomplete.
type cutDecoder struct{}

func (cutDecoder) Decode(dst []zevent.Event, line []byte, num int) ([]zevent.Event, error) {
	return append(dst, zevent.Event{Kind: zevent.RunStart, Dialect: "fake", Run: "f1", Line: num, Raw: line}), nil
}

func (cutDecoder) End(dst []zevent.Event) []zevent.Event {
	return append(dst, zevent.Event{Kind: zevent.RunEnd, Dialect: "fake", Run: "f1", Status: zevent.StatusIncomplete})
}

// A run its decoder ends as cut short is reported as one event.Runs cut.
func TestValidateDecoderCutRun(t *testing.T) {
	fake := &zevent.Dialect{Name: "fake", DetectLine: func(*zevent.Line) zevent.Certainty { return zevent.Sure },
		NewDecoder: func(zevent.DecodeOptions) zevent.Decoder { return cutDecoder{} }}
	var got []string
	v, err := NewValidator("x", ValidateOptions{Dialect: fake}, func(d jsonl.Diagnostic) { got = append(got, d.String()) })
	if err != nil {
		t.Fatal(err)
	}
	v.Line(jsonl.Line{Num: 1, Bytes: []byte(`{"type":"x"}`)})
	rep := v.End()
	want := []string{`x:1: event: ends run "f1" (line 1) cut short: no end of run`}
	if !slices.Equal(got, want) || rep.Runs != 1 || rep.RunList[0].Status != "incomplete" {
		t.Errorf("%q %+v", got, rep)
	}
}

// Validating a dialect's lines compiles its schema once, however many
// lines and inputs there are.
func TestValidateCompilesEachSchemaOnce(t *testing.T) {
	b, err := os.ReadFile("../testdata/captures/claude/agent-harness-thinking-bash.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	validateString(t, "a", string(b), nil)
	compiledSchemas.mu.Lock()
	n := len(compiledSchemas.m)
	compiledSchemas.mu.Unlock()
	for range 3 {
		validateString(t, "b", string(b), nil)
	}
	compiledSchemas.mu.Lock()
	defer compiledSchemas.mu.Unlock()
	if len(compiledSchemas.m) != n {
		t.Errorf("%d schemas compiled, then %d", n, len(compiledSchemas.m))
	}
}
