package translate

import (
	"strconv"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/protocol"
)

// Zero's clients decode each event into Zero's own types (one flat event
// struct, with nested structs for risk, block, grant, display and
// checkpoint); a strict client refuses a field those types do not have, or
// a value they cannot hold. By default zevo writes only what fits: the
// shapes below are those types, as Zero 0.8.0 declares them (v1 where it
// differed).

// kind is the JSON type a Go field can hold (null fits every kind).
type kind uint8

const (
	kAny     kind = iota
	kString       // string
	kBool         // bool
	kInt          // int: an integer within 64 bits
	kNumber       // float64
	kObject       // a struct or map: see the field's sub shape
	kStrings      // []string
)

type fieldShape struct {
	kind kind
	sub  *shape // for kObject
}

// shape is a struct's fields, or with values a map's value type.
type shape struct {
	fields map[string]fieldShape
	values *fieldShape
}

func (k kind) holds(v gjson.Result) bool {
	if v.Type == gjson.Null {
		return true
	}
	switch k {
	case kString:
		return v.Type == gjson.String
	case kBool:
		return v.Type == gjson.True || v.Type == gjson.False
	case kInt:
		if v.Type != gjson.Number {
			return false
		}
		_, err := strconv.ParseInt(v.Raw, 10, 64)
		return err == nil
	case kNumber:
		if v.Type != gjson.Number {
			return false
		}
		_, err := strconv.ParseFloat(v.Raw, 64)
		return err == nil
	case kObject:
		return v.Type == gjson.JSON && v.Raw[0] == '{'
	case kStrings:
		if v.Type != gjson.JSON || v.Raw[0] != '[' {
			return false
		}
		ok := true
		gjson.Parse(v.Raw).ForEach(func(_, e gjson.Result) bool {
			ok = e.Type == gjson.String || e.Type == gjson.Null
			return ok
		})
		return ok
	}
	return true
}

// fits reports whether every member of obj is one sh admits.
func (sh *shape) fits(obj gjson.Result) bool {
	ok := true
	obj.ForEach(func(k, v gjson.Result) bool {
		f, known := sh.fields[k.Str]
		if sh.values != nil {
			f, known = *sh.values, true
		}
		ok = known && f.kind.holds(v) && (f.sub == nil || v.Type == gjson.Null || f.sub.fits(v))
		return ok
	})
	return ok
}

func fields(kv ...any) *shape {
	sh := &shape{fields: map[string]fieldShape{}}
	for i := 0; i < len(kv); i += 2 {
		switch f := kv[i+1].(type) {
		case kind:
			sh.fields[kv[i].(string)] = fieldShape{kind: f}
		case *shape:
			sh.fields[kv[i].(string)] = fieldShape{kind: kObject, sub: f}
		}
	}
	return sh
}

// The nested structs of Zero's event, which the protocol's field tables
// name only as objects and arrays.
var (
	riskShape  = fields("level", kString, "categories", kStrings, "reason", kString)
	blockShape = fields("code", kString, "toolName", kString, "action", kString, "risk", riskShape,
		"path", kString, "reason", kString, "recoverable", kBool)
	grantFields = []any{"toolName", kString, "scope", kString, "scopeKind", kString, "decision", kString,
		"approvedAt", kString, "reason", kString, "session", kBool}
	nested = map[string]fieldShape{
		"risk": {kObject, riskShape}, "block": {kObject, blockShape}, "violation": {kObject, blockShape},
		"grant":        {kObject, fields(grantFields...)},
		"display":      {kObject, fields("summary", kString, "kind", kString)},
		"checkpoint":   {kObject, fields("sequence", kInt, "tool", kString, "files", kStrings, "filesRestored", kInt, "filesDeleted", kInt, "skipped", kStrings)},
		"meta":         {kObject, &shape{values: &fieldShape{kind: kString}}},
		"changedFiles": {kStrings, nil},
	}
	// v1's Grant had maxAutonomy.
	grantV1 = fieldShape{kObject, fields(append(grantFields, "maxAutonomy", kString)...)}

	zeroV2Event = eventShape(protocol.ZeroV2)
	zeroV1Event = eventShape(protocol.ZeroV1)
)

// kinds maps the field tables' kinds to what Go's fields hold.
var kinds = [...]kind{protocol.KindAny: kAny, protocol.KindString: kString, protocol.KindBoolean: kBool,
	protocol.KindInteger: kInt, protocol.KindNumber: kNumber, protocol.KindObject: kObject, protocol.KindArray: kAny}

// eventShape is the shape of Zero's one event struct at p's version: every
// field of every event type (a strict client refuses only fields the
// struct does not have), nested structs refined.
func eventShape(p *protocol.Protocol) *shape {
	sh := &shape{fields: map[string]fieldShape{}}
	add := func(fs []protocol.Field) {
		for _, f := range fs {
			fs, ok := nested[f.Name]
			if !ok {
				fs = fieldShape{kind: kinds[f.Kind]}
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
