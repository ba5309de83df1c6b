// Package bench holds the benchmark against jq: the corpus generator, the
// reference jq programs and the script that runs them.
package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/translate"
)

// translateAll runs zevo's translation as the CLI does with these options.
func translateAll(t *testing.T, in []byte, opt translate.Options) []byte {
	t.Helper()
	var out bytes.Buffer
	tr := translate.New(opt, func(b []byte) error {
		out.Write(b)
		return out.WriteByte('\n')
	})
	r := jsonl.NewReader(bytes.NewReader(in), "corpus", nil)
	for {
		l, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Line(l); err != nil {
			t.Fatalf("translate: %v", err)
		}
	}
	if err := tr.End("corpus"); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func decodeLines(t *testing.T, name string, b []byte) []any {
	t.Helper()
	var vs []any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	for {
		var v any
		if err := d.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		vs = append(vs, v)
	}
	return vs
}

// TestSameAsJq checks that the committed jq programs do zevo's mapping: on
// generated corpora, zevo's output and jq's are equal as JSON values, line
// by line.
func TestSameAsJq(t *testing.T) {
	var tools []string
	for _, name := range []string{"jq", "gojq"} {
		if _, err := exec.LookPath(name); err == nil {
			tools = append(tools, name)
		}
	}
	if len(tools) == 0 {
		t.Skip("neither jq nor gojq is installed (bench/run.sh installs both)")
	}
	size := int64(512 << 10)
	if testing.Short() {
		size = 96 << 10
	}
	for _, tc := range []struct {
		from corpus.Protocol
		prog string
		args []string
		opt  translate.Options
	}{
		{corpus.EvoSci, "to-zero.jq", []string{"--arg", "runid", "R", "--arg", "cwd", "/work"},
			translate.Options{To: toZero, RunID: "R", Cwd: "/work", Redact: true}},
		{corpus.Zero, "to-evosci.jq", nil, translate.Options{To: toEvoSci}},
	} {
		// Read here, not by jq, so that the test cache sees a change.
		prog, err := os.ReadFile(tc.prog)
		if err != nil {
			t.Fatal(err)
		}
		for _, seed := range []uint64{1, 2} {
			var in bytes.Buffer
			if _, err := corpus.Write(&in, corpus.Options{Protocol: tc.from, Size: size, Seed: seed}); err != nil {
				t.Fatal(err)
			}
			want := decodeLines(t, "zevo", translateAll(t, in.Bytes(), tc.opt))
			for _, tool := range tools {
				name := fmt.Sprintf("%s %s seed %d", tool, tc.prog, seed)
				cmd := exec.Command(tool, append(append([]string{"-nc"}, tc.args...), string(prog))...)
				cmd.Stdin = bytes.NewReader(in.Bytes())
				var stderr strings.Builder
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%s: %v: %s", name, err, stderr.String())
				}
				got := decodeLines(t, name, out)
				if len(got) != len(want) {
					t.Errorf("%s: %d lines, zevo wrote %d", name, len(got), len(want))
				}
				for i := 0; i < len(got) && i < len(want); i++ {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Errorf("%s: line %d differs:\n jq   %v\n zevo %v", name, i+1, got[i], want[i])
						break
					}
				}
			}
		}
	}
}
