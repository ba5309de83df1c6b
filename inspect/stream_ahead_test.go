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
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	gen "github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/jsonl"
)

// hostile is what a producer gone wrong, or someone else, may write
// among a dialect's lines; each is made from a line of the input, so that
// it looks like the lines around it.
var hostile = []func(line []byte, r *rand.Rand) []byte{
	func(l []byte, _ *rand.Rand) []byte { return l[:len(l)/2] },                                        // cut inside
	func(l []byte, _ *rand.Rand) []byte { return append(l[:len(l)-1:len(l)-1], `,"type":"text"}`...) }, // a key twice
	func(l []byte, _ *rand.Rand) []byte { return append(l[:len(l)-1:len(l)-1], `,"n":NaN}`...) },
	func(l []byte, _ *rand.Rand) []byte { return firstString.ReplaceAll(l, []byte(`${1}12`)) }, // a wrong type
	func(l []byte, _ *rand.Rand) []byte {
		return bytes.Replace(l, []byte(`"type"`), []byte(`"typ\u0065"`), 1)
	},
	func(l []byte, _ *rand.Rand) []byte { return bytes.Replace(l, []byte(`":"`), []byte("\":\"\xff"), 1) }, // not UTF-8
	func(l []byte, r *rand.Rand) []byte {
		// A long line, with escapes: more than a batch's bytes.
		pad := strings.Repeat(`line\n`, 60_000+r.Intn(10_000))
		return append([]byte(`{"pad":"`+pad+`",`), l[1:]...)
	},
	func([]byte, *rand.Rand) []byte { return []byte(`[1,2,3]`) },
	func([]byte, *rand.Rand) []byte { return []byte(`null`) },
	func([]byte, *rand.Rand) []byte { return []byte("  \t") },
	func([]byte, *rand.Rand) []byte {
		return []byte(`{"a":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}`)
	},
	func([]byte, *rand.Rand) []byte { return []byte(`{}`) },
}

// firstString is a line's first member whose value is a string.
var firstString = regexp.MustCompile(`^(\{\s*"[^"\\]*"\s*:\s*)"[^"\\]*"`)

// corpusLines is a generated corpus of p, seed seed, about size bytes.
func corpusLines(t *testing.T, p gen.Protocol, seed uint64, size int64) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Options{Protocol: p, Size: size, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// spoiled is in with a hostile line (or a line of other) after about one
// line in every, made from the line before it.
func spoiled(in, other []byte, every int, seed int64) []byte {
	r := rand.New(rand.NewSource(seed))
	others := bytes.Split(bytes.TrimSpace(other), []byte("\n"))
	var out []byte
	for _, l := range bytes.Split(bytes.TrimSpace(in), []byte("\n")) {
		out = append(append(out, l...), '\n')
		if r.Intn(every) != 0 {
			continue
		}
		var bad []byte
		if i := r.Intn(len(hostile) + 1); i < len(hostile) {
			bad = hostile[i](slices.Clone(l), r)
		} else {
			bad = others[r.Intn(len(others))]
		}
		out = append(append(out, bad...), '\n')
	}
	return out
}

// streamed validates in with Stream, read in ragged chunks when ragged,
// every line through the general schema validator when general.
func streamed(t *testing.T, in []byte, opt ValidateOptions, ragged, general bool) ([]jsonl.Diagnostic, FileReport) {
	t.Helper()
	var got []jsonl.Diagnostic
	v, err := NewValidator("x", opt, func(d jsonl.Diagnostic) { got = append(got, d) })
	if err != nil {
		t.Fatal(err)
	}
	v.general = general
	var r io.Reader = bytes.NewReader(in)
	if ragged {
		r = &chunkReader{in, rand.New(rand.NewSource(int64(len(in))))}
	}
	if err := v.Stream(r, "x", nil, nil); err != nil {
		t.Fatal(err)
	}
	return got, v.End()
}

// Stream's three goroutines (reading, the fast path tried ahead,
// applying) against Line's one, line after line: generated corpora of
// both dialects (seeds 1 to 3), whole and with hostile lines among them
// (cut, repeated keys, NaN, wrong types, escaped keys, bad UTF-8, long
// lines, no objects, deep nesting, the other dialect's lines), each read
// as its own dialect, as each dialect, and unfinished runs allowed; the
// spoiled ones also with every line through the general validator, the
// reference of the fast path. Run with -race, it is the test of the
// goroutines' sharing.
func TestStreamAheadAsLineInOrder(t *testing.T) {
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	type input struct {
		name string
		data []byte
	}
	var inputs []input
	for _, seed := range seeds {
		zero := corpusLines(t, gen.Zero, seed, 192<<10)
		evo := corpusLines(t, gen.EvoSci, seed, 192<<10)
		inputs = append(inputs,
			input{"zero", zero}, input{"evosci", evo},
			input{"zero spoiled", spoiled(zero, evo, 23, int64(seed))},
			input{"evosci spoiled", spoiled(evo, zero, 23, int64(seed))})
	}
	opts := map[string]ValidateOptions{"auto": {}, "zero": asOpt(zero.V2), "evosci": asOpt(evosci.Protocol),
		"auto unfinished": {AllowUnfinished: true}}
	for i, in := range inputs {
		for optName, opt := range opts {
			want, wantRep := lineByLine(t, in.data, opt)
			if len(want) == 0 && strings.Contains(in.name, "spoiled") {
				t.Fatalf("%s: the hostile lines gave no diagnostic", in.name)
			}
			w, _ := json.Marshal(wantRep)
			for _, ragged := range []bool{false, true} {
				got, gotRep := streamed(t, in.data, opt, ragged, false)
				if !slices.Equal(got, want) {
					t.Fatalf("input %d (%s) as %s, ragged %v: Stream gives\n%v\nLine\n%v", i, in.name, optName, ragged, firstDiff(got, want), firstDiff(want, got))
				}
				if g, _ := json.Marshal(gotRep); !bytes.Equal(g, w) {
					t.Fatalf("input %d (%s) as %s: reports differ:\n%s\n%s", i, in.name, optName, g, w)
				}
			}
			if strings.Contains(in.name, "spoiled") && optName == "auto" {
				got, gotRep := streamed(t, in.data, opt, false, true)
				if !slices.Equal(got, want) {
					t.Fatalf("input %d (%s): the general validator gives\n%v\nthe fast path\n%v", i, in.name, firstDiff(got, want), firstDiff(want, got))
				}
				if g, _ := json.Marshal(gotRep); !bytes.Equal(g, w) {
					t.Fatalf("input %d (%s): reports differ, general:\n%s\nfast:\n%s", i, in.name, g, w)
				}
			}
		}
	}
}

// firstDiff is a from the first diagnostic where it differs from b.
func firstDiff(a, b []jsonl.Diagnostic) []jsonl.Diagnostic {
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			return a[i:min(len(a), i+3)]
		}
	}
	return nil
}

// pipeFeed is a live input: what the test writes, line by line, and the
// diagnostics flushed so far.
type pipeFeed struct {
	mu      sync.Mutex
	emitted []jsonl.Diagnostic
	flushed chan int // the number of diagnostics at each flush
}

// On a live pipe each line is validated, and its diagnostics flushed,
// as soon as it arrives: the stage between reading and applying holds no
// line back for a batch to fill.
func TestStreamAheadFlushesEachLiveLine(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(string(corpusLines(t, gen.Zero, 1, 4<<10))), "\n")
	pr, pw := io.Pipe()
	f := &pipeFeed{flushed: make(chan int)}
	v, err := NewValidator("x", ValidateOptions{}, func(d jsonl.Diagnostic) {
		f.mu.Lock()
		f.emitted = append(f.emitted, d)
		f.mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	var lk sync.Mutex
	done := make(chan error, 1)
	go func() {
		done <- v.Stream(pr, "x", &lk, func() error {
			f.mu.Lock()
			n := len(f.emitted)
			f.mu.Unlock()
			f.flushed <- n
			return nil
		})
	}()
	// Each line with a problem of its own (a field Zero does not write),
	// and each one's diagnostic out before the next line is written.
	for i, l := range lines[:20] {
		bad := strings.Replace(l, `{`, `{"bogus":1,`, 1)
		if _, err := io.WriteString(pw, bad+"\n"); err != nil {
			t.Fatal(err)
		}
		for n := <-f.flushed; n < i+1; n = <-f.flushed {
		}
		f.mu.Lock()
		last := f.emitted[len(f.emitted)-1]
		f.mu.Unlock()
		if last.Line != i+1 || !strings.Contains(last.Message, "bogus") {
			t.Fatalf("after line %d was written, the last diagnostic out is %v", i+1, last)
		}
	}
	pw.Close()
	go func() {
		for range f.flushed {
		}
	}()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if rep := v.End(); rep.Lines != 20 || rep.Errors < 20 {
		t.Errorf("report: %d lines, %d errors; want 20 lines, 20 errors at least", rep.Lines, rep.Errors)
	}
}

// Validation decodes no text the dialects' rules do not read
// (event.DecodeOptions.SkipText); decoding every text, the reference,
// gives the same diagnostics and report: generated corpora of both
// dialects (seeds 1 to 3), spoiled with hostile lines, and every JSONL
// file under testdata, as each dialect and as its own.
func TestValidateSkippingTextsAsReadingThem(t *testing.T) {
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	var inputs [][]byte
	for _, seed := range seeds {
		zero := corpusLines(t, gen.Zero, seed, 128<<10)
		evo := corpusLines(t, gen.EvoSci, seed, 128<<10)
		inputs = append(inputs, zero, evo, spoiled(zero, evo, 17, int64(seed)), spoiled(evo, zero, 17, int64(seed)))
	}
	inputs = append(inputs, testdataStreams(t)...)
	run := func(in []byte, opt ValidateOptions, skip bool) ([]jsonl.Diagnostic, []byte) {
		var ds []jsonl.Diagnostic
		v, err := newValidator("x", opt, func(d jsonl.Diagnostic) { ds = append(ds, d) }, skip)
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Stream(bytes.NewReader(in), "x", nil, nil); err != nil {
			t.Fatal(err)
		}
		rep, _ := json.Marshal(v.End())
		return ds, rep
	}
	for i, in := range inputs {
		for _, p := range []*jsonl.Protocol{nil, zero.V2, evosci.Protocol} {
			want, wantRep := run(in, asOpt(p), false)
			got, gotRep := run(in, asOpt(p), true)
			if !slices.Equal(got, want) {
				t.Fatalf("input %d as %v: skipping texts\n%v\nreading them\n%v", i, p, firstDiff(got, want), firstDiff(want, got))
			}
			if !bytes.Equal(gotRep, wantRep) {
				t.Fatalf("input %d as %v: reports differ:\n%s\n%s", i, p, gotRep, wantRep)
			}
		}
	}
}

// testdataStreams are the JSONL files under testdata.
func testdataStreams(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
			b, err := os.ReadFile(path)
			out = append(out, b)
			return err
		}
		return err
	})
	if err != nil || len(out) < 50 {
		t.Fatalf("%d files under testdata: %v", len(out), err)
	}
	return out
}
