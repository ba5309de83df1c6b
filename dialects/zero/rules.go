package zero

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// rules are the stream rules of Zero's lines that its schemas do not
// express: an output run starts with run_start (or, a failure before the
// run started, is error and run_end alone), keeps one schema version,
// and its tool results answer earlier tool calls; a run's id is not used
// again; the input events of an input hold some content.
type rules struct {
	reported bool            // "before run_start" already said for the open run
	version  string          // schemaVersion of the open run's first event
	calls    map[string]bool // tool call ids of the open run
	ended    map[string]int  // runId → line of its run_end, for "after run_end"
	used     map[string]int  // runId → line where its run began

	input, content bool // an input event came; one with non-blank content
}

func newRules() event.Rules {
	return &rules{calls: map[string]bool{}, ended: map[string]int{}, used: map[string]int{}}
}

// isInput tells the events of Zero's input lines, and the end of a run
// of them.
func isInput(ev *event.Event) bool { return ev.Variant == "zero-input" }

func (z *rules) Event(ev *event.Event, s event.Step, f event.Fields, _ int, c *event.Check) {
	if s.Start {
		clear(z.calls)
		z.reported = false
	}
	if isInput(ev) {
		if ev.Kind == event.Prompt {
			z.input = true
			if strings.TrimFunc(ev.Text, unicode.IsSpace) != "" {
				z.content = true
			}
		}
		return
	}
	r, typ, line := s.Run, ev.Type, ev.Line
	if s.Start {
		// A run begun by an event of another runId was reported as such.
		cut := s.Closed
		byID := cut != nil && cut.Cut == event.CutRunID
		// Events after a run_end that carry its runId are reported below;
		// so was a run cut just now that had the same runId.
		if prev, ok := z.used[r.ID]; ok && r.ID != "" && !byID && (cut == nil || cut.ID != r.ID) && (r.Started || z.ended[r.ID] == 0) {
			c.Report(line, jsonl.SevWarning, "", fmt.Sprintf("runId %s was already used by the run at line %d", jsonl.Quote(r.ID), prev))
		}
		z.used[r.ID] = line
		z.version = f.Get("schemaVersion").Raw
		if !r.Started {
			switch {
			case z.ended[r.ID] > 0:
				c.Report(line, jsonl.SevError, prefixOr(typ), fmt.Sprintf("comes after the run_end of run %s (line %d)", jsonl.Quote(r.ID), z.ended[r.ID]))
				z.reported = true
			case typ == "error" || typ == "run_end":
				// Zero reports a failure before the run starts as error + run_end.
			case byID:
				z.reported = true
			default:
				c.Report(line, jsonl.SevError, prefixOr(typ), "comes before run_start (a Zero run starts with run_start)")
				z.reported = true
			}
		}
	} else {
		if version := f.Get("schemaVersion").Raw; version != z.version && isVersion(version) && isVersion(z.version) {
			c.Report(line, jsonl.SevError, prefixOr(typ)+".schemaVersion", fmt.Sprintf("%s in a run that began with schemaVersion %s (line %d)", version, z.version, r.FirstLine))
		}
		if !r.Started && !z.reported && typ != "error" && typ != "run_end" {
			c.Report(line, jsonl.SevError, prefixOr(typ), "comes before run_start (a Zero run starts with run_start)")
			z.reported = true
		}
	}
	switch typ {
	case "tool_call":
		if id := ev.Tool.ID; id != "" {
			z.calls[id] = true
		}
	case "tool_result":
		if id := ev.Tool.ID; id != "" && !z.calls[id] {
			c.Report(line, jsonl.SevError, "tool_result.id", jsonl.Quote(id)+" answers no earlier tool_call of this run")
		}
	case "run_end":
		z.ended[r.ID] = line
	}
}

func isVersion(s string) bool { return s == "1" || s == "2" }

func (z *rules) Cut(r *event.Run, ev *event.Event, line int, c *event.Check) {
	switch r.Cut {
	case event.CutRunStart:
		if !z.reported || r.Started {
			c.Report(line, jsonl.SevError, "run_start", fmt.Sprintf("run %s (line %d) has no run_end before this run_start", jsonl.Quote(r.ID), r.FirstLine))
		}
	case event.CutRunID:
		c.Report(line, jsonl.SevError, prefixOr(ev.Type)+".runId", fmt.Sprintf("%s differs from the run's runId %s (line %d)", jsonl.Quote(ev.Run), jsonl.Quote(r.ID), r.FirstLine))
	case event.CutOtherDialect:
		c.Report(line, c.Unfinished, "", fmt.Sprintf("a line of %s starts a new run inside run %s (line %d): no run_end", ev.Name(), jsonl.Quote(r.ID), r.FirstLine))
	case event.CutEndOfInput:
		// A run whose start was already found wrong is not reported again.
		if r.Started || !z.reported {
			c.Report(line, c.Unfinished, "", fmt.Sprintf("the input ends inside run %s (line %d): no run_end", jsonl.Quote(r.ID), r.FirstLine))
		}
	}
}

// Decoded: the schemas are Zero's own types, so a line they accept is
// Zero's; what the decoder cannot read of it (a count past 64 bits) is
// for the commands that read the events to say.
func (z *rules) Decoded(error, int, *event.Check) {}

func (z *rules) End(last int, c *event.Check) {
	if z.input && !z.content {
		c.Report(last, jsonl.SevError, "", "no event has non-blank content: Zero needs at least one prompt or user message")
	}
}

// prefixOr is the field prefix of an event's diagnostics: its type, or
// "event".
func prefixOr(typ string) string {
	if typ == "" {
		return "event"
	}
	return typ
}
