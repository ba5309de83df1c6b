package translate

import (
	"cmp"
	"errors"
	"github.com/zevo/zevo/dialects/zero"
	"maps"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
	"github.com/zevo/zevo/protocol"
)

// handler is one built-in translation. rule is the table's rule that
// chose it, to the target type it writes (the rule's "to", else the
// handler's own). unmapped reports an event with no counterpart.
type handler struct {
	fn func(t *Translator, ev *event, rule *mappings.Rule, to string) (unmapped bool, err error)
	to string
}

// The handler tables, by the name a mapping rule gives in "handler". A
// rule without one renames fields (evoRule, zeroRule).
var (
	evoToZeroHandlers = map[string]handler{
		"tool_call":   {(*Translator).evoToolCall, "tool_call"},
		"tool_result": {(*Translator).evoToolResult, "tool_result"},
		"usage":       {(*Translator).evoUsage, "usage"},
		"interrupt":   {(*Translator).evoInterrupt, "permission_request"},
		"done":        {(*Translator).evoDone, "final"},
		"error":       {(*Translator).evoError, "error"},
	}
	zeroToEvoHandlers = map[string]handler{
		"tool_call":          {(*Translator).zeroToolCall, "tool_call"},
		"tool_result":        {(*Translator).zeroToolResult, "tool_result"},
		"permission_request": {(*Translator).zeroPermission, "interrupt"},
		"error":              {(*Translator).zeroError, "error"},
		"final":              {(*Translator).zeroFinal, ""},
		"run_start":          {(*Translator).zeroRunStart, ""},
		"run_end":            {(*Translator).zeroRunEnd, "done"},
	}
)

func init() {
	mappings.Handlers = func(dir string) []string {
		switch dir {
		case "evosci->zero":
			return slices.Collect(maps.Keys(evoToZeroHandlers))
		case "zero->evosci":
			return slices.Collect(maps.Keys(zeroToEvoHandlers))
		}
		return nil
	}
}

// msgEOF is the message of the error zevo writes for a run the input left
// open; cutMessage that for a run another event cut short.
const msgEOF = "the input ended before the run finished"

func cutMessage(c protocol.Cut) string { return "the run was cut short: " + c.String() }

// dispatch routes an event to its direction's handler. unmapped reports an
// event with no counterpart (written or not per policy).
func (t *Translator) dispatch(ev *event) (unmapped bool, err error) {
	t.ob.ahead, t.ob.aheadBuf = ev.ahead, ev.aheadBuf
	// Not past this event: its line's memory is reused.
	defer func() { t.ob.ahead, t.ob.aheadBuf = nil, nil }()
	step, renamed, err := t.place(ev)
	if err != nil || step.Late && t.opt.To != EvoSci {
		// EvoScientist's done after its error: the run has ended.
		return false, err
	}
	switch {
	case t.opt.To == EvoSci && ev.kind == Zero:
		unmapped, err = t.zeroToEvo(ev)
	case t.opt.To == EvoSci:
		err = t.evoToEvo(ev)
	case ev.kind == EvoSci:
		unmapped, err = t.evoToZero(ev)
	default:
		unmapped, err = t.zeroToZero(ev)
	}
	if step.End && err != nil && isDiagnostic(err) {
		// The run ended at this line all the same.
		if err := t.endUntranslated(ev, step.Run); err != nil {
			return false, err
		}
	}
	if err == nil && renamed != nil {
		return unmapped, renamed
	}
	return unmapped, err
}

// isDiagnostic reports whether err is a *jsonl.Diagnostic (not a write error).
// Its own function: the target errors.As needs escapes, which costs an
// allocation wherever it is declared.
func isDiagnostic(err error) bool {
	var d *jsonl.Diagnostic
	return errors.As(err, &d)
}

// place puts an event in its run (docs/runs.md) and writes what that does
// to the output before the event: the end of a run it cuts short. A Zero
// run it starts whose runId Zero could not write is written under a runId
// zevo makes; renamed says so.
func (t *Translator) place(ev *event) (step protocol.Step, renamed *jsonl.Diagnostic, err error) {
	p := ev.runProtocol()
	if t.toEvo.leftOpen {
		// the run an earlier input left open: this input is not its end
		if err := t.cutEvoRun(cutMessage(protocol.CutEndOfInput)); err != nil {
			return step, nil, err
		}
	}
	step = t.runs.EventOf(p, ev.rawTyp, ev.runID, &ev.Object, ev.num)
	if step.Closed != nil && step.Closed.Cut != protocol.NotCut {
		if err := t.closeCut(step.Closed); err != nil {
			return step, nil, err
		}
	}
	if step.Start && t.opt.To == EvoSci && p.Family == protocol.FamilyEvoSci {
		t.forgetZeroRun() // the calls of the run passed through (passFill)
	}
	if step.Start && !step.Late && p.Family == protocol.FamilyZero && t.opt.To != EvoSci {
		id := ev.Str("runId")
		if protocol.IsZeroID(id) {
			id = strings.Clone(id)
		} else {
			id = t.newRunID()
			got := "missing"
			if r := ev.Get("runId"); r.Exists() {
				got = clip(r.Raw) + " does not match " + protocol.ZeroIDPattern
			}
			renamed = ev.diag("runId %s: its run is written as %s", got, id)
		}
		t.beginZeroRun(id)
	}
	return step, renamed, nil
}

// runProtocol is the protocol whose runs ev takes its place in: a kept
// event (zero.*, evosci.*) belongs to the stream around it.
func (ev *event) runProtocol() *protocol.Protocol {
	switch {
	case ev.prefix && ev.kind == Zero:
		return protocol.EvoSci
	case ev.prefix:
		return protocol.ZeroV2
	}
	return ev.proto
}

// placeBad places a line that cannot be translated (a diagnostic) in its
// run all the same, so that translate agrees with the other commands on
// the runs: a run it ends is ended in the output too.
func (t *Translator) placeBad(ev *event) error {
	step, _, err := t.place(ev)
	if err != nil {
		return err
	}
	if step.Start {
		// The run is in the output, however it ends.
		switch {
		case t.opt.To == EvoSci:
			t.toEvo.active = step.Run.Protocol.Family == protocol.FamilyZero
		case step.Run.Protocol.Family == protocol.FamilyEvoSci && !t.toZero.active:
			if err := t.openZeroRun(); err != nil {
				return err
			}
		}
	}
	if !step.End {
		return nil
	}
	return t.endUntranslated(ev, step.Run)
}

// zeroExitCodes are the exit codes Zero gives its run_end statuses.
var zeroExitCodes = map[string]int{"success": 0, "spec_review_required": 0, "error": 3, "incomplete": 4, "interrupted": 130}

// endUntranslated ends the output of run r, which ended at ev, a line
// that could not be translated: as a run_end of the run's status (error
// when Zero has no such status), or for EvoScientist as a done or an
// error.
func (t *Translator) endUntranslated(ev *event, r *protocol.Run) error {
	status := r.Status
	if r.Protocol.Family == protocol.FamilyEvoSci {
		status = map[string]string{"done": "success", "error": "error"}[status]
	}
	if t.opt.To == EvoSci {
		if r.Protocol.Family != protocol.FamilyZero {
			return nil // EvoScientist passed through: ev is written as it is
		}
		to := "done"
		if rule := t.tables.Between("zero", "evosci").Events["run_end"]; rule != nil && rule.To != "" {
			to = rule.To
		}
		return t.finishEvoRun(to, status, ev.Get("exitCode"))
	}
	if !t.toZero.active {
		if err := t.openZeroRun(); err != nil {
			return err
		}
	}
	code, ok := zeroExitCodes[status]
	if !ok {
		status, code = "error", zeroExitCodes["error"]
	}
	return t.closeZeroRun(status, code)
}

// closeCut ends the output of a run the run rules closed before its end
// (docs/runs.md), as the target's producer ends an incomplete run.
func (t *Translator) closeCut(r *protocol.Run) error {
	msg := cutMessage(r.Cut)
	if r.Cut == protocol.CutEndOfInput {
		msg = msgEOF
	}
	switch {
	case t.opt.To != EvoSci:
		return t.endZeroRun(msg)
	case r.Protocol.Family == protocol.FamilyZero:
		return t.endEvoRun(msg)
	case r.Protocol.Family == protocol.FamilyEvoSci && r.Cut != protocol.CutEndOfInput:
		// EvoScientist input passed through: its run ends as a failed
		// one, so that the next run's events are not read as its own.
		return t.cutEvoRun(msg)
	case r.Protocol.Family == protocol.FamilyEvoSci:
		// At the end of the input it ends as its producer left it, unless
		// another input follows (see place).
		t.toEvo.leftOpen = true
	}
	return nil
}

// cutEvoRun ends an EvoScientist run passed through that was cut short.
func (t *Translator) cutEvoRun(msg string) error {
	t.toEvo.leftOpen = false
	t.headEvo("error")
	t.ob.str("message", msg)
	return t.write()
}

// ruleOf returns the rule for ev's type among rules and, for a rule with
// a handler, the handler among handlers.
func ruleOf(ev *event, rules map[string]*mappings.Rule, handlers map[string]handler) (*mappings.Rule, handler) {
	rule := rules[ev.typ]
	var h handler
	if rule != nil && rule.Handler != "" {
		h = handlers[rule.Handler]
	}
	return rule, h
}

// evoToZero translates one EvoScientist event.
func (t *Translator) evoToZero(ev *event) (bool, error) {
	rule, h := ruleOf(ev, t.tables.Between("evosci", "zero").Events, evoToZeroHandlers)
	if rule == nil || rule.Unmapped || (t.opt.To == Zero1 && zero.V1Renames().V2Only[rule.To]) {
		return true, t.keepEvoInZero(ev)
	}
	if rule.Handler == "" {
		if t.toZero.active {
			if tp := t.zeroTemplate(rule, rule.To); tp.ok {
				if done, err := t.templated(ev, tp, rule.Fields[0].From, jsonl.GoStyle); done || err != nil {
					return false, err
				}
			}
		}
		return t.evoRule(ev, rule, rule.To)
	}
	if h.fn == nil {
		return true, t.keepEvoInZero(ev)
	}
	return h.fn(t, ev, rule, cmp.Or(rule.To, h.to))
}

// zeroToEvo translates one Zero event.
func (t *Translator) zeroToEvo(ev *event) (bool, error) {
	rule, h := ruleOf(ev, t.tables.Between("zero", "evosci").Events, zeroToEvoHandlers)
	if rule == nil || rule.Unmapped {
		return true, t.keepZeroInEvo(ev)
	}
	if ev.typ != "run_end" && ev.typ != "run_start" && !isZeroInput(ev.typ) {
		t.toEvo.active = true
	}
	if ev.typ == "text" {
		if d := ev.Peek("delta"); d.Type == gjson.String && len(t.toEvo.text) < maxCallMem {
			if t.opt.Redactor == nil {
				// Decoded where it is kept.
				t.toEvo.text = jsonl.AppendUnescaped(t.toEvo.text, d.Raw[1:len(d.Raw)-1])
			} else {
				// Each delta as its own event writes it: a secret it
				// begins is found there, not only after the text before it.
				t.toEvo.text = append(t.toEvo.text, t.opt.Redactor.String(ev.Get("delta").Str)...)
			}
		}
	}
	if rule.Handler == "" {
		if tp := t.evoTemplate(rule); tp.ok {
			if done, err := t.templated(ev, tp, rule.Fields[0].From, jsonl.PythonStyle); done || err != nil {
				return false, err
			}
		}
		return t.zeroRule(ev, rule, rule.To)
	}
	if h.fn == nil {
		return true, t.keepZeroInEvo(ev)
	}
	return h.fn(t, ev, rule, cmp.Or(rule.To, h.to))
}
