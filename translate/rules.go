package translate

import (
	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
)

// applyRule writes a table rule's renamed fields and constants.
func (t *Translator) applyRule(ev *event, r *mappings.Rule, omitEmpty bool) error {
	get := func(f *mappings.Field) gjson.Result {
		if f.Path {
			return ev.Lookup(f.From)
		}
		return ev.Peek(f.From)
	}
	if fe := r.Render(get, omitEmpty, t.ob.raw); fe != nil {
		return ruleErr(ev, fe)
	}
	return nil
}

// ruleErr words a rule's field of the wrong type as every type check of
// translate words it.
func ruleErr(ev *event, fe *mappings.FieldError) *jsonl.Diagnostic {
	return typeErr(ev, fe.From, fe.Value, fe.Want)
}

// keepFields writes every field of ev but those named.
func (t *Translator) keepFields(ev *event, skip ...string) {
next:
	for _, f := range ev.Members() {
		for _, s := range skip {
			if f.Key == s {
				continue next
			}
		}
		t.ob.raw(f.Key, f.Raw())
	}
}
