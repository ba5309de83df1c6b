package inspect

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/jsonl"
)

// validate's shortcut (an EvoScientist line with only its own fields is
// not shown to the registry) reports what the registry alone reports,
// on every stream of testdata and on inputs that mix dialects.
func TestValidateShortcutAsTheRegistry(t *testing.T) {
	var paths []string
	for _, g := range []string{"../testdata/*/*.jsonl", "../testdata/*/*/*.jsonl"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	mixed := []string{
		"{\"type\": \"text\", \"content\": \"a\"}\n{\"type\": \"error\", \"message\": \"boom\"}\n{\"type\":\"thread.started\",\"thread_id\":\"t1\"}\n{\"type\":\"error\",\"message\":\"again\"}\n{\"type\": \"text\", \"content\": \"b\"}\n",
		"{\"type\":\"thread.started\",\"thread_id\":\"t1\"}\n{\"type\":\"turn.started\"}\n{\"type\":\"error\",\"message\":\"x\"}\n{\"type\": \"done\", \"content\": \"\", \"response\": \"r\"}\n",
	}
	dir := t.TempDir()
	for i, in := range mixed {
		p := filepath.Join(dir, "mixed"+string(rune('a'+i))+".jsonl")
		if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		report := func(registryOnly bool) string {
			var out strings.Builder
			v, err := NewValidator(path, ValidateOptions{}, func(d jsonl.Diagnostic) { out.WriteString(d.String() + "\n") })
			if err != nil {
				t.Fatal(err)
			}
			v.ld.registryOnly = registryOnly
			lr := jsonl.NewReader(bytes.NewReader(data), path, nil)
			for {
				l, err := lr.Next()
				if err != nil {
					break
				}
				v.Line(l)
			}
			fmt.Fprintf(&out, "%+v\n", v.End())
			return out.String()
		}
		if a, b := report(false), report(true); a != b {
			t.Errorf("%s: validate differs with the shortcut:\n%s", path, firstDiff(a, b))
		}
	}
}

// firstDiff shows where two outputs part, a line of each.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  shortcut: %q\n  registry: %q", i+1, x, y)
		}
	}
	return ""
}
