package translate

import (
	"cmp"
	"maps"
	"slices"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/mappings"
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

// The messages of the errors zevo writes for a run that did not end.
const (
	msgEOF = "the input ended before the run finished"
	msgCut = "the run ended without run_end"
)

// dispatch routes an event to its direction's handler. unmapped reports an
// event with no counterpart (written or not per policy).
func (t *Translator) dispatch(ev *event) (unmapped bool, err error) {
	t.events++
	if err := t.cutRun(ev); err != nil {
		return false, err
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

// cutRun closes, as incomplete, a run of one protocol that is still open
// when an event of the other protocol comes (logs concatenated with cat, a
// mixed pipe): the new event belongs to a new run. Kept events (zero.*,
// evosci.*) belong to the run around them, and Zero's input events to no
// run.
func (t *Translator) cutRun(ev *event) error {
	if ev.prefix || (ev.kind == Zero && zeroInputTypes[ev.typ]) {
		return nil
	}
	if t.opt.To != EvoSci {
		if z := &t.toZero; z.active && z.source != ev.kind {
			return t.endZeroRun(msgCut)
		}
		return nil
	}
	e := &t.toEvo
	switch {
	case ev.kind == EvoSci && e.active:
		return t.endEvoRun(msgCut)
	case ev.kind == Zero && e.passing:
		e.passing = false
		t.headEvo("error")
		t.ob.str("message", msgCut)
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
		if d := ev.get("delta"); d.Type == gjson.String && t.toEvo.text.Len() < maxCallMem {
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
