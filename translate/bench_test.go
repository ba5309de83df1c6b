package translate

import (
	"bytes"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/jsonl"
)

var (
	corpora   = map[corpus.Protocol][]byte{}
	corporaMu sync.Mutex
)

// benchCorpus is a generated corpus of a few MB, made once per process.
func benchCorpus(b *testing.B, p corpus.Protocol) []byte {
	corporaMu.Lock()
	defer corporaMu.Unlock()
	if c, ok := corpora[p]; ok {
		return c
	}
	var buf bytes.Buffer
	if _, err := corpus.Write(&buf, corpus.Options{Protocol: p, Size: 4 << 20, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	corpora[p] = buf.Bytes()
	return buf.Bytes()
}

// benchTranslate translates the corpus as the CLI does (Stream, output into
// a buffer) and reports MB/s and allocations per input line.
func benchTranslate(b *testing.B, p corpus.Protocol, opt Options) {
	benchTranslateOn(b, benchCorpus(b, p), opt, false)
}

// benchTranslateOn is benchTranslate of in; every sends every line the
// event path.
func benchTranslateOn(b *testing.B, in []byte, opt Options, every bool) {
	lines := bytes.Count(in, []byte{'\n'})
	var out bytes.Buffer
	opt.Now = func() time.Time { return time.Unix(0, 0) }
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	// One translator for all rounds, as for the inputs of one command.
	tr := New(opt, func(l []byte) error {
		out.Write(l)
		return out.WriteByte('\n')
	})
	tr.ep.every = every
	n := 0
	for b.Loop() {
		out.Reset()
		err := tr.Stream(bytes.NewReader(in), "corpus", nil, func() error { return nil }, func(d *jsonl.Diagnostic) error { return d })
		if err != nil {
			b.Fatal(err)
		}
		if err := tr.End("corpus"); err != nil {
			b.Fatal(err)
		}
		n++
	}
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(n*lines), "allocs/line")
}

func BenchmarkToZero(b *testing.B) {
	benchTranslate(b, corpus.EvoSci, Options{To: Zero, RunID: "bench", Cwd: "/work", Redact: true})
}

// BenchmarkToZeroPaths translates one EvoScientist corpus into Zero
// through today's path and through the event path (the EvoScientist
// decoder, then Zero's encoder), which write the same.
func BenchmarkToZeroPaths(b *testing.B) {
	var buf bytes.Buffer
	if _, err := corpus.Write(&buf, corpus.Options{Protocol: corpus.EvoSci, Size: 5 << 20, Seed: 2}); err != nil {
		b.Fatal(err)
	}
	opt := Options{To: Zero, RunID: "bench", Cwd: "/work", Redact: true}
	b.Run("today", func(b *testing.B) { benchTranslateOn(b, buf.Bytes(), opt, false) })
	b.Run("events", func(b *testing.B) { benchTranslateOn(b, buf.Bytes(), opt, true) })
}

// BenchmarkToEvoSciPaths is BenchmarkToZeroPaths the other way: a Zero
// corpus into EvoScientist, through today's path and the event path.
func BenchmarkToEvoSciPaths(b *testing.B) {
	var buf bytes.Buffer
	if _, err := corpus.Write(&buf, corpus.Options{Protocol: corpus.Zero, Size: 5 << 20, Seed: 2}); err != nil {
		b.Fatal(err)
	}
	opt := Options{To: EvoSci}
	b.Run("today", func(b *testing.B) { benchTranslateOn(b, buf.Bytes(), opt, false) })
	b.Run("events", func(b *testing.B) { benchTranslateOn(b, buf.Bytes(), opt, true) })
}

func BenchmarkToZeroNoRedact(b *testing.B) {
	benchTranslate(b, corpus.EvoSci, Options{To: Zero, RunID: "bench", Cwd: "/work"})
}

func BenchmarkToEvoSci(b *testing.B) {
	benchTranslate(b, corpus.Zero, Options{To: EvoSci})
}

// BenchmarkToZeroEvents and BenchmarkToEvoSciEvents are BenchmarkToZero
// and BenchmarkToEvoSci with every line sent the event path, through
// Stream as the command runs it: the two paths' throughput side by side.
func BenchmarkToZeroEvents(b *testing.B) {
	benchTranslateOn(b, benchCorpus(b, corpus.EvoSci), Options{To: Zero, RunID: "bench", Cwd: "/work", Redact: true}, true)
}

func BenchmarkToEvoSciEvents(b *testing.B) {
	benchTranslateOn(b, benchCorpus(b, corpus.Zero), Options{To: EvoSci}, true)
}

func BenchmarkZeroToZero(b *testing.B) {
	benchTranslate(b, corpus.Zero, Options{To: Zero, Redact: true})
}

// TestAllocationsPerLineStayLow keeps the per-line allocations of the
// common paths under one line in two: a value that escapes on every line
// (an errors.As target, a closure) shows as one or more a line.
func TestAllocationsPerLineStayLow(t *testing.T) {
	for _, c := range []struct {
		p   corpus.Protocol
		opt Options
	}{{corpus.EvoSci, Options{To: Zero, Redact: true}}, {corpus.Zero, Options{To: EvoSci}}, {corpus.Zero, Options{To: Zero, Redact: true}}} {
		var buf bytes.Buffer
		if _, err := corpus.Write(&buf, corpus.Options{Protocol: c.p, Size: 256 << 10, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		in := buf.Bytes()
		lines := bytes.Count(in, []byte{'\n'})
		opt := c.opt
		opt.RunID = "R"
		tr := New(opt, func([]byte) error { return nil })
		allocs := testing.AllocsPerRun(3, func() {
			if err := tr.Stream(bytes.NewReader(in), "corpus", nil, func() error { return nil }, func(d *jsonl.Diagnostic) error { return nil }); err != nil {
				t.Fatal(err)
			}
			if err := tr.End("corpus"); err != nil {
				t.Fatal(err)
			}
		})
		if perLine := allocs / float64(lines); perLine > 0.5 {
			t.Errorf("%s --to %s: %.2f allocations a line", c.p, opt.To, perLine)
		}
	}
}

func BenchmarkToEvoSciRedact(b *testing.B) {
	benchTranslate(b, corpus.Zero, Options{To: EvoSci, Redact: true})
}

// BenchmarkToEvoSciEventPath translates BenchmarkToEvoSci's corpus the
// way the event path would (runEventPath: the Zero decoder, the run
// rules, the EvoScientist encoder), for the two paths' costs side by side.
func BenchmarkToEvoSciEventPath(b *testing.B) {
	in := benchCorpus(b, corpus.Zero)
	var out bytes.Buffer
	opt := Options{To: EvoSci, Now: func() time.Time { return time.Unix(0, 0) }}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		err := runEventPath(opt, bytes.NewReader(in), func(l []byte) error {
			out.Write(l)
			return out.WriteByte('\n')
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
