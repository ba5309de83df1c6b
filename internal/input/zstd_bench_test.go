package input

import (
	"bytes"
	"io"
	"os/exec"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/zevo/zevo/bench/corpus"
)

// zstdBenchFrames are 20 MB of the Zero corpus compressed as people's
// logs are: by the zstd command at its default level, and at -19 with
// long matching (big windows, long matches, more sequences per byte).
// Without the command the library's default and best levels stand in.
var zstdBenchFrames = sync.OnceValues(func() ([]byte, map[string][]byte) {
	p, err := corpus.Lookup("zero")
	if err != nil {
		panic(err)
	}
	var plain bytes.Buffer
	if _, err := corpus.Write(&plain, corpus.Options{Protocol: p, Size: 20 << 20, Seed: 1}); err != nil {
		panic(err)
	}
	frames := map[string][]byte{}
	if _, err := exec.LookPath("zstd"); err == nil {
		for name, args := range map[string][]string{"zstd-3": {"-3"}, "zstd-19-long": {"-19", "--long=25"}} {
			cmd := exec.Command("zstd", append([]string{"-c", "-q"}, args...)...)
			cmd.Stdin = bytes.NewReader(plain.Bytes())
			out, err := cmd.Output()
			if err != nil {
				panic(err)
			}
			frames[name] = out
		}
		return plain.Bytes(), frames
	}
	for name, level := range map[string]zstd.EncoderLevel{"lib-default": zstd.SpeedDefault, "lib-best": zstd.SpeedBestCompression} {
		enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(level))
		frames[name] = enc.EncodeAll(plain.Bytes(), nil)
	}
	return plain.Bytes(), frames
})

// BenchmarkZstd decodes the same frames with zevo's decoder and with the
// library's (one goroutine, as a stream), in MB/s of decoded output.
func BenchmarkZstd(b *testing.B) {
	plain, frames := zstdBenchFrames()
	for _, name := range []string{"zstd-3", "zstd-19-long", "lib-default", "lib-best"} {
		packed, ok := frames[name]
		if !ok {
			continue
		}
		check := func(b *testing.B, r io.Reader) {
			n, err := io.Copy(io.Discard, r)
			if err != nil || n != int64(len(plain)) {
				b.Fatalf("%d bytes of %d, %v", n, len(plain), err)
			}
		}
		b.Run(name+"/zevo", func(b *testing.B) {
			b.SetBytes(int64(len(plain)))
			for b.Loop() {
				check(b, newZstdReader(bytes.NewReader(packed)))
			}
		})
		b.Run(name+"/library", func(b *testing.B) {
			d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<29))
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			b.SetBytes(int64(len(plain)))
			for b.Loop() {
				if err := d.Reset(bytes.NewReader(packed)); err != nil {
					b.Fatal(err)
				}
				check(b, d)
			}
		})
	}
}
