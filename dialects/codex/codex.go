// Package codex reads the JSONL stream of `codex exec --json`.
package codex

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
)

// Dialect is Codex's `exec --json` stream.
var Dialect = &event.Dialect{
	Name:       "codex",
	Aliases:    []string{"codex-exec"},
	Title:      "Codex",
	Schema:     schema,
	Effects:    effects,
	DetectLine: detectLine,
	NewDecoder: func(opt event.DecodeOptions) event.Decoder { return newDecoder(opt) },
}

// schema is the JSON Schema of the dialect's lines.
//
//go:embed codex.schema.json
var schema []byte

// effects are what running the producer's own tools does.
var effects = map[string]event.Effect{
	"file_change": event.EffectWrite, "apply_patch": event.EffectWrite, "todo_list": event.EffectWrite,
	"command_execution": event.EffectShell, "shell": event.EffectShell,
	"web_search": event.EffectNetwork,
}

// detectLine: the dotted types are Codex's alone; a bare {"type":"error",
// "message":…} and request_user_input are shapes EvoScientist writes too.
func detectLine(l *event.Line) event.Certainty {
	line := l.Bytes
	typ, ok := l.Type()
	if !ok {
		return event.No
	}
	switch {
	case strings.HasPrefix(typ, "thread.") || strings.HasPrefix(typ, "turn.") || strings.HasPrefix(typ, "item."):
		return event.Sure
	case typ == "error":
		// Codex's error line has these two fields only (Zero's and
		// OpenCode's error lines carry more).
		if gjson.GetBytes(line, "message").Type == gjson.String && len(gjson.ParseBytes(line).Map()) == 2 {
			return event.Maybe
		}
	case typ == "request_user_input":
		return event.Maybe
	}
	return event.No
}

// item is what the decoder keeps of an item between its lines.
type item struct {
	kind   string
	called bool   // its ToolCall was emitted
	done   bool   // its completion was decoded: a repeat is Other
	text   string // agent_message, reasoning, plan: the latest snapshot
	line   int    // where the snapshot came from
	raw    []byte
	typ    string
}

type totals struct{ in, cached, write, out, reasoning int64 }

type decoder struct {
	opt     event.DecodeOptions
	thread  string
	open    bool // a run is open: an event came since the last RunEnd
	ended   bool // a turn ended and nothing came since
	turn    bool // turn.started came in the open run
	items   map[string]*item
	pending []string // text items started but not completed, in order
	final   string   // the turn's last agent_message
	plan    string   // the turn's last plan, the final answer when no message came
	errText string   // the open run's last top-level error
	prev    map[string]totals
}

func newDecoder(opt event.DecodeOptions) *decoder {
	return &decoder{opt: opt, items: map[string]*item{}, prev: map[string]totals{}}
}

var errNotObject = errors.New("codex: the line is not a JSON object")

func (d *decoder) Decode(dst []event.Event, line []byte, num int) ([]event.Event, error) {
	if !gjson.ValidBytes(line) || !gjson.ParseBytes(line).IsObject() {
		return dst, errNotObject
	}
	typ := gjson.GetBytes(line, "type").String()
	mk := func(k event.Kind) event.Event {
		return event.Event{Kind: k, Dialect: Dialect.Name, Type: typ, Line: num, Raw: line, Run: d.thread}
	}
	n := len(dst)
	var err error
	switch typ {
	case "thread.started":
		id := gjson.GetBytes(line, "thread_id")
		if id.Type != gjson.String || id.Str == "" {
			if err = event.FieldError(typ, "thread_id", "string", id); id.Type == gjson.String {
				err = errors.New("thread.started.thread_id: must not be empty")
			}
			dst = append(dst, mk(event.Other))
			break
		}
		if id.Str == d.thread && d.open && !d.turn {
			dst = append(dst, mk(event.Other)) // a repeated line: the run has started already
			break
		}
		dst = d.flush(dst)
		d.thread = id.Str
		d.items = map[string]*item{}
		d.startTurn()
		d.turn = false
		ev := mk(event.RunStart)
		ev.Run, ev.Session = d.thread, d.thread
		dst = append(dst, ev)
	case "turn.started":
		if d.open {
			// The thread's start opened the run; a turn.started inside a
			// started turn is a repeat (Codex never nests turns).
			d.turn = true
			dst = append(dst, mk(event.Other))
			break
		}
		dst = d.flush(dst)
		d.startTurn()
		d.turn = true
		ev := mk(event.RunStart)
		ev.Session = d.thread
		dst = append(dst, ev)
	case "turn.completed", "turn.failed":
		if !d.open && d.ended {
			// No event: any event here would open a run of its own.
			err = fmt.Errorf("codex: %s outside a turn (a repeated line?): skipped, not counted again", typ)
			break
		}
		dst = d.flush(dst)
		end := mk(event.RunEnd)
		if typ == "turn.completed" {
			final := d.final
			if final == "" {
				final = d.plan
			}
			if final != "" {
				ev := mk(event.Final)
				ev.Text = final
				dst = append(dst, ev)
			}
			if u := gjson.GetBytes(line, "usage"); u.Exists() {
				if !u.IsObject() {
					err = event.FieldError(typ, "usage", "object", u)
				} else {
					ev := mk(event.Usage)
					ev.Usage = d.usage(u)
					dst = append(dst, ev)
				}
			}
			end.Status = event.StatusSuccess
		} else {
			msg := gjson.GetBytes(line, "error.message").String()
			if msg == "" {
				msg = "turn failed"
			}
			// Codex writes the turn's error as a top-level error line just
			// before turn.failed: one failure, one Error event.
			if msg != d.errText {
				ev := mk(event.Error)
				ev.Text = msg
				dst = append(dst, ev)
			}
			end.Status = event.StatusError
		}
		dst = append(dst, end)
	case "error":
		msg := gjson.GetBytes(line, "message").String()
		if d.open && msg != "" && msg == d.errText {
			dst = append(dst, mk(event.Other)) // the same failure again
			break
		}
		ev := mk(event.Error)
		ev.Text = msg
		d.errText = msg
		dst = append(dst, ev)
	case "item.started", "item.updated", "item.completed":
		var e error
		dst, e = d.item(dst, mk, typ, line, num)
		err = e
	default:
		if typ == "" {
			err = errors.New("codex: the line has no type")
		}
		dst = append(dst, mk(event.Other))
	}
	if len(dst) > n {
		last := dst[len(dst)-1].Kind
		d.open = last != event.RunEnd
		d.ended = last == event.RunEnd
	}
	return dst, err
}

func (d *decoder) startTurn() {
	d.final, d.plan, d.errText = "", "", ""
}

var toolKinds = map[string]bool{"command_execution": true, "file_change": true, "mcp_tool_call": true,
	"web_search": true, "todo_list": true, "collab_tool_call": true}

func (d *decoder) item(dst []event.Event, mk func(event.Kind) event.Event, typ string, line []byte, num int) ([]event.Event, error) {
	it := gjson.GetBytes(line, "item")
	if !it.IsObject() {
		return append(dst, mk(event.Other)), event.FieldError(typ, "item", "object", it)
	}
	id, kind := it.Get("id").String(), it.Get("type").String()
	st := d.items[id]
	if st == nil || id == "" {
		st = &item{kind: kind}
		if id != "" {
			d.items[id] = st
		}
	}
	completed := typ == "item.completed"
	if st.done {
		return append(dst, mk(event.Other)), nil // a repeat of a completed item
	}
	switch {
	case kind == "agent_message" || kind == "reasoning" || kind == "plan":
		st.text, st.line, st.raw, st.typ = it.Get("text").String(), num, line, typ
		if !completed {
			if !st.called {
				st.called = true
				d.pending = append(d.pending, id)
			}
			return append(dst, mk(event.Other)), nil // the text comes whole at completion
		}
		st.done = true
		return append(dst, d.text(st, mk)), nil
	case kind == "error":
		if !completed {
			return append(dst, mk(event.Other)), nil
		}
		st.done = true
		// Codex writes its warnings (configuration, deprecation, rerouted
		// model) as error items; a failure is a top-level error or
		// turn.failed.
		ev := mk(event.Warning)
		ev.Text = it.Get("message").String()
		return append(dst, ev), nil
	case toolKinds[kind]:
		if !st.called {
			st.called = true
			ev := mk(event.ToolCall)
			ev.Tool = d.call(id, kind, it)
			dst = append(dst, ev)
		} else if !completed {
			return append(dst, mk(event.Other)), nil
		}
		if completed {
			st.done = true
			ev := mk(event.ToolResult)
			ev.Tool = result(id, kind, it)
			dst = append(dst, ev)
		}
		return dst, nil
	}
	return append(dst, mk(event.Other)), nil
}

// text is the event of a text item's whole text: Other when it is empty.
func (d *decoder) text(st *item, mk func(event.Kind) event.Event) event.Event {
	if st.text == "" {
		return mk(event.Other)
	}
	k := event.Text
	switch st.kind {
	case "reasoning":
		k = event.Reasoning
	case "agent_message":
		d.final = st.text
	case "plan":
		d.plan = st.text
	}
	ev := mk(k)
	ev.Text = st.text
	return ev
}

// flush emits the text items started and never completed, with the
// latest text seen, on the line that carried it.
func (d *decoder) flush(dst []event.Event) []event.Event {
	for _, id := range d.pending {
		st := d.items[id]
		if st == nil || st.done {
			continue
		}
		st.done = true
		line, typ := st.line, st.typ
		ev := d.text(st, func(k event.Kind) event.Event {
			return event.Event{Kind: k, Dialect: Dialect.Name, Type: typ, Line: line, Raw: st.raw, Run: d.thread}
		})
		if ev.Kind != event.Other {
			dst = append(dst, ev)
		}
	}
	d.pending = nil
	return dst
}

func (d *decoder) End(dst []event.Event) []event.Event { return d.flush(dst) }

func (d *decoder) call(id, kind string, it gjson.Result) *event.Tool {
	t := &event.Tool{ID: id, Name: kind}
	switch kind {
	case "mcp_tool_call":
		server, tool := it.Get("server").String(), it.Get("tool").String()
		if server != "" || tool != "" {
			t.Name = server + "/" + tool
		}
		if a := it.Get("arguments"); a.IsObject() {
			t.Args = []byte(a.Raw)
		}
	case "collab_tool_call":
		if tool := it.Get("tool").String(); tool != "" {
			t.Name = tool
		}
		t.Args = args(it)
	default:
		t.Args = args(it)
	}
	t.Effect = d.opt.EffectOf(t.Name)
	return t
}

// notArgs are an item's fields that are not what the tool was asked.
var notArgs = map[string]bool{"id": true, "type": true, "status": true, "aggregated_output": true,
	"exit_code": true, "result": true, "error": true, "agents_states": true}

// args is the item's own fields that say what was asked, as an object.
func args(it gjson.Result) []byte {
	var b []byte
	it.ForEach(func(k, v gjson.Result) bool {
		if notArgs[k.Str] {
			return true
		}
		if b == nil {
			b = append(b, '{')
		} else {
			b = append(b, ',')
		}
		b = append(b, k.Raw...)
		b = append(b, ':')
		b = append(b, v.Raw...)
		return true
	})
	if b == nil {
		return nil
	}
	return append(b, '}')
}

func result(id, kind string, it gjson.Result) *event.Tool {
	t := &event.Tool{ID: id, Name: kind}
	status := it.Get("status").String()
	t.Failed = status == "failed" || status == "declined"
	var out []string
	switch kind {
	case "command_execution":
		t.Output = it.Get("aggregated_output").String()
		if c := it.Get("exit_code"); c.Type == gjson.Number && c.Int() != 0 {
			t.Failed = true
		}
		return t
	case "file_change":
		it.Get("changes").ForEach(func(_, c gjson.Result) bool {
			out = append(out, c.Get("kind").String()+" "+c.Get("path").String())
			return true
		})
	case "mcp_tool_call":
		t.Name = it.Get("server").String() + "/" + it.Get("tool").String()
		if t.Name == "/" {
			t.Name = kind
		}
		if e := it.Get("error"); e.Exists() && e.Type != gjson.Null {
			t.Failed = true
			out = append(out, e.Get("message").String())
		}
		it.Get("result.content").ForEach(func(_, c gjson.Result) bool {
			if c.Get("type").String() == "text" {
				out = append(out, c.Get("text").String())
			} else {
				out = append(out, c.Raw)
			}
			return true
		})
		if len(out) == 0 {
			if s := it.Get("result.structured_content"); s.Exists() && s.Type != gjson.Null {
				out = append(out, s.Raw)
			}
		}
	case "todo_list":
		it.Get("items").ForEach(func(_, c gjson.Result) bool {
			mark := "[ ] "
			if c.Get("completed").Bool() {
				mark = "[x] "
			}
			out = append(out, mark+c.Get("text").String())
			return true
		})
	case "collab_tool_call":
		if tool := it.Get("tool").String(); tool != "" {
			t.Name = tool
		}
		it.Get("agents_states").ForEach(func(_, s gjson.Result) bool {
			if m := s.Get("message").String(); m != "" {
				out = append(out, m)
			}
			return true
		})
	}
	t.Output = strings.Join(out, "\n")
	return t
}

// usage reads turn.completed's usage. Codex states the thread's running
// total (input_tokens counting the cached ones and cache writes); a run
// is one turn, so a later turn of the same thread counts what its total
// grew by.
func (d *decoder) usage(u gjson.Result) *event.Tokens {
	var t event.Tokens
	t.Scope = event.ScopeRun
	cur := totals{
		in: u.Get("input_tokens").Int(), cached: u.Get("cached_input_tokens").Int(),
		write: u.Get("cache_write_input_tokens").Int(), out: u.Get("output_tokens").Int(),
		reasoning: u.Get("reasoning_output_tokens").Int(),
	}
	c := cur
	if p, ok := d.prev[d.thread]; ok && d.thread != "" && c.in >= p.in && c.cached >= p.cached &&
		c.write >= p.write && c.out >= p.out && c.reasoning >= p.reasoning {
		c = totals{c.in - p.in, c.cached - p.cached, c.write - p.write, c.out - p.out, c.reasoning - p.reasoning}
	}
	d.prev[d.thread] = cur
	for _, f := range []struct {
		key string
		has event.Has
	}{{"input_tokens", event.HasInput}, {"cached_input_tokens", event.HasCacheRead},
		{"cache_write_input_tokens", event.HasCacheWrite}, {"output_tokens", event.HasOutput},
		{"reasoning_output_tokens", event.HasReasoning}} {
		if u.Get(f.key).Exists() {
			t.Has |= f.has
		}
	}
	t.Input = max(c.in-c.cached-c.write, 0)
	t.CacheRead, t.CacheWrite, t.Output, t.Reasoning = c.cached, c.write, c.out, c.reasoning
	return &t
}
