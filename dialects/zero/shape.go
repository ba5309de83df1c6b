package zero

import (
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// Zero's clients decode each event into Zero's own types (Event, or
// EventV1 at version 1); a strict client refuses a field those types do
// not have, or a value they cannot hold. By default a translation writes
// only what fits: the shapes below are read from those types.

type FieldShape struct {
	kind jsonl.Kind
	sub  *Shape // for an object, or the elements of an array
}

// Shape is a struct's fields, or with values a map's value type (an
// array's element type).
type Shape struct {
	fields map[string]FieldShape
	values *FieldShape
}

// holds reports whether a Go field of kind k can hold v (null fits every
// kind): an integer within 64 bits (int), a number within float64's
// range; an array's elements are its FieldShape's to check.
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

// Holds reports whether the field can hold v: an array only when every
// element fits (the members of an object are fitted one by one).
func (f FieldShape) Holds(v gjson.Result) bool {
	if !holds(f.kind, v) {
		return false
	}
	return f.kind != jsonl.KindArray || f.sub == nil || v.Type == gjson.Null || f.sub.Fits(v)
}

// Fits reports whether every member of obj is one sh admits.
func (sh *Shape) Fits(obj gjson.Result) bool {
	ok := true
	obj.ForEach(func(k, v gjson.Result) bool {
		f, known := sh.fields[k.Str]
		if sh.values != nil {
			f, known = *sh.values, true
		}
		ok = known && f.Holds(v) && (f.kind != jsonl.KindObject || f.sub == nil || v.Type == gjson.Null || f.sub.Fits(v))
		return ok
	})
	return ok
}

// The shapes are read from the structs on first use: commands that do not
// write Zero pay nothing for them.
var (
	zeroV2Event = sync.OnceValue(func() *Shape { return structShape(reflect.TypeFor[Event]()) })
	zeroV1Event = sync.OnceValue(func() *Shape { return structShape(reflect.TypeFor[EventV1]()) })
)

// structShape is the shape of struct type t: its fields by JSON name,
// an embedded struct's fields promoted unless t has the name itself.
func structShape(t reflect.Type) *Shape {
	sh := &Shape{fields: map[string]FieldShape{}}
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
func shapeOf(t reflect.Type) FieldShape {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return FieldShape{kind: jsonl.KindString}
	case reflect.Bool:
		return FieldShape{kind: jsonl.KindBoolean}
	case reflect.Int, reflect.Int64:
		return FieldShape{kind: jsonl.KindInteger}
	case reflect.Float64:
		return FieldShape{kind: jsonl.KindNumber}
	case reflect.Slice:
		v := shapeOf(t.Elem())
		return FieldShape{kind: jsonl.KindArray, sub: &Shape{values: &v}}
	case reflect.Map:
		v := shapeOf(t.Elem())
		return FieldShape{kind: jsonl.KindObject, sub: &Shape{values: &v}}
	case reflect.Struct:
		return FieldShape{kind: jsonl.KindObject, sub: structShape(t)}
	}
	return FieldShape{kind: jsonl.KindAny}
}

// EventShape is the shape of the events Zero's clients read at version
// (1 or 2).
func EventShape(version int) *Shape {
	if version == 1 {
		return zeroV1Event()
	}
	return zeroV2Event()
}

// Field is the shape of the member key of an object of shape sh, and
// whether sh admits it.
func (sh *Shape) Field(key string) (FieldShape, bool) {
	if sh.values != nil {
		return *sh.values, true
	}
	f, ok := sh.fields[key]
	return f, ok
}

// Names are the fields sh names (none for a map's shape).
func (sh *Shape) Names() []string {
	names := make([]string, 0, len(sh.fields))
	for n := range sh.fields {
		names = append(names, n)
	}
	return names
}

// Kind is the JSON kind of the field.
func (f FieldShape) Kind() jsonl.Kind { return f.kind }

// Sub is the shape of the field's object, or of its array's elements;
// nil when it has none.
func (f FieldShape) Sub() *Shape { return f.sub }
