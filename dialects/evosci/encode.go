package evosci

import (
	"strings"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/redact"
)

// EncodeOptions configure an Encoder.
type EncodeOptions struct {
	// Redactor redacts every value written; nil writes them as they are.
	Redactor *redact.Redactor
	// Keep writes the lines the target has no event for, their type
	// prefixed with their dialect's name ("claude.rate_limit_event").
	Keep bool
}

// Encoder writes events as EvoScientist's stream: Python's json.dumps
// style, "type" first, each run ended by done (success) or error (any
// other end), as EvoScientist ends its own.
type Encoder struct {
	opt  EncodeOptions
	emit func([]byte) error
	obj  jsonl.Object
	line []byte

	open   bool
	final  *string         // the run's final answer, when one came
	text   strings.Builder // its text, held for its end
	errMsg string          // the run's last error, written if it fails
	hasErr bool
	usage  event.Tokens
	hasUse bool
	calls  map[string]call // by id: for results without a name, interrupts
}

type call struct{ name, args string }

// byName prefixes a tool's name among the call ids of calls: no id
// starts with a NUL.
const byName = "\x00"

// maxCalls bounds the calls remembered in a run.
const maxCalls = 4096

// NewEncoder writes to emit, one event a call without line end (the
// slice is reused after emit returns).
func NewEncoder(opt EncodeOptions, emit func([]byte) error) *Encoder {
	e := &Encoder{opt: opt, emit: emit}
	e.obj = jsonl.Object{Style: jsonl.PythonStyle, Redact: opt.Redactor}
	return e
}

func (e *Encoder) head(typ string) {
	e.obj.Reset()
	e.obj.Str("type", typ)
}

func (e *Encoder) write() error {
	if err := e.obj.Err(); err != nil {
		return err
	}
	e.line = e.obj.AppendTo(e.line[:0])
	return e.emit(e.line)
}

// Encode writes ev, placed in its run by st (ev nil: st only closes a
// run). mapped is false for an event EvoScientist has no room for:
// dropped, or with Keep written under its prefixed type.
func (e *Encoder) Encode(ev *event.Event, st event.Step) (mapped bool, err error) {
	if st.Closed != nil && e.open {
		msg := "the run was cut short: " + st.Closed.Cut.String()
		if st.Closed.Cut == event.CutEndOfInput {
			msg = "the input ended before the run finished"
		}
		if err := e.end(event.StatusIncomplete, msg); err != nil {
			return false, err
		}
	}
	if ev == nil {
		return true, nil
	}
	if st.Start {
		e.open, e.final, e.hasErr, e.errMsg, e.hasUse = true, nil, false, "", false
		e.text.Reset()
		e.usage = event.Tokens{}
		e.calls = map[string]call{}
	}
	if !e.open || st.Run == nil {
		return false, e.keep(ev)
	}
	sub := ev.Sub != ""
	switch ev.Kind {
	case event.RunStart:
		return true, nil // EvoScientist writes nothing at a run's start
	case event.Text:
		if sub || ev.Text == "" {
			return false, e.keep(ev)
		}
		// Held for the run's end: see end.
		e.text.WriteString(ev.Text)
		return true, nil
	case event.Reasoning:
		if sub || ev.Text == "" {
			return false, e.keep(ev)
		}
		e.head("thinking")
		e.obj.Str("content", ev.Text)
		e.obj.Int("id", 0)
		return true, e.write()
	case event.ToolCall:
		args := argsObject(ev.Tool.Args)
		if len(e.calls) < maxCalls {
			c := call{ev.Tool.Name, string(args)}
			e.calls[ev.Tool.ID] = c
			e.calls[byName+ev.Tool.Name] = c // the tool's last call
		}
		e.head("tool_call")
		e.obj.Str("name", ev.Tool.Name)
		e.obj.Raw("args", args)
		e.obj.Str("id", ev.Tool.ID)
		return true, e.write()
	case event.ToolResult:
		name := ev.Tool.Name
		if name == "" {
			name = e.calls[ev.Tool.ID].name
		}
		e.head("tool_result")
		e.obj.Str("name", name)
		e.obj.Str("content", ev.Tool.Output)
		e.obj.Bool("success", !ev.Tool.Failed)
		e.obj.Str("id", ev.Tool.ID)
		return true, e.write()
	case event.PermissionRequest:
		if ev.Permission == nil {
			return false, e.keep(ev)
		}
		return true, e.interrupt(ev.Permission)
	case event.Usage:
		if ev.Usage == nil {
			return false, e.keep(ev)
		}
		if ev.Usage.Scope == event.ScopeRun {
			e.usage = *ev.Usage
		} else {
			e.usage.Add(ev.Usage)
		}
		e.hasUse = true
		return true, nil
	case event.Final:
		s := ev.Text
		e.final = &s
		return true, nil
	case event.Error:
		// EvoScientist's error ends its run: written when the run ends
		// failed, the last one said.
		e.errMsg, e.hasErr = ev.Text, true
		return true, nil
	case event.RunEnd:
		if sub {
			return false, e.keep(ev)
		}
		msg := "the run ended with status " + string(ev.Status)
		return true, e.end(ev.Status, msg)
	}
	// Prompt, Warning, PermissionDecision, Checkpoint, Other: EvoScientist
	// writes none of them.
	return false, e.keep(ev)
}

// argsObject is a call's arguments as EvoScientist's object: an object as
// it is, another value under "arguments", none as {}.
func argsObject(a []byte) []byte {
	v := gjson.ParseBytes(a)
	switch {
	case len(a) == 0 || v.Type == gjson.Null:
		return []byte("{}")
	case v.IsObject():
		return a
	}
	return []byte(`{"arguments":` + string(a) + `}`)
}

// end ends the run: its text, its usage, then done for a run that did
// its work, else error (the run's own message, else msg), as EvoScientist
// ends a failed run, with no done.
//
// EvoScientist's answer is all of a run's text: done.response is the
// concatenation of its text events, and its clients show that as the
// answer. So a run's text is written at its end, once its final answer is
// known: the final answer as the run's text, and what the producer said
// besides it (Claude Code's and Codex's words before a tool call) as
// thinking before it. A run without a final answer says all its text.
func (e *Encoder) end(s event.Status, msg string) error {
	e.open = false
	all := e.text.String()
	answer := all
	if e.final != nil && *e.final != "" {
		answer = *e.final
		aside := all
		if all == answer {
			aside = ""
		} else if strings.HasSuffix(all, answer) {
			aside = all[:len(all)-len(answer)]
		}
		if err := e.say("thinking", aside); err != nil {
			return err
		}
	}
	if err := e.say("text", answer); err != nil {
		return err
	}
	if t := &e.usage; e.hasUse && (t.Total() != 0) {
		// (EvoScientist never writes a usage_stats of 0/0.)
		e.head("usage_stats")
		e.obj.Int("input_tokens", t.Input+t.CacheRead+t.CacheWrite)
		e.obj.Int("output_tokens", t.Output)
		if err := e.write(); err != nil {
			return err
		}
	}
	if s.Failed() {
		if e.hasErr && e.errMsg != "" {
			msg = e.errMsg
		}
		e.head("error")
		e.obj.Str("message", msg)
		return e.write()
	}
	e.head("done")
	e.obj.Str("content", answer)
	e.obj.Str("response", answer)
	return e.write()
}

// say writes a text or thinking event, unless s is empty (EvoScientist
// writes no empty text).
func (e *Encoder) say(typ, s string) error {
	if s == "" {
		return nil
	}
	e.head(typ)
	e.obj.Str("content", s)
	if typ == "thinking" {
		e.obj.Int("id", 0)
	}
	return e.write()
}

// interrupt writes a permission request as EvoScientist's interrupt.
func (e *Encoder) interrupt(p *event.Permission) error {
	var req, cfg jsonl.Object
	req.Style, cfg.Style = jsonl.PythonStyle, jsonl.PythonStyle
	req.Str("name", p.Tool)
	args := "{}"
	if c, ok := e.calls[p.ID]; ok {
		args = c.args
	} else if c, ok := e.calls[byName+p.Tool]; ok {
		args = c.args // the request names the tool, not the call
	}
	req.Raw("args", []byte(args))
	if p.Why() != "" {
		req.Str("description", p.Why())
	}
	cfg.Str("action_name", p.Tool)
	cfg.Raw("allowed_decisions", []byte(`["approve","reject"]`))
	e.head("interrupt")
	e.obj.Str("interrupt_id", p.ID)
	e.obj.Raw("action_requests", append(append([]byte("["), req.AppendTo(nil)...), ']'))
	e.obj.Raw("review_configs", append(append([]byte("["), cfg.AppendTo(nil)...), ']'))
	return e.write()
}

// keep writes, with Keep, an Other event: its line's fields under the
// type DIALECT.TYPE.
func (e *Encoder) keep(ev *event.Event) error {
	if !e.opt.Keep || !ev.Kind.Own() {
		return nil
	}
	e.head(ev.Dialect + "." + ev.Type)
	gjson.ParseBytes(ev.Raw).ForEach(func(k, v gjson.Result) bool {
		if k.Str != "type" {
			e.obj.Raw(k.Str, []byte(v.Raw))
		}
		return true
	})
	return e.write()
}

// Interrupt: EvoScientist ends a run cancelled by Ctrl-C with nothing.
func (e *Encoder) Interrupt() error { return nil }

// outcome: EvoScientist's CLI exits 0 after done, 1 after an error
// event; it marks no run's start.
func outcome(line []byte) event.Outcome {
	switch gjson.GetBytes(line, "type").Str {
	case "done":
		return event.Outcome{Exit: 0}
	case "error":
		return event.Outcome{Exit: 1}
	}
	return event.Outcome{Exit: -1}
}

// newEncoder is the Dialect's NewEncoder.
func newEncoder(o event.EncodeOptions, emit func([]byte) error) event.Encoder {
	return NewEncoder(EncodeOptions{Redactor: o.Redactor, Keep: o.Keep}, emit)
}
