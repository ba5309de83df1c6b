package corpus

import (
	"fmt"
	"io"
	"strings"

	"github.com/zevo/zevo/jsonl"
)

// evoResult cuts content as EvoScientist does: 2000 characters, then a marker.
func evoResult(s string) string {
	n := 0
	for i := range s {
		if n == 2000 {
			return s[:i] + EvoSci.Truncated
		}
		n++
	}
	return s
}

// evoRun writes one EvoScientist run; cut leaves it without its end.
func (g *gen) evoRun(run int, cut bool) {
	old := g.pct(10) // EvoScientist 0.1.x: no ids on results and sub-agent events
	var text strings.Builder
	turns := 2 + g.rng.IntN(8)
	for turn := 0; turn < turns; turn++ {
		for i, n := 0, 3+g.rng.IntN(30); i < n; i++ {
			g.emit(obj{{"type", "thinking"}, {"content", g.delta()}, {"id", 0}})
		}
		for i, n := 0, 1+g.rng.IntN(15); i < n; i++ {
			d := g.delta()
			text.WriteString(d)
			g.emit(obj{{"type", "text"}, {"content", d}})
		}
		g.emit(obj{{"type", "usage_stats"}, {"input_tokens", 500 + g.rng.IntN(60000)}, {"output_tokens", 1 + g.rng.IntN(4000)}})
		for c, n := 0, g.rng.IntN(4); c < n; c++ {
			if g.pct(6) {
				g.evoSubagent(old)
				continue
			}
			tl := g.tool()
			id := g.callID()
			args := tl.args(g)
			g.emit(obj{{"type", "tool_call"}, {"name", tl.name}, {"args", args}, {"id", id}})
			if risky(tl.name) && g.pct(8) && !cut {
				// --no-auto-mode: the run stops at the prompt.
				g.emit(obj{{"type", "interrupt"}, {"interrupt_id", fmt.Sprintf("int_%x", g.rng.Uint32())},
					{"action_requests", []any{obj{{"name", tl.name}, {"args", args}, {"description", "Tool " + tl.name + " requires approval: " + g.sentence(5)}}}},
					{"review_configs", []any{obj{{"action_name", tl.name}, {"allowed_decisions", []any{"approve", "edit", "reject"}}}}}})
				s := text.String()
				g.emit(obj{{"type", "done"}, {"content", s}, {"response", s}})
				return
			}
			out := g.output(g.resultSize())
			if g.pct(3) {
				out += "\n" + g.secret() + "\n"
			}
			res := obj{{"type", "tool_result"}, {"name", tl.name}, {"content", evoResult(out)}, {"success", !g.pct(7)}}
			if !old {
				res = append(res, kv{"id", id})
			}
			g.emit(res)
		}
		if g.pct(3) {
			g.emit(obj{{"type", "tool_selection"}, {"tools", []any{"read_file", "grep", "execute"}}})
		}
		if g.pct(2) {
			g.emit(obj{{"type", "summarization_start"}})
			g.emit(obj{{"type", "summarization"}, {"content", g.sentence(40)}})
		}
	}
	if cut {
		return
	}
	if g.pct(8) {
		g.emit(obj{{"type", "error"}, {"message", g.pick([]string{"provider timed out", "Rate limit exceeded — retry later", "context window exceeded"})}})
		return
	}
	if text.Len() == 0 {
		text.WriteString("done")
	}
	s := text.String()
	g.emit(obj{{"type", "done"}, {"content", s}, {"response", s}})
}

func (g *gen) evoSubagent(old bool) {
	id := g.callID()
	name := g.pick([]string{"researcher", "coder", "reviewer"})
	desc := g.sentence(6)
	g.emit(obj{{"type", "tool_call"}, {"name", "task"}, {"args", obj{{"description", desc}, {"subagent_type", name}}}, {"id", id}})
	inst := fmt.Sprintf("sa_%x", g.rng.Uint32())
	with := func(o obj) obj {
		if !old {
			o = append(o, kv{"instance_id", inst})
		}
		return o
	}
	start := obj{{"type", "subagent_start"}, {"name", name}, {"description", desc}}
	if !old {
		start = append(start, kv{"instance_id", inst}, kv{"tool_call_id", id})
	}
	g.emit(start)
	for i, n := 0, 1+g.rng.IntN(4); i < n; i++ {
		tl := evoTools[g.rng.IntN(3)]
		sid := g.callID()
		g.emit(with(obj{{"type", "subagent_tool_call"}, {"subagent", name}, {"name", tl.name}, {"args", tl.args(g)}, {"id", sid}}))
		g.emit(with(obj{{"type", "subagent_tool_result"}, {"subagent", name}, {"name", tl.name}, {"content", evoResult(g.output(g.resultSize()))}, {"success", true}, {"id", sid}}))
		for j, m := 0, 2+g.rng.IntN(10); j < m; j++ {
			g.emit(with(obj{{"type", "subagent_text"}, {"subagent", name}, {"content", g.delta()}}))
		}
	}
	g.emit(with(obj{{"type", "subagent_end"}, {"name", name}}))
	res := obj{{"type", "tool_result"}, {"name", "task"}, {"content", g.sentence(30)}, {"success", true}}
	if !old {
		res = append(res, kv{"id", id})
	}
	g.emit(res)
}

// zero builds a Zero event: empty strings, false and null are omitted
// (omitempty) except for the bools Zero holds as pointers, which it
// writes when set, false included.
func zero(typ, runID string, fields ...kv) obj {
	o := obj{{"schemaVersion", 2}, {"type", typ}, {"runId", runID}}
	for _, f := range fields {
		switch v := f.v.(type) {
		case nil:
			continue
		case string:
			if v == "" {
				continue
			}
		case bool:
			if !v && f.k != "truncated" && f.k != "permissionGranted" && f.k != "recoverable" && f.k != "redacted" {
				continue
			}
		}
		o = append(o, f)
	}
	return o
}

var zeroTools = []struct{ name, side string }{
	{"read_file", "read"}, {"read_file", "read"}, {"list_dir", "read"}, {"grep", "read"}, {"glob", "read"},
	{"write_file", "write"}, {"edit_file", "write"}, {"bash", "shell"}, {"web_fetch", "network"}, {"todo_write", "none"},
}

var riskOf = map[string]string{"read": "low", "none": "low", "write": "medium", "shell": "high", "network": "high"}

func (g *gen) zeroArgs(name string) obj {
	switch name {
	case "read_file", "list_dir":
		return obj{{"path", g.path()}}
	case "grep", "glob":
		return obj{{"pattern", g.pick(words)}, {"path", "."}}
	case "write_file":
		return obj{{"path", g.path()}, {"content", g.output(100 + g.rng.IntN(1500))}}
	case "edit_file":
		return obj{{"path", g.path()}, {"old", g.sentence(5)}, {"new", g.sentence(6)}}
	case "bash":
		return obj{{"command", g.pick([]string{"go test ./...", "ls -la", "git diff --stat", "make build && ./bin/app --help"})}, {"timeoutMs", 120000}}
	case "web_fetch":
		return obj{{"url", "https://example.org/" + g.pick(words)}}
	}
	return obj{{"todos", []any{obj{{"content", g.sentence(4)}, {"status", "pending"}}}}}
}

// zeroOutput caps output as Zero does: 10 KiB, then a marker.
func zeroOutput(s string) (string, bool) {
	if len(s) <= 10240 {
		return s, false
	}
	s = s[:10240]
	for !validEnd(s) {
		s = s[:len(s)-1]
	}
	return s + Zero.Truncated, true
}

// zeroRun writes one Zero run; cut leaves it without its end.
func (g *gen) zeroRun(run int, cut bool) {
	runID := fmt.Sprintf("run_20260603%06d_%06x", run%1000000, g.rng.IntN(1<<24))
	model := g.pick([]string{"gpt-4.1", "claude-sonnet-4", "qwen3-coder"})
	g.emit(zero("run_start", runID, kv{"sessionId", fmt.Sprintf("zero_20260603100000_%d_%d", 1780000000000000000+int64(run)*7919, run)},
		kv{"cwd", "/home/dev/project"}, kv{"provider", "openai"}, kv{"model", model}, kv{"apiModel", model}))
	var text strings.Builder
	seq := 0
	turns := 2 + g.rng.IntN(8)
	for turn := 0; turn < turns; turn++ {
		for i, n := 0, 3+g.rng.IntN(30); i < n; i++ {
			g.emit(zero("reasoning", runID, kv{"delta", g.delta()}))
		}
		for i, n := 0, 1+g.rng.IntN(15); i < n; i++ {
			d := g.delta()
			text.WriteString(d)
			g.emit(zero("text", runID, kv{"delta", d}))
		}
		for c, n := 0, g.rng.IntN(4); c < n; c++ {
			tl := zeroTools[g.rng.IntN(len(zeroTools))]
			id := g.callID()
			args := g.zeroArgs(tl.name)
			g.emit(zero("tool_call", runID, kv{"id", id}, kv{"name", tl.name}, kv{"args", args}, kv{"sideEffect", tl.side}))
			if tl.side == "write" {
				seq++
				g.emit(zero("checkpoint", runID, kv{"checkpoint", obj{{"sequence", seq}, {"tool", tl.name}, {"files", []any{args[0].v}}}}))
			}
			status := "ok"
			if tl.side == "write" || tl.side == "shell" {
				if g.pct(30) {
					risk := obj{{"level", riskOf[tl.side]}}
					g.emit(zero("permission_request", runID, kv{"id", id}, kv{"name", tl.name}, kv{"action", "prompt"}, kv{"permission", "prompt"},
						kv{"permissionGranted", false}, kv{"permissionMode", "ask"}, kv{"sideEffect", tl.side},
						kv{"reason", "Tool " + tl.name + " needs approval"}, kv{"risk", risk}))
					action, granted := "allow", true
					if g.pct(15) {
						action, granted, status = "deny", false, "error"
					}
					g.emit(zero("permission_decision", runID, kv{"id", id}, kv{"name", tl.name}, kv{"action", action}, kv{"permission", "prompt"},
						kv{"permissionGranted", granted}, kv{"decisionReason", "answered in TUI"}, kv{"risk", risk}))
				}
			}
			if g.pct(5) {
				status = "error"
			}
			out, cutOut := zeroOutput(g.output(g.resultSize() + g.rng.IntN(2000)))
			g.emit(zero("tool_result", runID, kv{"id", id}, kv{"name", tl.name}, kv{"status", status}, kv{"output", out}, kv{"truncated", cutOut}))
		}
		prompt := 500 + g.rng.IntN(60000)
		done := 1 + g.rng.IntN(4000)
		g.emit(zero("usage", runID, kv{"promptTokens", prompt}, kv{"completionTokens", done}, kv{"totalTokens", prompt + done}))
		if g.pct(3) {
			g.emit(zero("warning", runID, kv{"message", "provider retry: " + g.sentence(4)}))
		}
	}
	if cut {
		return
	}
	switch r := g.rng.IntN(100); {
	case r < 85:
		g.emit(zero("final", runID, kv{"text", text.String()}))
		g.emit(zero("run_end", runID, kv{"status", "success"}, kv{"exitCode", 0}))
	case r < 93:
		g.emit(zero("error", runID, kv{"code", "provider_error"}, kv{"message", "503 from provider"}, kv{"recoverable", false}))
		g.emit(zero("run_end", runID, kv{"status", "error"}, kv{"exitCode", 3}))
	case r < 97:
		g.emit(zero("final", runID, kv{"text", text.String()}))
		g.emit(zero("error", runID, kv{"code", "incomplete"}, kv{"message", "run did not finish"}, kv{"recoverable", false}))
		g.emit(zero("run_end", runID, kv{"status", "incomplete"}, kv{"exitCode", 4}))
	default:
		g.emit(zero("run_end", runID, kv{"status", "interrupted"}, kv{"exitCode", 130}))
	}
}

// WriteHuge writes one event of the protocol holding a single string of
// about size bytes: a tool result with a huge output.
func WriteHuge(w io.Writer, p Protocol, size int) error {
	enc := encoder{python: p.Style == jsonl.PythonStyle}
	body := strings.Repeat("0123456789abcdef line of output\n", size/32+1)[:size]
	var o obj
	if p == EvoSci {
		o = obj{{"type", "tool_result"}, {"name", "execute"}, {"content", body}, {"success", true}, {"id", "call_1"}}
	} else {
		o = zero("tool_result", "run_20260603100000_abcdef", kv{"id", "call_1"}, kv{"name", "bash"}, kv{"status", "ok"}, kv{"output", body}, kv{"truncated", false})
	}
	b := enc.value(nil, o)
	b = append(b, '\n')
	_, err := w.Write(b)
	return err
}
