package zero

import (
	"reflect"
	"strings"
	"testing"

	"github.com/zevo/zevo/jsonl"
)

// TestStructsAreTheProtocolTables holds Zero's structs to protocol's field
// tables at each version: every field of every event type is in the
// struct, of a Go type that holds the field's kind, written always exactly
// when the tables require it; and the struct has no field the tables lack.
func TestStructsAreTheProtocolTables(t *testing.T) {
	for _, c := range []struct {
		typ reflect.Type
		p   *jsonl.Protocol
	}{{reflect.TypeFor[Event](), V2}, {reflect.TypeFor[EventV1](), V1}} {
		if msg := structAgrees(c.typ, c.p); msg != "" {
			t.Errorf("%s and the v%d tables:%s", c.typ, c.p.Version, msg)
		}
	}
}

// TestStructCheckFailsOnADrift: a field of the wrong type, a missing one
// and an extra one are each reported.
func TestStructCheckFailsOnADrift(t *testing.T) {
	type wrongType struct {
		Fields
		Block *Block `json:"block,omitempty"`
		Grant string `json:"grant,omitempty"`
	}
	type missing struct {
		Fields
		Grant *Grant `json:"grant,omitempty"`
	}
	type extra struct {
		Event
		Violation *Block `json:"violation,omitempty"`
	}
	type required struct {
		Fields
		Block *Block `json:"block"`
		Grant *Grant `json:"grant,omitempty"`
	}
	for typ, want := range map[reflect.Type]string{
		reflect.TypeFor[wrongType](): `"grant" holds string, the tables say object`,
		reflect.TypeFor[missing]():   `no field "block"`,
		reflect.TypeFor[extra]():     `"violation" is not in the tables`,
		reflect.TypeFor[required]():  `"block" is written always`,
	} {
		if msg := structAgrees(typ, V2); !strings.Contains(msg, want) {
			t.Errorf("%s: got %q, want %q", typ.Name(), msg, want)
		}
	}
}

// structAgrees compares struct type typ with p's tables and says how they
// differ, or "".
func structAgrees(typ reflect.Type, p *jsonl.Protocol) string {
	fields := map[string]reflect.StructField{}
	jsonFields(typ, fields)
	var b strings.Builder
	seen := map[string]bool{}
	check := func(f jsonl.Field) {
		if seen[f.Name] {
			return
		}
		seen[f.Name] = true
		sf, ok := fields[f.Name]
		if !ok {
			b.WriteString("\n\tno field " + `"` + f.Name + `"`)
			return
		}
		if k := goKind(sf.Type); k != f.Kind {
			b.WriteString("\n\t" + `"` + f.Name + `" holds ` + k.String() + ", the tables say " + f.Kind.String())
		}
		if always := !strings.Contains(sf.Tag.Get("json"), ",omitempty"); always != f.Required {
			b.WriteString("\n\t" + `"` + f.Name + `" is written always: ` + yes(always) + ", required by the tables: " + yes(f.Required))
		}
	}
	for _, f := range p.Envelope {
		check(f)
	}
	for _, e := range p.Events {
		for _, f := range e.Fields {
			// One struct field serves every event type: the tables must
			// give a name one kind.
			for _, o := range p.Events {
				if g, ok := o.Field(f.Name); ok && g.Kind != f.Kind {
					b.WriteString("\n\t" + `"` + f.Name + `" is ` + f.Kind.String() + " in " + e.Type + ", " + g.Kind.String() + " in " + o.Type)
				}
			}
			check(f)
		}
	}
	for name := range fields {
		if !seen[name] {
			b.WriteString("\n\t" + `"` + name + `" is not in the tables`)
		}
	}
	return b.String()
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// jsonFields adds the fields of struct type t by JSON name, as
// encoding/json sees them: an embedded struct's fields are promoted
// unless t names them itself.
func jsonFields(t reflect.Type, into map[string]reflect.StructField) {
	own := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		own[name] = f
	}
	for i := range t.NumField() {
		if f := t.Field(i); f.Anonymous {
			jsonFields(f.Type, own)
		}
	}
	for name, f := range own {
		if _, ok := into[name]; !ok {
			into[name] = f
		}
	}
}

// goKind is the JSON kind a Go value of type t holds.
func goKind(t reflect.Type) jsonl.Kind {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return jsonl.KindString
	case reflect.Bool:
		return jsonl.KindBoolean
	case reflect.Int, reflect.Int64:
		return jsonl.KindInteger
	case reflect.Float64:
		return jsonl.KindNumber
	case reflect.Slice:
		return jsonl.KindArray
	case reflect.Map, reflect.Struct:
		return jsonl.KindObject
	}
	return jsonl.KindAny
}
