package inspect

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zevo/zevo/protocol"
)

// Checking the envelope and the type's definition finds exactly what the
// whole schema finds.
func TestSchemaFastPathMatchesRoot(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*/*.jsonl")
	more, _ := filepath.Glob("../testdata/golden/*/*.jsonl")
	files = append(files, more...)
	lines := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			var d protocol.Decoder
			var o protocol.Object
			if d.Decode([]byte(line), &o) != nil {
				continue
			}
			dec := json.NewDecoder(strings.NewReader(o.Raw))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			obj := v.(map[string]any)
			typ, _ := obj["type"].(string)
			for _, p := range []Protocol{Zero, Zero1, ZeroInput, EvoSci} {
				cs, err := schemaFor(p)
				if err != nil {
					t.Fatal(err)
				}
				var rootErrs []error
				if err := cs.root.Validate(v); err != nil {
					rootErrs = []error{err}
				}
				want := schemaProblems(rootErrs, typ, p)
				got := schemaProblems(cs.validate(v, typ), typ, p)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s as %s: %s\nfast: %v\nroot: %v", f, p, line, got, want)
				}
				lines++
			}
		}
	}
	if lines < 400 {
		t.Fatalf("only %d checks", lines)
	}
}
