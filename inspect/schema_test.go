package inspect

import (
	"encoding/json"
	"github.com/zevo/zevo/jsonl"
	"math/big"
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
			var d jsonl.Decoder
			var o jsonl.LineObject
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
			for _, ds := range Schemas() {
				cs, err := compiledFor(ds.Schema)
				if err != nil {
					t.Fatal(err)
				}
				var rootErrs []error
				if err := cs.root.Validate(v); err != nil {
					rootErrs = []error{err}
				}
				want := cs.problems(rootErrs, typ, &ds.Words)
				got := cs.problems(cs.validate(v, typ), typ, &ds.Words)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s as %s: %s\nfast: %v\nroot: %v", f, ds.Name, line, got, want)
				}
				lines++
			}
		}
	}
	if lines < 400 {
		t.Fatalf("only %d checks", lines)
	}
}

func TestDecimalWritesJSONNumbersExactly(t *testing.T) {
	for in, want := range map[string]string{
		"-0.001": "-0.001", "2.5e-7": "0.00000025", "12": "12", "-3": "-3",
		"0.5": "0.5", "1e-400": "1e-400", "123456789012345678901234567890": "123456789012345678901234567890",
		"1.25e-30": "1.25e-30", "1.5e-29": "0.000000000000000000000000000015",
	} {
		r, ok := new(big.Rat).SetString(in)
		if !ok {
			t.Fatal(in)
		}
		if got := decimal(r); got != want {
			t.Errorf("decimal(%s) = %s, want %s", in, got, want)
		}
	}
}
