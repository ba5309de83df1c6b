package jsonl_test

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/bench/corpus"
	. "github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/redact"
)

func genCorpus(b *testing.B, p corpus.Protocol) []byte {
	var buf bytes.Buffer
	if _, err := corpus.Write(&buf, corpus.Options{Protocol: p, Size: 4 << 20, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// perLine reports allocations per line of in, measured around the loop.
func perLine(b *testing.B, in []byte, loop func() int) {
	lines := bytes.Count(in, []byte{'\n'})
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	n := loop()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(n*lines), "allocs/line")
}

func BenchmarkReader(b *testing.B) {
	in := genCorpus(b, corpus.EvoSci)
	perLine(b, in, func() int {
		n := 0
		for b.Loop() {
			r := NewReader(bytes.NewReader(in), "corpus", nil)
			for {
				if _, err := r.Next(); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
			}
			n++
		}
		return n
	})
}

func splitLines(in []byte) [][]byte {
	return bytes.Split(bytes.TrimSuffix(in, []byte{'\n'}), []byte{'\n'})
}

func benchAppend(b *testing.B, p corpus.Protocol, st Style, rd *redact.Redactor) {
	benchAppendLines(b, genCorpus(b, p), st, rd)
}

// benchAppendLines times AppendValue on each line of in.
func benchAppendLines(b *testing.B, in []byte, st Style, rd *redact.Redactor) {
	lines := splitLines(in)
	var dst []byte
	perLine(b, in, func() int {
		n := 0
		for b.Loop() {
			for _, l := range lines {
				var err error
				if dst, err = AppendValue(dst[:0], l, st, rd); err != nil {
					b.Fatal(err)
				}
			}
			n++
		}
		return n
	})
}

// Whole EvoScientist lines restyled for Zero and redacted: the work of
// copying args, outputs and deltas into Zero events.
func BenchmarkAppendValueRedact(b *testing.B) {
	benchAppend(b, corpus.EvoSci, GoStyle, &redact.Redactor{})
}

func BenchmarkAppendValuePython(b *testing.B) {
	benchAppend(b, corpus.Zero, PythonStyle, nil)
}

// Zero's tool results alone restyled for EvoScientist: long strings
// dense in escapes, each \u003c, \u003e, \u0026 written as the character
// and each non-ASCII character as \uXXXX.
func BenchmarkAppendValuePythonToolResult(b *testing.B) {
	var in []byte
	for _, l := range splitLines(genCorpus(b, corpus.Zero)) {
		if bytes.Contains(l, []byte(`"type":"tool_result"`)) {
			in = append(append(in, l...), '\n')
		}
	}
	benchAppendLines(b, in, PythonStyle, nil)
}

// BenchmarkMembersZero reads Zero's lines as every command checks them.
func BenchmarkMembersZero(b *testing.B) {
	lines := splitLines(genCorpus(b, corpus.Zero))
	var m Members
	perLine(b, bytes.Join(lines, []byte{'\n'}), func() int {
		n := 0
		for b.Loop() {
			for _, l := range lines {
				if !m.Read(l) {
					b.Fatalf("%q", l)
				}
			}
			n++
		}
		return n
	})
}

// BenchmarkAppendStringDeltas writes the text deltas of Zero's corpus in
// each style, as an encoder writes an event's text: short strings, most
// of them plain.
func BenchmarkAppendStringDeltas(b *testing.B) {
	var deltas []string
	n := 0
	for _, l := range splitLines(genCorpus(b, corpus.Zero)) {
		if d := gjson.GetBytes(l, "delta"); d.Exists() {
			deltas = append(deltas, d.Str)
			n += len(d.Str)
		}
	}
	for _, st := range []Style{GoStyle, PythonStyle} {
		b.Run(map[Style]string{GoStyle: "go", PythonStyle: "python"}[st], func(b *testing.B) {
			b.SetBytes(int64(n))
			var dst []byte
			for b.Loop() {
				for _, d := range deltas {
					dst = AppendString(dst[:0], d, st)
				}
			}
		})
	}
}
