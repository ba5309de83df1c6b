package protocol_test

import (
	"bytes"
	"testing"

	"github.com/zevo/zevo/bench/corpus"
	. "github.com/zevo/zevo/protocol"
)

// BenchmarkDecode decodes every line of a 4 MB corpus of each protocol.
func BenchmarkDecode(b *testing.B) {
	for _, p := range []corpus.Protocol{corpus.EvoSci, corpus.Zero} {
		b.Run(p.Name, func(b *testing.B) {
			var buf bytes.Buffer
			if _, err := corpus.Write(&buf, corpus.Options{Protocol: p, Size: 4 << 20, Seed: 1}); err != nil {
				b.Fatal(err)
			}
			lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
			var d Decoder
			var o Object
			b.SetBytes(int64(buf.Len()))
			b.ResetTimer()
			for range b.N {
				for _, l := range lines {
					if err := d.Decode(l, &o); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
