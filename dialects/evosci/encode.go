package evosci

import (
	"bytes"
	"math/big"
	"slices"
	"strconv"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/redact"
)

// EncodeOptions configure an Encoder.
type EncodeOptions struct {
	// Plain writes every line through its object (Encoder.plain).
	Plain bool
	// Redactor redacts every value written; nil writes them as they are.
	Redactor *redact.Redactor
	// Keep writes the lines the target has no event for, their type
	// prefixed with their dialect's name ("claude.rate_limit_event").
	Keep bool
}

// Encoder writes events as EvoScientist's stream: Python's json.dumps
// style, "type" first, each event as it comes (EvoScientist flushes each
// of its own), each run ended by done (success) or error (any other
// end), as EvoScientist ends its own.
type Encoder struct {
	opt  EncodeOptions
	emit func([]byte) error
	obj  jsonl.Object
	line []byte

	open     bool
	said     bool            // the run had an event besides the user's prompt
	lastDone bool            // the last line written was a done
	final    *string         // the run's final answer, when one came
	text     []byte          // its text, for done when no final answer came
	errored  bool            // an error was written for the run
	usage    event.Tokens    // the run's usage written so far
	calls    map[string]call // by id: for results without a name, interrupts
	kept     *byte           // the line last kept (its first byte)
	keptLine int             // and its number

	// passed: the open run is EvoScientist's own, passed through (Pass);
	// leftOpen: such a run was open at the end of an input, and ends if
	// another input follows.
	passed, leftOpen bool
	pending          []passCall // the passed run's calls without a result, oldest first
	answered         map[string]bool

	// plain: every line goes through obj (no direct writes), the
	// reference the direct lines are tested against.
	plain bool
}

// passCall is a call of a run passed through.
type passCall struct{ id, name string }

type call struct{ name, args string }

// byName prefixes a tool's name among the call ids of calls: no id
// starts with a NUL.
const byName = "\x00"

// maxCalls bounds the calls remembered in a run; maxText the text kept
// for its done.
const (
	maxCalls = 4096
	maxText  = 16 << 20
)

// NewEncoder writes to emit, one event a call without line end (the
// slice is reused after emit returns).
func NewEncoder(opt EncodeOptions, emit func([]byte) error) *Encoder {
	e := &Encoder{opt: opt, emit: emit, plain: opt.Plain}
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
	e.lastDone = bytes.HasPrefix(e.line, []byte(`{"type": "done"`))
	return e.emit(e.line)
}

// direct: the line is written as the object would write it, straight
// to the line: with no redaction, every string of the common events is
// AppendString's, and the members go in the order added, so the object's
// bookkeeping and its second copy of each value are saved (the object
// stays the reference: TestDirectLinesAreTheObjects).
func (e *Encoder) direct() bool { return e.opt.Redactor == nil && !e.plain }

// writeLine emits the line written directly (direct), not a done.
func (e *Encoder) writeLine() error {
	e.line = append(e.line, '}')
	e.lastDone = false
	return e.emit(e.line)
}

// toolResult writes a tool_result directly (direct).
func (e *Encoder) toolResult(t *event.Tool, name string) error {
	e.line = jsonl.AppendString(append(e.line[:0], `{"type": "tool_result", "name": `...), name, jsonl.PythonStyle)
	e.line = append(e.line, `, "content": `...)
	if t.OutputJSON != "" {
		e.line = jsonl.AppendRespelled(e.line, t.OutputJSON, jsonl.PythonStyle)
	} else {
		e.line = jsonl.AppendString(e.line, t.Output, jsonl.PythonStyle)
	}
	if t.Failed {
		e.line = append(e.line, `, "success": false, "id": `...)
	} else {
		e.line = append(e.line, `, "success": true, "id": `...)
	}
	e.line = jsonl.AppendString(e.line, t.ID, jsonl.PythonStyle)
	return e.writeLine()
}

// Encode writes ev, placed in its run by st (ev nil: st only closes a
// run). mapped is false for an event EvoScientist has no room for:
// dropped, or with Keep written under its prefixed type.
func (e *Encoder) Encode(ev *event.Event, st event.Step) (mapped bool, err error) {
	if err := e.close(st); err != nil {
		return false, err
	}
	if ev == nil {
		return true, nil
	}
	if err := e.endLeftOpen(); err != nil {
		return false, err
	}
	if st.Start {
		e.begin()
	}
	if !e.open || st.Run == nil {
		return false, e.keep(ev)
	}
	if ev.Kind != event.Prompt && (ev.Kind != event.RunEnd || st.Start) {
		// (A run of its end alone is said: its done ends it.)
		e.said = true
	}
	sub := ev.Sub != ""
	switch ev.Kind {
	case event.RunStart:
		// EvoScientist writes nothing at a run's start. The start zevo
		// writes for an EvoScientist run says nothing the stream lacks:
		// keeping it would not restore the source.
		if ev.Provider != Name && ev.Provider != "evoscientist" {
			return true, e.keep(ev)
		}
		return true, nil
	case event.Text:
		if sub || ev.Text == "" {
			// (EvoScientist writes no empty text.)
			return false, e.keep(ev)
		}
		// done's answer when no final answer comes: each piece as its
		// text event says it (redacted alone, as there).
		if len(e.text) < maxText {
			if e.opt.Redactor != nil {
				e.text = append(e.text, e.opt.Redactor.String(ev.Text)...)
			} else {
				e.text = append(e.text, ev.Text...)
			}
		}
		if e.direct() {
			e.line = jsonl.AppendString(append(e.line[:0], `{"type": "text", "content": `...), ev.Text, jsonl.PythonStyle)
			return true, e.writeLine()
		}
		e.head("text")
		e.obj.Str("content", ev.Text)
		return true, e.write()
	case event.Reasoning:
		if sub || ev.Text == "" {
			return false, e.keep(ev)
		}
		if e.direct() {
			e.line = jsonl.AppendString(append(e.line[:0], `{"type": "thinking", "content": `...), ev.Text, jsonl.PythonStyle)
			e.line = append(e.line, `, "id": 0`...)
			return true, e.writeLine()
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
		if e.direct() {
			return true, e.toolResult(ev.Tool, name)
		}
		e.head("tool_result")
		e.obj.Str("name", name)
		if ev.Tool.OutputJSON != "" {
			e.obj.StrSpelled("content", ev.Tool.OutputJSON)
		} else {
			e.obj.Str("content", ev.Tool.Output)
		}
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
		return true, e.usageStats(ev.Usage)
	case event.Final:
		s := ev.Text
		e.final = &s
		return true, nil
	case event.Error:
		// EvoScientist's error ends its run as it fails; the run's end
		// adds no second one.
		e.errored = true
		e.head("error")
		e.obj.Str("message", ev.Text)
		return true, e.write()
	case event.RunEnd:
		if sub {
			return false, e.keep(ev)
		}
		return true, e.end(ev)
	}
	// Prompt, Warning, PermissionDecision, Checkpoint, Other: EvoScientist
	// writes none of them.
	return false, e.keep(ev)
}

// close ends the run st closes, cut: as EvoScientist ends a failed run,
// or, for a run passed through that the input leaves open, as its
// producer left it, unless another input follows (endLeftOpen).
func (e *Encoder) close(st event.Step) error {
	if st.Closed == nil || !e.open {
		return nil
	}
	if e.passed && st.Closed.Cut == event.CutEndOfInput {
		e.open, e.leftOpen = false, true
		return nil
	}
	return e.fail(event.CutMessage(st.Closed.Cut))
}

// endLeftOpen ends, before the next input's first line, a run passed
// through that the input before it left open: its events are not to be
// read as the next run's.
func (e *Encoder) endLeftOpen() error {
	if !e.leftOpen {
		return nil
	}
	e.leftOpen = false
	e.head("error")
	e.obj.Str("message", "the run was cut short: "+event.CutEndOfInput.String())
	return e.write()
}

// Pass writes the line of ev, an event of EvoScientist's own (the
// source is the target), as its producer wrote it, once for the line
// however many events it gives (first): byte for byte, or, redacted or
// with the fields an EvoScientist 0.1.x line lacks that today's
// consumers index (passFill), restyled. The run is the producer's: its
// end is its own line, and a run the input leaves open ends as it was
// left (close).
func (e *Encoder) Pass(ev *event.Event, st event.Step, first bool) error {
	return e.pass(ev, st, first)
}

// frame places a line written as given (Restore, Rendered) in the run st
// places it in, the run it cut already closed.
func (e *Encoder) frame(st event.Step) error {
	if err := e.endLeftOpen(); err != nil {
		return err
	}
	if st.Start {
		e.begin()
	}
	if st.End {
		e.open = false
	} else if e.open {
		e.said = true
	}
	return nil
}

// Restore writes the line of ev, an EvoScientist event another stream
// kept (--unmapped keep: its type prefixed "evosci."), in the run st
// places it in, as EvoScientist wrote it: its type restored, without the
// envelope the other stream gave it (envelope: those keys).
func (e *Encoder) Restore(ev *event.Event, st event.Step, typ string, envelope ...string) error {
	if _, err := e.Encode(nil, event.Step{Closed: st.Closed}); err != nil {
		return err
	}
	if err := e.frame(st); err != nil {
		return err
	}
	e.head(typ)
	gjson.ParseBytes(ev.Raw).ForEach(func(k, v gjson.Result) bool {
		if k.Str != "type" && !slices.Contains(envelope, k.Str) {
			e.obj.Raw(k.Str, []byte(v.Raw))
		}
		return true
	})
	return e.write()
}

func (e *Encoder) pass(ev *event.Event, st event.Step, first bool) error {
	if err := e.close(st); err != nil {
		return err
	}
	if err := e.endLeftOpen(); err != nil {
		return err
	}
	if st.Start {
		e.begin()
		e.passed = true
		e.pending, e.answered = e.pending[:0], map[string]bool{}
	}
	if st.End {
		e.open, e.passed = false, false
	}
	if !first {
		return nil
	}
	fill := e.passFill(ev)
	if len(fill) == 0 && e.opt.Redactor == nil {
		e.lastDone = ev.Type == "done"
		return e.emit(ev.Raw)
	}
	e.head(ev.Type)
	gjson.ParseBytes(ev.Raw).ForEach(func(k, v gjson.Result) bool {
		if k.Str != "type" {
			e.obj.Raw(k.Str, []byte(v.Raw))
		}
		return true
	})
	for _, f := range fill {
		e.obj.Str(f[0], f[1])
	}
	return e.write()
}

// passFill follows the calls of a run passed through, and returns the
// fields an EvoScientist 0.1.x line lacks that today's consumers index
// (EvoScientist's stream state reads event["id"] of a tool_result,
// event["instance_id"] of sub-agent events): a result's id is the call
// it answers (as for Zero output), a sub-agent's instance is named after
// the sub-agent, and subagent_start's tool_call_id is "".
func (e *Encoder) passFill(ev *event.Event) [][2]string {
	v := gjson.ParseBytes(ev.Raw)
	var inst string
	switch ev.Type {
	case "tool_call":
		if id := v.Get("id"); id.Type == gjson.String && !e.answered[id.Str] && !e.isPending(id.Str) {
			if len(e.pending) >= maxCalls {
				e.pending = append(e.pending[:0], e.pending[1:]...)
			}
			e.pending = append(e.pending, passCall{id.Str, v.Get("name").Str})
		}
		return nil
	case "tool_result":
		id := v.Get("id")
		if id.Exists() && id.Type != gjson.String {
			return nil
		}
		got := e.takePending(id.Str, v.Get("name").Str)
		if id.Exists() {
			return nil
		}
		return [][2]string{{"id", got}}
	case "subagent_start", "subagent_end":
		inst = v.Get("name").Str
	case "subagent_tool_call", "subagent_tool_result":
		inst = v.Get("subagent").Str
	default:
		return nil
	}
	var fill [][2]string
	if !v.Get("instance_id").Exists() {
		fill = append(fill, [2]string{"instance_id", inst})
	}
	if ev.Type == "subagent_start" && !v.Get("tool_call_id").Exists() {
		fill = append(fill, [2]string{"tool_call_id", ""})
	}
	return fill
}

func (e *Encoder) isPending(id string) bool {
	for _, p := range e.pending {
		if p.id == id {
			return true
		}
	}
	return false
}

// takePending is the id of the call a result answers: by its id, else
// the earliest pending call of its tool; "" for none.
func (e *Encoder) takePending(id, name string) string {
	for i, p := range e.pending {
		if id != "" && p.id == id || id == "" && p.name == name {
			e.pending = append(e.pending[:i], e.pending[i+1:]...)
			if len(e.answered) >= maxCalls {
				clear(e.answered)
			}
			e.answered[p.id] = true
			return p.id
		}
	}
	return ""
}

// begin starts writing a run.
func (e *Encoder) begin() {
	e.passed = false
	e.open, e.said, e.final, e.errored = true, false, nil, false
	if cap(e.text) > maxText {
		e.text = nil // one long run holds no memory for the next
	}
	e.text = e.text[:0]
	e.usage = event.Tokens{}
	e.calls = map[string]call{}
}

// Rendered writes, in the run st places ev in, one line of type typ
// whose members fill adds after "type": a line a user's mapping rule
// renders from ev's, redacted as the encoder's own lines. A line that
// ends its run (st.End) ends it as the rule writes it, with no done or
// error of the encoder's. fill returns false when the line is not to be
// written (its run is still framed).
func (e *Encoder) Rendered(ev *event.Event, st event.Step, typ string, fill func(o *jsonl.Object) bool) error {
	if err := e.close(st); err != nil {
		return err
	}
	if err := e.frame(st); err != nil {
		return err
	}
	e.head(typ)
	if !fill(&e.obj) {
		return nil
	}
	return e.write()
}

// usageStats writes a usage event as EvoScientist's usage_stats, which
// its clients sum: a message's usage as it is, a run's total (Claude
// Code's result) as what it adds to the usage written before it.
func (e *Encoder) usageStats(u *event.Tokens) error {
	if p := u.Past; p != nil {
		// Counts that are no counts (below 0, past int64, -0): written
		// as the producer states them.
		e.head("usage_stats")
		e.obj.Raw("input_tokens", statedCount(p.Input, p.InputRaw, u.Input+u.CacheRead+u.CacheWrite))
		e.obj.Raw("output_tokens", statedCount(p.Output, p.OutputRaw, u.Output))
		return e.write()
	}
	in, out := u.Input+u.CacheRead+u.CacheWrite, u.Output
	if u.Scope == event.ScopeRun {
		in = max(0, in-(e.usage.Input+e.usage.CacheRead+e.usage.CacheWrite))
		out = max(0, out-e.usage.Output)
		if u.Total() > e.usage.Total() {
			e.usage = *u
		}
	} else {
		e.usage.Add(u)
	}
	if in == 0 && out == 0 {
		return nil // nothing to add (EvoScientist never writes a 0/0 usage_stats)
	}
	e.head("usage_stats")
	e.obj.Int("input_tokens", in)
	e.obj.Int("output_tokens", out)
	return e.write()
}

// statedCount is past, a count as stated, else n: as spelled (raw, -0)
// when that is what it is.
func statedCount(past *big.Int, raw string, n int64) []byte {
	if past != nil {
		return past.Append(nil, 10)
	}
	if raw != "" && n == 0 {
		return []byte(raw)
	}
	return strconv.AppendInt(nil, n, 10)
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

// end ends the run as ev ends it: done for a run that did its work
// (content and response its final answer, else its text joined), else
// an error, unless the run wrote one, and no done, as EvoScientist ends a
// failed run. A run of the user's prompt alone writes nothing.
func (e *Encoder) end(ev *event.Event) error {
	if !e.said {
		e.open = false
		return nil
	}
	if failed(ev) {
		word := ev.StatusWord
		if word == "" {
			word = string(ev.Status)
		}
		msg := "run ended with status " + word
		if ev.ExitCode != nil {
			msg += " (exit code " + strconv.Itoa(*ev.ExitCode) + ")"
		}
		return e.fail(msg)
	}
	e.open = false
	answer := string(e.text)
	if e.final != nil {
		answer = *e.final
	}
	if e.lastDone && answer != "" {
		// A done right after a done reads as one run's two: a run
		// that wrote nothing says its answer as text first, as
		// EvoScientist says its answer.
		e.head("text")
		e.obj.Str("content", answer)
		if err := e.write(); err != nil {
			return err
		}
	}
	e.head("done")
	e.obj.Str("content", answer)
	e.obj.Str("response", answer)
	return e.write()
}

// failed: the run did not end as its work done. A run paused for an
// answer ends with done, as EvoScientist's own does (interrupt, done); a
// status word the producer states and the model does not know is no
// success.
func failed(ev *event.Event) bool {
	switch ev.Status {
	case event.StatusInterrupted:
		return false
	case event.StatusEnded:
		return ev.StatusStated
	}
	return ev.Status.Failed()
}

// fail ends the open run as failed: with an error saying msg, unless the
// run wrote one.
func (e *Encoder) fail(msg string) error {
	e.open = false
	if e.errored {
		return nil
	}
	e.errored = true
	e.head("error")
	e.obj.Str("message", msg)
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

// keep writes, with Keep, the line of an event EvoScientist has no room
// for: its fields under the type DIALECT.TYPE, once for the line however
// many of its events are unmapped.
func (e *Encoder) keep(ev *event.Event) error {
	if !e.opt.Keep || len(ev.Raw) == 0 || &ev.Raw[0] == e.kept && ev.Line == e.keptLine {
		return nil
	}
	e.kept, e.keptLine = &ev.Raw[0], ev.Line
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
	return NewEncoder(EncodeOptions{Redactor: o.Redactor, Keep: o.Keep, Plain: o.Plain}, emit)
}
