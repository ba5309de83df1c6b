package translate

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"

	"github.com/zevo/zevo/jsonl"
)

// Random streams for the round-trip property, written as the producers
// write them.

var words = []string{
	"plan", "read", "README.md", "café", "中文", "🚀 launch", `say "hi"`, `back\slash`,
	"line\nbreak", "tab\there", "<b>&amp;</b>", "\u2028sep", "x", "task-list", "a b c",
	"", "  ", "ok", "Done — notes.md", "\u0001ctl",
}

func word(r *rand.Rand) string {
	n := 1 + r.Intn(3)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = words[r.Intn(len(words))]
	}
	return strings.Join(parts, " ")
}

func nonEmpty(r *rand.Rand) string {
	if s := word(r); strings.TrimSpace(s) != "" {
		return s
	}
	return "text"
}

func args(r *rand.Rand) map[string]any {
	m := map[string]any{"path": word(r)}
	switch r.Intn(4) {
	case 0:
		m["limit"] = json.Number("18446744073709551617")
	case 1:
		m["nested"] = map[string]any{"list": []any{1, 2.5, true, nil, word(r)}, "e": json.Number("1e400")}
	case 2:
		m["n"] = json.Number("-0")
	}
	return m
}

// evoLine writes kv pairs as Python's json.dumps would: type first, ", "
// and ": ", non-ASCII escaped.
func evoLine(kv ...any) string {
	var b []byte
	b = append(b, '{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b = append(b, ", "...)
		}
		v, err := json.Marshal(kv[i+1])
		if err != nil {
			panic(err)
		}
		b = jsonl.AppendString(b, kv[i].(string), jsonl.PythonStyle)
		b = append(b, ": "...)
		b, err = jsonl.AppendValue(b, v, jsonl.PythonStyle, nil)
		if err != nil {
			panic(err)
		}
	}
	return string(append(b, '}'))
}

var evoTools = []string{"read_file", "write_file", "execute", "grep", "task", "web_search", "my_tool"}

func genEvo(r *rand.Rand) []byte {
	var lines []string
	add := func(kv ...any) { lines = append(lines, evoLine(kv...)) }
	runs := 1 + r.Intn(3)
	call := 0
	for run := 0; run < runs; run++ {
		var text strings.Builder
		type pc struct{ id, name string }
		var pending []pc
		for n := r.Intn(16); n > 0; n-- {
			switch r.Intn(12) {
			case 0:
				add("type", "thinking", "content", nonEmpty(r), "id", 0)
			case 1, 2:
				s := nonEmpty(r)
				text.WriteString(s)
				add("type", "text", "content", s)
			case 3:
				call++
				c := pc{fmt.Sprintf("call_%d", call), evoTools[r.Intn(len(evoTools))]}
				pending = append(pending, c)
				add("type", "tool_call", "name", c.name, "args", args(r), "id", c.id)
			case 4:
				if len(pending) == 0 {
					continue
				}
				i := r.Intn(len(pending))
				c := pending[i]
				pending = append(pending[:i], pending[i+1:]...)
				content := word(r)
				if r.Intn(4) == 0 {
					content += "\n... (truncated)"
				}
				add("type", "tool_result", "name", c.name, "content", content, "success", r.Intn(2) == 0, "id", c.id)
			case 5:
				add("type", "usage_stats", "input_tokens", 1+r.Intn(9000), "output_tokens", 1+r.Intn(900))
			case 6:
				inst := fmt.Sprintf("inst_%d", r.Intn(9))
				add("type", "subagent_start", "name", "researcher", "description", word(r), "instance_id", inst, "tool_call_id", "call_x")
				add("type", "subagent_text", "subagent", "researcher", "content", word(r), "instance_id", inst)
				add("type", "subagent_end", "name", "researcher", "instance_id", inst)
			case 7:
				add("type", "tool_selection", "tools", []string{"read_file", "grep"})
			case 8:
				add("type", "summarization_start")
				add("type", "summarization", "content", word(r))
			case 9:
				var reqs []any
				for k := 1 + r.Intn(3); k > 0; k-- {
					req := map[string]any{"name": evoTools[r.Intn(len(evoTools))], "args": args(r)}
					if r.Intn(2) == 0 {
						req["description"] = word(r)
					}
					reqs = append(reqs, req)
				}
				add("type", "interrupt", "interrupt_id", fmt.Sprintf("int_%d", r.Intn(99)), "action_requests", reqs,
					"review_configs", []any{map[string]any{"action_name": "write_file", "allowed_decisions": []string{"approve", "edit", "reject"}}})
			case 10:
				add("type", "ask_user", "interrupt_id", "ask_1", "questions", []any{map[string]any{"question": word(r), "type": "text"}}, "tool_call_id", "call_q")
			case 11:
				add("type", "panel_dispatch_start", "eval_id", "ev_1", "label", word(r))
			}
		}
		switch k := r.Intn(5); {
		case k <= 2:
			add("type", "done", "content", text.String(), "response", text.String())
		case k == 3:
			add("type", "error", "message", nonEmpty(r))
		default:
			if run == runs-1 {
				continue // the producer was killed
			}
			add("type", "done", "content", text.String(), "response", text.String())
		}
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// zeroLine writes an event as Zero does: Go's encoding/json of a map.
func zeroLine(m map[string]any) string {
	m["schemaVersion"] = 2
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

var zeroTools = []string{"read_file", "write_file", "bash", "grep", "web_fetch"}

func genZero(r *rand.Rand) []byte {
	var lines []string
	runs := 1 + r.Intn(3)
	call := 0
	for run := 0; run < runs; run++ {
		id := fmt.Sprintf("run_20261129101500_%06x", r.Intn(1<<24))
		add := func(m map[string]any) {
			m["runId"] = id
			lines = append(lines, zeroLine(m))
		}
		if r.Intn(8) == 0 { // a failure before the run starts
			add(map[string]any{"type": "error", "code": "usage_error", "message": nonEmpty(r), "recoverable": false})
			add(map[string]any{"type": "run_end", "status": "error", "exitCode": 2})
			continue
		}
		start := map[string]any{"type": "run_start", "cwd": "/repo", "provider": "openai", "model": "gpt-4.1", "apiModel": "gpt-4.1"}
		if r.Intn(2) == 0 {
			start["sessionId"] = "zero_20261129101500_1780000000000000000_1"
		}
		add(start)
		var text strings.Builder
		type pc struct{ id, name string }
		var pending []pc
		for n := r.Intn(16); n > 0; n-- {
			switch r.Intn(10) {
			case 0:
				add(map[string]any{"type": "reasoning", "delta": nonEmpty(r)})
			case 1, 2:
				s := nonEmpty(r)
				text.WriteString(s)
				add(map[string]any{"type": "text", "delta": s})
			case 3:
				call++
				c := pc{fmt.Sprintf("call_%d", call), zeroTools[r.Intn(len(zeroTools))]}
				pending = append(pending, c)
				m := map[string]any{"type": "tool_call", "id": c.id, "name": c.name, "sideEffect": "read"}
				if r.Intn(4) > 0 {
					m["args"] = args(r)
				}
				add(m)
			case 4:
				if len(pending) == 0 {
					continue
				}
				// the earliest pending call of a name, as Zero asks in order
				c := pending[r.Intn(len(pending))]
				for _, p := range pending {
					if p.name == c.name {
						c = p
						break
					}
				}
				m := map[string]any{"type": "permission_request", "id": c.id, "name": c.name, "action": "prompt", "permission": "prompt",
					"permissionGranted": false, "permissionMode": "ask", "sideEffect": "write", "risk": map[string]any{"level": "medium"}}
				if r.Intn(2) == 0 {
					m["reason"] = nonEmpty(r)
				}
				add(m)
				if r.Intn(2) == 0 {
					add(map[string]any{"type": "permission_decision", "id": c.id, "name": c.name, "action": "allow", "permission": "prompt",
						"permissionGranted": true, "decisionReason": "approved", "risk": map[string]any{"level": "medium"}})
				}
			case 5:
				if len(pending) == 0 {
					continue
				}
				i := r.Intn(len(pending))
				c := pending[i]
				pending = append(pending[:i], pending[i+1:]...)
				m := map[string]any{"type": "tool_result", "id": c.id, "status": []string{"ok", "error"}[r.Intn(2)], "truncated": r.Intn(3) == 0}
				if r.Intn(3) > 0 {
					m["name"] = c.name
				}
				if s := word(r); s != "" {
					m["output"] = s
				}
				if r.Intn(3) == 0 {
					m["meta"] = map[string]any{"exit": "0"}
				}
				add(m)
			case 6:
				p, c := r.Intn(9000), r.Intn(900)
				m := map[string]any{"type": "usage", "promptTokens": p, "completionTokens": c, "totalTokens": p + c}
				if r.Intn(2) == 0 {
					m["costUsd"] = 0.0125
				}
				add(m)
			case 7:
				add(map[string]any{"type": "checkpoint", "checkpoint": map[string]any{"sequence": 1, "tool": "write_file", "files": []string{"x"}}})
			case 8:
				add(map[string]any{"type": "warning", "message": word(r)})
			case 9:
				add(map[string]any{"type": "permission", "id": "call_0", "name": "read_file", "action": "auto", "permission": "allow",
					"permissionGranted": true, "permissionMode": "auto", "risk": map[string]any{"level": "low"}})
			}
		}
		final := func() {
			m := map[string]any{"type": "final"}
			if text.Len() > 0 {
				m["text"] = text.String()
			}
			add(m)
		}
		switch k := r.Intn(7); k {
		case 0, 1:
			final()
			add(map[string]any{"type": "run_end", "status": "success", "exitCode": 0})
		case 2:
			add(map[string]any{"type": "run_end", "status": "success", "exitCode": 0}) // no final
		case 3:
			final()
			add(map[string]any{"type": "run_end", "status": "spec_review_required", "exitCode": 0})
		case 4:
			add(map[string]any{"type": "error", "code": "provider_error", "message": nonEmpty(r), "recoverable": false})
			add(map[string]any{"type": "run_end", "status": "error", "exitCode": 3})
		case 5:
			final()
			add(map[string]any{"type": "error", "code": "incomplete", "message": nonEmpty(r), "recoverable": false})
			add(map[string]any{"type": "run_end", "status": "incomplete", "exitCode": 4})
		case 6:
			if run == runs-1 {
				continue // killed: no run_end
			}
			add(map[string]any{"type": "run_end", "status": "interrupted", "exitCode": 130})
		}
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}
