package mappings

import (
	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// zeroValues are the JSON zero values of the table's field types.
var zeroValues = [...]string{jsonl.KindString: `""`, jsonl.KindInteger: "0", jsonl.KindNumber: "0", jsonl.KindBoolean: "false",
	jsonl.KindArray: "[]", jsonl.KindObject: "{}", jsonl.KindNull: ""}

// FieldError is a source field whose value is not of the type its rule
// gives.
type FieldError struct {
	From  string       // the source field, as the rule names it
	Want  jsonl.Kind   // the type the rule gives
	Value gjson.Result // what the line holds
}

func (e *FieldError) Error() string { return e.From + ": want " + e.Want.String() }

// Render writes the fields and constants of a field rule (one without
// a handler) for one source line: get reads a source field (f.From, a
// top-level name or, with f.Path, a path), put writes a target field
// as a raw JSON value. With omitEmpty, an absent, empty, false or null
// value is left out (a target whose types say omitempty); else an
// absent or null value of a typed field is written as its type's zero
// value, which the target's clients expect to find. A value of another
// type than the rule's stops Render: the line is not to be written.
func (r *Rule) Render(get func(f *Field) gjson.Result, omitEmpty bool, put func(key, raw string)) *FieldError {
	for i := range r.Fields {
		f := &r.Fields[i]
		v := get(f)
		if !holdsKind(v, f.Type) {
			return &FieldError{From: f.From, Want: f.Type, Value: v}
		}
		switch {
		case omitEmpty:
			if v.Exists() && v.Type != gjson.Null && v.Type != gjson.False && !(v.Type == gjson.String && v.Raw == `""`) {
				put(f.To, v.Raw)
			}
		case v.Exists() && v.Type != gjson.Null:
			put(f.To, v.Raw)
		case zeroValues[f.Type] != "":
			put(f.To, zeroValues[f.Type])
		case v.Exists():
			put(f.To, v.Raw)
		}
	}
	for _, c := range r.Const {
		put(c.Key, c.Raw)
	}
	return nil
}

// holdsKind reports whether v, when present and not null, is of kind
// want (KindAny: any).
func holdsKind(v gjson.Result, want jsonl.Kind) bool {
	if !v.Exists() || v.Type == gjson.Null {
		return true
	}
	switch want {
	case jsonl.KindString:
		return v.Type == gjson.String
	case jsonl.KindBoolean:
		return v.Type == gjson.True || v.Type == gjson.False
	case jsonl.KindNumber:
		return v.Type == gjson.Number
	case jsonl.KindInteger:
		return v.Type == gjson.Number && isInteger(v.Raw)
	case jsonl.KindObject:
		return v.IsObject()
	case jsonl.KindArray:
		return v.IsArray()
	}
	return true
}

func isInteger(raw string) bool {
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return raw != ""
}
