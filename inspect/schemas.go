package inspect

import (
	"fmt"
	"strings"

	"github.com/zevo/zevo/dialects"
	zevent "github.com/zevo/zevo/event"
)

// DialectSchema is one schema of a dialect.
type DialectSchema struct {
	Dialect *zevent.Dialect
	*zevent.Schema
}

// Schemas lists every dialect's schemas, in the registry's order.
func Schemas() []DialectSchema {
	var out []DialectSchema
	for _, d := range dialects.All {
		for _, s := range d.SchemaList() {
			out = append(out, DialectSchema{d, s})
		}
	}
	return out
}

// LookupSchema finds a schema by its name or an alias, else the first
// schema of a dialect by the dialect's name or alias.
func LookupSchema(name string) (DialectSchema, error) {
	all := Schemas()
	for _, ds := range all {
		for _, n := range ds.Names() {
			if n == name {
				return ds, nil
			}
		}
	}
	if d, ok := dialects.ByName(name); ok {
		if list := d.SchemaList(); len(list) > 0 {
			return DialectSchema{d, list[0]}, nil
		}
	}
	var names []string
	for _, ds := range all {
		names = append(names, ds.Name)
	}
	return DialectSchema{}, fmt.Errorf("unknown schema %q (want %s, or an alias zevo schema lists)", name, strings.Join(names, ", "))
}

// ParseValidateAs reads validate's --as: "auto" (each line its own
// dialect and schema: nil, nil), or a schema as LookupSchema finds it.
func ParseValidateAs(s string) (*zevent.Dialect, *zevent.Schema, error) {
	if s == "auto" {
		return nil, nil, nil
	}
	ds, err := LookupSchema(s)
	if err != nil {
		return nil, nil, err
	}
	return ds.Dialect, ds.Schema, nil
}
