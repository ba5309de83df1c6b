package translate

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/redact"
)

// The shortcuts taken for speed (lines decoded by their layout, events
// written through templates, values rendered ahead on Stream's reading
// goroutine) change nothing: Stream, as it runs and with every value
// rendered ahead, and Line write exactly what the plain path
// (Options.Plain) writes, for every option, on
// goldens, generated corpora (many batches) and adversarial streams
// (secrets at every depth, bad values, mixed protocols). The same with
// each input's letters spelled as escapes.
func TestShortcutsChangeNothing(t *testing.T) {
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
			ref := opt
			ref.Plain = true
			plain := streamedBytes(t, ref, in)
			lineOut, _, _ := run(t, opt, in)
			got := streamedBytes(t, opt, in)
			ahead, _ := streamedAhead(t, opt, in)
			if len(plain) == 0 {
				t.Fatalf("input %d %+v: no output", i, opt)
			}
			if !bytes.Equal(got, plain) {
				t.Fatalf("input %d, %+v: Stream with shortcuts and without differ:\n%s", i, opt, firstDiff(got, plain))
			}
			if !bytes.Equal(ahead, plain) {
				t.Fatalf("input %d, %+v: Stream decoding on its reading goroutine and Stream without shortcuts differ:\n%s", i, opt, firstDiff(ahead, plain))
			}
			if !bytes.Equal(lineOut, plain) {
				t.Fatalf("input %d, %+v: Line with shortcuts and Stream without differ:\n%s", i, opt, firstDiff(lineOut, plain))
			}
		}
	}
}

// streamedAhead is what Stream writes of in, and its diagnostics, with
// the reading goroutine preparing and decoding every line.
func streamedAhead(t testing.TB, opt Options, in []byte) ([]byte, []string) {
	t.Helper()
	if opt.Now == nil {
		opt.Now, opt.Rand = fixedNow, zeroReader{}
	}
	var b bytes.Buffer
	tr := New(opt, func(l []byte) error { b.Write(l); b.WriteByte('\n'); return nil })
	tr.fixedLevel = shareLevels
	tr.decodeOn = func(uint64) bool { return true }
	var diags []string
	err := tr.Stream(bytes.NewReader(in), "in", nil, func() error { return nil }, func(d *jsonl.Diagnostic) error {
		diags = append(diags, d.Error())
		return nil
	})
	if err == nil {
		err = tr.End("in")
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), diags
}
