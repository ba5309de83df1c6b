package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/zevo/zevo/jsonl"
	"math/big"
	"sort"
	"strings"

	"github.com/tidwall/gjson"
	zevent "github.com/zevo/zevo/event"
)

// compiledSchema is one shipped schema, compiled. Besides the whole schema
// it holds its envelope and each event type's definition: the root is the
// envelope plus one if/then per type, so for a known type checking the
// envelope and that type's definition gives the same result as the root,
// without evaluating every other type's condition.
type compiledSchema struct {
	root, envelope *jsonSchema
	byType         map[string]*jsonSchema
	fast           *fastSchema // what can be decided without the general validator
}

// compileSchema compiles the schema text raw as its envelope and one
// definition per type condition (see compiledSchema).
func compileSchema(raw []byte, name string) (*compiledSchema, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var doc map[string]any
	if err := d.Decode(&doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	c := &schemaCompiler{doc: doc, refs: map[string]*jsonSchema{}}
	cs := &compiledSchema{byType: map[string]*jsonSchema{}}
	var err error
	if cs.root, err = c.compileRef("#"); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	if cs.envelope, err = c.compileRef("#/$defs/envelope"); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	conds, _ := doc["allOf"].([]any)
	for _, cond := range conds {
		typ, ref := typeCondition(cond)
		if typ == "" || !strings.HasPrefix(ref, "#/$defs/") {
			return nil, fmt.Errorf("schema %s: allOf holds something other than a type condition", name)
		}
		if cs.byType[typ], err = c.compileRef(ref); err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
	}
	return cs, nil
}

// typeCondition reads {"if": {... "type": {"const": T}}, "then": {"$ref": R}}.
func typeCondition(cond any) (typ, ref string) {
	m, _ := cond.(map[string]any)
	ifs, _ := m["if"].(map[string]any)
	props, _ := ifs["properties"].(map[string]any)
	t, _ := props["type"].(map[string]any)
	typ, _ = t["const"].(string)
	then, _ := m["then"].(map[string]any)
	ref, _ = then["$ref"].(string)
	return typ, ref
}

// validate checks one decoded event whose type is typ.
func (cs *compiledSchema) validate(v any, typ string) []error {
	def, ok := cs.byType[typ]
	if !ok {
		if err := cs.root.Validate(v); err != nil {
			return []error{err}
		}
		return nil
	}
	var errs []error
	if err := cs.envelope.Validate(v); err != nil {
		errs = append(errs, err)
	}
	if err := def.Validate(v); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// problem is one finding about a line: the field it is about and what is
// wrong with it.
type problem struct {
	field string
	msg   string
}

// problems turns a validation error into one problem per failed
// keyword, each naming its field as TYPE.path ("tool_result.status"),
// worded as w says.
func (cs *compiledSchema) problems(errs []error, typ string, w *zevent.SchemaWords) []problem {
	known := cs.byType[typ] != nil
	if typ == "" {
		typ = "event"
	}
	var out []problem
	var walk func(e *schemaError)
	walk = func(e *schemaError) {
		if _, ok := e.kind.(kindAnyOf); ok && w.AnyOf != "" {
			out = append(out, problem{typ, w.AnyOf})
			return
		}
		if len(e.causes) > 0 {
			for _, c := range e.causes {
				walk(c)
			}
			return
		}
		out = append(out, leafProblems(e, typ, known, w)...)
	}
	for _, err := range errs {
		ve, ok := err.(*schemaError)
		if !ok {
			out = append(out, problem{"", err.Error()})
			continue
		}
		walk(ve)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].field != out[j].field {
			return out[i].field < out[j].field
		}
		return out[i].msg < out[j].msg
	})
	return out
}

func fieldPath(typ string, loc []string) string {
	path := typ
	for _, t := range loc {
		if isIndex(t) {
			path += "[" + t + "]"
		} else {
			path = joinPath(path, t)
		}
	}
	return path
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func leafProblems(e *schemaError, typ string, known bool, w *zevent.SchemaWords) []problem {
	field := fieldPath(typ, e.loc)
	one := func(msg string) []problem { return []problem{{field, msg}} }
	switch k := e.kind.(type) {
	case kindRequired:
		var out []problem
		for _, m := range k.Missing {
			out = append(out, problem{field, "missing field " + jsonl.Quote(m)})
		}
		return out
	case kindAdditional:
		var out []problem
		for _, name := range k.Properties {
			msg := "field " + jsonl.Quote(name) + " is not part of " + article(typ) + " event"
			if w.Unknown != "" {
				msg = "unknown field " + jsonl.Quote(name) + w.Unknown
			}
			if typ == "event" || len(e.loc) > 0 || (w.UnknownTypeFields && !known) {
				msg = "unknown field " + jsonl.Quote(name)
			}
			out = append(out, problem{field, msg})
		}
		return out
	case kindType:
		return one(zevent.WantGot(strings.Join(k.Want, " or "), asResult(k.Value)))
	case kindEnum:
		if len(e.loc) == 1 && e.loc[0] == "type" {
			if w.Types != "" {
				return one("unknown " + w.Types + " event type " + display(k.Got))
			}
			return one("unknown event type " + display(k.Got))
		}
		want := make([]string, len(k.Want))
		for i, x := range k.Want {
			want[i] = display(x)
		}
		return one(display(k.Got) + " is not one of " + strings.Join(want, ", "))
	case kindConst:
		return one("want " + display(k.Want) + ", got " + display(k.Got))
	case kindMinimum:
		return one(decimal(k.Got) + " is less than the minimum " + decimal(k.Want))
	case kindMaximum:
		return one(decimal(k.Got) + " is more than the maximum " + decimal(k.Want) + w.Maximum)
	case kindMinLength:
		if k.Want == 1 {
			return one("must not be empty")
		}
		return one(fmt.Sprintf("shorter than %d characters", k.Want))
	case kindMinItems:
		return one(fmt.Sprintf("needs at least %d item(s)", k.Want))
	case kindPattern:
		return one(jsonl.Quote(k.Got) + " does not match " + k.Want)
	case kindNot:
		if msg, ok := w.Not[field]; ok {
			return one(msg)
		}
		return one("has a form the schema excludes")
	case kindOneOf:
		if len(k.Matched) == 2 {
			return one(fmt.Sprintf("'oneOf' failed, subschemas %d, %d matched", k.Matched[0], k.Matched[1]))
		}
	case kindFalse:
		return one("false schema")
	}
	return one("fails the schema")
}

// display renders a decoded JSON value from the input, escaped and clipped.
// asResult is a decoded value as gjson reads its JSON, for the wording
// every command shares (zevent.WantGot).
func asResult(v any) gjson.Result {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return gjson.Result{}
	}
	return gjson.ParseBytes(bytes.TrimSpace(b.Bytes()))
}

func display(v any) string {
	switch x := v.(type) {
	case string:
		return jsonl.Quote(x)
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	s := fmt.Sprint(v)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

func article(typ string) string {
	if typ == "" {
		return "an"
	}
	switch typ[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + typ
	}
	return "a " + typ
}

// decimal writes a number of a JSON text as a decimal, as JSON wrote it
// (-0.001, not big.Rat's -1/1000). A JSON number's denominator has no
// prime factor but 2 and 5, so some count of digits is exact; past 30 of
// them (1e-400) it is written in exponent form, to ten digits.
func decimal(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	d := new(big.Int).Set(r.Denom())
	digits := 0
	ten, rem := big.NewInt(10), new(big.Int)
	for digits <= 30 {
		if rem.Mod(d, ten); rem.Sign() == 0 {
			d.Quo(d, ten)
		} else if rem.Mod(d, big.NewInt(5)); rem.Sign() == 0 {
			d.Quo(d, big.NewInt(5)) // a 5 needs a digit, as a 2 does
		} else if rem.Mod(d, big.NewInt(2)); rem.Sign() == 0 {
			d.Quo(d, big.NewInt(2))
		} else {
			break
		}
		digits++
		if d.Cmp(big.NewInt(1)) == 0 {
			return r.FloatString(digits)
		}
	}
	return new(big.Float).SetPrec(64).SetRat(r).Text('g', 10)
}
