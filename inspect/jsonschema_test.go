package inspect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// The shipped schemas' validator finds, on every line of the test data
// and on thousands of damaged copies of them, exactly the failures a
// complete JSON Schema implementation finds: same value, same keyword,
// same details. Only the test links that implementation.
func TestSchemaValidatorMatchesReference(t *testing.T) {
	type pair struct {
		name string
		ours *jsonSchema
		ref  *jsonschema.Schema
	}
	var pairs []pair
	add := func(name, url string, raw []byte) {
		cs, err := compileSchema(raw, name)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		ref, err := c.Compile(url)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, pair{name, cs.root, ref})
	}
	for _, ds := range Schemas() {
		add(ds.Name, "https://github.com/zevo/zevo/dialects/"+ds.Dialect.Name+"/"+ds.File, ds.Text)
	}

	lines, forms := referenceLines(t)
	checks, failing := 0, 0
	seen := map[string]bool{} // each kind of failure the reference found
	check := func(p pair, v any) bool {
		want := referenceLeaves(p.ref.Validate(v))
		got := ourLeaves(p.ours.Validate(v))
		if !reflect.DeepEqual(got, want) {
			b, _ := json.Marshal(v)
			t.Fatalf("%s: %s\nours: %q\nreference: %q", p.name, b, got, want)
		}
		checks++
		if len(want) > 0 {
			failing++
		}
		for _, l := range want {
			f := strings.Fields(l)
			seen[f[1]] = true
		}
		return len(want) == 0
	}
	// Every line against every schema; some of its damaged copies (spread
	// over all of them) against the first schema that accepts the line,
	// where the damage is what fails.
	most := 100
	if testing.Short() {
		most = 40
	}
	for _, line := range lines {
		var accepts *pair
		for i, p := range pairs {
			if check(p, line) && accepts == nil {
				accepts = &pairs[i]
			}
		}
		if accepts == nil {
			continue
		}
		vs := damaged(line)
		step := (len(vs) + most - 1) / most
		for i := 0; i < len(vs); i += step {
			check(*accepts, vs[i])
		}
	}
	for _, line := range forms {
		for _, p := range pairs {
			if check(p, line) {
				for _, v := range damaged(line) {
					check(p, v)
				}
			}
		}
	}
	if checks < 3000 || failing < checks/4 {
		t.Fatalf("only %d checks, %d of them failing", checks, failing)
	}
	for _, k := range []string{"required", "additional", "type", "enum", "const", "minimum", "maximum",
		"minLength", "minItems", "pattern", "not", "anyOf", "oneOf"} {
		if !seen[k] {
			t.Errorf("no line fails %s: the comparison does not cover it", k)
		}
	}
}

// referenceLines is one line of each shape (type and field names) found
// in the test data, and lines of forms the test data lacks, decoded as
// validate decodes them.
func referenceLines(t *testing.T) (lines, forms []map[string]any) {
	var files []string
	for _, g := range []string{"../testdata/*/*.jsonl", "../testdata/*/*/*.jsonl"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	seen := map[string]bool{}
	var out []map[string]any
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			d.UseNumber()
			var v map[string]any
			if d.Decode(&v) != nil {
				continue
			}
			if key := shapeKey(v); !seen[key] {
				seen[key] = true
				out = append(out, v)
			}
		}
		fh.Close()
	}
	if len(out) < 100 {
		t.Fatalf("only %d line shapes in %d files", len(out), len(files))
	}
	lines = out
	// Forms no capture has: Codex's MCP call, whose error is null or an
	// object (oneOf), and Zero input with images only (minItems).
	for _, l := range []string{
		`{"type":"item.completed","item":{"id":"item_1","type":"mcp_tool_call","server":"s","tool":"t","status":"completed","result":null,"error":null}}`,
		`{"type":"item.completed","item":{"id":"item_2","type":"mcp_tool_call","server":"s","tool":"t","status":"failed","error":{"message":"boom"}}}`,
		`{"schemaVersion":2,"type":"message","role":"user","images":[{"mediaType":"image/png","data":"AAAA"}]}`,
	} {
		d := json.NewDecoder(strings.NewReader(l))
		d.UseNumber()
		var v map[string]any
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		forms = append(forms, v)
	}
	return lines, forms
}

func shapeKey(v any) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k, e := range x {
			if k == "type" {
				k += "=" + fmt.Sprint(e)
			}
			keys = append(keys, k+":"+shapeKey(e))
		}
		sort.Strings(keys)
		return "{" + strings.Join(keys, ",") + "}"
	case []any:
		if len(x) > 0 {
			return "[" + shapeKey(x[0]) + "]"
		}
		return "[]"
	}
	return fmt.Sprintf("%T", v)
}

// damaged is line and copies of it with one field removed or replaced by
// a value of another kind, at the top and one level down.
func damaged(line map[string]any) []any {
	odd := []any{nil, []any{}, "", json.Number("-1"), json.Number("1.5"), true,
		json.Number("9223372036854775808"), "!bad", map[string]any{"zz": "x"}}
	out := []any{map[string]any{}, "not an object"}
	withField := func(m map[string]any, k string, v any, del bool) map[string]any {
		c := make(map[string]any, len(m))
		for k2, v2 := range m {
			c[k2] = v2
		}
		if del {
			delete(c, k)
		} else {
			c[k] = v
		}
		return c
	}
	out = append(out, withField(line, "unknown_field", "x", false))
	for k, v := range line {
		out = append(out, withField(line, k, nil, true))
		for _, o := range odd {
			out = append(out, withField(line, k, o, false))
		}
		inner, ok := v.(map[string]any)
		if !ok {
			if list, isList := v.([]any); isList && len(list) > 0 {
				inner, ok = list[0].(map[string]any)
			}
		}
		if !ok {
			continue
		}
		for k2 := range inner {
			out = append(out, withField(line, k, withField(inner, k2, nil, true), false))
			for _, o := range odd[:4] {
				out = append(out, withField(line, k, withField(inner, k2, o, false), false))
			}
		}
	}
	return out
}

// referenceLeaves is each failed keyword of err, at its value, in order.
func referenceLeaves(err error) []string {
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			switch e.ErrorKind.(type) {
			case *kind.AnyOf:
				out = append(out, leafKey(e.InstanceLocation, "anyOf"))
			case *kind.OneOf:
				out = append(out, leafKey(e.InstanceLocation, "oneOf none"))
			}
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		var d string
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			d = fmt.Sprint("required ", k.Missing)
		case *kind.AdditionalProperties:
			sort.Strings(k.Properties)
			d = fmt.Sprint("additional ", k.Properties)
		case *kind.Type:
			d = fmt.Sprint("type ", k.Got, k.Want)
		case *kind.Enum:
			d = fmt.Sprint("enum ", k.Got, k.Want)
		case *kind.Const:
			d = fmt.Sprint("const ", k.Got, k.Want)
		case *kind.Minimum:
			d = fmt.Sprint("minimum ", k.Got.RatString(), k.Want.RatString())
		case *kind.Maximum:
			d = fmt.Sprint("maximum ", k.Got.RatString(), k.Want.RatString())
		case *kind.MinLength:
			d = fmt.Sprint("minLength ", k.Got, k.Want)
		case *kind.MinItems:
			d = fmt.Sprint("minItems ", k.Got, k.Want)
		case *kind.Pattern:
			d = fmt.Sprint("pattern ", k.Got, k.Want)
		case *kind.Not:
			d = "not"
		case *kind.OneOf:
			d = fmt.Sprint("oneOf ", k.Subschemas)
		case *kind.FalseSchema:
			d = "false"
		default:
			d = fmt.Sprintf("%T", e.ErrorKind)
		}
		out = append(out, leafKey(e.InstanceLocation, d))
	}
	if err != nil {
		walk(err.(*jsonschema.ValidationError))
	}
	sort.Strings(out)
	return out
}

func ourLeaves(err error) []string {
	var out []string
	var walk func(e *schemaError)
	walk = func(e *schemaError) {
		if len(e.causes) > 0 {
			switch e.kind.(type) {
			case kindAnyOf:
				out = append(out, leafKey(e.loc, "anyOf"))
			case kindOneOf:
				out = append(out, leafKey(e.loc, "oneOf none"))
			}
			for _, c := range e.causes {
				walk(c)
			}
			return
		}
		var d string
		switch k := e.kind.(type) {
		case kindRequired:
			d = fmt.Sprint("required ", k.Missing)
		case kindAdditional:
			d = fmt.Sprint("additional ", k.Properties)
		case kindType:
			d = fmt.Sprint("type ", k.Got, k.Want)
		case kindEnum:
			d = fmt.Sprint("enum ", k.Got, k.Want)
		case kindConst:
			d = fmt.Sprint("const ", k.Got, k.Want)
		case kindMinimum:
			d = fmt.Sprint("minimum ", k.Got.RatString(), k.Want.RatString())
		case kindMaximum:
			d = fmt.Sprint("maximum ", k.Got.RatString(), k.Want.RatString())
		case kindMinLength:
			d = fmt.Sprint("minLength ", k.Got, k.Want)
		case kindMinItems:
			d = fmt.Sprint("minItems ", k.Got, k.Want)
		case kindPattern:
			d = fmt.Sprint("pattern ", k.Got, k.Want)
		case kindNot:
			d = "not"
		case kindOneOf:
			d = fmt.Sprint("oneOf ", k.Matched)
		case kindFalse:
			d = "false"
		default:
			d = fmt.Sprintf("%T", e.kind)
		}
		out = append(out, leafKey(e.loc, d))
	}
	if err != nil {
		walk(err.(*schemaError))
	}
	sort.Strings(out)
	return out
}

func leafKey(loc []string, d string) string {
	return "/" + strings.Join(loc, "/") + " " + d
}
