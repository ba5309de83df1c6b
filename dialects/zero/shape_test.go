package zero

import (
	"testing"

	"github.com/zevo/zevo/jsonl"
)

// TestShapeIsProtocolTables checks that the shapes read from Zero's
// structs admit exactly the fields of protocol's tables at each version,
// each with the table's kind.
func TestShapeIsProtocolTables(t *testing.T) {
	for _, c := range []struct {
		sh *Shape
		p  *jsonl.Protocol
	}{{EventShape(2), V2}, {EventShape(1), V1}} {
		want := map[string]jsonl.Kind{}
		for _, f := range c.p.Envelope {
			want[f.Name] = f.Kind
		}
		for _, e := range c.p.Events {
			for _, f := range e.Fields {
				want[f.Name] = f.Kind
			}
		}
		for name, k := range want {
			if f, ok := c.sh.Field(name); !ok {
				t.Errorf("v%d: the shape lacks %q", c.p.Version, name)
			} else if f.Kind() != k {
				t.Errorf("v%d: %q is %v in the shape, %v in the tables", c.p.Version, name, f.Kind(), k)
			}
		}
		for _, name := range c.sh.Names() {
			if _, ok := want[name]; !ok {
				t.Errorf("v%d: the shape has %q, the tables do not", c.p.Version, name)
			}
		}
	}
}
