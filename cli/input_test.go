package cli

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/klauspost/compress/zstd"
)

func gzipBytes(t *testing.T, data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zstdBytes(t *testing.T, data []byte) []byte {
	zw, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	return zw.EncodeAll(data, nil)
}

// compressedCommands are every command that reads inputs, with flags that
// make their output depend on the input alone.
var compressedCommands = [][]string{
	{"translate", "--to", "zero", "--run-id", "r1"},
	{"translate", "--to", "evosci"},
	{"jq", "-c", "{type, l: input_line_number}"},
	{"validate"},
	{"validate", "--json"},
	{"stats", "--json"},
	{"view"},
}

// TestCompressedInput: gzip and zstd input, from files with or without
// an extension and from standard input, reads as the plain text does, with
// the same line numbers.
func TestCompressedInput(t *testing.T) {
	plain, err := os.ReadFile(sampleEvo)
	if err != nil {
		t.Fatal(err)
	}
	// A bad line, so that diagnostics with line numbers are compared too.
	plain = append(plain, "not json\n"...)
	dir := t.TempDir()
	files := map[string][]byte{
		"run.jsonl":      plain,
		"run.jsonl.gz":   gzipBytes(t, plain),
		"run.jsonl.zst":  zstdBytes(t, plain),
		"gz-no-ext":      gzipBytes(t, plain),
		"zst-no-ext.log": zstdBytes(t, plain),
		// Concatenated gzip members are one stream, as gzip -d reads them.
		"members.gz": append(gzipBytes(t, plain[:100]), gzipBytes(t, plain[100:])...),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for _, cmd := range compressedCommands {
		wantCode, want, wantErr := run(t, "", append(cmd, "run.jsonl")...)
		if want == "" {
			t.Fatalf("%v: no output", cmd)
		}
		for name, data := range files {
			if name == "run.jsonl" {
				continue
			}
			code, out, errs := run(t, "", append(cmd, name)...)
			out = strings.ReplaceAll(out, name, "run.jsonl")
			errs = strings.ReplaceAll(errs, name, "run.jsonl")
			if code != wantCode || out != want || errs != wantErr {
				t.Errorf("%v %s: exit %d, want %d\nout %q\nwant %q\nerr %q\nwant %q", cmd, name, code, wantCode, out, want, errs, wantErr)
			}
			code, out, errs = run(t, string(data), cmd...)
			out = strings.ReplaceAll(strings.ReplaceAll(out, stdinName, "run.jsonl"), `\u003cstdin\u003e`, "run.jsonl")
			errs = strings.ReplaceAll(errs, stdinName, "run.jsonl")
			if code != wantCode || out != want || errs != wantErr {
				t.Errorf("%v < %s: exit %d, want %d\nout %q\nwant %q\nerr %q\nwant %q", cmd, name, code, wantCode, out, want, errs, wantErr)
			}
		}
	}
}

// TestDamagedCompressedInput: a cut or corrupted compressed file is
// reported naming the file, with the lines decoded before the damage read
// and counted, and exit 1.
func TestDamagedCompressedInput(t *testing.T) {
	var plain []byte
	for i := range 2000 {
		plain = append(plain, `{"type": "text", "content": "line `+strings.Repeat("x", i%97)+`"}`+"\n"...)
	}
	gz := gzipBytes(t, plain)
	zs := zstdBytes(t, plain)
	flipped := bytes.Clone(gz)
	flipped[len(flipped)/2] ^= 0xff
	dir := t.TempDir()
	files := map[string][]byte{
		"cut.gz":     gz[:len(gz)/2],
		"cut.zst":    zs[:len(zs)/2],
		"flipped.gz": flipped,
		"header.gz":  gz[:5],
		// A whole gzip stream, then bytes that are no gzip member.
		"garbage.gz": append(bytes.Clone(gz), bytes.Repeat([]byte{0x1f, 0x00, 0xff}, 1000)...),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for name := range files {
		for _, cmd := range [][]string{{"jq", "-c", ".type"}, {"translate", "--to", "zero", "--run-id", "r"}, {"view"}, {"validate"}, {"stats"}} {
			code, out, errs := run(t, "", append(cmd, name)...)
			want := ExitDiagnostics
			if cmd[0] == "jq" {
				want = ExitJQSystem // jq 1.7's code for a FILE it could not read
			}
			if code != want || !strings.Contains(errs, name) || !strings.Contains(errs, "corrupt") {
				t.Errorf("%v %s: exit %d, stderr %q", cmd, name, code, errs)
			}
			if name == "header.gz" {
				continue
			}
			if cmd[0] == "jq" && name == "garbage.gz" && (out != strings.Repeat("\"text\"\n", 2000) || !strings.Contains(errs, "garbage.gz:2001: read error: gzip data is corrupt or cut short after 2000 whole lines")) {
				t.Errorf("%v %s: %d lines out, stderr %q", cmd, name, strings.Count(out, "\n"), errs)
			}
			if cmd[0] == "jq" && strings.HasPrefix(name, "cut") {
				// The lines decoded before the damage are all there, and
				// the damage is placed at the line after them.
				n := strings.Count(out, "\n")
				if n < 100 || n >= 2000 || strings.Count(out, "\"text\"\n") != n {
					t.Errorf("%v %s: %d lines out", cmd, name, n)
				}
				if !strings.Contains(errs, name+":"+strconv.Itoa(n+1)+": read error: ") {
					t.Errorf("%v %s: %d lines out, stderr %q", cmd, name, n, errs)
				}
			}
		}
	}
}

// TestShippedCompressedSamples: the compressed samples the documentation
// uses hold the plain samples.
func TestShippedCompressedSamples(t *testing.T) {
	for packed, plain := range map[string]string{
		"../testdata/compressed/basic.evosci.jsonl.gz": sampleEvo,
		"../testdata/compressed/basic.zero.log":        sampleZero,
	} {
		e := newEnv(strings.NewReader(""), io.Discard, io.Discard)
		_, r, err := e.openInput(packed)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		want, _ := os.ReadFile(plain)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s does not hold %s (%v)", packed, plain, err)
		}
	}
}

// TestCompressedFIFO: a named pipe cannot be peeked at; it is told by its
// first bytes all the same (zevo stats <(zcat … | gzip)).
func TestCompressedFIFO(t *testing.T) {
	plain, err := os.ReadFile(sampleEvo)
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(gzipBytes(t, plain))
		f.Close()
	}()
	code, out, errs := run(t, "", "jq", "-c", "input_line_number", fifo)
	if code != 0 || strings.Count(out, "\n") != 18 || !strings.HasSuffix(out, "\n18\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// countBytes counts what is read through it.
type countBytes struct {
	io.ReadCloser
	n *int
}

func (c countBytes) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	*c.n += n
	return n, err
}

// TestFileBytesBeforeDecompression: the file hook (stats' progress bar)
// sees the file's own bytes, not the decompressed ones.
func TestFileBytesBeforeDecompression(t *testing.T) {
	packed := "../testdata/compressed/basic.evosci.jsonl.gz"
	fi, err := os.Stat(packed)
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	e := newEnv(strings.NewReader(""), io.Discard, io.Discard)
	e.fileBytes = func(f io.ReadCloser) io.ReadCloser { return countBytes{f, &read} }
	_, r, err := e.openInput(packed)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(r)
	r.Close()
	if err != nil || len(plain) <= int(fi.Size()) || read != int(fi.Size()) {
		t.Errorf("read %d file bytes of %d, %d decompressed (%v)", read, fi.Size(), len(plain), err)
	}
}
