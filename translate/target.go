package translate

import (
	"strconv"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// Zero's clients decode each event into Zero's own types (one flat event
// struct, with nested structs for risk, block, grant, display and
// checkpoint); a strict client refuses a field those types do not have, or
// a value they cannot hold. By default zevo writes only what fits: the
// shapes below are those types, as Zero 0.8.0 declares them (v1 where it
// differed).

type fieldShape struct {
	kind jsonl.Kind
	sub  *shape // for an object, or the elements of an array
}

// shape is a struct's fields, or with values a map's value type (an
// array's element type).
type shape struct {
	fields map[string]fieldShape
	values *fieldShape
}

// holds reports whether a Go field of kind k can hold v (null fits every
// kind): an integer within 64 bits (int), a number within float64's
// range; an array's elements are its fieldShape's to check.
func holds(k jsonl.Kind, v gjson.Result) bool {
	if v.Type == gjson.Null {
		return true
	}
	switch k {
	case jsonl.KindString:
		return v.Type == gjson.String
	case jsonl.KindBoolean:
		return v.Type == gjson.True || v.Type == gjson.False
	case jsonl.KindInteger:
		if v.Type != gjson.Number {
			return false
		}
		_, err := strconv.ParseInt(v.Raw, 10, 64)
		return err == nil
	case jsonl.KindNumber:
		if v.Type != gjson.Number {
			return false
		}
		_, err := strconv.ParseFloat(v.Raw, 64)
		return err == nil
	case jsonl.KindObject:
		return v.Type == gjson.JSON && v.Raw[0] == '{'
	case jsonl.KindArray:
		return v.Type == gjson.JSON && v.Raw[0] == '['
	}
	return true
}

// holds reports whether the field can hold v: an array only when every
// element fits (the members of an object are fitted one by one: out.raw).
func (f fieldShape) holds(v gjson.Result) bool {
	if !holds(f.kind, v) {
		return false
	}
	return f.kind != jsonl.KindArray || f.sub == nil || v.Type == gjson.Null || f.sub.fits(v)
}

// fits reports whether every member of obj is one sh admits.
func (sh *shape) fits(obj gjson.Result) bool {
	ok := true
	obj.ForEach(func(k, v gjson.Result) bool {
		f, known := sh.fields[k.Str]
		if sh.values != nil {
			f, known = *sh.values, true
		}
		ok = known && f.holds(v) && (f.kind != jsonl.KindObject || f.sub == nil || v.Type == gjson.Null || f.sub.fits(v))
		return ok
	})
	return ok
}

func fields(kv ...any) *shape {
	sh := &shape{fields: map[string]fieldShape{}}
	for i := 0; i < len(kv); i += 2 {
		switch f := kv[i+1].(type) {
		case jsonl.Kind:
			sh.fields[kv[i].(string)] = fieldShape{kind: f}
		case fieldShape:
			sh.fields[kv[i].(string)] = f
		case *shape:
			sh.fields[kv[i].(string)] = fieldShape{kind: jsonl.KindObject, sub: f}
		}
	}
	return sh
}

// The nested structs of Zero's event, which the protocol's field tables
// name only as objects and arrays.
var (
	str, boolean, integer, object = jsonl.KindString, jsonl.KindBoolean, jsonl.KindInteger, jsonl.KindObject
	// strs is []string.
	strs = fieldShape{jsonl.KindArray, &shape{values: &fieldShape{kind: jsonl.KindString}}}

	riskShape  = fields("level", str, "categories", strs, "reason", str)
	blockShape = fields("code", str, "toolName", str, "action", str, "risk", riskShape,
		"path", str, "reason", str, "recoverable", boolean)
	grantFields = []any{"toolName", str, "scope", str, "scopeKind", str, "decision", str,
		"approvedAt", str, "reason", str, "session", boolean}
	nested = map[string]fieldShape{
		"risk": {object, riskShape}, "block": {object, blockShape}, "violation": {object, blockShape},
		"grant":        {object, fields(grantFields...)},
		"display":      {object, fields("summary", str, "kind", str)},
		"checkpoint":   {object, fields("sequence", integer, "tool", str, "files", strs, "filesRestored", integer, "filesDeleted", integer, "skipped", strs)},
		"meta":         {object, &shape{values: &fieldShape{kind: str}}},
		"changedFiles": strs,
	}
	// v1's Grant had maxAutonomy.
	grantV1 = fieldShape{object, fields(append(grantFields, "maxAutonomy", str)...)}

	zeroV2Event = eventShape(protocol.ZeroV2)
	zeroV1Event = eventShape(protocol.ZeroV1)
)

// goKind is the kind of a Go field for a field of the tables' kind k:
// the tables do not say what an array holds.
func goKind(k jsonl.Kind) jsonl.Kind {
	if k == jsonl.KindArray {
		return jsonl.KindAny
	}
	return k
}

// eventShape is the shape of Zero's one event struct at p's version: every
// field of every event type (a strict client refuses only fields the
// struct does not have), nested structs refined.
func eventShape(p *protocol.Protocol) *shape {
	sh := &shape{fields: map[string]fieldShape{}}
	add := func(fs []protocol.Field) {
		for _, f := range fs {
			fs, ok := nested[f.Name]
			if !ok {
				fs = fieldShape{kind: goKind(f.Kind)}
			}
			if f.Name == "grant" && p.Version == 1 {
				fs = grantV1
			}
			sh.fields[f.Name] = fs
		}
	}
	add(p.Envelope)
	for _, e := range p.Events {
		add(e.Fields)
	}
	return sh
}

// isZeroInput reports the events a Zero client writes to Zero, not Zero
// to its clients: never Zero output.
func isZeroInput(typ string) bool { return typ == "message" || typ == "prompt" }

// targetShape is the shape of the Zero events the translator writes, or
// nil when it writes all it is given (EvoScientist output, --unmapped keep)
// or when its encoder decides (the event path's own targets).
func (t *Translator) targetShape() *shape {
	switch {
	case t.opt.Unmapped == Keep || t.opt.To == EvoSci || eventOnly(t.opt.To):
		return nil
	case t.opt.To == Zero1:
		return zeroV1Event
	}
	return zeroV2Event
}
