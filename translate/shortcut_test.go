package translate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The event path's shortcut (an EvoScientist event with only its own
// fields stays on today's path without asking the registry) decides as the
// registry does: every stream of testdata, and inputs that mix dialects,
// translate to the same bytes, diagnostics and counts with and without it.
func TestEventPathShortcutAsTheRegistry(t *testing.T) {
	var inputs [][]byte
	for _, g := range []string{"../testdata/*/*.jsonl", "../testdata/*/*/*.jsonl"} {
		m, _ := filepath.Glob(g)
		for _, p := range m {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, b)
		}
	}
	inputs = append(inputs,
		[]byte("{\"type\": \"text\", \"content\": \"a\"}\n{\"type\": \"error\", \"message\": \"boom\"}\n{\"type\":\"thread.started\",\"thread_id\":\"t1\"}\n{\"type\":\"error\",\"message\":\"again\"}\n{\"type\": \"text\", \"content\": \"b\"}\n"),
		[]byte("{\"type\":\"thread.started\",\"thread_id\":\"t1\"}\n{\"type\":\"turn.started\"}\n{\"type\":\"error\",\"message\":\"x\"}\n{\"type\": \"done\", \"content\": \"\", \"response\": \"r\"}\n{\"type\": \"text\", \"content\": \"c\"}\n"),
	)
	if len(inputs) < 60 {
		t.Fatalf("%d inputs", len(inputs))
	}
	for _, to := range []Format{Zero, EvoSci} {
		for i, in := range inputs {
			once := func(registryOnly bool) string {
				opt := Options{To: to, Now: fixedNow, Rand: zeroReader{}}
				var buf bytes.Buffer
				tr := New(opt, func(b []byte) error {
					buf.Write(b)
					buf.WriteByte('\n')
					return nil
				})
				tr.ep.registryOnly = registryOnly
				diags := feedLines(t, tr, in, "in", nil, nil)
				if err := tr.End("in"); err != nil {
					t.Fatal(err)
				}
				return fmt.Sprintf("%s\n%s\n%+v", buf.String(), strings.Join(diags, "\n"), *tr.Stats())
			}
			if a, b := once(false), once(true); a != b {
				t.Errorf("input %d to %s: differs with the shortcut:\n%.600s\n---\n%.600s", i, to.Name, a, b)
			}
		}
	}
}
