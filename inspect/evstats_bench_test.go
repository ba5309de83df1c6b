package inspect

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/zevo/zevo/dialects"
	evt "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// BenchmarkStats reads the generated corpora and every real capture of
// testdata/captures, one after another, through stats' summarizer.
func BenchmarkStats(b *testing.B) {
	for _, p := range []Protocol{Zero, EvoSci} {
		data := corpus(p, 1<<20)
		b.Run("events/"+p.String(), func(b *testing.B) {
			s := (*EventSummarizer)(nil)
			benchLinesEach(b, data, func() { s = NewEventSummarizer("c", dialects.NewInput(evt.DecodeOptions{})) }, func(l jsonl.Line) { s.Line(l) }, func() { s.End() })
		})
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "captures", "*", "*.jsonl"))
	var caps []byte
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		caps = append(caps, d...)
	}
	var data []byte
	for len(data) < 1<<20 {
		data = append(data, caps...)
	}
	b.Run("events/captures", func(b *testing.B) {
		s := (*EventSummarizer)(nil)
		benchLinesEach(b, data, func() { s = NewEventSummarizer("c", dialects.NewInput(evt.DecodeOptions{})) }, func(l jsonl.Line) { s.Line(l) }, func() { s.End() })
	})
}

func benchLinesEach(b *testing.B, data []byte, start func(), line func(jsonl.Line), end func()) {
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		start()
		lr := jsonl.NewReader(bytes.NewReader(data), "c", nil)
		for {
			l, err := lr.Next()
			if err != nil {
				break
			}
			line(l)
		}
		end()
	}
}
