package zero

import (
	"fmt"
	"io"
	"strings"

	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/internal/corpusgen"
	"github.com/zevo/zevo/jsonl"
)

// corpus generates Zero streams (schemaVersion 2) as its CLI writes them,
// with Go's encoding/json.
var corpus = &event.Corpus{
	Write: func(w io.Writer, size int64, seed uint64) (int64, error) {
		return corpusgen.Write(w, jsonl.GoStyle, size, seed, corpusRun)
	},
	Huge: func(w io.Writer, size int) error {
		body := corpusgen.HugeText(size)
		return corpusgen.WriteLine(w, jsonl.GoStyle, corpusEvent("tool_result", "run_20260603100000_abcdef", "id", "call_1", "name", "bash", "status", "ok", "output", body, "truncated", false))
	},
}

type obj = corpusgen.Obj

// truncatedMark is what Zero appends to a tool output it cut at 10 KiB.
const truncatedMark = "\n[truncated]"

// corpusEvent builds an event: empty strings, false and null are omitted
// (omitempty) except for the bools Zero holds as pointers, which it
// writes when set, false included.
func corpusEvent(typ, runID string, fields ...any) obj {
	o := obj{"schemaVersion", 2, "type", typ, "runId", runID}
	for i := 0; i+1 < len(fields); i += 2 {
		k := fields[i].(string)
		switch v := fields[i+1].(type) {
		case nil:
			continue
		case string:
			if v == "" {
				continue
			}
		case bool:
			if !v && k != "truncated" && k != "permissionGranted" && k != "recoverable" && k != "redacted" {
				continue
			}
		}
		o = append(o, k, fields[i+1])
	}
	return o
}

var corpusTools = []struct{ name, side string }{
	{"read_file", "read"}, {"read_file", "read"}, {"list_dir", "read"}, {"grep", "read"}, {"glob", "read"},
	{"write_file", "write"}, {"edit_file", "write"}, {"bash", "shell"}, {"web_fetch", "network"}, {"todo_write", "none"},
}

// riskOf is the risk level Zero states for a side effect.
func riskOf(side string) string {
	switch side {
	case "write":
		return "medium"
	case "shell", "network":
		return "high"
	}
	return "low"
}

func corpusArgs(g *corpusgen.Gen, name string) obj {
	switch name {
	case "read_file", "list_dir":
		return obj{"path", g.Path()}
	case "grep", "glob":
		return obj{"pattern", g.Word(), "path", "."}
	case "write_file":
		return obj{"path", g.Path(), "content", g.Output(100 + g.Rand.IntN(1500))}
	case "edit_file":
		return obj{"path", g.Path(), "old", g.Sentence(5), "new", g.Sentence(6)}
	case "bash":
		return obj{"command", g.Pick([]string{"go test ./...", "ls -la", "git diff --stat", "make build && ./bin/app --help"}), "timeoutMs", 120000}
	case "web_fetch":
		return obj{"url", "https://example.org/" + g.Word()}
	}
	return obj{"todos", []any{obj{"content", g.Sentence(4), "status", "pending"}}}
}

// cutOutput caps output as Zero does: 10 KiB, then a marker.
func cutOutput(s string) (string, bool) {
	if len(s) <= 10240 {
		return s, false
	}
	s = s[:10240]
	for !corpusgen.ValidEnd(s) {
		s = s[:len(s)-1]
	}
	return s + truncatedMark, true
}

// corpusRun writes one run; cut leaves it without its end.
func corpusRun(g *corpusgen.Gen, run int, cut bool) {
	runID := fmt.Sprintf("run_20260603%06d_%06x", run%1000000, g.Rand.IntN(1<<24))
	model := g.Pick([]string{"gpt-4.1", "claude-sonnet-4", "qwen3-coder"})
	g.Emit(corpusEvent("run_start", runID, "sessionId", fmt.Sprintf("zero_20260603100000_%d_%d", 1780000000000000000+int64(run)*7919, run),
		"cwd", "/home/dev/project", "provider", "openai", "model", model, "apiModel", model))
	var text strings.Builder
	seq := 0
	turns := 2 + g.Rand.IntN(8)
	for turn := 0; turn < turns; turn++ {
		for i, n := 0, 3+g.Rand.IntN(30); i < n; i++ {
			g.Emit(corpusEvent("reasoning", runID, "delta", g.Delta()))
		}
		for i, n := 0, 1+g.Rand.IntN(15); i < n; i++ {
			d := g.Delta()
			text.WriteString(d)
			g.Emit(corpusEvent("text", runID, "delta", d))
		}
		for c, n := 0, g.Rand.IntN(4); c < n; c++ {
			tl := corpusTools[g.Rand.IntN(len(corpusTools))]
			id := g.CallID()
			args := corpusArgs(g, tl.name)
			g.Emit(corpusEvent("tool_call", runID, "id", id, "name", tl.name, "args", args, "sideEffect", tl.side))
			if tl.side == "write" {
				seq++
				g.Emit(corpusEvent("checkpoint", runID, "checkpoint", obj{"sequence", seq, "tool", tl.name, "files", []any{args[1]}}))
			}
			status := "ok"
			if tl.side == "write" || tl.side == "shell" {
				if g.Pct(30) {
					risk := obj{"level", riskOf(tl.side)}
					g.Emit(corpusEvent("permission_request", runID, "id", id, "name", tl.name, "action", "prompt", "permission", "prompt",
						"permissionGranted", false, "permissionMode", "ask", "sideEffect", tl.side,
						"reason", "Tool "+tl.name+" needs approval", "risk", risk))
					action, granted := "allow", true
					if g.Pct(15) {
						action, granted, status = "deny", false, "error"
					}
					g.Emit(corpusEvent("permission_decision", runID, "id", id, "name", tl.name, "action", action, "permission", "prompt",
						"permissionGranted", granted, "decisionReason", "answered in TUI", "risk", risk))
				}
			}
			if g.Pct(5) {
				status = "error"
			}
			out, cutOut := cutOutput(g.Output(g.ResultSize() + g.Rand.IntN(2000)))
			g.Emit(corpusEvent("tool_result", runID, "id", id, "name", tl.name, "status", status, "output", out, "truncated", cutOut))
		}
		prompt := 500 + g.Rand.IntN(60000)
		done := 1 + g.Rand.IntN(4000)
		g.Emit(corpusEvent("usage", runID, "promptTokens", prompt, "completionTokens", done, "totalTokens", prompt+done))
		if g.Pct(3) {
			g.Emit(corpusEvent("warning", runID, "message", "provider retry: "+g.Sentence(4)))
		}
	}
	if cut {
		return
	}
	switch r := g.Rand.IntN(100); {
	case r < 85:
		g.Emit(corpusEvent("final", runID, "text", text.String()))
		g.Emit(corpusEvent("run_end", runID, "status", "success", "exitCode", 0))
	case r < 93:
		g.Emit(corpusEvent("error", runID, "code", "provider_error", "message", "503 from provider", "recoverable", false))
		g.Emit(corpusEvent("run_end", runID, "status", "error", "exitCode", 3))
	case r < 97:
		g.Emit(corpusEvent("final", runID, "text", text.String()))
		g.Emit(corpusEvent("error", runID, "code", "incomplete", "message", "run did not finish", "recoverable", false))
		g.Emit(corpusEvent("run_end", runID, "status", "incomplete", "exitCode", 4))
	default:
		g.Emit(corpusEvent("run_end", runID, "status", "interrupted", "exitCode", 130))
	}
}
