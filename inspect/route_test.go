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

// The router's shortcut (decodedToday: today's decoding tells most Zero
// and EvoScientist lines without the registry) routes every line as the
// registry alone does: the text view and both documents are the same
// byte for byte with and without it, on every stream of testdata (every
// dialect's) and on inputs that mix dialects where a line several may
// write depends on the lines before it.
func TestRouteShortcutAsTheRegistry(t *testing.T) {
	var paths []string
	for _, g := range []string{"../testdata/*/*.jsonl", "../testdata/*/*/*.jsonl"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	dir := t.TempDir()
	mixed := map[string]string{
		"evosci, a bare error, codex": `{"type": "text", "content": "a"}
{"type": "error", "message": "boom"}
{"type":"thread.started","thread_id":"t1"}
{"type":"error","message":"again"}
{"type": "text", "content": "b"}
`,
		"codex, then evosci's own lines": `{"type":"thread.started","thread_id":"t1"}
{"type":"turn.started"}
{"type":"error","message":"x"}
{"type": "thinking", "content": "t", "id": 1}
{"type": "done", "content": "", "response": "r"}
`,
		"zero, cursor, claude, zero": `{"schemaVersion":2,"type":"run_start","runId":"r1"}
{"type":"system","subtype":"init","session_id":"s","model":"m"}
{"type":"thinking","subtype":"delta","text":"hm","session_id":"s"}
{"type":"assistant","message":{"id":"m1","model":"x","role":"assistant","content":[{"type":"text","text":"hi"}]},"session_id":"s","uuid":"u"}
{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}
`,
	}
	for name, in := range mixed {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".jsonl")
		if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if len(paths) < 60 {
		t.Fatalf("%d streams", len(paths))
	}
	for _, path := range paths {
		view := func(registryOnly bool) string {
			var b bytes.Buffer
			v := NewViewer(&b, ViewOptions{Full: true})
			v.route.registryOnly = registryOnly
			v.File(path, false)
			renderLines(t, path, &b, v)
			v.End()
			return b.String()
		}
		if a, b := view(false), view(true); a != b {
			t.Errorf("%s: the text view differs with the shortcut:\n%s", path, firstDiff(a, b))
		}
		for _, f := range []DocFormat{Markdown, HTML} {
			doc := func(registryOnly bool) string {
				var b bytes.Buffer
				in, err := os.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				df, _ := ScanDocFile(in, "in.jsonl", Pricing{})
				in.Close()
				d := NewDocument(&b, DocOptions{Format: f}, []*DocFile{df})
				d.route.registryOnly = registryOnly
				d.File()
				renderLines(t, path, &b, d)
				d.EndFile()
				d.Close()
				return b.String()
			}
			if a, b := doc(false), doc(true); a != b {
				t.Errorf("%s: format %d differs with the shortcut:\n%s", path, f, firstDiff(a, b))
			}
		}
	}
}

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
			v, err := NewValidator(path, ValidateOptions{}, func(d Diagnostic) { out.WriteString(d.String() + "\n") })
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
