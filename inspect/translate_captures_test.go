package inspect

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/dialects/zero/zerotest"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/translate"
)

// runFacts is what a client of the target must learn of one run: read
// from events, of the input (its dialect's decoder) and of the output
// (the target's decoder), so that both sides are counted by the same rules.
type runFacts struct {
	Status       string // success, error, incomplete or cancelled
	Final        string
	HasFinal     bool
	Tools        []string // the calls' names, in order
	Failed       []bool   // of the results, in order
	Total, Out   int64    // tokens: every token read and written; written
	Cost         float64
	HasCost      bool
	CallIDs      []string
	duplicateIDs []string
}

// statusClass is a run's status as every target can say it.
func statusClass(s model.Status) string {
	switch {
	case !s.Failed():
		return "success"
	case s == model.StatusIncomplete:
		return "incomplete"
	case s == model.StatusCancelled || s == model.StatusInterrupted:
		return "cancelled"
	}
	return "error"
}

// factsOf reads the runs of one stream through the dialects.
func factsOf(t *testing.T, name string, data []byte) []*runFacts {
	t.Helper()
	in := dialects.NewInput(model.DecodeOptions{})
	var runs []*runFacts
	var cur *runFacts
	var sum model.Tokens
	var hasUse bool
	seen := map[string]bool{}
	close := func(r *model.Run) {
		if cur == nil {
			return
		}
		if hasUse {
			cur.Total, cur.Out = sum.Total(), sum.Output
			if sum.CostUSD != nil {
				cur.Cost, cur.HasCost = *sum.CostUSD, true
			}
		}
		cur.Status = statusClass(r.Status)
		cur = nil
	}
	fn := func(ev *model.Event, st model.Step) {
		if st.Closed != nil {
			close(st.Closed)
		}
		if ev == nil || st.Run == nil || (cur == nil && !st.Start) {
			return
		}
		if st.Start {
			cur = &runFacts{}
			runs = append(runs, cur)
			sum, hasUse = model.Tokens{}, false
			seen = map[string]bool{}
		}
		switch ev.Kind {
		case model.ToolCall:
			cur.Tools = append(cur.Tools, ev.Tool.Name)
			cur.CallIDs = append(cur.CallIDs, ev.Tool.ID)
			if seen[ev.Tool.ID] {
				cur.duplicateIDs = append(cur.duplicateIDs, ev.Tool.ID)
			}
			seen[ev.Tool.ID] = true
		case model.ToolResult:
			cur.Failed = append(cur.Failed, ev.Tool.Failed)
		case model.Final:
			cur.Final, cur.HasFinal = ev.Text, true
		case model.Usage:
			hasUse = true
			if ev.Usage.Scope == model.ScopeRun {
				sum = *ev.Usage
			} else {
				sum.Add(ev.Usage)
			}
		}
		if st.End {
			close(st.Run)
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := in.Line(append([]byte(nil), sc.Bytes()...), n, fn); err != nil {
			t.Logf("%s:%d: %v", name, n, err)
		}
	}
	in.End(fn)
	return runs
}

func captureFiles(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("../testdata/captures/*/*.jsonl")
	if len(files) < 10 {
		t.Fatalf("only %d captures", len(files))
	}
	return files
}

// Every real capture of Claude Code, Codex, OpenCode and Cursor,
// translated to each target, is what the target's clients accept (the
// schema and stream rules; for Zero, Zero's own struct with unknown fields
// refused) and says what the capture says: its runs, how each ended, its
// final answer, its tools in order and which failed, its tokens and the
// producer's own cost.
func TestTranslateCapturesKeepTheirFacts(t *testing.T) {
	for _, f := range captureFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := factsOf(t, f, data)
		if len(want) == 0 {
			t.Fatalf("%s: no run read", f)
		}
		for _, c := range []struct {
			to     translate.Format
			as     Protocol
			decode func([]byte) error
		}{
			{toZero, Zero, func(b []byte) error { _, err := zerotest.Decode(b); return err }},
			{toZero1, Zero1, func(b []byte) error { _, err := zerotest.DecodeV1(b); return err }},
			{toEvoSci, EvoSci, nil},
		} {
			key := filepath.Base(f) + "->" + c.to.String()
			out := translateFile(t, f, c.to)
			if len(out) == 0 {
				t.Errorf("%s: no output", key)
				continue
			}
			if diags := diagsOf(validateString(t, key, string(out), c.as)); diags != "" {
				t.Errorf("%s: not valid %s:\n%s\n%s", key, c.as, diags, out)
			}
			if c.decode != nil {
				for i, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
					if err := c.decode(l); err != nil {
						t.Errorf("%s:%d: Zero's decoder: %v\n%s", key, i+1, err, l)
					}
				}
			}
			got := factsOf(t, key, out)
			compareFacts(t, key, c.to, want, got)
		}
	}
}

func compareFacts(t *testing.T, key string, to translate.Format, want, got []*runFacts) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d runs, want %d", key, len(got), len(want))
		return
	}
	for i := range want {
		w, g := *want[i], *got[i]
		if len(g.duplicateIDs) > 0 {
			t.Errorf("%s: run %d: tool call ids written twice: %q", key, i+1, g.duplicateIDs)
		}
		// Ids are the producer's, but for the target's own rule (distinct).
		w.CallIDs, g.CallIDs, w.duplicateIDs, g.duplicateIDs = nil, nil, nil, nil
		if to == toEvoSci {
			// EvoScientist says a run succeeded or failed, and how in
			// its error's text only.
			if w.Status != "success" {
				w.Status = "error"
			}
			// done carries the run's text when the producer has no final.
			if !w.HasFinal {
				g.Final, g.HasFinal = "", false
			}
			// no cost in its usage_stats
			w.Cost, w.HasCost = 0, false
		}
		if !reflect.DeepEqual(w, g) {
			t.Errorf("%s: run %d:\n got %+v\nwant %+v", key, i+1, g, w)
		}
	}
}

// A secret in a Claude Code tool's output and arguments, and in a Codex
// command and its output, never reaches Zero output (redacted by
// default, as every Zero output is); EvoScientist output keeps them
// unless --redact, as for EvoScientist input.
func TestTranslateCapturesRedactPlantedSecrets(t *testing.T) {
	secrets := []string{"sk-plantedsecret0123456789", "Bearer plantedbearertoken0123456789", "hunter2hunter2"}
	claude := `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","model":"claude-x","tools":["Bash"],"claude_code_version":"2.1.104","uuid":"u0"}
{"type":"assistant","message":{"id":"msg_1","model":"claude-x","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"curl -H 'Authorization: Bearer plantedbearertoken0123456789' x","password":"hunter2hunter2"}}],"usage":{"input_tokens":3,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s1","uuid":"u1"}
{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"key: sk-plantedsecret0123456789","is_error":false}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"u2"}
{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"s1","total_cost_usd":0.01,"usage":{"input_tokens":3,"output_tokens":2},"uuid":"u3"}
`
	codex := `{"type":"thread.started","thread_id":"t1"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"export OPENAI_API_KEY=sk-plantedsecret0123456789; curl -H 'Authorization: Bearer plantedbearertoken0123456789'","aggregated_output":"","status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"export OPENAI_API_KEY=sk-plantedsecret0123456789; curl -H 'Authorization: Bearer plantedbearertoken0123456789'","aggregated_output":"sk-plantedsecret0123456789\n","exit_code":0,"status":"completed"}}
{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":2}}
`
	for name, in := range map[string]string{"claude.jsonl": claude, "codex.jsonl": codex} {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, to := range []translate.Format{toZero, toZero1} {
			out := string(translateFile(t, path, to))
			if !strings.Contains(out, `"type":"tool_call"`) || !strings.Contains(out, `"type":"tool_result"`) {
				t.Fatalf("%s->%s: the tool call is not translated:\n%s", name, to, out)
			}
			for _, s := range secrets {
				if strings.Contains(out, s) || strings.Contains(out, strings.TrimPrefix(s, "Bearer ")) {
					t.Errorf("%s->%s: %q leaks:\n%s", name, to, s, out)
				}
			}
			if !strings.Contains(out, "[REDACTED]") {
				t.Errorf("%s->%s: nothing redacted:\n%s", name, to, out)
			}
		}
	}
}

// The facts compared above are not vacuous: a capture's facts name real
// runs, tools and tokens.
func TestCaptureFactsAreRead(t *testing.T) {
	var runs, tools int
	var tokens int64
	for _, f := range captureFiles(t) {
		data, _ := os.ReadFile(f)
		for _, r := range factsOf(t, f, data) {
			runs++
			tools += len(r.Tools)
			tokens += r.Total
		}
	}
	if runs < 15 || tools < 20 || tokens < 100000 {
		t.Fatalf("captures read as %d runs, %d tools, %d tokens", runs, tools, tokens)
	}
}

// diagsOf is validate's diagnostics of a stream, warnings included but
// the one on a done whose response is the producer's final answer rather
// than all the run's text joined: EvoScientist output writes each text as
// it comes, and the words a producer says before a tool call (Claude
// Code's, Codex's) are text that its final answer (the fact a client must
// get, checked above) does not repeat.
func diagsOf(diags string, _ FileReport) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(diags, "\n") {
		if !strings.Contains(l, ": warning: done.response: differs from the run's text events joined") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// A capture cut after any of its lines (a killed agent, a log still being
// written) still translates to streams the target's clients accept: each
// run framed, the last one ended as incomplete.
func TestTranslateCapturesCutAnywhere(t *testing.T) {
	for _, f := range captureFiles(t) {
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
			if err := os.WriteFile(path, []byte(strings.Join(ls[:n], "")), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				to translate.Format
				as Protocol
			}{{toZero, Zero}, {toZero1, Zero1}, {toEvoSci, EvoSci}} {
				key := filepath.Base(f) + "[:" + strconv.Itoa(n) + "]->" + c.to.String()
				out := translateFile(t, path, c.to)
				if len(out) == 0 {
					continue // nothing of a run yet (an init held back, a lone notice)
				}
				if diags := diagsOf(validateString(t, key, string(out), c.as)); diags != "" {
					t.Errorf("%s: not valid %s:\n%s\n%s", key, c.as, diags, out)
				}
			}
		}
	}
}
