package jsonl_test

import (
	"bytes"
	"testing"

	"github.com/zevo/zevo/bench/corpus"
	. "github.com/zevo/zevo/jsonl"
)

// BenchmarkDecode decodes every line of a 4 MB corpus of each protocol,
// and (tool_result) the Zero corpus' tool results alone: long strings
// dense in escapes, \n and Go's \u003c, \u003e, \u0026.
func BenchmarkDecode(b *testing.B) {
	for _, p := range []struct {
		name  string
		p     corpus.Protocol
		match string
	}{{corpus.EvoSci.Name, corpus.EvoSci, ""}, {corpus.Zero.Name, corpus.Zero, ""}, {"tool_result", corpus.Zero, `"type":"tool_result"`}} {
		b.Run(p.name, func(b *testing.B) {
			var buf bytes.Buffer
			if _, err := corpus.Write(&buf, corpus.Options{Protocol: p.p, Size: 4 << 20, Seed: 1}); err != nil {
				b.Fatal(err)
			}
			lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
			size := buf.Len()
			if p.match != "" {
				size = 0
				var kept [][]byte
				for _, l := range lines {
					if bytes.Contains(l, []byte(p.match)) {
						kept = append(kept, l)
						size += len(l) + 1
					}
				}
				lines = kept
			}
			var d Decoder
			var o LineObject
			b.SetBytes(int64(size))
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
