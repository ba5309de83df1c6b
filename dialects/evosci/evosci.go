// Package evosci is the dialect of EvoScientist's stream-json. See doc.md
// for what each line becomes.
package evosci

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// Name is the dialect's name.
const Name = "evosci"

// Dialect is EvoScientist's stream-json.
var Dialect = &event.Dialect{
	Name:       Name,
	Aliases:    []string{"evoscientist"},
	Title:      "EvoScientist",
	Provider:   "evoscientist",
	Effects:    effects,
	Tables:     map[string][]byte{"zero": toZero},
	Style:      jsonl.PythonStyle,
	Unredacted: true, // translated into, the stream as EvoScientist writes it
	Source:     true,
	Foreign:    `has "schemaVersion": a Zero event, not EvoScientist (--from evosci)`,
	Layouts:    Layouts,
	Versions:   versions,
	DetectLine: detectLine,
	NewEncoder: newEncoder,
	Outcome:    outcome,
	// Its CLI has no code for a run that did not finish: a failed run
	// is 1. Ctrl-C's KeyboardInterrupt becomes 130 and nothing more is
	// written; SIGTERM, for which it has no handler, kills it (143).
	Exits:      event.Exits{Open: 1, Interrupt: 130, Terminate: 143, Quiet: true},
	NewDecoder: func(opt event.DecodeOptions) event.Decoder { return &Decoder{opt: opt} },
	NewRules:   newRules,
	Agent:      "evoscientist",
	// A line is one event: one tool call at most.
	OneCallPerLine: true,
	// Its encoder writes a Zero tool output's Go spelling in Python's
	// without unescaping it first.
	Respells: true,
	Corpus:   corpus,
}

// effects are what running the producer's own tools does.
var effects = map[string]event.Effect{
	"read_file": event.EffectRead, "ls": event.EffectRead, "glob": event.EffectRead, "grep": event.EffectRead,
	"write_file": event.EffectWrite, "edit_file": event.EffectWrite,
	"execute":       event.EffectShell,
	"tavily_search": event.EffectNetwork, "web_search": event.EffectNetwork, "fetch_url": event.EffectNetwork,
	"think_tool": event.EffectNone, "write_todos": event.EffectNone, "ask_user": event.EffectNone,
}

// isType tells EvoScientist's event types: the documented ones and the
// undocumented panel_dispatch_* of 0.2.x. A switch, not a map: it is
// asked of every line of every input, and needs no hash.
func isType(t string) bool {
	switch t {
	case "thinking", "text", "tool_call", "tool_result",
		"subagent_start", "subagent_tool_call", "subagent_tool_result",
		"subagent_text", "subagent_end", "tool_selection",
		"summarization_start", "summarization", "usage_stats",
		"interrupt", "ask_user", "error", "done",
		"panel_dispatch_start", "panel_dispatch_complete", "panel_dispatch_error":
		return true
	}
	return false
}

// detectLine: a line of one of EvoScientist's types is Maybe its (other
// producers write {"type":"text"} and {"type":"error"} too), never a line
// with schemaVersion (Zero's).
// The type first: it is asked of every line of every input, and the type
// comes first in most lines, schemaVersion (absent) costs a whole scan.
func detectLine(l *event.Line) event.Certainty {
	typ, ok := l.Type()
	if !ok || !isType(typ) {
		return event.No
	}
	if l.Has("schemaVersion") {
		return event.No
	}
	return event.Maybe
}

// truncated is what EvoScientist appends to a tool's output it cut at
// 2000 characters.
const truncated = "\n... (truncated)"

// Decoder decodes one input's EvoScientist lines.
type Decoder struct {
	opt  event.DecodeOptions
	line event.Line // the line Decode reads
	// failed: the last line was an error, which ended its run (a done
	// right after it belongs to that run and ends nothing).
	failed bool
	// asked: the last line asked for an answer (interrupt, ask_user); a
	// done right after it ends the run interrupted (--no-auto-mode: the
	// run stops there, unanswered).
	asked bool
	// calls are the ids of the run's tool calls, to tell a call
	// announced again (Tool.Again); bounded by maxCalls.
	calls map[string]bool
}

// Decode appends the events of one line.
func (d *Decoder) Decode(dst []event.Event, line []byte, num int) ([]event.Event, error) {
	d.line.Reset(line)
	d.line.Check()
	return d.DecodeLine(dst, &d.line, num)
}

// DecodeLine is Decode of a line read already (event.LineDecoder), and
// checked (event.Line.Check): its fields are read once, for all the
// lookups below, and read as gjson reads them.
func (d *Decoder) DecodeLine(dst []event.Event, v *event.Line, num int) ([]event.Event, error) {
	line := v.Bytes
	if !v.IsObject() {
		return append(dst, event.Event{Kind: event.Other, Dialect: Name, Line: num, Raw: line}),
			fmt.Errorf("evosci: the line is not a JSON object")
	}
	var p event.Problems
	typ := p.Str(v, "type")
	if _, t := v.Str("type"); typ == "" && (t == gjson.Null || t == gjson.String) {
		p.Missing("type") // absent, null or "" (another type: Str noted it)
	}
	failed, asked := d.failed, d.asked
	d.failed, d.asked = false, false
	ev := event.Event{Dialect: Name, Type: typ, Line: num, Raw: line}
	switch typ {
	case "thinking", "text", "subagent_text":
		ev.Kind = event.Text
		if typ == "thinking" {
			ev.Kind = event.Reasoning
		}
		// EvoScientist's rules join the run's text events (done's
		// response says the same), and read no other text.
		ev.Text = p.Text(v, "content", d.opt.SkipText && typ != "text")
	case "subagent_start":
		ev.Kind, ev.Text = event.SubStart, p.Str(v, "description")
	case "subagent_end":
		ev.Kind = event.SubEnd
	case "tool_selection":
		ev.Kind, ev.Label = event.Notice, "tools selected"
		var names []string
		for _, t := range v.Get("tools").Array() {
			names = append(names, t.String())
		}
		ev.Text = strings.Join(names, ", ")
	case "summarization_start":
		ev.Kind = event.Compaction
	case "summarization":
		ev.Kind, ev.Text = event.Compaction, p.Str(v, "content")
	case "tool_call", "subagent_tool_call":
		ev.Kind = event.ToolCall
		name := p.Str(v, "name")
		ev.Tool = &event.Tool{ID: p.Str(v, "id"), Name: name, Effect: d.opt.EffectOf(name)}
		if typ == "tool_call" {
			ev.Tool.Again = d.seen(ev.Tool.ID)
		}
		switch a := v.Get("args"); {
		case a.IsObject():
			ev.Tool.Args = []byte(a.Raw)
		case a.Exists():
			p.WrongType("args", "object", a)
		}
	case "tool_result", "subagent_tool_result":
		ev.Kind = event.ToolResult
		out := p.Text(v, "content", d.opt.SkipText)
		ev.Tool = &event.Tool{ID: p.Str(v, "id"), Name: p.Str(v, "name"), Output: out,
			Failed: !boolean(&p, v, "success", true), Truncated: strings.HasSuffix(out, truncated)}
	case "usage_stats":
		ev.Kind = event.Usage
		ev.Usage = &event.Tokens{}
		ev.Usage.Input = p.Count(v, "input_tokens", &ev.Usage.Has, event.HasInput)
		in, inRaw := p.TakePast(), p.TakeRaw()
		ev.Usage.Output = p.Count(v, "output_tokens", &ev.Usage.Has, event.HasOutput)
		if out, outRaw := p.TakePast(), p.TakeRaw(); in != nil || out != nil || inRaw != "" || outRaw != "" {
			ev.Usage.Past = &event.PastCounts{Input: in, Output: out, InputRaw: inRaw, OutputRaw: outRaw}
		}
	case "interrupt":
		return d.interrupt(dst, ev, v, &p), p.Err(typ)
	case "ask_user":
		d.asked = true
		ev.Kind = event.PermissionRequest
		ev.Label = "question"
		ev.Permission = &event.Permission{ID: p.Str(v, "tool_call_id"), Tool: "ask_user", Questions: []event.Question{}}
		if ev.Permission.ID == "" {
			ev.Permission.ID = p.Str(v, "interrupt_id")
			ev.Permission.Interrupt = ev.Permission.ID
		}
		var qs []string
		all := v.Get("questions").Array()
		for _, q := range all {
			if s := q.Get("question"); s.Type == gjson.String {
				qs = append(qs, s.Str)
			}
			asked := event.Question{Text: q.Get("question").String()}
			for _, c := range q.Get("choices").Array() {
				asked.Choices = append(asked.Choices, c.Get("value").String())
			}
			ev.Permission.Questions = append(ev.Permission.Questions, asked)
		}
		ev.Permission.Reason = strings.Join(qs, "\n")
	case "error":
		clear(d.calls) // the run ends
		ev.Kind, ev.Text = event.Error, p.Str(v, "message")
		end := ev
		end.Kind, end.Text, end.Status, end.StatusWord = event.RunEnd, "", event.StatusError, "error"
		d.failed = true
		return append(dst, ev, end), p.Err(typ)
	case "done":
		clear(d.calls) // the run ends
		resp := p.Str(v, "response")
		p.Str(v, "content")
		if failed {
			// Rule 9 of docs/runs.md: the run ended with the error; this
			// done ends nothing (and its response, empty as a rule, is
			// no final answer of a failed run).
			ev.Kind, ev.Text, ev.Aside = event.Other, resp, true
			return append(dst, ev), p.Err(typ)
		}
		ev.Kind, ev.Text = event.Final, resp
		end := ev
		end.Kind, end.Text, end.Status, end.StatusWord = event.RunEnd, "", event.StatusSuccess, "done"
		if asked {
			// Stopped at the question (--no-auto-mode: interrupt, done,
			// exit 0), the question unanswered: paused, not done. Its
			// "done" names the line, not this end, so no command shows
			// it as the run's status word (doc.md, Questions).
			end.Status, end.StatusWord = event.StatusInterrupted, ""
		}
		return append(dst, ev, end), p.Err(typ)
	default: // panel_dispatch_*, unknown types
		ev.Kind = event.Other
	}
	if strings.HasPrefix(typ, "subagent_") {
		ev.Sub, ev.SubName = sub(&p, v, typ)
	}
	return append(dst, ev), p.Err(typ)
}

// End: EvoScientist's runs are closed by event.Runs; nothing is held.
// What the last line was matters no more: a done after the end is no
// done right after an error or a question.
func (d *Decoder) End(dst []event.Event) []event.Event {
	d.failed, d.asked = false, false
	clear(d.calls)
	return dst
}

// seen reports a call id announced before in the run, and remembers it.
func (d *Decoder) seen(id string) bool {
	if id == "" {
		return false
	}
	if d.calls[id] {
		return true
	}
	if d.calls == nil || len(d.calls) >= maxCalls {
		d.calls = map[string]bool{}
	}
	d.calls[strings.Clone(id)] = true
	return false
}

// interrupt is one PermissionRequest per action the run waits on (an
// interrupt with no action still asks: one request, without a tool).
func (d *Decoder) interrupt(dst []event.Event, ev event.Event, v *event.Line, p *event.Problems) []event.Event {
	d.asked = true
	id := p.Str(v, "interrupt_id")
	ev.Kind, ev.Label = event.PermissionRequest, "approval needed"
	reqs := v.Get("action_requests")
	if reqs.Exists() && !reqs.IsArray() {
		p.WrongType("action_requests", "array", reqs)
	}
	n := 0
	for _, r := range reqs.Array() {
		e := ev
		e.Permission = &event.Permission{ID: id, Interrupt: id, Tool: r.Get("name").String(), Reason: r.Get("description").String()}
		if a := r.Get("args"); a.Exists() {
			e.Permission.Args = []byte(a.Raw)
		}
		dst = append(dst, e)
		n++
	}
	if n == 0 {
		ev.Permission = &event.Permission{ID: id, Interrupt: id}
		dst = append(dst, ev)
	}
	return dst
}

// sub is a sub-agent's id and name: the id is its instance_id
// (EvoScientist 0.2), else its name (0.1 streams, where two instances of
// one sub-agent are one).
func sub(p *event.Problems, v *event.Line, typ string) (id, name string) {
	id = p.Str(v, "instance_id")
	if typ == "subagent_start" || typ == "subagent_end" {
		name = p.Str(v, "name")
	} else {
		name = p.Str(v, "subagent")
	}
	if id == "" {
		id = name
	}
	return id, name
}

// boolean is a boolean field; def when absent.
func boolean(p *event.Problems, v *event.Line, key string, def bool) bool {
	f := v.Get(key)
	switch f.Type {
	case gjson.True:
		return true
	case gjson.False:
		return false
	case gjson.Null:
		if !f.Exists() {
			p.Missing(key)
		}
		return def
	}
	p.WrongType(key, "boolean", f)
	return def
}
