package inspect

import (
	"bytes"
	"encoding/json"
	"github.com/zevo/zevo/dialects/evosci"
	"github.com/zevo/zevo/dialects/zero"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gen "github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/jsonl"
)

// lineByLine validates input with Line alone, on one goroutine: the
// reference for Stream.
func lineByLine(t *testing.T, input []byte, opt ValidateOptions) ([]jsonl.Diagnostic, FileReport) {
	t.Helper()
	var ds []jsonl.Diagnostic
	v, err := NewValidator("x", opt, func(d jsonl.Diagnostic) { ds = append(ds, d) })
	if err != nil {
		t.Fatal(err)
	}
	lr := jsonl.NewReader(bytes.NewReader(input), "x", nil)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		v.Line(l)
	}
	return ds, v.End()
}

// chunkReader gives its input in chunks of varying sizes, so that the
// reading goroutine hands over half-full batches (and flushes) anywhere.
type chunkReader struct {
	b []byte
	r *rand.Rand
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.b), []int{1, 9, 200, 5000, 300000}[c.r.Intn(5)])
	copy(p, c.b[:n])
	c.b = c.b[n:]
	return n, nil
}

// Stream checks lines ahead on a second goroutine: every JSONL file the
// project ships and generated corpora of both protocols (many batches),
// each as its own protocol and as each protocol, read whole and in ragged
// chunks, give Line's diagnostics and report.
func TestStreamAsLine(t *testing.T) {
	var inputs [][]byte
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
			b, err := os.ReadFile(path)
			inputs = append(inputs, b)
			return err
		}
		return err
	})
	if err != nil || len(inputs) < 50 {
		t.Fatalf("%d files under testdata: %v", len(inputs), err)
	}
	for i, p := range []gen.Protocol{gen.EvoSci, gen.Zero} {
		var b bytes.Buffer
		if _, err := gen.Write(&b, gen.Options{Protocol: p, Size: 1 << 20, Seed: uint64(40 + i)}); err != nil {
			t.Fatal(err)
		}
		// and a bad line now and then
		var mixed []byte
		for j, l := range bytes.SplitAfter(b.Bytes(), []byte("\n")) {
			mixed = append(mixed, l...)
			if j%97 == 0 {
				mixed = append(mixed, "{\"type\": \"text\", \"content\": \"cut\n\n[1]\n"...)
			}
		}
		inputs = append(inputs, b.Bytes(), mixed)
	}
	flushes := 0
	for i, in := range inputs {
		for _, as := range []*jsonl.Protocol{nil, zero.V2, evosci.Protocol} {
			opt := asOpt(as)
			want, wantRep := lineByLine(t, in, opt)
			for ragged := range 2 {
				var got []jsonl.Diagnostic
				v, err := NewValidator("x", opt, func(d jsonl.Diagnostic) { got = append(got, d) })
				if err != nil {
					t.Fatal(err)
				}
				var r io.Reader = bytes.NewReader(in)
				if ragged == 1 {
					r = &chunkReader{in, rand.New(rand.NewSource(int64(i)))}
				}
				if err := v.Stream(r, "x", nil, func() error { flushes++; return nil }); err != nil {
					t.Fatal(err)
				}
				gotRep := v.End()
				if !slices.Equal(got, want) {
					t.Fatalf("input %d as %v, ragged %d: Stream gives\n%v\nLine\n%v", i, as, ragged, got, want)
				}
				g, _ := json.Marshal(gotRep)
				w, _ := json.Marshal(wantRep)
				if !bytes.Equal(g, w) {
					t.Fatalf("input %d as %v: reports differ:\n%s\n%s", i, as, g, w)
				}
			}
		}
	}
	if flushes == 0 {
		t.Error("Stream never flushed: the ragged reads did not reach the idle path")
	}
}
