package inspect

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects/claude"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/translate"
)

// claudeTarget is --to claude.
func claudeTarget(t *testing.T) translate.Format {
	t.Helper()
	to, err := translate.ParseTarget("claude")
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// toClaudeInputs are every stream of testdata/translate, testdata/inspect
// and testdata/captures: Zero, EvoScientist and the other dialects.
func toClaudeInputs(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, g := range []string{"../testdata/translate/*.jsonl", "../testdata/inspect/*.jsonl", "../testdata/captures/*/*.jsonl"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 25 {
		t.Fatalf("only %d streams", len(files))
	}
	return files
}

// validClaude reports what validate says of out, read as Claude Code's
// stream-json (its schema, decoder and runs).
func validClaude(t *testing.T, key string, out []byte) string {
	t.Helper()
	var b strings.Builder
	_, err := Validate(strings.NewReader(string(out)), key, ValidateOptions{Dialect: claude.Dialect}, func(d jsonl.Diagnostic) {
		b.WriteString(d.String())
		b.WriteByte('\n')
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// claudeIDsDistinct reports the ids of out that a Claude reader keys on
// and that were written for two things: message ids (one line a
// message), tool_use ids and line uuids.
func claudeIDsDistinct(out []byte) []string {
	seen := map[string]bool{}
	var dup []string
	add := func(kind, id string) {
		if id == "" {
			dup = append(dup, kind+" empty")
			return
		}
		if seen[kind+id] {
			dup = append(dup, kind+" "+id)
		}
		seen[kind+id] = true
	}
	for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		r := gjson.Parse(l)
		add("uuid", r.Get("uuid").Str)
		if r.Get("type").Str == "assistant" {
			add("message", r.Get("message.id").Str)
			r.Get("message.content").ForEach(func(_, b gjson.Result) bool {
				if b.Get("type").Str == "tool_use" {
					add("tool_use", b.Get("id").Str)
				}
				return true
			})
		}
	}
	return dup
}

// sdkRefuses reports what of a line the Claude Agent SDK's message
// parser (the Python SDK's parse_message) requires and does not find: the
// fields it reads without a default, per type.
func sdkRefuses(l gjson.Result) []string {
	var miss []string
	need := func(r gjson.Result, paths ...string) {
		for _, p := range paths {
			if !r.Get(p).Exists() {
				miss = append(miss, p)
			}
		}
	}
	blocks := func(content gjson.Result) {
		content.ForEach(func(_, b gjson.Result) bool {
			switch b.Get("type").Str {
			case "text":
				need(b, "text")
			case "thinking":
				need(b, "thinking", "signature")
			case "tool_use":
				need(b, "id", "name", "input")
			case "tool_result":
				need(b, "tool_use_id")
			}
			return true
		})
	}
	switch l.Get("type").Str {
	case "system":
		need(l, "subtype")
	case "assistant":
		need(l, "message.content", "message.model")
		if !l.Get("message.content").IsArray() {
			miss = append(miss, "message.content as a list")
		}
		blocks(l.Get("message.content"))
	case "user":
		need(l, "message.content")
		blocks(l.Get("message.content"))
	case "result":
		need(l, "subtype", "duration_ms", "duration_api_ms", "is_error", "num_turns", "session_id")
	}
	return miss
}

// Every stream zevo has, of every dialect, translated to Claude Code's
// stream-json: every line is what Claude's schema admits and validate
// finds no fault in its runs; each message, tool use and line has an id
// of its own; and Claude's decoder reads back what the source said: its
// runs, how each ended, its final answer, its tools in order and which
// failed, its tokens and the producer's own cost. The Claude Agent SDK's
// parser finds every field it requires.
func TestTranslateToClaudeKeepsFacts(t *testing.T) {
	to := claudeTarget(t)
	for _, f := range toClaudeInputs(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		key := filepath.Base(f) + "->claude"
		want := factsOf(t, f, data)
		out := translateFile(t, f, to)
		if len(want) > 0 && len(out) == 0 {
			t.Errorf("%s: no output", key)
			continue
		}
		if diags := validClaude(t, key, out); diags != "" {
			t.Errorf("%s: not valid claude:\n%s\n%s", key, diags, out)
		}
		if dup := claudeIDsDistinct(out); len(dup) > 0 {
			t.Errorf("%s: ids written twice: %q", key, dup)
		}
		for i, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
			if miss := sdkRefuses(gjson.Parse(l)); len(miss) > 0 {
				t.Errorf("%s:%d: the SDK's parser needs %q:\n%s", key, i+1, miss, l)
			}
		}
		got := factsOf(t, key, out)
		compareClaudeFacts(t, key, want, got)
	}
}

// compareClaudeFacts compares a source's facts with those of its Claude
// Code translation, as far as Claude can say them.
func compareClaudeFacts(t *testing.T, key string, want, got []*runFacts) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d runs, want %d", key, len(got), len(want))
		return
	}
	for i := range want {
		w, g := *want[i], *got[i]
		if len(g.duplicateIDs) > 0 {
			t.Errorf("%s: run %d: tool use ids written twice: %q", key, i+1, g.duplicateIDs)
		}
		w.CallIDs, g.CallIDs, w.duplicateIDs, g.duplicateIDs = nil, nil, nil, nil
		// Claude Code has no status for a run cut short: an error.
		if w.Status == "incomplete" {
			w.Status = "error"
		}
		// Its error results carry no answer; a success always has one
		// (its last text when the source states none).
		if w.Status != "success" || !w.HasFinal {
			w.Final, w.HasFinal, g.Final, g.HasFinal = "", false, "", false
		}
		// The cost is a running total over the session, read back as
		// shares: equal to the last bit, or nearly.
		if w.HasCost && g.HasCost && math.Abs(w.Cost-g.Cost) <= 1e-12*math.Max(1, math.Abs(w.Cost)) {
			g.Cost = w.Cost
		}
		if !reflect.DeepEqual(w, g) {
			t.Errorf("%s: run %d:\n got %+v\nwant %+v", key, i+1, g, w)
		}
	}
}

// A secret in a tool's arguments and output, in an answer and in an
// error, of a Zero, an EvoScientist and a Claude Code stream, never
// reaches Claude Code output (redacted by default, as Zero output is).
func TestTranslateToClaudeRedactsPlantedSecrets(t *testing.T) {
	secrets := []string{"sk-plantedsecret0123456789", "plantedbearertoken0123456789", "hunter2hunter2"}
	in := map[string]string{
		"zero.jsonl": `{"schemaVersion":2,"type":"run_start","runId":"run_20260603100000_abc123","sessionId":"s","cwd":"/w","provider":"p","model":"m"}
{"schemaVersion":2,"type":"tool_call","runId":"run_20260603100000_abc123","id":"c1","name":"bash","args":{"command":"curl -H 'Authorization: Bearer plantedbearertoken0123456789'","password":"hunter2hunter2"},"sideEffect":"shell"}
{"schemaVersion":2,"type":"tool_result","runId":"run_20260603100000_abc123","id":"c1","name":"bash","status":"ok","output":"key: sk-plantedsecret0123456789"}
{"schemaVersion":2,"type":"final","runId":"run_20260603100000_abc123","text":"the key is sk-plantedsecret0123456789"}
{"schemaVersion":2,"type":"run_end","runId":"run_20260603100000_abc123","status":"success","exitCode":0}
`,
		"evosci.jsonl": `{"type": "tool_call", "name": "execute", "args": {"api_key": "hunter2hunter2", "command": "curl -H 'Authorization: Bearer plantedbearertoken0123456789'"}, "id": "call_1"}
{"type": "tool_result", "name": "execute", "content": "sk-plantedsecret0123456789", "success": false, "id": "call_1"}
{"type": "error", "message": "auth failed for sk-plantedsecret0123456789"}
`,
		"claude.jsonl": `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","model":"claude-x","tools":["Bash"],"claude_code_version":"2.1.104","uuid":"u0"}
{"type":"assistant","message":{"id":"msg_1","model":"claude-x","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"curl -H 'Authorization: Bearer plantedbearertoken0123456789' x","password":"hunter2hunter2"}}],"usage":{"input_tokens":3,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s1","uuid":"u1"}
{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"key: sk-plantedsecret0123456789","is_error":false}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"u2"}
{"type":"result","subtype":"success","is_error":false,"result":"done sk-plantedsecret0123456789","session_id":"s1","total_cost_usd":0.01,"usage":{"input_tokens":3,"output_tokens":2},"uuid":"u3"}
`,
	}
	to := claudeTarget(t)
	for name, s := range in {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		out := string(translateFile(t, path, to))
		if !strings.Contains(out, `"type":"tool_use"`) || !strings.Contains(out, `"type":"tool_result"`) {
			t.Fatalf("%s: the tool call is not translated:\n%s", name, out)
		}
		for _, sec := range secrets {
			if strings.Contains(out, sec) {
				t.Errorf("%s: %q leaks:\n%s", name, sec, out)
			}
		}
		if !strings.Contains(out, "[REDACTED]") {
			t.Errorf("%s: nothing redacted:\n%s", name, out)
		}
	}
}

// A stream cut after any of its lines (a killed agent, a log still being
// written) translates to Claude Code's stream-json that ends its last run
// with an error result saying so, and that validates.
func TestTranslateToClaudeCutRunEndsWithErrorResult(t *testing.T) {
	to := claudeTarget(t)
	for _, f := range toClaudeInputs(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ls := strings.SplitAfter(string(data), "\n")
		step := 1
		if testing.Short() && len(ls) > 20 {
			step = len(ls) / 10
		}
		for n := 1; n < len(ls); n += step {
			path := filepath.Join(t.TempDir(), filepath.Base(f))
			cut := strings.Join(ls[:n], "")
			if err := os.WriteFile(path, []byte(cut), 0o644); err != nil {
				t.Fatal(err)
			}
			key := filepath.Base(f) + "[:" + strconv.Itoa(n) + "]->claude"
			out := translateFile(t, path, to)
			if len(out) == 0 {
				continue // nothing of a run yet (an init held back, a lone notice)
			}
			if diags := validClaude(t, key, out); diags != "" {
				t.Errorf("%s: not valid claude:\n%s\n%s", key, diags, out)
			}
			runs := factsOf(t, key, []byte(cut))
			lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			last := gjson.Parse(lines[len(lines)-1])
			if len(runs) == 0 || last.Get("type").Str != "result" {
				if len(runs) > 0 {
					t.Errorf("%s: the last line is no result:\n%s", key, out)
				}
				continue
			}
			if runs[len(runs)-1].Status == "incomplete" &&
				(!last.Get("is_error").Bool() || last.Get("subtype").Str != "error_during_execution" ||
					!strings.Contains(last.Get("errors").Raw, "the input ended before the run finished")) {
				t.Errorf("%s: the cut run does not end with an error result:\n%s", key, lines[len(lines)-1])
			}
		}
	}
}

// The golden inputs and the hostile samples (wrong types, results of no
// call, calls without a name, bad lines) translate to Claude Code's
// stream-json that validates: what it cannot hold is dropped, not
// written broken.
func TestTranslateToClaudeOddInputsValidate(t *testing.T) {
	to := claudeTarget(t)
	var files []string
	for _, g := range []string{"../testdata/golden/*/*.jsonl", "../testdata/hostile/*.jsonl"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 30 {
		t.Fatalf("only %d inputs", len(files))
	}
	for _, f := range files {
		key := strings.TrimPrefix(f, "../testdata/") + "->claude"
		out := translateFile(t, f, to)
		if len(out) == 0 {
			continue // an input without any event (blank, empty)
		}
		if diags := validClaude(t, key, out); diags != "" {
			t.Errorf("%s: not valid claude:\n%s\n%s", key, diags, out)
		}
		if dup := claudeIDsDistinct(out); len(dup) > 0 {
			t.Errorf("%s: ids written twice: %q", key, dup)
		}
	}
}
