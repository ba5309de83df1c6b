package claude

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"

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
	// prefixed with their dialect's name ("zero.checkpoint").
	Keep bool
	// NewSeed gives each run a string its ids are derived from (the
	// session's when the source has none, the messages', the tool uses',
	// the lines' uuids): the same input and seeds give the same ids.
	NewSeed func() string
	// SessionID, when given, is every run's session_id; Cwd and Model
	// are the init's where the source does not say.
	SessionID, Cwd, Model string
}

// Encoder writes events as Claude Code's `--output-format stream-json
// --verbose` lines: per run a system/init, assistant messages (text,
// thinking and tool_use blocks), user messages with the tool results,
// and one result.
type Encoder struct {
	opt  EncodeOptions
	emit func([]byte) error
	obj  jsonl.Object
	line []byte

	tools    []string           // the tools called so far in the input, in order: the init's tools
	toolSeen map[string]bool    // of tools
	sessCost map[string]float64 // the cost written so far, by session

	// the run being written
	open        bool
	seed        string
	n           int // ids derived in the run
	session     string
	stated      string     // the last session id a source stated (Session), for a resume
	msg         outMessage // the assistant message being gathered
	turns       int        // assistant messages written
	model       string
	calls       []callID // tool uses written without a result, oldest first
	written     []callID // every tool use written in the run
	usage       event.Tokens
	hasUsage    bool
	final       *string
	lastText    string // the last text block of the run: its answer when it states none
	errs        []string
	asks        []event.Permission // permission requests not answered
	denied      []denial
	first       time.Time // the run's first and last stated times
	last        time.Time
	duration    int64 // the source's own duration of the run, -1 when it has none
	durationAPI int64 // the source's own time in the model's API
	timedLine   int   // the source line times last read
}

// outMessage is an assistant message gathered block by block.
type outMessage struct {
	sub    string // the sub-agent whose message it is
	blocks []outBlock
}

type outBlock struct {
	kind event.Kind // Text, Reasoning or ToolCall
	text []byte
	id   string // ToolCall: the id written
	name string
	args []byte
}

// callID pairs a source tool call id with the id written for it.
type callID struct {
	src, name, out string
	args           []byte
}

type denial struct{ tool, id string }

// maxCalls bounds the calls remembered in a run.
const maxCalls = 4096

// NewEncoder writes to emit, one line a call without line end (the slice
// is reused after emit returns).
func NewEncoder(opt EncodeOptions, emit func([]byte) error) *Encoder {
	e := &Encoder{opt: opt, emit: emit, toolSeen: map[string]bool{}, sessCost: map[string]float64{}}
	// Claude Code writes JSON.stringify's JSON; Go's is the same JSON
	// with <, > and & escaped, which every reader decodes alike.
	e.obj = jsonl.Object{Style: jsonl.GoStyle, Redact: opt.Redactor}
	return e
}

// newID derives the run's next id: prefix and hex digits of a hash of
// the run's seed, what the id is for and a counter.
func (e *Encoder) newID(prefix, of string, digits int) string {
	e.n++
	h := sha256.Sum256([]byte(e.seed + "\x00" + of + "\x00" + strconv.Itoa(e.n)))
	return prefix + hex.EncodeToString(h[:])[:digits]
}

// newUUID derives a version-4-shaped UUID, as Claude Code's session and
// line ids are.
func (e *Encoder) newUUID(of string) string {
	s := []byte(e.newID("", of, 32))
	s[12] = '4'
	s[16] = "89ab"[s[16]%4]
	return string(s[:8]) + "-" + string(s[8:12]) + "-" + string(s[12:16]) + "-" + string(s[16:20]) + "-" + string(s[20:])
}

// head starts a line of type typ with the envelope every line has.
func (e *Encoder) head(typ, subtype string) {
	e.obj.Reset()
	e.obj.Str("type", typ)
	e.obj.StrOmit("subtype", subtype)
}

// tail ends a line: session_id and uuid, which every line carries.
func (e *Encoder) tail() error {
	e.obj.Str("session_id", e.session)
	e.obj.Str("uuid", e.newUUID("line"))
	if err := e.obj.Err(); err != nil {
		return err
	}
	e.line = e.obj.AppendTo(e.line[:0])
	return e.emit(e.line)
}

// Encode writes ev, placed in its run by st (ev nil: st only closes a
// run). mapped is false for an event a Claude reader has no room for:
// dropped, or with Keep written under its prefixed type.
func (e *Encoder) Encode(ev *event.Event, st event.Step) (mapped bool, err error) {
	if st.Closed != nil && e.open {
		msg := event.CutMessage(st.Closed.Cut)
		e.errs = append(e.errs, msg)
		if err := e.end(event.StatusIncomplete, ""); err != nil {
			return false, err
		}
	}
	if ev == nil {
		return true, nil
	}
	if st.Start {
		if err := e.start(ev); err != nil {
			return false, err
		}
	}
	if !e.open || st.Run == nil {
		// A late line after its run's result, or one before any run:
		// Claude Code writes nothing of a run outside it.
		return false, e.keep(ev)
	}
	if ev.Line != e.timedLine || ev.Line == 0 {
		// once a line: a line's events share it
		e.timedLine = ev.Line
		e.times(ev.Raw)
	}
	switch ev.Kind {
	case event.RunStart:
		return true, nil // written by start
	case event.Text, event.Reasoning:
		if ev.Text == "" {
			return true, nil
		}
		if err := e.switchTo(ev.Sub); err != nil {
			return false, err
		}
		b := e.msg.blocks
		if n := len(b); n > 0 && b[n-1].kind == ev.Kind {
			b[n-1].text = append(b[n-1].text, ev.Text...)
		} else {
			e.msg.blocks = append(b, outBlock{kind: ev.Kind, text: []byte(ev.Text)})
		}
		return true, nil
	case event.ToolCall:
		if ev.Tool.Name == "" {
			// A tool_use names its tool; nor can its result be written.
			return false, nil
		}
		if err := e.switchTo(ev.Sub); err != nil {
			return false, err
		}
		id := e.newID("toolu_", "tool_use", 24)
		if len(e.calls) >= maxCalls {
			e.calls = e.calls[1:]
		}
		c := callID{src: ev.Tool.ID, name: ev.Tool.Name, out: id, args: ev.Tool.Args}
		e.calls = append(e.calls, c)
		if len(e.written) < maxCalls {
			e.written = append(e.written, c)
		}
		if ev.Tool.Name != "" && !e.toolSeen[ev.Tool.Name] && len(e.tools) < maxCalls {
			e.toolSeen[ev.Tool.Name] = true
			e.tools = append(e.tools, ev.Tool.Name)
		}
		e.msg.blocks = append(e.msg.blocks, outBlock{kind: event.ToolCall, id: id, name: ev.Tool.Name, args: ev.Tool.Args})
		// Written now, so that a reader sees the tool use while it runs.
		return true, e.flush()
	case event.ToolResult:
		id, ok := e.answers(ev.Tool)
		if !ok {
			// A tool_result answers a tool_use of its run, or is none.
			return false, nil
		}
		if err := e.flush(); err != nil {
			return false, err
		}
		return true, e.result(ev, id)
	case event.PermissionRequest:
		if ev.Permission == nil {
			return false, e.keep(ev)
		}
		if len(e.asks) < maxCalls {
			e.asks = append(e.asks, *ev.Permission)
		}
		return true, nil
	case event.PermissionDecision:
		if ev.Permission == nil {
			return false, e.keep(ev)
		}
		e.decide(ev.Permission)
		return true, nil
	case event.Usage:
		if ev.Usage == nil {
			return false, e.keep(ev)
		}
		if ev.Usage.Scope == event.ScopeRun {
			e.usage = *ev.Usage // the run's truth replaces the messages' sum
		} else {
			e.usage.Add(ev.Usage)
		}
		e.hasUsage = true
		return true, nil
	case event.Final:
		s := ev.Text
		e.final = &s
		return true, nil
	case event.Error:
		if ev.Text != "" && len(e.errs) < maxCalls {
			e.errs = append(e.errs, ev.Text)
		}
		return true, nil
	case event.RunEnd:
		if ev.Sub != "" {
			return false, e.keep(ev)
		}
		if d := gjson.GetBytes(ev.Raw, "duration_ms"); d.Type == gjson.Number && d.Num >= 0 {
			e.duration = int64(d.Num)
		}
		if d := gjson.GetBytes(ev.Raw, "duration_api_ms"); d.Type == gjson.Number && d.Num >= 0 {
			e.durationAPI = int64(d.Num)
		}
		return true, e.end(ev.Status, "")
	}
	// Prompt (Claude Code repeats it only with --replay-user-messages),
	// Warning, Checkpoint, Other.
	return false, e.keep(ev)
}

// start writes system/init for the run ev starts.
func (e *Encoder) start(ev *event.Event) error {
	*e = Encoder{opt: e.opt, emit: e.emit, obj: e.obj, line: e.line, tools: e.tools, toolSeen: e.toolSeen,
		sessCost: e.sessCost}
	e.open, e.duration = true, -1
	if e.opt.NewSeed != nil {
		e.seed = e.opt.NewSeed()
	}
	src := ev.Session
	if src != "" {
		e.stated = src
	}
	if src == "" {
		src = ev.Run
	}
	switch {
	case e.opt.SessionID != "":
		e.session = e.opt.SessionID
	case src != "":
		e.session = src
	default:
		e.session = e.newUUID("session")
	}
	cwd, model := ev.Cwd, ev.Model
	if cwd == "" {
		cwd = e.opt.Cwd
	}
	if model == "" {
		model = e.opt.Model
	}
	e.model = model
	e.head("system", "init")
	e.obj.Str("cwd", cwd)
	e.obj.Raw("tools", e.toolList())
	e.obj.Raw("mcp_servers", []byte("[]"))
	e.obj.Str("model", model)
	e.obj.Str("permissionMode", "default")
	e.obj.Str("apiKeySource", "none")
	return e.tail()
}

// toolList is the init's tools: those called earlier in the input (a
// run's own are not known when it starts).
func (e *Encoder) toolList() []byte {
	b := []byte{'['}
	for i, t := range e.tools {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonl.AppendString(b, t, jsonl.GoStyle)
	}
	return append(b, ']')
}

// switchTo flushes the message being gathered when the next block is of
// another agent's (sub) message.
func (e *Encoder) switchTo(sub string) error {
	if len(e.msg.blocks) > 0 && e.msg.sub != sub {
		if err := e.flush(); err != nil {
			return err
		}
	}
	e.msg.sub = sub
	return nil
}

// parent is the parent_tool_use_id of a sub-agent's line: the id
// written for the call that started it.
func (e *Encoder) parent(sub string) []byte {
	if sub == "" {
		return []byte("null")
	}
	return jsonl.AppendString(nil, e.callOut(sub, "").out, jsonl.GoStyle)
}

// callOut is the call src as written (the last of that id), else the
// last call of tool, else one of id src and no arguments: a permission
// names its call by an id of its own in some dialects (EvoScientist's
// interrupt).
func (e *Encoder) callOut(src, tool string) callID {
	for i := len(e.written) - 1; i >= 0; i-- {
		if c := e.written[i]; c.src == src && src != "" {
			return c
		}
	}
	for i := len(e.written) - 1; i >= 0; i-- {
		if c := e.written[i]; c.name == tool && tool != "" {
			return c
		}
	}
	return callID{src: src, name: tool, out: src}
}

// flush writes the assistant message gathered, one line with all its
// blocks and an id of its own.
func (e *Encoder) flush() error {
	m := &e.msg
	if len(m.blocks) == 0 {
		return nil
	}
	content := []byte{'['}
	var blk jsonl.Object
	for i, b := range m.blocks {
		blk.Reset()
		switch b.kind {
		case event.Text:
			blk.Str("type", "text")
			blk.Str("text", string(b.text))
			if m.sub == "" {
				e.lastText = string(b.text)
			}
		case event.Reasoning:
			blk.Str("type", "thinking")
			blk.Str("thinking", string(b.text))
			blk.Str("signature", "")
		case event.ToolCall:
			blk.Str("type", "tool_use")
			blk.Str("id", b.id)
			blk.Str("name", b.name)
			blk.Raw("input", argsObject(b.args))
		}
		if i > 0 {
			content = append(content, ',')
		}
		content = blk.AppendTo(content)
	}
	content = append(content, ']')
	var msg jsonl.Object
	msg.Str("id", e.newID("msg_", "message", 24))
	msg.Str("type", "message")
	msg.Str("role", "assistant")
	msg.Str("model", e.modelName())
	msg.Raw("content", content)
	msg.Raw("stop_reason", []byte("null"))
	msg.Raw("stop_sequence", []byte("null"))
	e.head("assistant", "")
	e.obj.Raw("message", msg.AppendTo(nil))
	e.obj.Raw("parent_tool_use_id", e.parent(m.sub))
	m.blocks = m.blocks[:0]
	e.turns++
	return e.tail()
}

// modelName is the model of the run's messages: the one its usage
// names, else its init's.
func (e *Encoder) modelName() string {
	if e.usage.Model != "" {
		return e.usage.Model
	}
	return e.model
}

// argsObject is a call's arguments as the object tool_use's input is:
// an object as it is, another value under "arguments", none as {}.
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

// answers finds the call a result answers: the earliest call of its id
// without a result (without an id: of its tool, or the earliest), and
// takes it; false when there is none.
func (e *Encoder) answers(t *event.Tool) (string, bool) {
	at := -1
	for i, c := range e.calls {
		if t.ID != "" && c.src == t.ID {
			at = i
			break
		}
	}
	for i, c := range e.calls {
		if at < 0 && t.ID == "" && (c.name == t.Name || t.Name == "") {
			at = i
		}
	}
	if at < 0 {
		return "", false
	}
	id := e.calls[at].out
	e.calls = append(e.calls[:at], e.calls[at+1:]...)
	return id, true
}

// result writes a tool result as a user message with one tool_result
// block answering the tool use id.
func (e *Encoder) result(ev *event.Event, id string) error {
	t := ev.Tool
	var blk jsonl.Object
	blk.Str("type", "tool_result")
	blk.Str("tool_use_id", id)
	blk.Str("content", t.Output)
	blk.Bool("is_error", t.Failed)
	var msg jsonl.Object
	msg.Str("role", "user")
	msg.Raw("content", append(append([]byte{'['}, blk.AppendTo(nil)...), ']'))
	e.head("user", "")
	e.obj.Raw("message", msg.AppendTo(nil))
	e.obj.Raw("parent_tool_use_id", e.parent(ev.Sub))
	return e.tail()
}

// decide answers a permission request: a denial (or a cancel) is one of
// the result's permission_denials; an allowed one is what Claude Code
// says by not listing it.
func (e *Encoder) decide(p *event.Permission) {
	for i, a := range e.asks {
		if a.ID == p.ID && p.ID != "" || p.ID == "" && a.Tool == p.Tool {
			e.asks = append(e.asks[:i], e.asks[i+1:]...)
			break
		}
	}
	if p.Decision == event.Denied || p.Decision == event.Cancelled {
		e.deny(p.Tool, p.ID)
	}
}

func (e *Encoder) deny(tool, src string) {
	if len(e.denied) < maxCalls {
		e.denied = append(e.denied, denial{tool: tool, id: src})
	}
}

// times keeps the first and last times the run's lines state
// (timestamp, timestamp_ms; RFC 3339, or milliseconds or seconds since
// the epoch), for the result's duration_ms.
func (e *Encoder) times(raw []byte) {
	if !bytes.Contains(raw, []byte(`"timestamp`)) {
		return // most lines: no time to parse
	}
	var at time.Time
	if v := gjson.GetBytes(raw, "timestamp_ms"); v.Type == gjson.Number {
		at = time.UnixMilli(int64(v.Num))
	} else if v := gjson.GetBytes(raw, "timestamp"); v.Type == gjson.String {
		at, _ = time.Parse(time.RFC3339Nano, v.Str)
	} else if v.Type == gjson.Number && v.Num > 0 {
		if v.Num > 1e11 {
			at = time.UnixMilli(int64(v.Num))
		} else {
			at = time.UnixMilli(int64(v.Num * 1000))
		}
	}
	if at.IsZero() {
		return
	}
	if e.first.IsZero() || at.Before(e.first) {
		e.first = at
	}
	if at.After(e.last) {
		e.last = at
	}
}

// subtypes is the result's subtype by the run's status: Claude Code has
// a subtype for a turn or budget limit, and error_during_execution for
// every other failure.
func subtype(s event.Status) string {
	switch s {
	case event.StatusSuccess, event.StatusEnded, event.StatusOpen:
		return "success"
	case event.StatusMaxTurns:
		return "error_max_turns"
	case event.StatusMaxBudget:
		return "error_max_budget_usd"
	}
	return "error_during_execution"
}

// end writes the run's assistant message still gathered and its result.
// msg, when given, is the error of a failed run that states none.
func (e *Encoder) end(s event.Status, msg string) error {
	if err := e.flush(); err != nil {
		return err
	}
	e.open = false
	// A request never answered stops Claude Code's run as a denial does.
	for _, a := range e.asks {
		e.deny(a.Tool, a.ID)
	}
	sub := subtype(s)
	failed := sub != "success"
	e.head("result", sub)
	e.obj.Bool("is_error", failed)
	// The SDK's parser requires both durations: 0 when the source
	// states none.
	e.obj.Int("duration_ms", max(e.durationMS(), 0))
	e.obj.Int("duration_api_ms", e.durationAPI)
	e.obj.Int("num_turns", int64(e.turns))
	if !failed {
		answer := e.lastText
		if e.final != nil {
			answer = *e.final
		}
		e.obj.Str("result", answer)
	} else {
		errs := e.errs
		if len(errs) == 0 {
			if msg == "" {
				msg = "the run ended with status " + string(s)
			}
			errs = []string{msg}
		}
		b := []byte{'['}
		for i, m := range errs {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonl.AppendString(b, m, jsonl.GoStyle)
		}
		e.obj.Raw("errors", append(b, ']'))
	}
	if s == event.StatusCancelled {
		// How Claude Code says the user stopped the run.
		e.obj.Str("terminal_reason", "aborted_streaming")
	}
	e.obj.Raw("stop_reason", []byte("null"))
	if c := e.usage.CostUSD; e.hasUsage && c != nil {
		// Claude Code's cost is the session's running total.
		total := e.sessCost[e.session] + *c
		if len(e.sessCost) < maxCalls {
			e.sessCost[e.session] = total
		}
		e.obj.Float("total_cost_usd", total)
	}
	var u jsonl.Object
	u.Int("input_tokens", e.usage.Input)
	if e.usage.Has&event.HasCacheWrite != 0 {
		u.Int("cache_creation_input_tokens", e.usage.CacheWrite)
	}
	if e.usage.Has&event.HasCacheRead != 0 {
		u.Int("cache_read_input_tokens", e.usage.CacheRead)
	}
	u.Int("output_tokens", e.usage.Output)
	e.obj.Raw("usage", u.AppendTo(nil))
	d := []byte{'['}
	for i, p := range e.denied {
		var o jsonl.Object
		o.Str("tool_name", p.tool)
		c := e.callOut(p.id, p.tool)
		o.Str("tool_use_id", c.out)
		o.Raw("tool_input", argsObject(c.args))
		if i > 0 {
			d = append(d, ',')
		}
		d = o.AppendTo(d)
	}
	e.obj.Raw("permission_denials", append(d, ']'))
	return e.tail()
}

// durationMS is the run's duration: the source's own, else from the
// times its lines state, else -1.
func (e *Encoder) durationMS() int64 {
	if e.duration >= 0 {
		return e.duration
	}
	if e.first.IsZero() || e.last.IsZero() {
		return -1
	}
	return e.last.Sub(e.first).Milliseconds()
}

// keep writes, with Keep, an Other event: its line's fields under the
// type DIALECT.TYPE.
func (e *Encoder) keep(ev *event.Event) error {
	if !e.opt.Keep || !ev.Kind.Own() {
		return nil
	}
	e.head(ev.Dialect+"."+ev.Type, "")
	gjson.ParseBytes(ev.Raw).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "type", "session_id", "uuid":
		default:
			e.obj.Raw(k.Str, []byte(v.Raw))
		}
		return true
	})
	if e.session == "" {
		if e.seed == "" && e.opt.NewSeed != nil {
			e.seed = e.opt.NewSeed()
		}
		e.session = e.newUUID("session")
	}
	return e.tail()
}

// Interrupt ends the run being written as Claude Code ends a run its
// user stopped: an error result, aborted.
func (e *Encoder) Interrupt() error {
	if !e.open {
		return nil
	}
	e.errs = append(e.errs[:0], "run cancelled by signal")
	return e.end(event.StatusCancelled, "")
}

// StatedSession is the session id the last run's source stated (Zero's
// sessionId), "" when none did: what an agent that can resume a session
// is given to go on with it.
func (e *Encoder) StatedSession() string { return e.stated }

// outcome: system/init opens a run, a result ends it; Claude Code exits
// 1 after an error result.
func outcome(line []byte) event.Outcome {
	switch gjson.GetBytes(line, "type").Str {
	case "system":
		return event.Outcome{Start: gjson.GetBytes(line, "subtype").Str == "init", Exit: -1}
	case "result":
		o := event.Outcome{End: true}
		if gjson.GetBytes(line, "is_error").Bool() {
			o.Exit = 1
		}
		return o
	}
	return event.Outcome{Exit: -1}
}

// newEncoder is the Dialect's NewEncoder.
func newEncoder(o event.EncodeOptions, emit func([]byte) error) event.Encoder {
	return NewEncoder(EncodeOptions{Redactor: o.Redactor, Keep: o.Keep, NewSeed: o.NewRunID,
		SessionID: o.SessionID, Cwd: o.Cwd, Model: o.Model}, emit)
}
