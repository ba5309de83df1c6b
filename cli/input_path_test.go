package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// docFormats are the documents' formats, with how each writes the name
// of standard input.
var docFormats = map[string]string{"markdown": `\<stdin\>`, "html": "&lt;stdin&gt;"}

// plainDocument is the document of sampleEvo, copied as name into the
// current directory, and the sample's bytes.
func plainDocument(t *testing.T, format, name string, data []byte) string {
	t.Helper()
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "", "view", "--format", format, name)
	if code != 0 || errs != "" || !strings.Contains(out, "Run 1") {
		t.Fatalf("%s of the plain file: exit %d, %q", format, code, errs)
	}
	return out
}

// readSample reads sampleEvo, before a test leaves the package's directory.
func readSample(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(sampleEvo)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A document of gzip or zstd input, from a file or standard input, is the
// document of the plain text.
func TestViewDocumentReadsCompressedInput(t *testing.T) {
	plain := readSample(t)
	t.Chdir(t.TempDir())
	for format, stdin := range docFormats {
		want := plainDocument(t, format, "run", plain)
		for _, pack := range []struct {
			ext  string
			data []byte
		}{{"gz", gzipBytes(t, plain)}, {"zst", zstdBytes(t, plain)}} {
			name := "run" + pack.ext
			if err := os.WriteFile(name, pack.data, 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errs := run(t, "", "view", "--format", format, name)
			if out = strings.ReplaceAll(out, name, "run"); code != 0 || errs != "" || out != want {
				t.Errorf("%s of a %s file: exit %d, %q\n%s", format, pack.ext, code, errs, out)
			}
			code, out, errs = run(t, string(pack.data), "view", "--format", format)
			if out = strings.ReplaceAll(out, stdin, "run"); code != 0 || errs != "" || out != want {
				t.Errorf("%s of %s standard input: exit %d, %q\n%s", format, pack.ext, code, errs, out)
			}
		}
	}
}

// A pipe named as FILE (<(cmd), /dev/fd/N) is read once and kept: the
// document has every run, as for the plain file.
func TestViewDocumentReadsPipeFile(t *testing.T) {
	plain := readSample(t)
	t.Chdir(t.TempDir())
	for format := range docFormats {
		want := plainDocument(t, format, "run", plain)
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			w.Write(plain)
			w.Close()
		}()
		name := fmt.Sprintf("/dev/fd/%d", r.Fd())
		code, out, errs := run(t, "", "view", "--format", format, name)
		r.Close()
		if out = strings.ReplaceAll(out, name, "run"); code != 0 || errs != "" || out != want {
			t.Errorf("%s of a pipe: exit %d, %q\n%s", format, code, errs, out)
		}
	}
}

// A named FIFO whose writer writes and closes is read once: the document
// is written, nothing waits for a second writer.
func TestViewDocumentReadsNamedFIFO(t *testing.T) {
	plain := readSample(t)
	dir := t.TempDir()
	t.Chdir(dir)
	for format := range docFormats {
		want := plainDocument(t, format, "run", plain)
		fifo := filepath.Join(dir, "fifo-"+format)
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no named pipes here:", err)
		}
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			f.Write(plain)
			f.Close()
		}()
		type result struct {
			code      int
			out, errs string
		}
		done := make(chan result, 1)
		go func() {
			code, out, errs := run(t, "", "view", "--format", format, fifo)
			done <- result{code, out, errs}
		}()
		select {
		case res := <-done:
			if out := strings.ReplaceAll(res.out, fifo, "run"); res.code != 0 || res.errs != "" || out != want {
				t.Errorf("%s of a FIFO: exit %d, %q\n%s", format, res.code, res.errs, out)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s of a FIFO: still waiting after 20 s", format)
		}
	}
}

// An input that cannot be read (a directory) is reported once, not once
// per reading.
func TestViewDocumentReportsDirectoryOnce(t *testing.T) {
	dir := t.TempDir()
	for format := range docFormats {
		code, _, errs := run(t, "", "view", "--format", format, dir, seedEvo)
		if code != ExitDiagnostics || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "zevo: "+dir+": ") || !strings.Contains(errs, "is a directory") {
			t.Errorf("%s: exit %d, stderr %q", format, code, errs)
		}
	}
}

// A cut compressed file is reported once, naming it, and the whole lines
// decoded before the damage are in the document.
func TestViewDocumentReportsDamagedCompressedInputOnce(t *testing.T) {
	var plain []byte
	for i := range 2000 {
		plain = append(plain, fmt.Sprintf(`{"type": "text", "content": "line %d"}`+"\n", i)...)
	}
	gz := gzipBytes(t, plain)
	cut := filepath.Join(t.TempDir(), "cut.gz")
	if err := os.WriteFile(cut, gz[:len(gz)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for format := range docFormats {
		code, out, errs := run(t, "", "view", "--format", format, cut)
		if code != ExitDiagnostics || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "zevo: "+cut+": read error: gzip data is corrupt or cut short after ") {
			t.Errorf("%s: exit %d, stderr %q", format, code, errs)
		}
		if !strings.Contains(out, "line 0") || !strings.Contains(out, "line 99") || strings.Contains(out, "line 1999") {
			t.Errorf("%s: the lines before the damage are not all shown", format)
		}
	}
}

// When the temporary file cannot be made, zevo says so, naming the input,
// and exits 1 without a document.
func TestViewDocumentTemporaryFileFailureIsNamed(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	for format := range docFormats {
		code, out, errs := run(t, `{"type": "text", "content": "hello"}`+"\n", "view", "--format", format)
		if code != ExitDiagnostics || out != "" || !strings.Contains(errs, "zevo: keeping <stdin> in a temporary file: ") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", format, code, out, errs)
		}
	}
}
