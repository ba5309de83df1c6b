package translate

import (
	"strings"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// evoState is the run being written as EvoScientist.
type evoState struct {
	active   bool
	errored  bool   // an error event was written for this run
	final    string // final.text as raw JSON, when a final came
	hasFinal bool
	text     strings.Builder // text deltas, for done when no final came
	calls    []callInfo      // tool calls, for tool_result names and interrupt args
	callMem  int
}

type callInfo struct {
	id, name, args string
}

// maxCallMem bounds the bytes of tool-call args remembered for correlation.
const maxCallMem = 16 << 20

func (t *Translator) headEvo(typ string) {
	t.ob.reset(jsonl.PythonStyle, t.opt.Redactor, false)
	t.ob.str("type", typ)
}

func (t *Translator) resetEvoRun() {
	e := &t.toEvo
	e.active, e.errored, e.hasFinal, e.final = false, false, false, ""
	e.text.Reset()
	e.calls, e.callMem = e.calls[:0], 0
}

func (t *Translator) rememberCall(id, name, args string) {
	e := &t.toEvo
	for len(e.calls) > 0 && (len(e.calls) >= maxPending || e.callMem+len(args) > maxCallMem) {
		e.callMem -= len(e.calls[0].args)
		e.calls = append(e.calls[:0], e.calls[1:]...)
	}
	e.calls = append(e.calls, callInfo{strings.Clone(id), strings.Clone(name), strings.Clone(args)})
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

// zeroToEvo translates one Zero event.
func (t *Translator) zeroToEvo(ev *event) (bool, error) {
	rule := t.tables.ZeroToEvosci.Events[ev.typ]
	if rule == nil || rule.Unmapped {
		return true, t.keepZeroInEvo(ev)
	}
	if ev.typ != "run_end" && ev.typ != "run_start" && ev.typ != "message" && ev.typ != "prompt" {
		t.toEvo.active = true
	}
	if ev.typ == "text" {
		if d := ev.get("delta"); d.Type == gjson.String && t.toEvo.text.Len() < maxCallMem {
			t.toEvo.text.WriteString(d.Str)
		}
	}
	switch rule.Handler {
	case "":
		t.headEvo(rule.To)
		if err := t.applyRule(ev, rule, false); err != nil {
			return false, err
		}
		return false, t.write()
	case "tool_call":
		return false, t.zeroToolCall(ev, rule.To)
	case "tool_result":
		return false, t.zeroToolResult(ev, rule.To)
	case "permission_request":
		return false, t.zeroPermission(ev, rule.To)
	case "error":
		return false, t.zeroError(ev, rule.To)
	case "final":
		if d := check(ev, "text", "string"); d != nil {
			return false, d
		}
		t.toEvo.hasFinal = true
		// The line's bytes are reused for the next line: keep a copy (or
		// the constant, which is not in the line).
		t.toEvo.final = `""`
		if text := orEmpty(ev.get("text")); text != `""` {
			t.toEvo.final = strings.Clone(text)
		}
		return false, nil
	case "run_start":
		if d := check(ev, "runId", "string"); d != nil {
			return false, d
		}
		// A run_start inside a run means the last one never ended.
		if err := t.endEvoRun(false); err != nil {
			return false, err
		}
		t.toEvo.active = true
		// A run_start zevo wrote itself for an EvoScientist run carries
		// nothing the EvoScientist stream lacks: keeping it would not
		// restore the source.
		if t.opt.Unmapped == Keep && ev.get("provider").Str != evoProvider {
			return false, t.keepZeroInEvo(ev)
		}
		return false, nil
	case "run_end":
		return false, t.zeroRunEnd(ev)
	}
	return true, t.keepZeroInEvo(ev)
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

func (t *Translator) zeroToolCall(ev *event, to string) error {
	if d := check(ev, "id", "string", "name", "string"); d != nil {
		return d
	}
	args := ev.get("args")
	argsRaw := "{}"
	switch {
	case args.IsObject():
		argsRaw = args.Raw
	case args.Exists() && args.Type != gjson.Null:
		// Zero keeps arguments it could not parse as their string (or any
		// JSON value); EvoScientist's consumers need an object.
		argsRaw = `{"arguments": ` + args.Raw + `}`
	}
	t.rememberCall(ev.get("id").Str, ev.get("name").Str, argsRaw)
	t.headEvo(to)
	t.ob.raw("name", orEmpty(ev.get("name")))
	t.ob.raw("args", argsRaw)
	t.ob.raw("id", orEmpty(ev.get("id")))
	return t.write()
}

func (t *Translator) zeroToolResult(ev *event, to string) error {
	if d := check(ev, "id", "string", "name", "string", "status", "string", "output", "string"); d != nil {
		return d
	}
	t.headEvo(to)
	name := ev.get("name")
	if name.Type == gjson.String {
		t.ob.raw("name", name.Raw)
	} else if c := t.findCall(ev.get("id").Str); c != nil {
		t.ob.str("name", c.name)
	} else {
		t.ob.str("name", "")
	}
	if out := ev.peek("output"); out.Type == gjson.String {
		t.ob.raw("content", out.Raw)
	} else {
		t.ob.str("content", "")
	}
	t.ob.bool("success", ev.get("status").Str == "ok")
	t.ob.raw("id", orEmpty(ev.get("id"))) // EvoScientist's own consumer requires it
	return t.write()
}

func (t *Translator) zeroPermission(ev *event, to string) error {
	if d := check(ev, "id", "string", "name", "string", "reason", "string"); d != nil {
		return d
	}
	id, name := ev.get("id"), ev.get("name")
	args := "{}"
	if c := t.findCall(id.Str); c != nil {
		args = c.args
	}
	t.headEvo(to)
	t.ob.raw("interrupt_id", orEmpty(id))
	start := len(t.ob.arena)
	a := append(t.ob.arena, `[{"name": `...)
	a = append(a, orEmpty(name)...)
	a = append(a, `, "args": `...)
	t.ob.arena = a
	mark := len(t.ob.arena)
	var err error
	t.ob.arena, err = jsonl.AppendValue(t.ob.arena, []byte(args), jsonl.PythonStyle, t.opt.Redactor)
	if err != nil {
		t.ob.arena = append(t.ob.arena[:mark], "{}"...)
	}
	if r := ev.get("reason"); r.Type == gjson.String {
		t.ob.arena = append(t.ob.arena, `, "description": `...)
		t.ob.arena, _ = jsonl.AppendValue(t.ob.arena, []byte(r.Raw), jsonl.PythonStyle, t.opt.Redactor)
	}
	t.ob.arena = append(t.ob.arena, "}]"...)
	t.ob.put("action_requests", start)
	start = len(t.ob.arena)
	t.ob.arena = append(t.ob.arena, `[{"action_name": `...)
	t.ob.arena = append(t.ob.arena, orEmpty(name)...)
	t.ob.arena = append(t.ob.arena, `, "allowed_decisions": ["approve", "reject"]}]`...)
	t.ob.put("review_configs", start)
	return t.write()
}

// orEmpty is the raw JSON of a string field, or "".
func orEmpty(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Raw
	}
	return `""`
}

func (t *Translator) zeroError(ev *event, to string) error {
	if d := check(ev, "message", "string"); d != nil {
		return d
	}
	t.headEvo(to)
	if m := ev.get("message"); m.Type == gjson.String {
		t.ob.raw("message", m.Raw)
	} else {
		t.ob.str("message", ev.get("code").String())
	}
	t.toEvo.errored = true
	return t.write()
}

func (t *Translator) zeroRunEnd(ev *event) error {
	if d := check(ev, "status", "string", "exitCode", "integer"); d != nil {
		return d
	}
	status := ev.get("status").Str
	switch status {
	case "success", "spec_review_required":
		t.headEvo("done")
		e := &t.toEvo
		if e.hasFinal {
			t.ob.raw("content", e.final)
			t.ob.raw("response", e.final)
		} else {
			s := e.text.String()
			t.ob.str("content", s)
			t.ob.str("response", s)
		}
		t.resetEvoRun()
		return t.write()
	}
	msg := "run ended with status " + status
	if c := ev.get("exitCode"); c.Exists() {
		msg += " (exit code " + c.Raw + ")"
	}
	if err := t.failEvoRun(msg); err != nil {
		return err
	}
	t.resetEvoRun()
	return nil
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

// endEvoRun ends a run the input left open: as EvoScientist ends a failed
// run, with an error and no done.
func (t *Translator) endEvoRun(atEOF bool) error {
	if !t.toEvo.active {
		return nil
	}
	msg := "the run ended without run_end"
	if atEOF {
		msg = "the input ended before the run finished"
	}
	err := t.failEvoRun(msg)
	t.resetEvoRun()
	return err
}

// evoToEvo passes an EvoScientist event on (redacted with --redact).
func (t *Translator) evoToEvo(ev *event) error {
	if t.opt.Redactor == nil && !ev.prefix && ev.raw != "" {
		t.stats.Written++
		t.line = append(t.line[:0], ev.raw...)
		return t.emit(t.line)
	}
	t.headEvo(ev.typ)
	t.keepFields(ev, "type")
	return t.write()
}
