package translate

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/dialects"
	model "github.com/zevo/zevo/event"
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
	benchTranslateOn(b, benchCorpus(b, p), opt)
}

// benchTranslateOn is benchTranslate of in.
func benchTranslateOn(b *testing.B, in []byte, opt Options) {
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

func BenchmarkToZeroNoRedact(b *testing.B) {
	benchTranslate(b, corpus.EvoSci, Options{To: Zero, RunID: "bench", Cwd: "/work"})
}

func BenchmarkToEvoSci(b *testing.B) {
	benchTranslate(b, corpus.Zero, Options{To: EvoSci})
}

func BenchmarkZeroToZero(b *testing.B) {
	benchTranslate(b, corpus.Zero, Options{To: Zero, Redact: true})
}

// TestAllocationsPerLineStayLow keeps the per-line allocations of the
// common paths at most max: a value that escapes on every line (an
// errors.As target, a closure) shows as one more a line. The bounds are
// the event path's as measured when every line went it (1.51, 1.64 and
// 7.17), a little over; the direct engine it replaced stayed under 0.5.
func TestAllocationsPerLineStayLow(t *testing.T) {
	for _, c := range []struct {
		p   corpus.Protocol
		opt Options
		max float64
	}{{corpus.EvoSci, Options{To: Zero, Redact: true}, 1.75}, {corpus.Zero, Options{To: EvoSci}, 1.9}, {corpus.Zero, Options{To: Zero, Redact: true}, 7.5}} {
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
		if perLine := allocs / float64(lines); perLine > c.max {
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

// runEventPath reads in through the dialects' decoders and writes each
// event with the target's encoder to emit, as the event path does
// (eventLine), without today's path's routing around it. A line a decoder
// reports is written as read, as there.
func runEventPath(opt Options, in io.Reader, emit func([]byte) error) error {
	tr := New(opt, nil) // for its options' defaults and run ids
	target, _ := dialects.ByName(opt.To.Name)
	enc, ok := dialects.NewEncoder(target, dialects.EncodeOptions{
		Version: opt.To.Version, Redactor: tr.opt.Redactor, Keep: opt.Unmapped == Keep,
		NewRunID: tr.newRunID, NewSessionID: tr.newSessionID,
		SessionID: opt.SessionID, Cwd: opt.Cwd, Model: opt.Model,
		Risk: tr.tables.Between("evosci", "zero").Risk,
	}, emit)
	if !ok {
		return fmt.Errorf("no encoder for %s", opt.To)
	}
	dec := dialects.NewInput(model.DecodeOptions{})
	var werr error
	fn := func(ev *model.Event, st model.Step) {
		if werr == nil {
			_, werr = enc.Encode(ev, st)
		}
	}
	r := jsonl.NewReader(in, "in", nil)
	for werr == nil {
		l, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(l.Bytes)) > 0 {
			// A copy: decoders may hold on to a line past it.
			dec.Line(append([]byte(nil), l.Bytes...), l.Num, fn)
		}
	}
	dec.End(fn)
	return werr
}

func outputLines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
