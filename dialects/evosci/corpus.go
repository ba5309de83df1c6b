package evosci

import (
	"fmt"
	"io"
	"strings"

	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/internal/corpusgen"
	"github.com/zevo/zevo/jsonl"
)

// corpus generates EvoScientist streams as its CLI writes them, with
// Python's json.dumps.
var corpus = &event.Corpus{
	Write: func(w io.Writer, size int64, seed uint64) (int64, error) {
		return corpusgen.Write(w, jsonl.PythonStyle, size, seed, corpusRun)
	},
	Huge: func(w io.Writer, size int) error {
		body := corpusgen.HugeText(size)
		return corpusgen.WriteLine(w, jsonl.PythonStyle, obj{"type", "tool_result", "name", "execute", "content", body, "success", true, "id", "call_1"})
	},
}

type obj = corpusgen.Obj

type corpusToolDef struct {
	name string
	args func(g *corpusgen.Gen) obj
}

var corpusTools = []corpusToolDef{
	{"read_file", func(g *corpusgen.Gen) obj { return obj{"path", g.Path()} }},
	{"ls", func(g *corpusgen.Gen) obj { return obj{"path", g.Pick([]string{".", "src", "docs"})} }},
	{"grep", func(g *corpusgen.Gen) obj { return obj{"pattern", g.Word(), "path", ".", "glob", "*.py"} }},
	{"write_file", func(g *corpusgen.Gen) obj {
		return obj{"path", g.Path(), "content", g.Output(100 + g.Rand.IntN(1500))}
	}},
	{"edit_file", func(g *corpusgen.Gen) obj {
		return obj{"path", g.Path(), "old_string", g.Sentence(5), "new_string", g.Sentence(6), "replace_all", g.Pct(10)}
	}},
	{"execute", func(g *corpusgen.Gen) obj {
		cmd := g.Pick([]string{"python -m pytest -q", "ls -la", "git status", "pip install -e .", "make test"})
		if g.Pct(8) {
			cmd = g.Secret()
		}
		return obj{"command", cmd, "timeout", 120}
	}},
	{"web_search", func(g *corpusgen.Gen) obj { return obj{"query", g.Sentence(4), "max_results", 5} }},
	{"fetch_url", func(g *corpusgen.Gen) obj {
		o := obj{"url", "https://example.org/" + g.Word()}
		if g.Pct(15) {
			o = append(o, "headers", obj{"Authorization", fmt.Sprintf("Bearer %016x", g.Rand.Uint64()), "Accept", "text/html"})
		}
		return o
	}},
	{"think_tool", func(g *corpusgen.Gen) obj { return obj{"reflection", g.Sentence(20)} }},
	{"write_todos", func(g *corpusgen.Gen) obj {
		return obj{"todos", []any{obj{"content", g.Sentence(4), "status", "pending"}, obj{"content", g.Sentence(3), "status", "completed"}}}
	}},
	{"mcp_deploy", func(g *corpusgen.Gen) obj {
		return obj{"service", g.Word(), "api_key", fmt.Sprintf("%016x", g.Rand.Uint64()), "replicas", 2}
	}},
}

func corpusTool(g *corpusgen.Gen) corpusToolDef {
	// Reads dominate real sessions.
	if g.Pct(40) {
		return corpusTools[g.Rand.IntN(3)]
	}
	return corpusTools[g.Rand.IntN(len(corpusTools))]
}

// risky tools are the ones a permission prompt is shown for.
func risky(name string) bool {
	return name == "write_file" || name == "edit_file" || name == "execute" || name == "mcp_deploy"
}

// cutOutput cuts content as EvoScientist does: 2000 characters, then a marker.
func cutOutput(s string) string {
	n := 0
	for i := range s {
		if n == 2000 {
			return s[:i] + truncated
		}
		n++
	}
	return s
}

// corpusRun writes one run; end leaves it without its end.
func corpusRun(g *corpusgen.Gen, _ int, end bool) {
	old := g.Pct(10) // EvoScientist 0.1.x: no ids on results and sub-agent events
	var text strings.Builder
	turns := 2 + g.Rand.IntN(8)
	for turn := 0; turn < turns; turn++ {
		for i, n := 0, 3+g.Rand.IntN(30); i < n; i++ {
			g.Emit(obj{"type", "thinking", "content", g.Delta(), "id", 0})
		}
		for i, n := 0, 1+g.Rand.IntN(15); i < n; i++ {
			d := g.Delta()
			text.WriteString(d)
			g.Emit(obj{"type", "text", "content", d})
		}
		g.Emit(obj{"type", "usage_stats", "input_tokens", 500 + g.Rand.IntN(60000), "output_tokens", 1 + g.Rand.IntN(4000)})
		for c, n := 0, g.Rand.IntN(4); c < n; c++ {
			if g.Pct(6) {
				corpusSubagent(g, old)
				continue
			}
			tl := corpusTool(g)
			id := g.CallID()
			args := tl.args(g)
			g.Emit(obj{"type", "tool_call", "name", tl.name, "args", args, "id", id})
			if risky(tl.name) && g.Pct(8) && !end {
				// --no-auto-mode: the run stops at the prompt.
				g.Emit(obj{"type", "interrupt", "interrupt_id", fmt.Sprintf("int_%x", g.Rand.Uint32()),
					"action_requests", []any{obj{"name", tl.name, "args", args, "description", "Tool " + tl.name + " requires approval: " + g.Sentence(5)}},
					"review_configs", []any{obj{"action_name", tl.name, "allowed_decisions", []any{"approve", "edit", "reject"}}}})
				s := text.String()
				g.Emit(obj{"type", "done", "content", s, "response", s})
				return
			}
			out := g.Output(g.ResultSize())
			if g.Pct(3) {
				out += "\n" + g.Secret() + "\n"
			}
			res := obj{"type", "tool_result", "name", tl.name, "content", cutOutput(out), "success", !g.Pct(7)}
			if !old {
				res = append(res, "id", id)
			}
			g.Emit(res)
		}
		if g.Pct(3) {
			g.Emit(obj{"type", "tool_selection", "tools", []any{"read_file", "grep", "execute"}})
		}
		if g.Pct(2) {
			g.Emit(obj{"type", "summarization_start"})
			g.Emit(obj{"type", "summarization", "content", g.Sentence(40)})
		}
	}
	if end {
		return
	}
	if g.Pct(8) {
		g.Emit(obj{"type", "error", "message", g.Pick([]string{"provider timed out", "Rate limit exceeded — retry later", "context window exceeded"})})
		return
	}
	if text.Len() == 0 {
		text.WriteString("done")
	}
	s := text.String()
	g.Emit(obj{"type", "done", "content", s, "response", s})
}

func corpusSubagent(g *corpusgen.Gen, old bool) {
	id := g.CallID()
	name := g.Pick([]string{"researcher", "coder", "reviewer"})
	desc := g.Sentence(6)
	g.Emit(obj{"type", "tool_call", "name", "task", "args", obj{"description", desc, "subagent_type", name}, "id", id})
	inst := fmt.Sprintf("sa_%x", g.Rand.Uint32())
	with := func(o obj) obj {
		if !old {
			o = append(o, "instance_id", inst)
		}
		return o
	}
	start := obj{"type", "subagent_start", "name", name, "description", desc}
	if !old {
		start = append(start, "instance_id", inst, "tool_call_id", id)
	}
	g.Emit(start)
	for i, n := 0, 1+g.Rand.IntN(4); i < n; i++ {
		tl := corpusTools[g.Rand.IntN(3)]
		sid := g.CallID()
		g.Emit(with(obj{"type", "subagent_tool_call", "subagent", name, "name", tl.name, "args", tl.args(g), "id", sid}))
		g.Emit(with(obj{"type", "subagent_tool_result", "subagent", name, "name", tl.name, "content", cutOutput(g.Output(g.ResultSize())), "success", true, "id", sid}))
		for j, m := 0, 2+g.Rand.IntN(10); j < m; j++ {
			g.Emit(with(obj{"type", "subagent_text", "subagent", name, "content", g.Delta()}))
		}
	}
	g.Emit(with(obj{"type", "subagent_end", "name", name}))
	res := obj{"type", "tool_result", "name", "task", "content", g.Sentence(30), "success", true}
	if !old {
		res = append(res, "id", id)
	}
	g.Emit(res)
}
