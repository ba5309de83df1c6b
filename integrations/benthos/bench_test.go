package benthos

import (
	"context"
	"os"
	"testing"

	"github.com/redpanda-data/benthos/v4/public/service"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/translate"
)

// benchLines are the lines of a corpus: ZEVO_BENTHOS_CORPUS, or a sample.
func benchLines(b *testing.B) [][]byte {
	path := os.Getenv("ZEVO_BENTHOS_CORPUS")
	if path == "" {
		path = "../../testdata/translate/basic.evosci.jsonl"
	}
	var out [][]byte
	for _, l := range fileLines(b, path) {
		out = append(out, []byte(l))
	}
	return out
}

// BenchmarkProcess is zevo_translate's Process on each line, against the
// Translator's Line on the same lines.
func BenchmarkProcess(b *testing.B) {
	lines := benchLines(b)
	size := 0
	for _, l := range lines {
		size += len(l) + 1
	}
	b.Run("processor", func(b *testing.B) {
		conf, err := translateSpec().ParseYAML("to: zero\nrun_id: r\ncwd: /w\n", nil)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(size))
		for b.Loop() {
			p, err := newTranslateProc(conf, service.MockResources())
			if err != nil {
				b.Fatal(err)
			}
			for _, l := range lines {
				if _, err := p.Process(context.Background(), service.NewMessage(l)); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("translator", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			tr := translate.New(translate.Options{To: toZero, RunID: "r", Cwd: "/w", Redact: true}, func([]byte) error { return nil })
			for i, l := range lines {
				tr.Line(jsonl.Line{Name: "b", Num: i + 1, Bytes: l})
			}
		}
	})
}
