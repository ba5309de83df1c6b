package translate

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/redact"
)

// Rendering values ahead on the reading goroutine is an optimisation only,
// and so are layouts and templates: with every line rendered ahead, Stream
// writes exactly what it writes with none and without layouts and
// templates, and what Line writes, for every option, on goldens, generated
// corpora (many batches) and adversarial streams (secrets at every depth,
// bad values, mixed protocols). The same with each input's letters spelled
// as escapes.
func TestRenderAheadChangesNothing(t *testing.T) {
	defer func(on bool, level int, lay, tmpl bool) {
		renderAhead, fixedLevel, layouts, templates = on, level, lay, tmpl
	}(renderAhead, fixedLevel, layouts, templates)
	var inputs [][]byte
	files, _ := filepath.Glob("../testdata/translate/*.jsonl")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, b)
	}
	for i, p := range []corpus.Protocol{corpus.EvoSci, corpus.Zero} {
		var buf bytes.Buffer
		if _, err := corpus.Write(&buf, corpus.Options{Protocol: p, Size: 700 << 10, Seed: uint64(20 + i)}); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, buf.Bytes())
	}
	g := &advGen{r: rand.New(rand.NewSource(21))}
	var adv []byte
	for range 200 {
		adv = append(adv, g.stream()...)
	}
	inputs = append(inputs, adv)
	n := len(inputs)
	for _, in := range inputs[:n] {
		var esc []byte
		for _, l := range bytes.SplitAfter(in, []byte("\n")) {
			esc = append(esc, escapeLetters(l)...)
		}
		inputs = append(inputs, esc)
	}
	opts := []Options{
		{To: Zero, Redact: true, RunID: "R"}, {To: Zero}, {To: Zero1, Redact: true},
		{To: Zero, Unmapped: Keep, Redact: true}, {To: EvoSci}, {To: EvoSci, Redact: true},
		{To: EvoSci, Unmapped: Keep}, {To: Zero, Redact: true, Redactor: redact.WithExtra()},
	}
	for i, in := range inputs {
		for _, opt := range opts {
			renderAhead, fixedLevel, layouts, templates = false, aheadLevels, false, false
			plain := streamedBytes(t, opt, in)
			layouts, templates = true, true
			lineOut, _, _ := run(t, opt, in)
			renderAhead, fixedLevel = true, 2*aheadLevels
			got := streamedBytes(t, opt, in)
			if len(plain) == 0 {
				t.Fatalf("input %d %+v: no output", i, opt)
			}
			if !bytes.Equal(got, plain) {
				t.Fatalf("input %d, %+v: rendered ahead, the output differs:\n%s", i, opt, firstDiff(got, plain))
			}
			if !bytes.Equal(lineOut, plain) {
				t.Fatalf("input %d, %+v: Stream and Line differ:\n%s", i, opt, firstDiff(plain, lineOut))
			}
		}
	}
}
