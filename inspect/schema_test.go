package inspect

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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
			v, _, err := decodeLine([]byte(line))
			obj, ok := v.(map[string]any)
			if err != nil || !ok {
				continue
			}
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
