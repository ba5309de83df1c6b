// Package cursor reads Cursor's agent CLI stream-json output
// (`cursor-agent -p --output-format stream-json`). See doc.md for what
// each line becomes.
package cursor

import (
	_ "embed"
	"errors"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/zevo/zevo/event"
)

// Name is the dialect's name.
const Name = "cursor"

// Dialect is cursor-agent's stream-json.
var Dialect = &event.Dialect{
	Name:       Name,
	Aliases:    []string{"cursor-agent"},
	Title:      "Cursor",
	Schema:     schema,
	Effects:    effects,
	DetectLine: detectLine,
	NewDecoder: func(opt event.DecodeOptions) event.Decoder { return newDecoder(opt) },
}

// schema is the JSON Schema of the dialect's lines.
//
//go:embed cursor.schema.json
var schema []byte

// effects are what running the producer's own tools does.
var effects = map[string]event.Effect{
	"readToolCall": event.EffectRead, "globToolCall": event.EffectRead, "grepToolCall": event.EffectRead, "lsToolCall": event.EffectRead, "semSearchToolCall": event.EffectRead, "listDirToolCall": event.EffectRead, "read_file": event.EffectRead, "list_dir": event.EffectRead, "file_search": event.EffectRead, "codebase_search": event.EffectRead,
	"editToolCall": event.EffectWrite, "writeToolCall": event.EffectWrite, "deleteToolCall": event.EffectWrite, "updateTodosToolCall": event.EffectWrite, "edit_file": event.EffectWrite,
	"shellToolCall": event.EffectShell, "run_terminal_cmd": event.EffectShell,
	"webFetchToolCall": event.EffectNetwork, "webSearchToolCall": event.EffectNetwork,
}

// detectLine is Sure for lines only cursor-agent writes (thinking and
// tool_call lines with its fields, and lines with model_call_id, call_id
// or timestamp_ms), Maybe for the bare system/user/assistant/result
// shapes Claude Code writes too, No for a line with a field only Claude
// Code writes. It is asked of every line of every input, so it reads the
// type first (from the Detector's event.Line, whose fields are read
// once for all dialects), and the other fields of a line that may be
// Cursor's in one pass (detectFields).
func detectLine(l *event.Line) event.Certainty {
	line := l.Bytes
	typ, ok := l.Type()
	if !ok {
		return event.No
	}
	// The type first (a string only in an object), then what can make
	// the line Cursor's: most lines of other dialects are told apart
	// without reading their other fields.
	switch typ {
	case "thinking", "tool_call":
		// Sure only with one of its own fields; else No.
		if !l.Has("model_call_id") && !l.Has("call_id") && !l.Has("timestamp_ms") && !l.Has("subtype") && !l.Has("session_id") {
			return event.No
		}
	case "system", "user", "assistant", "result":
	default:
		// Sure only with session_id (and its own fields); else No.
		if !l.Has("session_id") {
			return event.No
		}
	}
	var f detectFields
	gjson.ParseBytes(line).ForEach(f.note)
	if f.claude {
		return event.No
	}
	switch typ {
	case "thinking", "tool_call":
		// EvoScientist writes these types too, without subtype or session.
		if f.own || f.subtype || f.session {
			return event.Sure
		}
		return event.No
	case "system", "user", "assistant", "result":
		if f.own || f.inputTokens {
			return event.Sure
		}
		return event.Maybe
	}
	if f.own && f.session {
		return event.Sure
	}
	return event.No
}

// detectFields is what Detect reads of a line's top-level fields, as
// gjson's Get reads them: a path (message.id) in any value of its key.
type detectFields struct {
	claude           bool // a field only Claude Code writes
	own              bool // model_call_id, call_id or timestamp_ms
	subtype, session bool
	inputTokens      bool // usage.inputTokens
}

func (f *detectFields) note(k, v gjson.Result) bool {
	switch k.Str {
	case "message":
		if v.Get("id").Exists() || v.Get("model").Exists() {
			f.claude = true // message.id, message.model
			return false
		}
	case "usage":
		f.inputTokens = f.inputTokens || v.Get("inputTokens").Exists()
	case "claude_code_version", "qwen_code_version", "uuid", "parent_tool_use_id",
		"total_cost_usd", "modelUsage", "tools", "mcp_servers":
		f.claude = true
		return false // Claude Code's line: nothing else matters
	case "model_call_id", "call_id", "timestamp_ms":
		f.own = true
	case "subtype":
		f.subtype = true
	case "session_id":
		f.session = true
	}
	return true
}

type decoder struct {
	opt   event.DecodeOptions
	tools map[string]string // call_id → tool name

	// The assistant text of the run said so far, and of its current
	// segment (since the last tool call), for --stream-partial-output.
	said, segment strings.Builder
	partial       bool // the run's assistant lines are chunks

	open    bool   // an init came and its result did not yet
	session string // the open run's

	typ, run string
	num      int
	raw      []byte
}

func newDecoder(opt event.DecodeOptions) *decoder {
	return &decoder{opt: opt, tools: map[string]string{}}
}

func (d *decoder) ev(k event.Kind) event.Event {
	return event.Event{Kind: k, Dialect: Name, Type: d.typ, Line: d.num, Raw: d.raw, Run: d.run}
}

// Decode appends the events of one line; a line that yields nothing the
// model names yields Other, so no line is lost.
func (d *decoder) Decode(dst []event.Event, line []byte, num int) ([]event.Event, error) {
	n := len(dst)
	d.num, d.raw = num, line
	dst, err := d.decode(dst, line)
	if len(dst) == n {
		dst = append(dst, d.ev(event.Other))
	}
	return dst, err
}

func (d *decoder) decode(dst []event.Event, line []byte) ([]event.Event, error) {
	d.typ, d.run = "", ""
	if !gjson.ValidBytes(line) {
		return dst, errors.New("cursor: not a JSON line")
	}
	r := gjson.ParseBytes(line)
	if !r.IsObject() {
		return dst, errors.New("cursor: not a JSON object")
	}
	typ := r.Get("type")
	if typ.Type != gjson.String {
		return dst, errors.New("cursor: the line has no string \"type\"")
	}
	d.typ = typ.Str
	d.run = r.Get("session_id").String()
	switch d.typ {
	case "system":
		if r.Get("subtype").String() == "init" {
			if d.open && d.run == d.session {
				break // the same session's init again: its run goes on
			}
			d.open, d.session = true, d.run
			e := d.ev(event.RunStart)
			e.Session, e.Model, e.Cwd = d.run, r.Get("model").String(), r.Get("cwd").String()
			d.said.Reset()
			d.segment.Reset()
			d.partial = false
			dst = append(dst, e)
		}
	case "user":
		text, err := texts(r, "user")
		if text != "" {
			e := d.ev(event.Prompt)
			e.Text = text
			dst = append(dst, e)
		}
		return dst, err
	case "assistant":
		text, err := texts(r, "assistant")
		if text = d.newText(r, text); text != "" {
			e := d.ev(event.Text)
			e.Text = text
			dst = append(dst, e)
		}
		return dst, err
	case "thinking":
		if t := r.Get("text").String(); t != "" {
			e := d.ev(event.Reasoning)
			e.Text = t
			dst = append(dst, e)
		}
	case "tool_call":
		return d.toolCall(dst, r)
	case "result":
		return d.result(dst, r), nil
	}
	return dst, nil
}

// texts joins the text blocks of message.content (a string content is
// its own text).
func texts(r gjson.Result, typ string) (string, error) {
	msg := r.Get("message")
	if !msg.IsObject() {
		return "", event.FieldError(typ, "message", "object", msg)
	}
	c := msg.Get("content")
	if c.Type == gjson.String {
		return c.Str, nil
	}
	if !c.IsArray() {
		return "", event.FieldError(typ, "message.content", "string or array", c)
	}
	var b strings.Builder
	for _, blk := range c.Array() {
		if blk.Get("type").String() == "text" {
			b.WriteString(blk.Get("text").String())
		}
	}
	return b.String(), nil
}

// newText is the part of an assistant line's text not said before. By
// default each line is a complete message and says all of it. With
// --stream-partial-output, lines with timestamp_ms and no model_call_id
// are chunks and say all of theirs; a line with model_call_id repeats
// the segment since the last tool call, and a line without timestamp_ms
// the whole run's text, so those say only what extends it.
func (d *decoder) newText(r gjson.Result, t string) string {
	chunk := r.Get("timestamp_ms").Exists() && !r.Get("model_call_id").Exists()
	if chunk {
		d.partial = true
	}
	if d.partial && !chunk {
		said, segment := d.said.String(), d.segment.String()
		switch {
		case said != "" && strings.HasPrefix(t, said):
			t = t[len(said):]
		case segment != "" && strings.HasPrefix(t, segment):
			t = t[len(segment):]
		case strings.HasSuffix(said, t):
			t = ""
		}
	}
	d.said.WriteString(t)
	d.segment.WriteString(t)
	return t
}

// toolOf is a tool_call's tool: the key of its one <name>ToolCall object
// (or a function call's name), its args and its result.
func toolOf(tc gjson.Result) (name string, args, result gjson.Result) {
	tc.ForEach(func(k, v gjson.Result) bool {
		name = k.String()
		if name == "function" {
			name = v.Get("name").String()
			args = v.Get("arguments")
		} else {
			args = v.Get("args")
		}
		result = v.Get("result")
		return false
	})
	return name, args, result
}

func (d *decoder) toolCall(dst []event.Event, r gjson.Result) ([]event.Event, error) {
	id := r.Get("call_id").String()
	tc := r.Get("tool_call")
	if tc.Exists() && !tc.IsObject() {
		return dst, event.FieldError("tool_call", "tool_call", "object", tc)
	}
	name, args, result := toolOf(tc)
	if name == "" {
		name = d.tools[id] // an empty tool_call {} in some builds
	}
	d.segment.Reset() // a tool call ends the text before it
	switch r.Get("subtype").String() {
	case "started":
		e := d.ev(event.ToolCall)
		e.Tool = &event.Tool{ID: id, Name: name, Effect: d.opt.EffectOf(name)}
		if args.Exists() {
			e.Tool.Args = []byte(args.Raw)
		}
		d.tools[id] = name
		return append(dst, e), nil
	case "completed":
		e := d.ev(event.ToolResult)
		e.Tool = &event.Tool{ID: id, Name: name}
		e.Tool.Failed, e.Tool.Output = outcome(result)
		return append(dst, e), nil
	}
	return dst, nil
}

// outcome reads a tool's result: {success: {…}} or another outcome
// ({error: …}, {failure: …}, {rejected: …}); a shell's non-zero exit code
// fails too. The output is the shell's output, a read's content, an
// error's message, or else the outcome's JSON.
func outcome(res gjson.Result) (failed bool, output string) {
	if !res.IsObject() {
		if res.Exists() && res.Type != gjson.Null {
			return false, res.Raw
		}
		return false, ""
	}
	var kind string
	var v gjson.Result
	res.ForEach(func(k, val gjson.Result) bool {
		if k.String() == "isBackground" {
			return true
		}
		kind, v = k.String(), val
		return false
	})
	failed = kind != "success"
	if code := v.Get("exitCode"); code.Exists() && code.Int() != 0 {
		failed = true
	}
	switch {
	case v.Type == gjson.String:
		return failed, v.Str
	case v.Get("interleavedOutput").String() != "":
		return failed, v.Get("interleavedOutput").String()
	case v.Get("stdout").Exists() || v.Get("stderr").Exists():
		out, errOut := v.Get("stdout").String(), v.Get("stderr").String()
		if out != "" && errOut != "" {
			return failed, out + "\n" + errOut
		}
		return failed, out + errOut
	}
	for _, f := range [...]string{"content", "errorMessage", "error", "message"} {
		if s := v.Get(f); s.Type == gjson.String {
			return failed, s.Str
		}
	}
	if v.Exists() {
		return failed, v.Raw
	}
	return failed, ""
}

func (d *decoder) result(dst []event.Event, r gjson.Result) []event.Event {
	if u := r.Get("usage"); u.IsObject() {
		var t event.Tokens
		for _, f := range [...]struct {
			name string
			n    *int64
			has  event.Has
		}{{"inputTokens", &t.Input, event.HasInput}, {"outputTokens", &t.Output, event.HasOutput},
			{"cacheReadTokens", &t.CacheRead, event.HasCacheRead}, {"cacheWriteTokens", &t.CacheWrite, event.HasCacheWrite}} {
			if v := u.Get(f.name); v.Exists() {
				*f.n = max(v.Int(), 0)
				t.Has |= f.has
			}
		}
		if t.Has != 0 {
			t.Scope = event.ScopeRun
			e := d.ev(event.Usage)
			e.Usage = &t
			dst = append(dst, e)
		}
	}
	subtype := r.Get("subtype").String()
	isError := r.Get("is_error").Bool()
	status := event.StatusEnded
	switch {
	case isError || strings.HasPrefix(subtype, "error"):
		status = event.StatusError
	case subtype == "success":
		status = event.StatusSuccess
	}
	text := r.Get("result")
	if text.Type == gjson.String {
		k := event.Final
		if status == event.StatusError {
			k = event.Error
		}
		if k == event.Final || text.Str != "" {
			e := d.ev(k)
			e.Text = text.Str
			if k == event.Error {
				e.Code = subtype
			}
			dst = append(dst, e)
		}
	}
	end := d.ev(event.RunEnd)
	end.Status = status
	d.said.Reset()
	d.segment.Reset()
	d.partial, d.open = false, false
	return append(dst, end)
}

// End: cursor-agent's text and calls are emitted as they come, so there
// is nothing to flush; a run without its result is left open, for
// event.Runs to close as cut.
func (d *decoder) End(dst []event.Event) []event.Event { return dst }
