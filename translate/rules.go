package translate

import (
	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
)

// zeroValues are the JSON zero values of the table's field types.
var zeroValues = [...]string{jsonl.KindString: `""`, jsonl.KindInteger: "0", jsonl.KindNumber: "0", jsonl.KindBoolean: "false",
	jsonl.KindArray: "[]", jsonl.KindObject: "{}", jsonl.KindNull: ""}

// applyRule writes a table rule's renamed fields and constants.
func (t *Translator) applyRule(ev *event, r *mappings.Rule, omitEmpty bool) error {
	for _, f := range r.Fields {
		v := ev.Peek(f.From)
		if f.Path {
			v = ev.Lookup(f.From)
		}
		if d := typeErr(ev, f.From, v, f.Type); d != nil {
			return d
		}
		switch {
		case omitEmpty:
			t.ob.rawOmit(f.To, v)
		case v.Exists() && v.Type != gjson.Null:
			t.ob.raw(f.To, v.Raw)
		case zeroValues[f.Type] != "":
			// Zero omits empty fields (omitempty): absent means the zero
			// value, which the target's clients expect to find.
			t.ob.raw(f.To, zeroValues[f.Type])
		case v.Exists():
			t.ob.raw(f.To, v.Raw)
		}
	}
	for _, c := range r.Const {
		t.ob.raw(c.Key, c.Raw)
	}
	return nil
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
