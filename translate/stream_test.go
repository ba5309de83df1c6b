package translate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/jsonl"
)

// byLine translates in with Line, the reference for Stream.
func byLine(t *testing.T, in []byte, opt Options) (out string, diags []string) {
	var b strings.Builder
	tr := New(opt, func(l []byte) error { b.Write(l); b.WriteByte('\n'); return nil })
	diags = feedLines(t, tr, in, "in", nil, nil)
	if err := tr.End("in"); err != nil {
		t.Fatal(err)
	}
	return b.String(), diags
}

func streamed(t *testing.T, r io.Reader, opt Options) (out string, diags []string, err error) {
	var b strings.Builder
	tr := New(opt, func(l []byte) error { b.Write(l); b.WriteByte('\n'); return nil })
	err = tr.Stream(r, "in", nil, func() error { return nil }, func(d *jsonl.Diagnostic) error {
		diags = append(diags, d.Error())
		return nil
	})
	if err == nil {
		err = tr.End("in")
	}
	return b.String(), diags, err
}

// TestStreamAsLine checks that Stream writes what Line writes, diagnostics
// included, across batches, long lines and bad lines.
func TestStreamAsLine(t *testing.T) {
	var in bytes.Buffer
	corpus.Write(&in, corpus.Options{Protocol: corpus.EvoSci, Size: 600 << 10, Seed: 4})
	in.WriteString("not json\n\n   \n{\"type\": 5}\r\n")
	corpus.WriteHuge(&in, corpus.EvoSci, 300<<10) // longer than a batch and the read buffer
	corpus.WriteHuge(&in, corpus.EvoSci, 200<<10) // longer than a batch only
	in.WriteString(`{"type": "tool_call", "name": "x", "args": {"a": NaN}, "id": "c"}` + "\n")
	corpus.Write(&in, corpus.Options{Protocol: corpus.Zero, Size: 300 << 10, Seed: 5})
	in.WriteString(`{"type": "text", "content": "no newline at the end"}`)
	for _, opt := range []Options{
		{To: Zero, RunID: "R", Cwd: "/w", Redact: true},
		{To: EvoSci},
	} {
		want, wantDiags := byLine(t, in.Bytes(), opt)
		got, gotDiags, err := streamed(t, bytes.NewReader(in.Bytes()), opt)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("to %s: Stream wrote %d bytes, Line %d; they differ", opt.To, len(got), len(want))
		}
		if fmt.Sprint(gotDiags) != fmt.Sprint(wantDiags) || len(wantDiags) < 3 {
			t.Fatalf("to %s: diagnostics\n got %v\nwant %v", opt.To, gotDiags, wantDiags)
		}
	}
}

type failingReader struct {
	r   io.Reader
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

func TestStreamReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	in := `{"type": "text", "content": "a"}` + "\n" + `{"type": "text", "content": "b"}` + "\n"
	out, _, err := streamed(t, &failingReader{strings.NewReader(in), boom}, Options{To: Zero, RunID: "R"})
	var re *ReadError
	if !errors.As(err, &re) || !errors.Is(err, boom) {
		t.Fatalf("err = %v, want a *ReadError wrapping %v", err, boom)
	}
	if strings.Count(out, `"type":"text"`) != 2 {
		t.Fatalf("the lines before the error were not translated:\n%s", out)
	}
}

func TestStreamStopsOnDiagError(t *testing.T) {
	stop := errors.New("stop")
	in := "{\"type\": \"text\", \"content\": \"a\"}\nbad\n{\"type\": \"text\", \"content\": \"b\"}\n"
	var out strings.Builder
	tr := New(Options{To: Zero, RunID: "R"}, func(l []byte) error { out.Write(l); out.WriteByte('\n'); return nil })
	err := tr.Stream(strings.NewReader(in), "in", nil, func() error { return nil }, func(*jsonl.Diagnostic) error { return stop })
	if err != stop {
		t.Fatalf("err = %v, want %v", err, stop)
	}
	if strings.Contains(out.String(), `"b"`) {
		t.Fatalf("translated past the stopping line:\n%s", out.String())
	}
}

// liveReader gives one line per Read and, before giving the next, waits
// until the output holds the translation of every line given so far.
type liveReader struct {
	lines   []string
	given   int
	flushed chan int // the number of text events flushed
	t       *testing.T
}

func (r *liveReader) Read(p []byte) (int, error) {
	if r.given > 0 {
		for {
			select {
			case n := <-r.flushed:
				if n >= r.given {
					goto next
				}
			case <-time.After(10 * time.Second):
				r.t.Errorf("line %d was read but its event was not flushed", r.given)
				return 0, io.ErrUnexpectedEOF
			}
		}
	}
next:
	if r.given == len(r.lines) {
		return 0, io.EOF
	}
	r.given++
	return copy(p, r.lines[r.given-1]), nil
}

// TestStreamFlushesWhenInputWaits checks liveness: each event is flushed
// before Stream waits for the next line.
func TestStreamFlushesWhenInputWaits(t *testing.T) {
	var lines []string
	for i := range 20 {
		lines = append(lines, fmt.Sprintf(`{"type": "text", "content": "line %d"}`+"\n", i))
	}
	r := &liveReader{lines: lines, flushed: make(chan int, 100), t: t}
	var buf, flushed strings.Builder
	tr := New(Options{To: Zero, RunID: "R"}, func(l []byte) error { buf.Write(l); buf.WriteByte('\n'); return nil })
	err := tr.Stream(r, "in", nil, func() error {
		flushed.WriteString(buf.String())
		buf.Reset()
		r.flushed <- strings.Count(flushed.String(), `"type":"text"`)
		return nil
	}, func(d *jsonl.Diagnostic) error { return d })
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(flushed.String(), `"type":"text"`); n != len(lines) {
		t.Fatalf("%d text events flushed, want %d", n, len(lines))
	}
}

// TestBigValueCopiedAsIs checks that large values kept as they are give the
// same output as the restyling path.
func TestBigValueCopiedAsIs(t *testing.T) {
	var in bytes.Buffer
	corpus.WriteHuge(&in, corpus.EvoSci, 64<<10)
	in.WriteString(`{"type": "tool_result", "name": "x", "content": "caf\u00e9 ` + strings.Repeat("y", 70<<10) + `", "success": true, "id": "c"}` + "\n")
	corpus.WriteHuge(&in, corpus.Zero, 64<<10)
	in.WriteString(`{"type": "text", "content": "key sk-abcdefghijklmnopqrstuvwxyz ` + strings.Repeat("z", 70<<10) + `"}` + "\n")
	for _, opt := range []Options{{To: Zero, RunID: "R", Redact: true}, {To: EvoSci}, {To: EvoSci, Redact: true}} {
		opt.bigValue = 1 << 40
		want, _ := byLine(t, in.Bytes(), opt)
		opt.bigValue = 1 << 10
		got, _ := byLine(t, in.Bytes(), opt)
		if got != want {
			t.Fatalf("to %s: output differs when large values are copied as they are", opt.To)
		}
	}
}
