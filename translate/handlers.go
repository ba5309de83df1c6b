package translate

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
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
	// A kept event (zero.*, evosci.*) belongs to the stream around it.
	p := ev.proto
	switch {
	case ev.prefix && ev.kind == Zero:
		p = protocol.EvoSci
	case ev.prefix:
		p = protocol.ZeroV2
	}
	step := t.runs.Event(p, &ev.Object, ev.num)
	if step.Closed != nil && step.Closed.Cut != protocol.NotCut {
		if err := t.closeCut(step.Closed); err != nil {
			return false, err
		}
	}
	switch {
	case step.Late && t.opt.To != EvoSci:
		// EvoScientist's done after its error: the run has ended.
		return false, nil
	case step.Start && p.Family == protocol.FamilyZero && t.opt.To != EvoSci:
		t.beginZeroRun(strings.Clone(ev.Str("runId")))
	}
	switch {
	case t.opt.To == EvoSci && ev.kind == Zero:
		return t.zeroToEvo(ev)
	case t.opt.To == EvoSci:
		return false, t.evoToEvo(ev)
	case ev.kind == EvoSci:
		return t.evoToZero(ev)
	default:
		return t.zeroToZero(ev)
	}
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
		// one, so that the next run's events are not read as its own. At
		// the end of the input it ends as its producer left it.
		t.headEvo("error")
		t.ob.str("message", msg)
		return t.write()
	}
	return nil
}

// evoToZero translates one EvoScientist event.
func (t *Translator) evoToZero(ev *event) (bool, error) {
	rule := t.tables.EvosciToZero.Events[ev.typ]
	if rule == nil || rule.Unmapped || (t.opt.To == Zero1 && t.tables.Versions.V2Only[rule.To]) {
		return true, t.keepEvoInZero(ev)
	}
	if rule.Handler == "" {
		return t.evoRule(ev, rule, rule.To)
	}
	h := evoToZeroHandlers[rule.Handler]
	if h.fn == nil {
		return true, t.keepEvoInZero(ev)
	}
	return h.fn(t, ev, rule, cmp.Or(rule.To, h.to))
}

// zeroToEvo translates one Zero event.
func (t *Translator) zeroToEvo(ev *event) (bool, error) {
	rule := t.tables.ZeroToEvosci.Events[ev.typ]
	if rule == nil || rule.Unmapped {
		return true, t.keepZeroInEvo(ev)
	}
	if ev.typ != "run_end" && ev.typ != "run_start" && !zeroInputTypes[ev.typ] {
		t.toEvo.active = true
	}
	if ev.typ == "text" {
		if d := ev.Get("delta"); d.Type == gjson.String && t.toEvo.text.Len() < maxCallMem {
			t.toEvo.text.WriteString(d.Str)
		}
	}
	if rule.Handler == "" {
		return t.zeroRule(ev, rule, rule.To)
	}
	h := zeroToEvoHandlers[rule.Handler]
	if h.fn == nil {
		return true, t.keepZeroInEvo(ev)
	}
	return h.fn(t, ev, rule, cmp.Or(rule.To, h.to))
}
