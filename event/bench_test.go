package event_test

import (
	"bytes"
	"testing"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/event"
)

// BenchmarkLineCheckZero reads Zero's lines as the event path's reading
// goroutine does: each into a Line of its own, checked.
func BenchmarkLineCheckZero(b *testing.B) {
	var buf bytes.Buffer
	if _, err := corpus.Write(&buf, corpus.Options{Protocol: corpus.Zero, Size: 4 << 20, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), []byte{'\n'})
	var ls [64]event.Line // as many as the lines of a batch in flight
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		for i, l := range lines {
			ln := &ls[i%len(ls)]
			ln.ReadOwned(l)
			if !ln.Check() {
				b.Fatalf("%q", l)
			}
		}
	}
}
