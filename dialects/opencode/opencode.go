// Package opencode reads the JSONL stream of `opencode run --format json`.
package opencode

import (
	_ "embed"
	"errors"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
)

// Dialect is OpenCode's `run --format json` stream.
var Dialect = &event.Dialect{
	Name:       "opencode",
	Aliases:    []string{"opencode-run"},
	Title:      "OpenCode",
	Schema:     schema,
	Effects:    effects,
	DetectLine: detectLine,
	NewDecoder: func(opt event.DecodeOptions) event.Decoder { return newDecoder(opt) },
}

// schema is the JSON Schema of the dialect's lines.
//
//go:embed opencode.schema.json
var schema []byte

// effects are what running the producer's own tools does.
var effects = map[string]event.Effect{
	"read": event.EffectRead, "todoread": event.EffectRead, "skill": event.EffectRead, "glob": event.EffectRead, "grep": event.EffectRead, "list": event.EffectRead,
	"write": event.EffectWrite, "edit": event.EffectWrite, "patch": event.EffectWrite, "multiedit": event.EffectWrite, "todowrite": event.EffectWrite,
	"bash":     event.EffectShell,
	"webfetch": event.EffectNetwork, "websearch": event.EffectNetwork, "codesearch": event.EffectNetwork, "fetch": event.EffectNetwork,
}

// detectLine: step_start, step_finish and tool_use are OpenCode's alone; text,
// reasoning, error and done are also EvoScientist's types, told apart by
// OpenCode's envelope (a sessionID beside the type).
func detectLine(l *event.Line) event.Certainty {
	typ, ok := l.Type()
	if !ok {
		return event.No
	}
	switch typ {
	case "step_start", "step_finish", "tool_use":
		return event.Sure
	case "text", "reasoning", "error", "done":
		if l.Get("sessionID").Type == gjson.String {
			return event.Sure
		}
	}
	return event.No
}

// call is what the decoder keeps of a tool call.
type call struct{ called, done bool }

type decoder struct {
	opt     event.DecodeOptions
	session string
	open    bool // a run is open (its RunStart was emitted)
	// the open run's last line, for the events its end makes at the end
	// of the input
	lastLine int
	lastRaw  []byte
	lastType string

	seen  map[string]bool  // part ids decoded: a repeated part is Other
	calls map[string]*call // by callID

	stepOpen     bool     // a step_start came and its step_finish did not
	stepText     []string // the open (or last) step's text parts
	finalText    []string // the last finished step's text parts
	stepRejected bool     // a tool of the open (or last) step was refused permission
	lastReason   string   // the last step_finish's reason
	failed       bool     // an error line came in the run
	aborted      bool     // … and it said the run was aborted
	lastErr      string
}

func newDecoder(opt event.DecodeOptions) *decoder {
	return &decoder{opt: opt, seen: map[string]bool{}, calls: map[string]*call{}}
}

var errNotObject = errors.New("opencode: the line is not a JSON object")

func (d *decoder) Decode(dst []event.Event, line []byte, num int) ([]event.Event, error) {
	if !gjson.ValidBytes(line) || !gjson.ParseBytes(line).IsObject() {
		return dst, errNotObject
	}
	typ := gjson.GetBytes(line, "type").String()
	sid := gjson.GetBytes(line, "sessionID").String()
	switch {
	case d.open && d.session == "":
		d.session = sid // the run's first lines named no session
	case d.open && sid != "" && sid != d.session:
		// Another session's line: the open run ended where its lines did.
		dst = d.end(dst, false)
	}
	if !d.open {
		if typ == "done" {
			return dst, errors.New("opencode: done outside a run (a repeated line?): skipped")
		}
		dst = d.start(dst, sid, typ, line, num)
	}
	d.lastLine, d.lastRaw, d.lastType = num, line, typ
	mk := func(k event.Kind) event.Event {
		return event.Event{Kind: k, Dialect: Dialect.Name, Type: typ, Line: num, Raw: line, Run: d.session}
	}
	part := gjson.GetBytes(line, "part")
	switch typ {
	case "step_start", "step_finish", "text", "reasoning", "tool_use":
		if !part.IsObject() {
			return append(dst, mk(event.Other)), event.FieldError(typ, "part", "object", part)
		}
	}
	sub := ""
	if ps := part.Get("sessionID").String(); ps != "" && d.session != "" && ps != d.session {
		sub = ps // a sub-agent's part, which recent versions do not write
	}
	mkSub := func(k event.Kind) event.Event {
		ev := mk(k)
		ev.Sub = sub
		return ev
	}
	id := part.Get("id").String()
	repeat := id != "" && d.seen[typ+" "+id]
	if id != "" && typ != "tool_use" {
		d.seen[typ+" "+id] = true
	}
	switch typ {
	case "step_start":
		if repeat || sub != "" {
			return append(dst, mkSub(event.Other)), nil
		}
		if !startedAt(dst, num) {
			dst = append(dst, mk(event.Other))
		}
		d.stepOpen, d.stepText, d.stepRejected = true, nil, false
	case "text", "reasoning":
		text := part.Get("text")
		if repeat || text.Type != gjson.String {
			dst = append(dst, mkSub(event.Other))
			if !repeat {
				return dst, event.FieldError(typ, "part.text", "string", text)
			}
			break
		}
		k := event.Text
		if typ == "reasoning" {
			k = event.Reasoning
		} else if sub == "" {
			d.stepText = append(d.stepText, text.Str)
		}
		ev := mkSub(k)
		ev.Text = text.Str
		dst = append(dst, ev)
	case "tool_use":
		return d.tool(dst, mkSub, part, sub)
	case "step_finish":
		if repeat {
			return append(dst, mkSub(event.Other)), nil
		}
		var err error
		tk := part.Get("tokens")
		if tk.Exists() && !tk.IsObject() {
			err = event.FieldError(typ, "part.tokens", "object", tk)
		}
		if tk.IsObject() || part.Get("cost").Exists() {
			ev := mkSub(event.Usage)
			ev.Usage = usage(tk, part.Get("cost"))
			dst = append(dst, ev)
		} else {
			dst = append(dst, mkSub(event.Other))
		}
		if sub == "" {
			d.stepOpen, d.lastReason, d.finalText = false, part.Get("reason").String(), d.stepText
		}
		return dst, err
	case "error":
		e := gjson.GetBytes(line, "error")
		msg := e.Get("data.message").String()
		if msg == "" {
			msg = e.Get("message").String()
		}
		name := e.Get("name").String()
		if msg == "" {
			msg = name
		}
		if msg == "" {
			msg = e.Raw
		}
		if d.failed && name+"\x00"+msg == d.lastErr {
			// OpenCode writes some failures twice (the session's error,
			// then the prompt's): one failure, one Error event.
			return append(dst, mk(event.Other)), nil
		}
		d.failed, d.lastErr = true, name+"\x00"+msg
		d.aborted = d.aborted || name == "MessageAbortedError"
		ev := mk(event.Error)
		ev.Text, ev.Code = msg, name
		dst = append(dst, ev)
	case "done":
		if gjson.GetBytes(line, "rejected.#").Int() > 0 {
			d.stepRejected = true
		}
		n := len(dst)
		dst = d.end(dst, true)
		if len(dst) == n {
			dst = append(dst, mk(event.Other))
		}
	default:
		if !startedAt(dst, num) {
			dst = append(dst, mk(event.Other))
		}
		if typ == "" {
			return dst, errors.New("opencode: the line has no type")
		}
	}
	return dst, nil
}

// startedAt tells whether line num opened a run, whose RunStart then
// stands for the line.
func startedAt(dst []event.Event, num int) bool {
	return len(dst) > 0 && dst[len(dst)-1].Kind == event.RunStart && dst[len(dst)-1].Line == num
}

// start opens a run at the first line of a session.
func (d *decoder) start(dst []event.Event, sid, typ string, line []byte, num int) []event.Event {
	d.open, d.session = true, sid
	d.stepOpen, d.stepText, d.finalText, d.stepRejected, d.lastReason = false, nil, nil, false, ""
	d.failed, d.aborted, d.lastErr = false, false, ""
	return append(dst, event.Event{Kind: event.RunStart, Dialect: Dialect.Name, Type: typ, Line: num, Raw: line,
		Run: sid, Session: sid})
}

func (d *decoder) tool(dst []event.Event, mk func(event.Kind) event.Event, part gjson.Result, sub string) ([]event.Event, error) {
	name := part.Get("tool").String()
	id := part.Get("callID").String()
	if id == "" {
		id = part.Get("id").String()
	}
	st := part.Get("state")
	status := st.Get("status").String()
	c := d.calls[id]
	if c == nil || id == "" {
		c = &call{}
		if id != "" {
			d.calls[id] = c
		}
	}
	if c.done {
		return append(dst, mk(event.Other)), nil // a repeat of a finished call
	}
	var err error
	if !st.IsObject() {
		err = event.FieldError("tool_use", "part.state", "object", st)
	}
	if !c.called {
		c.called = true
		ev := mk(event.ToolCall)
		ev.Tool = &event.Tool{ID: id, Name: name, Effect: d.opt.EffectOf(name)}
		if in := st.Get("input"); in.IsObject() {
			ev.Tool.Args = []byte(in.Raw)
		}
		dst = append(dst, ev)
	}
	if status != "completed" && status != "error" {
		if len(dst) == 0 || dst[len(dst)-1].Kind != event.ToolCall {
			dst = append(dst, mk(event.Other))
		}
		return dst, err
	}
	c.done = true
	ev := mk(event.ToolResult)
	ev.Tool = &event.Tool{ID: id, Name: name, Failed: status == "error", Truncated: st.Get("metadata.truncated").Bool()}
	if ev.Tool.Failed {
		ev.Tool.Output = st.Get("error").String()
		if sub == "" && refused(ev.Tool.Output) {
			d.stepRejected = true
		}
	} else {
		ev.Tool.Output = st.Get("output").String()
	}
	return append(dst, ev), err
}

// refused tells OpenCode's messages for a call the user or a rule
// refused (its permission RejectedError, CorrectedError, DeniedError).
func refused(msg string) bool {
	return strings.HasPrefix(msg, "The user rejected permission to use this specific tool call") ||
		strings.HasPrefix(msg, "The user has specified a rule which prevents you from using this specific tool call")
}

// end ends the open run, at its done line (done) or where its lines
// stop: Final and RunEnd when the stream says how it ended, nothing when
// it does not (event.Runs then closes it as incomplete).
func (d *decoder) end(dst []event.Event, done bool) []event.Event {
	if !d.open {
		return dst
	}
	var status event.Status
	switch {
	case d.aborted:
		status = event.StatusCancelled
	case d.failed:
		status = event.StatusError
	case d.stepOpen:
		// a step with no step_finish: the run died inside it
	case d.lastReason == "stop":
		status = event.StatusSuccess
	case d.lastReason == "tool-calls" && d.stepRejected:
		status = event.StatusBlocked
	}
	if status == event.StatusOpen && done {
		status = event.StatusEnded
	}
	if status == event.StatusOpen {
		d.open = false
		return dst
	}
	mk := func(k event.Kind) event.Event {
		return event.Event{Kind: k, Dialect: Dialect.Name, Type: d.lastType, Line: d.lastLine, Raw: d.lastRaw, Run: d.session}
	}
	if status == event.StatusSuccess {
		var final []string
		for _, t := range d.finalText {
			if strings.TrimSpace(t) != "" {
				final = append(final, t)
			}
		}
		if len(final) > 0 {
			ev := mk(event.Final)
			ev.Text = strings.Join(final, "\n")
			dst = append(dst, ev)
		}
	}
	ev := mk(event.RunEnd)
	ev.Status = status
	d.open = false
	return append(dst, ev)
}

func (d *decoder) End(dst []event.Event) []event.Event { return d.end(dst, false) }

// usage reads a step's tokens: input excludes the cache reads and writes,
// output excludes reasoning (their sum is tokens.total).
func usage(tk, cost gjson.Result) *event.Tokens {
	t := &event.Tokens{Scope: event.ScopeMessage}
	for _, f := range []struct {
		key string
		has event.Has
		n   *int64
	}{{"input", event.HasInput, &t.Input}, {"output", event.HasOutput, &t.Output},
		{"reasoning", event.HasReasoning, &t.Reasoning}, {"cache.read", event.HasCacheRead, &t.CacheRead},
		{"cache.write", event.HasCacheWrite, &t.CacheWrite}} {
		if v := tk.Get(f.key); v.Type == gjson.Number {
			*f.n, t.Has = v.Int(), t.Has|f.has
		}
	}
	t.Output += t.Reasoning
	if t.Has&event.HasReasoning != 0 {
		t.Has |= event.HasOutput
	}
	if cost.Type == gjson.Number {
		c := cost.Float()
		t.CostUSD = &c
	}
	return t
}
