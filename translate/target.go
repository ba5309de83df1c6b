package translate

import (
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/jsonl"
)

// Zero's clients decode each event into Zero's own types (zero.Event, or
// zero.EventV1 at version 1); a strict client refuses a field those types
// do not have, or a value they cannot hold. By default zevo writes only
// what fits: the shapes below are read from those types.

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

// The shapes are read from the structs on first use: commands that do not
// write Zero pay nothing for them.
var (
	zeroV2Event = sync.OnceValue(func() *shape { return structShape(reflect.TypeFor[zero.Event]()) })
	zeroV1Event = sync.OnceValue(func() *shape { return structShape(reflect.TypeFor[zero.EventV1]()) })
)

// structShape is the shape of struct type t: its fields by JSON name,
// an embedded struct's fields promoted unless t has the name itself.
func structShape(t reflect.Type) *shape {
	sh := &shape{fields: map[string]fieldShape{}}
	var embedded []reflect.Type
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			embedded = append(embedded, f.Type)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		sh.fields[name] = shapeOf(f.Type)
	}
	for _, e := range embedded {
		for name, f := range structShape(e).fields {
			if _, ok := sh.fields[name]; !ok {
				sh.fields[name] = f
			}
		}
	}
	return sh
}

// shapeOf is the shape of a field of Go type t.
func shapeOf(t reflect.Type) fieldShape {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return fieldShape{kind: jsonl.KindString}
	case reflect.Bool:
		return fieldShape{kind: jsonl.KindBoolean}
	case reflect.Int, reflect.Int64:
		return fieldShape{kind: jsonl.KindInteger}
	case reflect.Float64:
		return fieldShape{kind: jsonl.KindNumber}
	case reflect.Slice:
		v := shapeOf(t.Elem())
		return fieldShape{kind: jsonl.KindArray, sub: &shape{values: &v}}
	case reflect.Map:
		v := shapeOf(t.Elem())
		return fieldShape{kind: jsonl.KindObject, sub: &shape{values: &v}}
	case reflect.Struct:
		return fieldShape{kind: jsonl.KindObject, sub: structShape(t)}
	}
	return fieldShape{kind: jsonl.KindAny}
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
		return zeroV1Event()
	}
	return zeroV2Event()
}
