// Package claude reads Claude Code's stream-json output (`claude -p
// --output-format stream-json --verbose`, with or without
// --include-partial-messages); Qwen Code and Amp write the same shape.
// See doc.md for what each line becomes.
package claude

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/zevo/zevo/event"
)

// Name is the dialect's name.
const Name = "claude"

// Dialect is Claude Code's stream-json.
var Dialect = &event.Dialect{
	Name:       Name,
	Aliases:    []string{"claude-code", "qwen-code", "amp"},
	Title:      "Claude Code",
	Schema:     schema,
	Effects:    effects,
	DetectLine: detectLine,
	NewEncoder: newEncoder,
	Host:       host,
	Outcome:    outcome,
	// Its CLI exits 1 after any failed run and has no code for one that
	// did not finish. A run a signal stops ends as one its user stopped
	// (an error result: Interrupt), 130 for either signal (the status
	// Claude Code itself exits with after a signal is not documented).
	Exits:      event.Exits{Open: 1, Interrupt: 130, Terminate: 130},
	NewDecoder: func(opt event.DecodeOptions) event.Decoder { return newDecoder(opt) },
}

// schema is the JSON Schema of the dialect's lines.
//
//go:embed claude.schema.json
var schema []byte

// effects are what running the producer's own tools does.
var effects = map[string]event.Effect{
	"Read": event.EffectRead, "Glob": event.EffectRead, "Grep": event.EffectRead, "LS": event.EffectRead, "NotebookRead": event.EffectRead, "TodoRead": event.EffectRead, "ToolSearch": event.EffectRead, "LSP": event.EffectRead, "TaskOutput": event.EffectRead, "ListMcpResourcesTool": event.EffectRead, "ReadMcpResourceTool": event.EffectRead,
	"Write": event.EffectWrite, "Edit": event.EffectWrite, "MultiEdit": event.EffectWrite, "NotebookEdit": event.EffectWrite, "TodoWrite": event.EffectWrite,
	"Bash": event.EffectShell, "BashOutput": event.EffectShell, "KillShell": event.EffectShell, "KillBash": event.EffectShell,
	"WebFetch": event.EffectNetwork, "WebSearch": event.EffectNetwork,
}

// detectLine is Sure for lines only Claude Code writes, Maybe for the bare
// system/user/assistant/result shapes Cursor writes too.
// It is asked of every line of every input: the type first (a string
// only in an object), the other fields only for the shared types.
func detectLine(l *event.Line) event.Certainty {
	line := l.Bytes
	typ, ok := l.Type()
	if !ok {
		return event.No
	}
	switch t := typ; {
	case t == "stream_event" || t == "rate_limit_event" || t == "tool_progress" ||
		t == "auth_status" || t == "tool_use_summary" || strings.HasPrefix(t, "control_"):
		return event.Sure
	case t == "system" || t == "user" || t == "assistant" || t == "result":
		if claudeOnly(gjson.ParseBytes(line)) {
			return event.Sure
		}
		return event.Maybe
	}
	return event.No
}

// claudeOnly reports the fields of the shared types that Cursor never
// writes (claude_code_version, qwen_code_version, uuid,
// parent_tool_use_id, total_cost_usd, modelUsage, message.id,
// message.model, tools, mcp_servers), read in one pass over the line's
// top-level fields (a path such as message.id in any value of its key,
// as gjson's Get reads it).
func claudeOnly(r gjson.Result) bool {
	only := false
	r.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "claude_code_version", "qwen_code_version", "uuid", "parent_tool_use_id",
			"total_cost_usd", "modelUsage", "tools", "mcp_servers":
			only = true
		case "message":
			only = v.Get("id").Exists() || v.Get("model").Exists()
		}
		return !only
	})
	return only
}

// session is what the results of one session have stated so far: their
// usage and cost are running totals over the session.
type session struct {
	tokens event.Tokens
	cost   float64
}

// message is one assistant message (one message.id) as far as it came.
type message struct {
	counted  event.Tokens   // usage counted so far
	complete int            // content blocks seen in complete assistant lines
	blocks   map[int]*block // by content index: what was said of each block
}

// block is one content block's text as said so far, by stream deltas or
// the complete message, whichever came first.
type block struct {
	kind event.Kind      // Text or Reasoning; 0 for blocks without text
	got  strings.Builder // the deltas so far
	said string          // the text emitted
	// saidGot: said is the deltas before the last one, so the next
	// delta extends it without comparing the two.
	saidGot bool
}

// streamedCall is a tool_use block begun by stream events: its call is
// emitted by the complete assistant line, or by End if that never came.
type streamedCall struct {
	id, name, sub, run string
	input              strings.Builder
	line               int
	raw                []byte
}

// pendingStart is a system/init that came while the session's run was
// open: its RunStart waits for the run's result.
type pendingStart struct{ session, model, cwd string }

type decoder struct {
	opt         event.DecodeOptions
	open        bool   // a RunStart was emitted and no result came since
	openSession string // the open run's session
	pending     []pendingStart
	msgs        map[string]*message
	stream      map[string]string // parent_tool_use_id → the message streaming now
	tools       map[string]string // tool_use id → name
	sessions    map[string]*session
	called      map[string]bool // tool_use ids emitted as calls
	streamed    []*streamedCall // tool_use blocks a stream started
	lastLine    int

	// per line
	typ, run, sub string
	num           int
	raw           []byte
}

func newDecoder(opt event.DecodeOptions) *decoder {
	return &decoder{opt: opt, msgs: map[string]*message{}, stream: map[string]string{},
		tools: map[string]string{}, sessions: map[string]*session{}, called: map[string]bool{}}
}

func (d *decoder) ev(k event.Kind) event.Event {
	return event.Event{Kind: k, Dialect: Name, Type: d.typ, Line: d.num, Raw: d.raw, Run: d.run, Sub: d.sub}
}

// Decode appends the events of one line. A line that yields nothing the
// model names yields Other, so no line is lost.
func (d *decoder) Decode(dst []event.Event, line []byte, num int) ([]event.Event, error) {
	n := len(dst)
	d.num, d.raw, d.lastLine = num, line, num
	dst, err := d.decode(dst, line)
	if len(dst) == n {
		dst = append(dst, d.ev(event.Other))
	}
	return dst, err
}

func (d *decoder) decode(dst []event.Event, line []byte) ([]event.Event, error) {
	d.typ, d.run, d.sub = "", "", ""
	if !gjson.ValidBytes(line) {
		return dst, errors.New("claude: not a JSON line")
	}
	r := gjson.ParseBytes(line)
	if !r.IsObject() {
		return dst, errors.New("claude: not a JSON object")
	}
	typ := r.Get("type")
	if typ.Type != gjson.String {
		return dst, errors.New("claude: the line has no string \"type\"")
	}
	d.typ = typ.Str
	d.run = r.Get("session_id").String()
	d.sub = r.Get("parent_tool_use_id").String()
	switch d.typ {
	case "system":
		return d.system(dst, r)
	case "assistant":
		return d.assistant(dst, r)
	case "user":
		return d.user(dst, r)
	case "result":
		return d.result(dst, r)
	case "stream_event":
		return d.streamEvent(dst, r)
	case "rate_limit_event":
		info := r.Get("rate_limit_info")
		if s := info.Get("status").String(); s != "" && s != "allowed" {
			w := d.ev(event.Warning)
			w.Text = "rate limit " + s
			if t := info.Get("rateLimitType").String(); t != "" {
				w.Text += " (" + t + ")"
			}
			if at := info.Get("resetsAt"); at.Exists() {
				w.Text += ", resets at " + at.Raw
			}
			dst = append(dst, w)
		}
	}
	return dst, nil
}

func (d *decoder) system(dst []event.Event, r gjson.Result) ([]event.Event, error) {
	switch r.Get("subtype").String() {
	case "init":
		p := pendingStart{session: d.run, model: r.Get("model").String(), cwd: r.Get("cwd").String()}
		if d.open && d.sub == "" && p.session == d.openSession {
			// The run before has not written its result yet: Claude
			// writes a turn's result after the next turn's lines when a
			// background task's notification starts that turn. This run
			// starts when the one before ends.
			d.pending = append(d.pending, p)
			return dst, nil
		}
		return append(dst, d.start(p)), nil
	case "api_retry":
		w := d.ev(event.Warning)
		w.Text = fmt.Sprintf("API retry %s of %s", r.Get("attempt").Raw, r.Get("max_retries").Raw)
		if e := r.Get("error").String(); e != "" {
			w.Text += ": " + e
		}
		return append(dst, w), nil
	}
	return dst, nil
}

func (d *decoder) start(p pendingStart) event.Event {
	e := d.ev(event.RunStart)
	e.Sub = ""
	e.Session, e.Model, e.Cwd = p.session, p.model, p.cwd
	if p.session != "" {
		e.Run = p.session
	}
	d.open, d.openSession = true, p.session
	return e
}

func (d *decoder) msg(id string) *message {
	m := d.msgs[id]
	if m == nil || id == "" {
		m = &message{blocks: map[int]*block{}}
		if id != "" {
			d.msgs[id] = m
		}
	}
	return m
}

func (d *decoder) assistant(dst []event.Event, r gjson.Result) ([]event.Event, error) {
	msg := r.Get("message")
	if !msg.IsObject() {
		return dst, event.FieldError("assistant", "message", "object", msg)
	}
	m := d.msg(msg.Get("id").String())
	content := msg.Get("content")
	var err error
	if !content.IsArray() {
		if content.Exists() {
			err = event.FieldError("assistant", "message.content", "array", content)
		}
	} else {
		blocks := content.Array()
		for i, b := range blocks {
			dst = d.completeBlock(dst, m, m.complete+i, b)
		}
		m.complete += len(blocks)
	}
	if e := r.Get("error"); e.Exists() {
		ev := d.ev(event.Error)
		ev.Code = e.String()
		ev.Text = "the model's API answered with an error: " + ev.Code
		dst = append(dst, ev)
	}
	dst = d.usage(dst, m, msg.Get("usage"), msg.Get("model").String())
	return dst, err
}

// completeBlock emits one block of a complete assistant message: a text
// or thinking block only for what stream deltas did not already say.
func (d *decoder) completeBlock(dst []event.Event, m *message, index int, b gjson.Result) []event.Event {
	switch b.Get("type").String() {
	case "text":
		return d.say(dst, m, index, event.Text, b.Get("text").String(), false)
	case "thinking":
		return d.say(dst, m, index, event.Reasoning, b.Get("thinking").String(), false)
	case "tool_use", "server_tool_use", "mcp_tool_use":
		e := d.ev(event.ToolCall)
		name := b.Get("name").String()
		id := b.Get("id").String()
		e.Tool = &event.Tool{ID: id, Name: name, Effect: d.opt.EffectOf(name)}
		if in := b.Get("input"); in.Exists() {
			e.Tool.Args = []byte(in.Raw)
		}
		if id != "" {
			d.tools[id] = name
			d.called[id] = true
		}
		return append(dst, e)
	}
	return dst
}

// say emits the part of a block's text not yet said. Deltas and the
// complete message both carry a block's text; whichever comes first says
// it, and the other only what extends it, so the text is never repeated.
func (d *decoder) say(dst []event.Event, m *message, index int, k event.Kind, s string, delta bool) []event.Event {
	b := m.blocks[index]
	if b == nil {
		b = &block{kind: k}
		m.blocks[index] = b
	}
	full := s
	if delta {
		before := b.got.Len()
		b.got.WriteString(s)
		full = b.got.String()
		if b.saidGot && len(b.said) == before {
			// The common case, kept linear: each delta says itself.
			if s == "" {
				return dst
			}
			b.said = full
			e := d.ev(k)
			e.Text = s
			return append(dst, e)
		}
	}
	if len(full) <= len(b.said) || !strings.HasPrefix(full, b.said) {
		return dst
	}
	e := d.ev(k)
	e.Text = full[len(b.said):]
	b.said, b.saidGot = full, delta
	return append(dst, e)
}

// usage counts a message's usage once: the snapshots Claude repeats on
// each line of a message, and the final counts of a stream's
// message_delta, add only what they state beyond the counts before.
func (d *decoder) usage(dst []event.Event, m *message, u gjson.Result, model string) []event.Event {
	if !u.IsObject() {
		return dst
	}
	t := tokensOf(u, "input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
	diff := event.Tokens{Has: t.Has, Model: model,
		Input: more(t.Input, &m.counted.Input), Output: more(t.Output, &m.counted.Output),
		CacheRead: more(t.CacheRead, &m.counted.CacheRead), CacheWrite: more(t.CacheWrite, &m.counted.CacheWrite)}
	if diff.Total() == 0 {
		return dst
	}
	e := d.ev(event.Usage)
	e.Usage = &diff
	return append(dst, e)
}

// more returns how far n exceeds *seen, and raises *seen to n.
func more(n int64, seen *int64) int64 {
	if n <= *seen {
		return 0
	}
	d := n - *seen
	*seen = n
	return d
}

func tokensOf(u gjson.Result, in, out, read, write string) event.Tokens {
	var t event.Tokens
	for _, f := range [...]struct {
		name string
		n    *int64
		has  event.Has
	}{{in, &t.Input, event.HasInput}, {out, &t.Output, event.HasOutput},
		{read, &t.CacheRead, event.HasCacheRead}, {write, &t.CacheWrite, event.HasCacheWrite}} {
		if v := u.Get(f.name); v.Exists() {
			*f.n = max(v.Int(), 0)
			t.Has |= f.has
		}
	}
	return t
}

func (d *decoder) user(dst []event.Event, r gjson.Result) ([]event.Event, error) {
	msg := r.Get("message")
	if !msg.IsObject() {
		return dst, event.FieldError("user", "message", "object", msg)
	}
	content := msg.Get("content")
	if content.Type == gjson.String {
		if content.Str != "" {
			e := d.ev(event.Prompt)
			e.Text = content.Str
			dst = append(dst, e)
		}
		return dst, nil
	}
	if !content.IsArray() {
		return dst, event.FieldError("user", "message.content", "string or array", content)
	}
	var prompt []string
	for _, b := range content.Array() {
		switch b.Get("type").String() {
		case "tool_result":
			id := b.Get("tool_use_id").String()
			e := d.ev(event.ToolResult)
			e.Tool = &event.Tool{ID: id, Name: d.tools[id], Failed: b.Get("is_error").Bool(),
				Output: joinContent(b.Get("content"))}
			dst = append(dst, e)
		case "text":
			if t := b.Get("text").String(); t != "" {
				prompt = append(prompt, t)
			}
		}
	}
	if len(prompt) > 0 {
		e := d.ev(event.Prompt)
		e.Text = strings.Join(prompt, "\n")
		dst = append(dst, e)
	}
	return dst, nil
}

// joinContent is a tool result's content as text: a string as it is, a
// list of blocks as their texts joined by newlines (a block that is not
// text as its JSON, so nothing is lost).
func joinContent(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	if !c.IsArray() {
		if c.Exists() && c.Type != gjson.Null {
			return c.Raw
		}
		return ""
	}
	var parts []string
	for _, b := range c.Array() {
		if b.Get("type").String() == "text" {
			parts = append(parts, b.Get("text").String())
		} else {
			parts = append(parts, b.Raw)
		}
	}
	return strings.Join(parts, "\n")
}

func (d *decoder) streamEvent(dst []event.Event, r gjson.Result) ([]event.Event, error) {
	se := r.Get("event")
	if !se.IsObject() {
		return dst, event.FieldError("stream_event", "event", "object", se)
	}
	switch se.Get("type").String() {
	case "message_start":
		msg := se.Get("message")
		id := msg.Get("id").String()
		d.stream[d.sub] = id
		return d.usage(dst, d.msg(id), msg.Get("usage"), msg.Get("model").String()), nil
	case "message_delta":
		return d.usage(dst, d.msg(d.stream[d.sub]), se.Get("usage"), ""), nil
	case "content_block_start":
		cb := se.Get("content_block")
		switch cb.Get("type").String() {
		case "text":
			return d.say(dst, d.msg(d.stream[d.sub]), int(se.Get("index").Int()), event.Text, cb.Get("text").String(), true), nil
		case "thinking":
			return d.say(dst, d.msg(d.stream[d.sub]), int(se.Get("index").Int()), event.Reasoning, cb.Get("thinking").String(), true), nil
		case "tool_use", "server_tool_use", "mcp_tool_use":
			// Kept for End: the complete message carries the whole input.
			d.streamed = append(d.streamed, &streamedCall{id: cb.Get("id").String(), name: cb.Get("name").String(),
				sub: d.sub, run: d.run, line: d.num, raw: append([]byte(nil), d.raw...)})
		}
	case "content_block_delta":
		delta := se.Get("delta")
		m, i := d.msg(d.stream[d.sub]), int(se.Get("index").Int())
		switch delta.Get("type").String() {
		case "text_delta":
			return d.say(dst, m, i, event.Text, delta.Get("text").String(), true), nil
		case "thinking_delta":
			return d.say(dst, m, i, event.Reasoning, delta.Get("thinking").String(), true), nil
		case "input_json_delta":
			if n := len(d.streamed); n > 0 && d.streamed[n-1].sub == d.sub && d.streamed[n-1].input.Len() < maxStreamedInput {
				d.streamed[n-1].input.WriteString(delta.Get("partial_json").String())
			}
		}
	}
	return dst, nil
}

// statuses maps a result's subtype to the run's end.
var statuses = map[string]event.Status{
	"success":                             event.StatusSuccess,
	"error_during_execution":              event.StatusError,
	"error_max_turns":                     event.StatusMaxTurns,
	"error_max_budget_usd":                event.StatusMaxBudget,
	"error_max_structured_output_retries": event.StatusError,
}

func (d *decoder) result(dst []event.Event, r gjson.Result) ([]event.Event, error) {
	d.sub = "" // a result is always the main agent's
	for _, p := range r.Get("permission_denials").Array() {
		e := d.ev(event.PermissionDecision)
		e.Permission = &event.Permission{ID: p.Get("tool_use_id").String(), Tool: p.Get("tool_name").String(), Decision: event.Denied}
		dst = append(dst, e)
	}
	if u := d.runUsage(r); u != nil {
		e := d.ev(event.Usage)
		e.Usage = u
		dst = append(dst, e)
	}
	subtype := r.Get("subtype").String()
	status, known := statuses[subtype]
	switch {
	case !known && strings.HasPrefix(subtype, "error"):
		status = event.StatusError
	case !known:
		status = event.StatusEnded
	}
	isError := r.Get("is_error").Bool()
	if isError && status == event.StatusSuccess {
		status = event.StatusError // a turn that ended on an API error
	}
	if strings.HasPrefix(r.Get("terminal_reason").String(), "aborted") {
		status = event.StatusCancelled
	}
	text := r.Get("result")
	var errs []string
	for _, e := range r.Get("errors").Array() {
		errs = append(errs, e.String())
	}
	if isError && text.Type == gjson.String && text.Str != "" {
		errs = append(errs, text.Str)
	}
	for _, s := range errs {
		e := d.ev(event.Error)
		e.Text, e.Code = s, subtype
		dst = append(dst, e)
	}
	if !isError && text.Type == gjson.String {
		e := d.ev(event.Final)
		e.Text = text.Str
		dst = append(dst, e)
	}
	end := d.ev(event.RunEnd)
	end.Status = status
	dst = append(dst, end)
	d.open = false
	kept := d.streamed[:0]
	for _, c := range d.streamed {
		if !d.called[c.id] {
			kept = append(kept, c)
		}
	}
	d.streamed = kept
	if len(d.pending) > 0 {
		p := d.pending[0]
		d.pending = d.pending[1:]
		dst = append(dst, d.start(p))
	}
	return dst, nil
}

// runUsage is a result's usage as the run's own: modelUsage (every model,
// sub-agents included) or else usage, and total_cost_usd. Both are running
// totals over the session, so a later result of the same session states
// only what it adds to the one before.
func (d *decoder) runUsage(r gjson.Result) *event.Tokens {
	var t event.Tokens
	models := r.Get("modelUsage")
	cumulative := false
	if models.IsObject() && len(models.Map()) > 0 {
		cumulative = true
		var names []string
		models.ForEach(func(k, v gjson.Result) bool {
			names = append(names, k.String())
			m := tokensOf(v, "inputTokens", "outputTokens", "cacheReadInputTokens", "cacheCreationInputTokens")
			t.Add(&m)
			return true
		})
		if len(names) == 1 {
			t.Model = names[0]
		}
	} else if u := r.Get("usage"); u.IsObject() {
		t = tokensOf(u, "input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
	}
	cost, hasCost := r.Get("total_cost_usd"), false
	total := cost.Float()
	if cost.Exists() {
		hasCost = true
	} else {
		models.ForEach(func(_, v gjson.Result) bool {
			if c := v.Get("costUSD"); c.Exists() {
				total += c.Float()
				hasCost = true
			}
			return true
		})
	}
	if t.Has == 0 && !hasCost {
		return nil
	}
	t.Scope = event.ScopeRun
	s := d.sessions[d.run]
	if s == nil {
		s = &session{}
		d.sessions[d.run] = s
	}
	if cumulative {
		prev := s.tokens
		s.tokens = t
		if t.Input >= prev.Input && t.Output >= prev.Output && t.CacheRead >= prev.CacheRead && t.CacheWrite >= prev.CacheWrite {
			t.Input -= prev.Input
			t.Output -= prev.Output
			t.CacheRead -= prev.CacheRead
			t.CacheWrite -= prev.CacheWrite
		}
	}
	if hasCost {
		c := total
		if prev := s.cost; c >= prev {
			s.cost = c
			c = share(prev, c)
		} else {
			s.cost = c // a total below the last: a new count, not a running one
		}
		t.CostUSD = &c
	}
	return &t
}

// share is what a running total adds from prev to total, chosen so that
// prev + share is exactly total in float64: summing the runs' shares
// gives the last total, not one rounded off it.
func share(prev, total float64) float64 {
	d := total - prev
	for range 4 {
		switch sum := prev + d; {
		case sum < total:
			d = math.Nextafter(d, math.Inf(1))
		case sum > total:
			d = math.Nextafter(d, math.Inf(-1))
		default:
			return d
		}
	}
	return d
}

// maxStreamedInput bounds the input of a streamed tool call kept for End.
const maxStreamedInput = 1 << 20

// End flushes what the input's end implies: a tool call whose stream
// began but whose complete message never came (its input as far as it
// streamed, when that is whole JSON), and a run that was waiting for the
// result of the one before, which starts and is left open (event.Runs
// closes it as cut). Text is emitted as it streams, so none is held.
func (d *decoder) End(dst []event.Event) []event.Event {
	for _, c := range d.streamed {
		if d.called[c.id] {
			continue
		}
		d.called[c.id] = true
		e := event.Event{Kind: event.ToolCall, Dialect: Name, Type: "stream_event", Line: c.line, Raw: c.raw, Run: c.run, Sub: c.sub}
		e.Tool = &event.Tool{ID: c.id, Name: c.name, Effect: d.opt.EffectOf(c.name)}
		if in := c.input.String(); gjson.Valid(in) {
			e.Tool.Args = []byte(in)
		}
		dst = append(dst, e)
	}
	d.streamed = nil
	d.typ, d.raw, d.num, d.sub, d.run = "system", nil, d.lastLine, "", ""
	for _, p := range d.pending {
		dst = append(dst, d.start(p))
	}
	d.pending = nil
	// The run open here is closed (event.Runs cuts it): a session's init
	// after this starts a run, not one held for this run's result.
	d.open, d.openSession = false, ""
	return dst
}
