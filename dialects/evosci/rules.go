package evosci

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// rules are the stream rules of EvoScientist's lines that its schema does
// not express: one done a run, tool results answer earlier tool calls,
// done carries the run's text.
type rules struct {
	line     int             // of the last event checked: a line's first event stands for it
	calls    map[string]bool // tool call ids of the open run
	pending  map[string]int  // tool name → calls not yet answered, for results without id
	subCalls map[string]bool
	text     strings.Builder
	lastDone int // line of the done that ended the previous run, 0 when not right before
}

func newRules() event.Rules {
	return &rules{calls: map[string]bool{}, pending: map[string]int{}, subCalls: map[string]bool{}}
}

func (e *rules) Event(ev *event.Event, s event.Step, f event.Fields, _ int, c *event.Check) {
	if ev.Line == e.line {
		return // the line was checked at its first event
	}
	e.line = ev.Line
	if s.Start {
		clear(e.calls)
		clear(e.pending)
		clear(e.subCalls)
		e.text.Reset()
	}
	typ, line := ev.Type, ev.Line
	lastDone := e.lastDone
	e.lastDone = 0
	if ev.Aside {
		// A done after the error that ended its run: the protocol allows both.
		checkDone(f, line, c)
		return
	}
	switch typ {
	case "text":
		e.text.WriteString(ev.Text)
	case "tool_call":
		if id := ev.Tool.ID; id != "" {
			e.calls[id] = true
		}
		e.pending[ev.Tool.Name]++
	case "tool_result":
		name := ev.Tool.Name
		id := f.Get("id")
		switch {
		case id.Exists() && !e.calls[id.Str]:
			c.Report(line, jsonl.SevError, "tool_result.id", jsonl.Quote(id.Str)+" answers no earlier tool_call of this run")
		case !id.Exists() && e.pending[name] == 0:
			c.Report(line, jsonl.SevError, "tool_result", "has no id and answers no earlier tool_call named "+jsonl.Quote(name))
		}
		if e.pending[name] > 0 {
			e.pending[name]--
		}
	case "subagent_tool_call":
		if id := ev.Tool.ID; id != "" {
			e.subCalls[id] = true
		}
	case "subagent_tool_result":
		if id := f.Get("id"); id.Exists() && !e.subCalls[id.Str] {
			c.Report(line, jsonl.SevError, "subagent_tool_result.id", jsonl.Quote(id.Str)+" answers no earlier subagent_tool_call of this run")
		}
	case "done":
		if s.Start && lastDone > 0 {
			c.Report(line, jsonl.SevError, "done", fmt.Sprintf("a second done right after the done at line %d (a run ends with one done)", lastDone))
			e.lastDone = line
			return
		}
		if checkDone(f, line, c) {
			if got, response := e.text.String(), f.Get("response").Str; response != got {
				c.Report(line, jsonl.SevWarning, "done.response", fmt.Sprintf("differs from the run's text events joined (%d characters against %d)", utf8.RuneCountInString(response), utf8.RuneCountInString(got)))
			}
		}
		e.lastDone = line
	}
}

// checkDone checks that done's content and response agree; it reports
// whether both are strings.
func checkDone(f event.Fields, line int, c *event.Check) bool {
	content, response := f.Get("content"), f.Get("response")
	if !content.Exists() || !response.Exists() || content.Raw[0] != '"' || response.Raw[0] != '"' {
		return false
	}
	if content.Str != response.Str {
		c.Report(line, jsonl.SevError, "done", "content and response differ (EvoScientist writes the same text in both)")
	}
	return true
}

// Cut: EvoScientist itself ends a cancelled run without done or error
// (Ctrl-C writes neither), so a run cut short is real output: a warning.
func (e *rules) Cut(r *event.Run, ev *event.Event, line int, c *event.Check) {
	switch r.Cut {
	case event.CutOtherDialect:
		c.Report(line, jsonl.SevWarning, "", fmt.Sprintf("a line of %s starts a new run inside the run that began at line %d: no done or error", ev.Name(), r.FirstLine))
	case event.CutEndOfInput:
		c.Report(line, jsonl.SevWarning, "", fmt.Sprintf("the input ends inside the run that began at line %d: no done or error (the run was cancelled or cut short)", r.FirstLine))
	}
}

// Decoded: the schema is EvoScientist's own types, so a line it accepts
// is EvoScientist's; what the decoder cannot read of it (a count past 64
// bits) is for the commands that read the events to say.
func (e *rules) Decoded(error, int, *event.Check) {}

func (e *rules) End(int, *event.Check) {}
