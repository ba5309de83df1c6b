package input

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// zstdSamples are inputs like zevo's and unlike them: JSON lines with
// repeats near and far, random bytes (raw blocks, Huffman-coded
// literals), long runs (one-byte blocks, overlapping matches), empty.
func zstdSamples() map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var lines bytes.Buffer
	for i := range 8000 {
		fmt.Fprintf(&lines, `{"type":"text","seq":%d,"content":"%s","tool":"%s"}`+"\n",
			i, strings.Repeat("ab", rng.IntN(60)), []string{"read", "write", "bash"}[rng.IntN(3)])
	}
	random := make([]byte, 300<<10)
	for i := range random {
		random[i] = byte(rng.IntN(256))
	}
	skewed := make([]byte, 200<<10) // few symbols, skewed: Huffman with deep codes
	for i := range skewed {
		skewed[i] = "aaaaaaaabbbbccd\n"[rng.IntN(16)] + byte(rng.IntN(2)*rng.IntN(2)*rng.IntN(40))
	}
	// Repeats of every period up to 17 bytes, of every length, among
	// random bytes: matches overlapping what they write.
	var periods []byte
	for range 3000 {
		pat := random[rng.IntN(1000):][:1+rng.IntN(17)]
		for range 1 + rng.IntN(12) {
			periods = append(periods, pat...)
		}
		periods = append(periods, pat[:rng.IntN(len(pat))]...)
		periods = append(periods, random[rng.IntN(1000):][:rng.IntN(4)]...)
	}
	return map[string][]byte{
		"empty":   nil,
		"periods": periods,
		"byte":    {'x'},
		"lines":   lines.Bytes(),
		"random":  random,
		"skewed":  skewed,
		"runs":    append(bytes.Repeat([]byte{'z'}, 400<<10), bytes.Repeat([]byte("0123456789"), 30000)...),
		"mixed":   append(append(bytes.Clone(random[:50<<10]), lines.Bytes()[:200<<10]...), random[:50<<10]...),
	}
}

func decodeZstd(t *testing.T, data []byte) ([]byte, error) {
	t.Helper()
	return io.ReadAll(newZstdReader(bytes.NewReader(data)))
}

// TestZstdDecodesTheLibrarysFrames: every level, with and without a
// checksum and a stated size, small windows, tiny blocks: what the
// encoder was given comes back.
func TestZstdDecodesTheLibrarysFrames(t *testing.T) {
	levels := []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBetterCompression, zstd.SpeedBestCompression}
	if testing.Short() {
		levels = levels[:2]
	}
	for name, plain := range zstdSamples() {
		for _, level := range levels {
			for _, opts := range [][]zstd.EOption{
				nil,
				{zstd.WithEncoderCRC(false)},
				{zstd.WithWindowSize(1 << 10), zstd.WithSingleSegment(false)},
				{zstd.WithSingleSegment(true)},
				{zstd.WithNoEntropyCompression(true)},
				{zstd.WithAllLitEntropyCompression(true)},
			} {
				enc, err := zstd.NewWriter(nil, append([]zstd.EOption{zstd.WithEncoderLevel(level)}, opts...)...)
				if err != nil {
					t.Fatal(err)
				}
				packed := enc.EncodeAll(plain, nil)
				got, err := decodeZstd(t, packed)
				if err != nil || !bytes.Equal(got, plain) {
					t.Errorf("%s, level %v, %d options: %d bytes back of %d, %v", name, level, len(opts), len(got), len(plain), err)
				}
				// As a stream: several blocks and frames of one writer.
				var buf bytes.Buffer
				sw, _ := zstd.NewWriter(&buf, append([]zstd.EOption{zstd.WithEncoderLevel(level)}, opts...)...)
				for chunk := plain; len(chunk) > 0; {
					n := min(len(chunk), 70000)
					sw.Write(chunk[:n])
					sw.Flush()
					chunk = chunk[n:]
				}
				sw.Close()
				got, err = decodeZstd(t, buf.Bytes())
				if err != nil || !bytes.Equal(got, plain) {
					t.Errorf("%s, level %v, %d options, streamed: %d bytes back of %d, %v", name, level, len(opts), len(got), len(plain), err)
				}
			}
		}
	}
}

// TestZstdDecodesTheCommandsFrames: the zstd command's own output, at
// its levels and with long-distance matching, when it is installed.
func TestZstdDecodesTheCommandsFrames(t *testing.T) {
	if _, err := exec.LookPath("zstd"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no zstd command: .ci/run installs it")
		}
		t.Skip("no zstd command")
	}
	samples := zstdSamples()
	levels := [][]string{{"-1"}, {"-3"}, {"-9"}, {"-19"}, {"--long=24", "-5"}, {"-3", "--no-check"}, {"--fast=5"}}
	if testing.Short() {
		levels = levels[:2]
	}
	for _, name := range []string{"lines", "random", "skewed", "runs", "mixed", "periods"} {
		plain := samples[name]
		plain = plain[:min(len(plain), 400<<10)]
		for _, args := range levels {
			cmd := exec.Command("zstd", append([]string{"-c", "-q"}, args...)...)
			cmd.Stdin = bytes.NewReader(plain)
			packed, err := cmd.Output()
			if err != nil {
				t.Fatalf("zstd %v: %v", args, err)
			}
			got, err := decodeZstd(t, packed)
			if err != nil || !bytes.Equal(got, plain) {
				t.Errorf("%s, zstd %v: %d bytes back of %d, %v", name, args, len(got), len(plain), err)
			}
		}
	}
}

// TestZstdFramesAndSkippableFrames: frames follow one another, and
// skippable frames among them are skipped.
func TestZstdFramesAndSkippableFrames(t *testing.T) {
	enc, _ := zstd.NewWriter(nil)
	skip := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 0x184D2A53), 5)
	skip = append(skip, "hello"...)
	var packed []byte
	packed = append(packed, skip...)
	packed = enc.EncodeAll([]byte("one\n"), packed)
	packed = append(packed, skip...)
	packed = enc.EncodeAll([]byte("two\n"), packed)
	packed = enc.EncodeAll(nil, packed)
	got, err := decodeZstd(t, packed)
	if err != nil || string(got) != "one\ntwo\n" {
		t.Errorf("got %q, %v", got, err)
	}
}

// TestZstdDamageIsAnError: a frame cut anywhere, or with a byte changed
// under its checksum, is an error, never a shorter stream read to its end.
func TestZstdDamageIsAnError(t *testing.T) {
	plain := zstdSamples()["lines"]
	enc, _ := zstd.NewWriter(nil)
	packed := enc.EncodeAll(plain, nil)
	for cut := 0; cut < len(packed); cut += 1 + cut/50 {
		if cut == 0 {
			continue
		}
		got, err := decodeZstd(t, packed[:cut])
		if err == nil {
			t.Fatalf("cut at %d of %d: no error, %d bytes", cut, len(packed), len(got))
		}
		if !bytes.HasPrefix(plain, got) {
			t.Fatalf("cut at %d: %d bytes decoded that the input does not start with", cut, len(got))
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		bad := bytes.Clone(packed)
		bad[4+rng.IntN(len(bad)-4)] ^= byte(1 + rng.IntN(255))
		if got, err := decodeZstd(t, bad); err == nil && !bytes.Equal(got, plain) {
			t.Fatalf("a changed byte went unnoticed: %d bytes", len(got))
		}
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"not zstd after a frame", append(enc.EncodeAll([]byte("a\n"), nil), "{}\n{}\n"...), "magic number"},
		{"a dictionary", []byte{0x28, 0xb5, 0x2f, 0xfd, 0x01, 0x00, 0x07}, "dictionar"},
		{"a huge window", []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xa8}, "window"},
		{"reserved block type", []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x07, 0x00, 0x00}, "reserved"},
	} {
		if _, err := decodeZstd(t, c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// TestZstdReadsLiveInputBlockByBlock: what a block holds is handed on
// before the next block has arrived.
func TestZstdReadsLiveInputBlockByBlock(t *testing.T) {
	var buf bytes.Buffer
	w, _ := zstd.NewWriter(&buf)
	w.Write([]byte("first\n"))
	w.Flush()
	first := buf.Len()
	w.Write([]byte("second\n"))
	w.Close()
	pr, pw := io.Pipe()
	go pw.Write(buf.Bytes()[:first]) // and no more for now
	z := newZstdReader(pr)
	line := make([]byte, 64)
	n, err := z.Read(line)
	if err != nil || string(line[:n]) != "first\n" {
		t.Fatalf("got %q, %v", line[:n], err)
	}
	go func() { pw.Write(buf.Bytes()[first:]); pw.Close() }()
	rest, err := io.ReadAll(z)
	if err != nil || string(rest) != "second\n" {
		t.Errorf("then %q, %v", rest, err)
	}
}

// TestZstdHistoryIsBounded: a long frame with a small window is decoded
// in room for the window, a MiB more and a block, however long it is.
func TestZstdHistoryIsBounded(t *testing.T) {
	lines := zstdSamples()["lines"]
	var plain []byte
	for len(plain) < 12<<20 {
		plain = append(plain, lines...)
	}
	enc, _ := zstd.NewWriter(nil, zstd.WithWindowSize(1<<20), zstd.WithEncoderLevel(zstd.SpeedFastest))
	z := newZstdReader(bytes.NewReader(enc.EncodeAll(plain, nil)))
	got, err := io.ReadAll(z)
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("%d bytes back of %d, %v", len(got), len(plain), err)
	}
	if z.window != 1<<20 {
		t.Fatalf("window of %d bytes, want 1 MiB", z.window)
	}
	if limit := z.window + 1<<20 + 256<<10; cap(z.hist) > limit {
		t.Errorf("history of %d bytes, more than %d", cap(z.hist), limit)
	}
}

// TestZstdStatedSizeBoundsNothing: a frame that says it holds a
// terabyte, with a 128 MiB window, and holds five bytes is an error,
// and the history made for it is a block's, not the window's.
func TestZstdStatedSizeBoundsNothing(t *testing.T) {
	frame := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xc0, 17 << 3}
	frame = binary.LittleEndian.AppendUint64(frame, 1<<40)
	frame = append(frame, 1|5<<3, 0, 0) // the last block, raw, 5 bytes
	frame = append(frame, "hello"...)
	z := newZstdReader(bytes.NewReader(frame))
	_, err := io.ReadAll(z)
	if err == nil || !strings.Contains(err.Error(), "header says") {
		t.Errorf("%v, want an error saying the header's size is wrong", err)
	}
	if cap(z.hist) > 1<<20 {
		t.Errorf("history of %d bytes for five", cap(z.hist))
	}
}

// TestSeqBitsReadsAsBackBits: the word-at-a-time bit reader reads what
// the plain one reads, at every width, near both ends of streams of
// every short length, and counts the bits left as it does past their
// start (where what it reads does not matter).
func TestSeqBitsReadsAsBackBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for size := 1; size < 40; size++ {
		for range 50 {
			b := make([]byte, size)
			for i := range b {
				b[i] = byte(rng.IntN(256))
			}
			b[size-1] |= byte(1 << rng.IntN(8))
			var plain backBits
			var fast seqBits
			if plain.init(b) != nil || fast.init(b) != nil {
				t.Fatalf("%x: no end mark found", b)
			}
			for step := 0; plain.pos > -70; step++ {
				if fast.left() != plain.pos {
					t.Fatalf("%x, step %d: %d bits left, want %d", b, step, fast.left(), plain.pos)
				}
				if !fast.advance() {
					fast.refillSlow()
				}
				n := uint8(rng.IntN(26))
				inside := plain.pos >= int(n)
				if got, want := fast.get(n), plain.read(n); inside && got != want {
					t.Fatalf("%x, step %d: %d bits read %#x, want %#x", b, step, n, got, want)
				}
			}
		}
	}
	var r seqBits
	for _, b := range [][]byte{nil, {1, 0}} {
		if r.init(b) == nil {
			t.Errorf("%x: no error for a stream without its end mark", b)
		}
	}
}

// TestXXH64: the checksum against known values, and written in pieces.
func TestXXH64(t *testing.T) {
	var x xxh64
	x.reset()
	if got := x.sum(); got != 0xef46db3751d8e999 {
		t.Errorf("XXH64 of nothing: %#x", got)
	}
	data := zstdSamples()["random"][:1000]
	x.write(data)
	whole := x.sum()
	for _, step := range []int{1, 3, 7, 31, 32, 33, 100} {
		x.reset()
		for b := data; len(b) > 0; {
			n := min(step, len(b))
			x.write(b[:n])
			b = b[n:]
		}
		if x.sum() != whole {
			t.Errorf("written %d bytes at a time: %#x, whole %#x", step, x.sum(), whole)
		}
	}
}

// FuzzZstd: on any input the decoder returns, without panicking, and what
// it decodes without error is what the library decodes.
func FuzzZstd(f *testing.F) {
	enc, _ := zstd.NewWriter(nil)
	for _, s := range []string{"", "{}\n", strings.Repeat(`{"type":"text","content":"abc"}`+"\n", 50)} {
		f.Add(enc.EncodeAll([]byte(s), nil))
	}
	if b, err := os.ReadFile("../../testdata/translate/basic.evosci.jsonl"); err == nil {
		f.Add(enc.EncodeAll(b, nil))
	}
	dec, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeZstd(t, data)
		if err != nil {
			return
		}
		want, werr := dec.DecodeAll(data, nil)
		if werr == nil && !bytes.Equal(got, want) {
			t.Errorf("decoded %d bytes, the library %d", len(got), len(want))
		}
	})
}
