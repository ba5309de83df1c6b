package zero_test

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects/evosci"
	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/dialects/zero/zerotest"
	"github.com/zevo/zevo/jsonl"
)

// schemaDoc is a shipped schema, read as plain JSON.
type schemaDoc struct {
	root map[string]any
	defs map[string]any
}

// schemaText is the text of a protocol's schema file, in its dialect's
// folder.
func schemaText(t *testing.T, f jsonl.Family, file string) []byte {
	t.Helper()
	dir := "."
	if f == evosci.Family {
		dir = "../evosci"
	}
	b, err := os.ReadFile(dir + "/" + file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readSchema(t *testing.T, p *jsonl.Protocol) schemaDoc {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(schemaText(t, p.Family, p.SchemaFile), &root); err != nil {
		t.Fatalf("%s: %v", p.SchemaFile, err)
	}
	// The $id each schema was published under, kept when its file moved.
	if root["$id"] != "https://github.com/zevo/zevo/schemas/"+p.SchemaFile || root["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("%s: $id %v, $schema %v", p.SchemaFile, root["$id"], root["$schema"])
	}
	defs, _ := root["$defs"].(map[string]any)
	return schemaDoc{root, defs}
}

func (s schemaDoc) def(t *testing.T, ref string) map[string]any {
	t.Helper()
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	d, _ := s.defs[name].(map[string]any)
	if !ok || d == nil {
		t.Fatalf("no definition %q", ref)
	}
	return d
}

// shape is what a definition says of an object: its properties (the
// definition's own over those of the definition it refers to), required
// names, and whether other properties are refused.
type shape struct {
	props    map[string][]any // name → its schemas, the most specific first
	required []string
	closed   bool
}

func (s schemaDoc) shape(t *testing.T, d map[string]any) shape {
	t.Helper()
	sh := shape{props: map[string][]any{}}
	if ref, ok := d["$ref"].(string); ok {
		sh = s.shape(t, s.def(t, ref))
	}
	props, _ := d["properties"].(map[string]any)
	for k, v := range props {
		sh.props[k] = append([]any{v}, sh.props[k]...)
	}
	req, _ := d["required"].([]any)
	for _, r := range req {
		sh.required = append(sh.required, r.(string))
	}
	if ap, ok := d["additionalProperties"].(bool); ok && !ap {
		sh.closed = true
	}
	return sh
}

// kind reads the JSON type a property schema allows; jsonl.KindAny when it does
// not say.
func (s schemaDoc) kind(t *testing.T, schemas []any) jsonl.Kind {
	for _, sc := range schemas {
		m, ok := sc.(map[string]any)
		if !ok {
			continue
		}
		if ref, ok := m["$ref"].(string); ok {
			if k := s.kind(t, []any{s.def(t, ref)}); k != jsonl.KindAny {
				return k
			}
		}
		if typ, ok := m["type"].(string); ok {
			if k, ok := jsonl.KindNamed(typ); ok {
				return k
			}
			t.Fatalf("unknown type %q", typ)
		}
		vals, _ := m["enum"].([]any)
		if c, ok := m["const"]; ok {
			vals = append(vals, c)
		}
		if len(vals) > 0 {
			k := valueKind(vals[0])
			for _, v := range vals {
				if valueKind(v) != k {
					return jsonl.KindAny
				}
			}
			return k
		}
	}
	return jsonl.KindAny
}

func valueKind(v any) jsonl.Kind {
	switch x := v.(type) {
	case string:
		return jsonl.KindString
	case bool:
		return jsonl.KindBoolean
	case float64:
		if x == float64(int64(x)) {
			return jsonl.KindInteger
		}
		return jsonl.KindNumber
	}
	return jsonl.KindAny
}

func fieldNames(fs []jsonl.Field, required bool) []string {
	var out []string
	for _, f := range fs {
		if !required || f.Required {
			out = append(out, f.Name)
		}
	}
	sort.Strings(out)
	return out
}

// The field tables and the shipped schemas say the same: the same event
// types, the same fields with the same JSON types, the same required ones.
func TestSchemasMatchFieldTables(t *testing.T) {
	for _, p := range zerotest.Protocols {
		s := readSchema(t, p)
		env := s.shape(t, s.def(t, "#/$defs/envelope"))
		envNames := fieldNames(p.Envelope, false)
		if got := fieldNames(p.Envelope, true); !slices.Equal(sorted(env.required), got) {
			t.Errorf("%s envelope: schema requires %v, table %v", p.Name, sorted(env.required), got)
		}
		for _, f := range p.Envelope {
			if k := s.kind(t, env.props[f.Name]); k != f.Kind {
				t.Errorf("%s envelope %s: schema %v, table %v", p.Name, f.Name, k, f.Kind)
			}
		}
		// The types of the allOf conditions are the table's types.
		var types []string
		refs := map[string]string{}
		conds, _ := s.root["allOf"].([]any)
		for _, c := range conds {
			m := c.(map[string]any)
			typ := m["if"].(map[string]any)["properties"].(map[string]any)["type"].(map[string]any)["const"].(string)
			types = append(types, typ)
			refs[typ] = m["then"].(map[string]any)["$ref"].(string)
		}
		var tableTypes []string
		for _, e := range p.Events {
			tableTypes = append(tableTypes, e.Type)
		}
		if !slices.Equal(sorted(types), sorted(tableTypes)) {
			t.Errorf("%s: schema types %v, table types %v", p.Name, sorted(types), sorted(tableTypes))
		}
		if enum, ok := env.props["type"][0].(map[string]any)["enum"].([]any); ok {
			var es []string
			for _, e := range enum {
				es = append(es, e.(string))
			}
			if !slices.Equal(sorted(es), sorted(tableTypes)) {
				t.Errorf("%s: envelope type enum %v, table types %v", p.Name, sorted(es), sorted(tableTypes))
			}
		}
		for _, e := range p.Events {
			ref, ok := refs[e.Type]
			if !ok {
				continue
			}
			sh := s.shape(t, s.def(t, ref))
			var props []string
			for k := range sh.props {
				if !slices.Contains(envNames, k) {
					props = append(props, k)
				}
			}
			// Envelope properties beyond its fields (Zero input's content)
			// belong to every event.
			for k := range env.props {
				if !slices.Contains(envNames, k) && !slices.Contains(props, k) {
					props = append(props, k)
				}
			}
			if got := fieldNames(e.Fields, false); !slices.Equal(sorted(props), got) {
				t.Errorf("%s %s: schema fields %v, table %v", p.Name, e.Type, sorted(props), got)
			}
			if got := fieldNames(e.Fields, true); !slices.Equal(sorted(sh.required), got) {
				t.Errorf("%s %s: schema requires %v, table %v", p.Name, e.Type, sorted(sh.required), got)
			}
			for _, f := range e.Fields {
				if k := s.kind(t, append(sh.props[f.Name], env.props[f.Name]...)); k != f.Kind {
					t.Errorf("%s %s.%s: schema type %v, table %v", p.Name, e.Type, f.Name, k, f.Kind)
				}
			}
			if sh.closed != p.Strict && len(e.Fields) > 0 {
				t.Errorf("%s %s: schema refuses other fields: %v, protocol strict: %v", p.Name, e.Type, sh.closed, p.Strict)
			}
		}
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	if s == nil {
		s = []string{}
	}
	return s
}

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		name string
		want *jsonl.Protocol
	}{{"zero", zero.V2}, {"zero@2", zero.V2}, {"zero@1", zero.V1}, {"zero-input", zero.Input}, {"evosci", evosci.Protocol}, {"evoscientist", evosci.Protocol}} {
		if p, err := zerotest.Lookup(tc.name); err != nil || p != tc.want {
			t.Errorf("zerotest.Lookup(%q) = %v, %v", tc.name, p, err)
		}
	}
	for _, bad := range []string{"zero@3", "Zero", "", "auto"} {
		if _, err := zerotest.Lookup(bad); err == nil || !strings.Contains(err.Error(), "want zero@2, zero, zero@1, zero-input, evosci, evoscientist") {
			t.Errorf("zerotest.Lookup(%q): %v", bad, err)
		}
	}
}

// The families, numbered in two folders, are distinct and not none: a
// line of one never joins a run of another.
func TestFamiliesDiffer(t *testing.T) {
	fs := []jsonl.Family{zero.Family, zero.InputFamily, evosci.Family}
	for i, f := range fs {
		if f == 0 || slices.Contains(fs[i+1:], f) {
			t.Errorf("families %v", fs)
		}
	}
}

func TestIsIDIsThePattern(t *testing.T) {
	re := regexp.MustCompile(zero.IDPattern)
	for _, s := range []string{"", "r", "run_20260101000000_abcdef", "-r", "_r", "r-", "a:b.c_d-e", "bad id!", "r\u00fcn", "r\n",
		strings.Repeat("r", 128), strings.Repeat("r", 129), "9", "Z.", "a/b"} {
		if zero.IsID(s) != re.MatchString(s) {
			t.Errorf("zero.IsID(%q) = %v, the pattern says %v", s, zero.IsID(s), re.MatchString(s))
		}
	}
	for _, f := range []string{zero.V1.SchemaFile, zero.V2.SchemaFile} {
		if !strings.Contains(string(schemaText(t, zero.V2.Family, f)), `"pattern": "`+zero.IDPattern+`"`) {
			t.Errorf("%s does not give runId the pattern %s", f, zero.IDPattern)
		}
	}
}
