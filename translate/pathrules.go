package translate

import (
	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
)

// The mapping tables on the event path: the rules stage between the
// decoders and the target's encoder. The shipped tables' rules describe
// what the decoders and encoders do (TestShippedTablesDescribeTheEncoders
// holds them to it), so the stage applies only what the encoders cannot
// know: the rules a user's table (--mapping) adds or puts in place of
// the shipped ones, and the types the tables leave unmapped. For an event
// of the table's source dialect whose type such a rule names:
//   - "unmapped": the event has no counterpart (its line is kept, dropped
//     or an error by --unmapped); a run's start or end still frames it;
//   - a field rule: the target line is rendered from the event's line
//     (mappings.Rule.Render, the renderer of the rest of translate) and
//     written by the encoder (Rendered), in its run, with its ids and
//     redaction; the line's other events but its run's end are the
//     rendered line's;
//   - a handler rule: the built-in handling of the handler's source type,
//     which is the encoder's own writing of the event, the line read as
//     of that type (retype), its lines written under the rule's "to".
// Lines no rule names cost one map lookup per event.

// pathRules are the rules of the table from the source dialect from into
// the target.
type pathRules struct {
	from  string                    // the source dialect (sourceTable)
	own   func(line []byte) bool    // a line of from's (ownLine)
	rules map[string]*mappings.Rule // by source type: the user's rules, and the tables' unmapped types
	// handling is, by handler name, the source type whose built-in
	// handling it is and the target type that handling writes.
	handling map[string]handling
	// retype is, by source type, the handler rules that read a line of
	// that type as another's; nil when there are none.
	retype map[string]*mappings.Rule
	// omitEmpty: the target leaves out empty values (Dialect.OmitsEmpty).
	omitEmpty bool
	// lacks: the types the target's version has not (Target.Lacks: Zero v1's).
	lacks map[string]bool
	// the type rule looked up last, and its rule
	lastType string
	lastRule *mappings.Rule
	lastSet  bool
}

type handling struct{ src, to string }

// pathRules gathers the rules the event path applies for the target;
// nil when the tables give none (a target the tables do not write).
func (t *Translator) pathRules() *pathRules {
	tb, src := t.sourceTable()
	if tb == nil {
		return nil
	}
	r := &pathRules{from: src.Name, own: ownLine(src)}
	if to, ok := dialects.ByName(tb.To); ok {
		r.omitEmpty = to.OmitsEmpty
	}
	r.lacks = t.lacks()
	r.rules = map[string]*mappings.Rule{}
	user := false
	for typ, rule := range tb.Events {
		// A shipped rule into a type the version lacks is applied here too:
		// its line is kept or dropped as unmapped, as the rule says.
		if rule.Unmapped || !rule.Builtin || r.lacks[rule.To] && rule.Handler == "" {
			r.rules[typ] = rule
		}
		user = user || !rule.Builtin
	}
	if user {
		// The built-in handlings, as the shipped table names them.
		r.handling = map[string]handling{}
		shipped := mappings.Default().Between(tb.From, tb.To)
		for typ, rule := range shipped.Events {
			if rule.Handler != "" {
				r.handling[rule.Handler] = handling{src: typ, to: rule.To}
			}
		}
		for typ, rule := range r.rules {
			if h, ok := r.handling[rule.Handler]; ok && h.src != typ {
				if r.retype == nil {
					r.retype = map[string]*mappings.Rule{}
				}
				r.retype[typ] = rule
			}
		}
	}
	if len(r.rules) == 0 {
		return nil
	}
	return r
}

// of is the rule ev is written by, nil for the encoder's own writing.
func (r *pathRules) of(ep *eventPath, ev *model.Event) *mappings.Rule {
	if ep.lineRule != nil {
		return ep.lineRule
	}
	if ev.Dialect != r.from {
		return nil
	}
	return r.rule(ev.Type)
}

// rule is rules[typ], the last type's answered again without a lookup:
// most lines are of the type before them (a run of text deltas).
func (r *pathRules) rule(typ string) *mappings.Rule {
	if !r.lastSet || typ != r.lastType {
		r.lastType, r.lastRule, r.lastSet = typ, r.rules[typ], true
	}
	return r.lastRule
}

// unmapped reports whether the tables give ev's line no counterpart in
// the target (a rule that says unmapped, or into a type its version lacks):
// its line is unmapped whatever its fields hold, which are not checked.
func (r *pathRules) unmapped(ev *model.Event) bool {
	rule := r.rules[ev.Type]
	return ev.Dialect == r.from && rule != nil && (rule.Unmapped || r.lacks[rule.To] && rule.Handler == "")
}

// retypeLine returns line with its type replaced by the source type of
// the handler a rule of the user's names for its type, and the rule in
// ep.lineRule; line itself for any other line.
func (r *pathRules) retypeLine(ep *eventPath, line []byte) []byte {
	typ := gjson.GetBytes(line, "type")
	rule := r.retype[typ.Str]
	if rule == nil || typ.Type != gjson.String || !r.own(line) {
		return line
	}
	ep.lineRule = rule
	to := jsonl.AppendString(nil, r.handling[rule.Handler].src, jsonl.GoStyle)
	out := make([]byte, 0, len(line)+len(to))
	out = append(out, line[:typ.Index]...)
	out = append(out, to...)
	return append(out, line[typ.Index+len(typ.Raw):]...)
}

// renderer is an encoder that writes the lines rules render.
type renderer interface {
	Rendered(ev *model.Event, st model.Step, typ string, fill func(o *jsonl.Object) bool) error
}

// applyPathRule writes ev as rule says.
func (t *Translator) applyPathRule(ev *model.Event, st model.Step, rule *mappings.Rule) error {
	ep := &t.ep
	r := ep.rules
	// A run's start and end still frame the runs; a prompt (the user's
	// side of a run) no encoder maps, and it tells them a run of the
	// user's words alone.
	framing := ev.Kind == model.RunStart || ev.Kind == model.RunEnd || ev.Kind == model.Prompt
	switch {
	case rule.Unmapped || r.lacks[rule.To] && rule.Handler == "":
		if framing {
			return t.encodeEvent(ev, st)
		}
		// The target has no room for it: its line is kept (Keep) or
		// dropped as those of the events the model does not name.
		return t.encodeEvent(ep.asOther(ev), st)
	case rule.Handler != "":
		h := r.handling[rule.Handler]
		if rule.To == "" || rule.To == h.to || h.to == "" {
			return t.encodeEvent(ev, st)
		}
		if r.lacks[rule.To] {
			return t.encodeEvent(ep.asOther(ev), st)
		}
		if st.Closed != nil {
			// The end of the run cut before it is the encoder's own.
			if err := t.encodeEvent(nil, model.Step{Closed: st.Closed}); err != nil {
				return err
			}
			st.Closed = nil
		}
		ep.renameFrom, ep.renameTo = h.to, rule.To
		defer func() { ep.renameFrom, ep.renameTo = "", "" }()
		return t.encodeEvent(ev, st)
	}
	if ep.rendered {
		// The line is written: its other events are in it, but the
		// end of its run.
		if ev.Kind == model.RunEnd {
			return t.encodeEvent(ev, st)
		}
		return nil
	}
	ep.rendered, ep.mapped = true, true
	enc, ok := ep.enc.(renderer)
	if !ok {
		return nil // pathRules gives none for such a target
	}
	get := func(f *mappings.Field) gjson.Result { return gjson.GetBytes(ev.Raw, f.From) }
	return enc.Rendered(ev, st, rule.To, func(o *jsonl.Object) bool {
		fe := rule.Render(get, r.omitEmpty, func(key, raw string) {
			if t.holds != nil {
				if !t.holds(key, gjson.Result{Type: rawType(raw), Raw: raw}) {
					t.dropped(rule.To + "." + key)
					return
				}
			}
			o.Raw(key, []byte(raw))
		})
		if fe != nil {
			ep.ruleErr = &jsonl.Diagnostic{File: t.placeName, Line: ev.Line, Severity: jsonl.SevError,
				Message: ev.Type + "." + fe.From + ": want " + fe.Want.String() + ", got " + jsonType(fe.Value)}
			return false
		}
		return true
	})
}

// asOther is ev as an event the model does not name (Other), in the
// path's one scratch event: encoders keep no event past Encode, and one
// made for each event the target has no room for (most of a corpus's
// sub-agent lines) cost an allocation apiece.
func (ep *eventPath) asOther(ev *model.Event) *model.Event {
	ep.other = *ev
	ep.other.Kind = model.Other
	return &ep.other
}

// renamed is b, a line the encoder writes, with its type renameTo when
// it is renameFrom.
func (t *Translator) renamed(b []byte) []byte {
	ep := &t.ep
	typ := gjson.GetBytes(b, "type")
	if typ.Str != ep.renameFrom || typ.Type != gjson.String {
		return b
	}
	st := t.opt.To.Dialect.Style
	out := append(ep.renameBuf[:0], b[:typ.Index]...)
	out = jsonl.AppendString(out, t.redacted(ep.renameTo), st)
	out = append(out, b[typ.Index+len(typ.Raw):]...)
	ep.renameBuf = out
	return out
}

// rawType is the gjson type of a raw JSON value, from its first byte.
func rawType(raw string) gjson.Type { return model.TypeOf(raw[0]) }
