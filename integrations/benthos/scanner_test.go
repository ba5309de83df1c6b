package benthos

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"
	_ "github.com/redpanda-data/benthos/v4/public/components/io"
	"github.com/redpanda-data/benthos/v4/public/service"
)

// runFiles runs a stream of the file input on paths, with the zevo_lines
// scanner, through processors, to its end, and returns what it output.
func runFiles(t *testing.T, paths []string, processors ...string) []*service.Message {
	t.Helper()
	sb := service.NewStreamBuilder()
	quoted := make([]string, len(paths))
	for i, p := range paths {
		quoted[i] = fmt.Sprintf("%q", p)
	}
	err := sb.AddInputYAML(fmt.Sprintf("file:\n  paths: [%s]\n  scanner:\n    zevo_lines: {}\n", strings.Join(quoted, ", ")))
	if err != nil {
		t.Fatal(err)
	}
	sb.SetThreads(1)
	for _, proc := range processors {
		if err := sb.AddProcessorYAML(proc); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var out []*service.Message
	err = sb.AddBatchConsumerFunc(func(_ context.Context, b service.MessageBatch) error {
		mu.Lock()
		out = append(out, b...)
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	runToEnd(t, sb)
	return out
}

// runToEnd runs a stream until its input ends, without logs.
func runToEnd(t *testing.T, sb *service.StreamBuilder) {
	t.Helper()
	if err := sb.SetLoggerYAML("level: none"); err != nil {
		t.Fatal(err)
	}
	s, err := sb.Build()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Files read with zevo_lines, a key per file, translate as zevo translate
// translates each file, runs left open at the end included.
func TestLinesEndOfEachFile(t *testing.T) {
	files := samples(t)
	out := runFiles(t, files, `
zevo_translate:
  to: zero
  run_id: r1
  cwd: /w
  key: ${! meta("path") }
`)
	got := byMeta(out, "path")
	incomplete := 0
	for _, f := range files {
		want, stderr, _ := zevo(t, "", "translate", "--to", "zero", "--run-id", "r1", "--cwd", "/w", f)
		if g := bodies(t, got[f]); g != want {
			t.Errorf("%s: events differ from zevo translate\n got:\n%s\nwant:\n%s", f, g, want)
		}
		if g, w := errorsOf(got[f]), diagnostics(stderr); g != w {
			t.Errorf("%s: errors differ\n got:\n%s\nwant:\n%s", f, g, w)
		}
		if strings.Contains(want, `"status":"incomplete"`) {
			incomplete++
		}
	}
	if incomplete < 3 {
		t.Errorf("only %d samples end inside a run: the test shows little", incomplete)
	}
}

// One key over several files: each file ends its runs, and run ids go on
// from one file to the next, as zevo translate a b does.
func TestLinesOneKeyManyFiles(t *testing.T) {
	dir := t.TempDir()
	run := fileLines(t, "../../testdata/inspect/seed.evosci.jsonl")
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for path, lines := range map[string][]string{a: run[:3], b: run} {
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\r\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := runFiles(t, []string{a, b}, "zevo_translate:\n  to: zero\n  run_id: r\n  cwd: /w\n")
	want, _, _ := zevo(t, "", "translate", "--to", "zero", "--run-id", "r", "--cwd", "/w", a, b)
	if g := bodies(t, out); g != want {
		t.Errorf("got:\n%s\nwant:\n%s", g, want)
	}
	if !strings.Contains(want, `"runId":"r.2"`) || !strings.Contains(want, `"status":"incomplete"`) {
		t.Errorf("the expected output lacks a second run or an incomplete one:\n%s", want)
	}
}

// With keys read from the lines, the end of the input ends every key.
func TestLinesEndsEveryKeyFromJSON(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	for _, l := range fileLines(t, "../../testdata/inspect/seed.evosci.jsonl")[:3] {
		for _, s := range []string{"A", "B"} {
			lines = append(lines, strings.Replace(l, "{", `{"session": "`+s+`", `, 1))
		}
	}
	path := filepath.Join(dir, "mixed.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runFiles(t, []string{path}, "zevo_translate:\n  to: zero\n  run_id: r\n  key: ${! json(\"session\") }\n")
	if e := errorsOf(out); e != "" {
		t.Errorf("errors: %s", e)
	}
	ends := strings.Count(bodies(t, out), `"status":"incomplete"`)
	if ends != 2 {
		t.Errorf("%d runs closed as incomplete, want 2:\n%s", ends, bodies(t, out))
	}
}

// gzip and zstd files read with zevo_lines are decompressed, told by their
// first bytes as zevo tells them: they translate as the plain file does.
func TestLinesDecompressesGzipAndZstd(t *testing.T) {
	sample := "../../testdata/translate/basic.evosci.jsonl"
	plain, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	want, _, _ := zevo(t, "", "translate", "--to", "zero", "--run-id", "r", "--cwd", "/w", sample)
	for name, data := range map[string][]byte{"run.jsonl.gz": gz.Bytes(), "run.log": enc.EncodeAll(plain, nil)} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out := runFiles(t, []string{path}, "zevo_translate:\n  to: zero\n  run_id: r\n  cwd: /w\n")
		if g := bodies(t, out); g != want {
			t.Errorf("%s: got:\n%s\nwant:\n%s", name, g, want)
		}
	}
}
