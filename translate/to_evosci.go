package translate

import (
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
)

// evoState is the run being written as EvoScientist.
type evoState struct {
	active bool // a run of Zero input is open
	// leftOpen: an input (file) ended inside an EvoScientist run passed
	// through; the run is ended if another input follows.
	leftOpen bool
	errored  bool   // an error event was written for this run
	final    string // final.text as raw JSON, when a final came
	hasFinal bool
	text     []byte     // text deltas, for done when no final came (reused from run to run)
	calls    []callInfo // tool calls, for tool_result names and interrupt args
	callMem  int
}

type callInfo struct {
	id, name, args string
}

// keepText is the capacity of the text buffer kept from one run for the next.
const keepText = 1 << 20

// maxCallMem bounds the bytes of tool-call args remembered for correlation.
const maxCallMem = 16 << 20

func (t *Translator) headEvo(typ string) {
	t.ob.reset(jsonl.PythonStyle, t.opt.Redactor, false)
	t.ob.keys = &t.keys
	t.ob.rendered("type", t.typeOut(typ, jsonl.PythonStyle))
}

func (t *Translator) resetEvoRun() {
	e := &t.toEvo
	e.active, e.errored, e.hasFinal, e.final = false, false, false, ""
	if cap(e.text) > keepText {
		e.text = nil // one long run does not hold memory for the rest of the input
	} else {
		e.text = e.text[:0]
	}
	e.calls, e.callMem = e.calls[:0], 0
}

func (t *Translator) rememberCall(id, name, args string) {
	e := &t.toEvo
	if c := t.findCall(id); c != nil && id != "" {
		return // the same call again
	}
	for len(e.calls) > 0 && (len(e.calls) >= maxPending || e.callMem+len(args) > maxCallMem) {
		e.callMem -= len(e.calls[0].args)
		e.calls = append(e.calls[:0], e.calls[1:]...)
	}
	// One copy of the three (they may be views of the line); not id + name
	// + args, which is no copy when two of them are empty.
	var b strings.Builder
	b.Grow(len(id) + len(name) + len(args))
	b.WriteString(id)
	b.WriteString(name)
	b.WriteString(args)
	all := b.String()
	n, m := len(id), len(id)+len(name)
	e.calls = append(e.calls, callInfo{all[:n], all[n:m], all[m:]})
	e.callMem += len(args)
}

func (t *Translator) findCall(id string) *callInfo {
	e := &t.toEvo
	for i := len(e.calls) - 1; i >= 0; i-- {
		if e.calls[i].id == id {
			return &e.calls[i]
		}
	}
	return nil
}

// keepZeroInEvo writes a Zero event under --unmapped keep, fields unchanged.
func (t *Translator) keepZeroInEvo(ev *event) error {
	if t.opt.Unmapped != Keep {
		return nil
	}
	t.headEvo("zero." + ev.typ)
	t.keepFields(ev, "type")
	return t.write()
}

// zeroRule writes a Zero event through a table rule.
func (t *Translator) zeroRule(ev *event, rule *mappings.Rule, to string) (bool, error) {
	t.headEvo(to)
	if err := t.applyRule(ev, rule, false); err != nil {
		return false, err
	}
	return false, t.write()
}

func (t *Translator) zeroToolCall(ev *event, _ *mappings.Rule, to string) (bool, error) {
	if d := check(ev, "id", "string", "name", "string"); d != nil {
		return false, d
	}
	args := ev.Get("args")
	argsRaw := "{}"
	switch {
	case args.IsObject():
		argsRaw = args.Raw
	case args.Exists() && args.Type != gjson.Null:
		// Zero keeps arguments it could not parse as their string (or any
		// JSON value); EvoScientist's consumers need an object.
		argsRaw = `{"arguments": ` + args.Raw + `}`
	}
	t.rememberCall(ev.Get("id").Str, ev.Get("name").Str, argsRaw)
	t.headEvo(to)
	t.ob.raw("name", orEmpty(ev.Get("name")))
	t.ob.raw("args", argsRaw)
	t.ob.raw("id", orEmpty(ev.Get("id")))
	return false, t.write()
}

func (t *Translator) zeroToolResult(ev *event, _ *mappings.Rule, to string) (bool, error) {
	if d := check(ev, "id", "string", "name", "string", "status", "string", "output", "string"); d != nil {
		return false, d
	}
	t.headEvo(to)
	name := ev.Get("name")
	if name.Type == gjson.String {
		t.ob.raw("name", name.Raw)
	} else if c := t.findCall(ev.Get("id").Str); c != nil {
		t.ob.str("name", c.name)
	} else {
		t.ob.str("name", "")
	}
	if out := ev.Peek("output"); out.Type == gjson.String {
		t.ob.raw("content", out.Raw)
	} else {
		t.ob.str("content", "")
	}
	t.ob.bool("success", ev.Get("status").Str == "ok")
	t.ob.raw("id", orEmpty(ev.Get("id"))) // EvoScientist's own consumer requires it
	return false, t.write()
}

func (t *Translator) zeroPermission(ev *event, _ *mappings.Rule, to string) (bool, error) {
	if d := check(ev, "id", "string", "name", "string", "reason", "string"); d != nil {
		return false, d
	}
	id, name, reason := ev.Get("id"), orEmpty(ev.Get("name")), ev.Get("reason")
	args := "{}"
	if c := t.findCall(id.Str); c != nil {
		args = c.args
	}
	t.headEvo(to)
	t.ob.raw("interrupt_id", orEmpty(id))
	t.ob.array("action_requests", func(l *list) {
		l.object(func(c *out) {
			c.raw("name", name)
			c.raw("args", args)
			if reason.Type == gjson.String {
				c.raw("description", reason.Raw)
			}
		})
	})
	t.ob.array("review_configs", func(l *list) {
		l.object(func(c *out) {
			c.raw("action_name", name)
			c.array("allowed_decisions", func(l *list) {
				l.str("approve")
				l.str("reject")
			})
		})
	})
	return false, t.write()
}

// orEmpty is the raw JSON of a string field, or "".
func orEmpty(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Raw
	}
	return `""`
}

func (t *Translator) zeroError(ev *event, _ *mappings.Rule, to string) (bool, error) {
	if d := check(ev, "message", "string"); d != nil {
		return false, d
	}
	t.headEvo(to)
	if m := ev.Get("message"); m.Type == gjson.String {
		t.ob.raw("message", m.Raw)
	} else {
		t.ob.str("message", ev.Get("code").String())
	}
	t.toEvo.errored = true
	return false, t.write()
}

// zeroFinal holds final.text for the done that run_end writes.
func (t *Translator) zeroFinal(ev *event, _ *mappings.Rule, _ string) (bool, error) {
	if d := check(ev, "text", "string"); d != nil {
		return false, d
	}
	t.toEvo.hasFinal = true
	// The line's bytes are reused for the next line: keep a copy (or
	// the constant, which is not in the line).
	t.toEvo.final = `""`
	if text := orEmpty(ev.Get("text")); text != `""` {
		t.toEvo.final = strings.Clone(text)
	}
	return false, nil
}

func (t *Translator) zeroRunStart(ev *event, _ *mappings.Rule, _ string) (bool, error) {
	if d := check(ev, "runId", "string"); d != nil {
		return false, d
	}
	t.toEvo.active = true
	// A run_start zevo wrote itself for an EvoScientist run carries
	// nothing the EvoScientist stream lacks: keeping it would not
	// restore the source.
	if t.opt.Unmapped == Keep && ev.Get("provider").Str != evoProvider {
		return false, t.keepZeroInEvo(ev)
	}
	return false, nil
}

func (t *Translator) zeroRunEnd(ev *event, _ *mappings.Rule, to string) (bool, error) {
	if d := check(ev, "status", "string", "exitCode", "integer"); d != nil {
		return false, d
	}
	return false, t.finishEvoRun(to, ev.Get("status").Str, ev.Get("exitCode"))
}

// finishEvoRun ends the run being written as EvoScientist as a Zero
// run_end of status (and exit code, if any) ends it: a done (written as
// type to) for success, else an error.
func (t *Translator) finishEvoRun(to, status string, exit gjson.Result) error {
	switch status {
	case "success", "spec_review_required":
		t.headEvo(to)
		e := &t.toEvo
		if e.hasFinal {
			t.ob.raw("content", e.final)
			t.ob.raw("response", e.final)
		} else {
			// A view of the buffer: out copies it, before the reset below.
			s := unsafe.String(unsafe.SliceData(e.text), len(e.text))
			t.ob.str("content", s)
			t.ob.str("response", s)
		}
		t.resetEvoRun()
		return t.write()
	}
	msg := "run ended with status " + status
	if exit.Exists() {
		msg += " (exit code " + exit.Raw + ")"
	}
	err := t.failEvoRun(msg)
	t.resetEvoRun()
	return err
}

// failEvoRun writes an error for the run unless it already has one.
func (t *Translator) failEvoRun(msg string) error {
	if t.toEvo.errored {
		return nil
	}
	t.headEvo("error")
	t.ob.str("message", msg)
	t.toEvo.errored = true
	return t.write()
}

// endEvoRun ends a run of Zero input that the input left open: as
// EvoScientist ends a failed run, with an error and no done.
func (t *Translator) endEvoRun(msg string) error {
	if !t.toEvo.active {
		return nil
	}
	err := t.failEvoRun(msg)
	t.resetEvoRun()
	return err
}

// evoToEvo passes an EvoScientist event on (redacted with --redact).
func (t *Translator) evoToEvo(ev *event) error {
	fill := t.passFill(ev)
	if fill == nil && t.opt.Redactor == nil && !ev.prefix && ev.Raw != "" {
		t.stats.Written++
		t.line = append(t.line[:0], ev.Raw...)
		return t.emit(t.line)
	}
	t.headEvo(ev.typ)
	t.keepFields(ev, "type")
	for _, f := range fill {
		t.ob.str(f[0], f[1])
	}
	return t.write()
}

// passFill follows the tool calls of an EvoScientist run passed through,
// and returns the fields an EvoScientist 0.1.x line lacks that today's
// consumers index (EvoScientist's stream state reads event["id"] of a
// tool_result, event["instance_id"] of sub-agent events): a result's id
// is the call it answers (as for Zero output), a sub-agent's instance is
// named after the sub-agent, and subagent_start's tool_call_id is "".
func (t *Translator) passFill(ev *event) [][2]string {
	if ev.prefix {
		return nil
	}
	var inst string
	switch ev.typ {
	case "tool_call":
		if id := ev.Get("id"); id.Type == gjson.String {
			t.addPending(id.Str, ev.Get("name").Str)
		}
		return nil
	case "tool_result":
		id := ev.Get("id")
		if id.Exists() && id.Type != gjson.String {
			return nil
		}
		got, _ := t.takePending(id.Str, ev.Get("name").Str)
		if id.Exists() {
			return nil
		}
		return [][2]string{{"id", got}}
	case "subagent_start", "subagent_end":
		inst = ev.Get("name").Str
	case "subagent_tool_call", "subagent_tool_result":
		inst = ev.Get("subagent").Str
	default:
		return nil
	}
	var fill [][2]string
	if !ev.Has("instance_id") {
		fill = append(fill, [2]string{"instance_id", inst})
	}
	if ev.typ == "subagent_start" && !ev.Has("tool_call_id") {
		fill = append(fill, [2]string{"tool_call_id", ""})
	}
	return fill
}
