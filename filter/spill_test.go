package filter

import (
	"io"
	"strings"
	"sync"
	"testing"
)

// heldReader serves data in one read, then waits until release is closed
// before it ends: a producer that is still running, whose last line is
// not complete yet, so the reader never finds its buffer empty at a line
// end (the moment it flushes for a live pipe).
type heldReader struct {
	data    string
	release chan struct{}
}

func (r *heldReader) Read(p []byte) (int, error) {
	if r.data != "" {
		n := copy(p, r.data)
		r.data = r.data[n:]
		return n, nil
	}
	<-r.release
	return 0, io.EOF
}

func (r *heldReader) Close() error { return nil }

// seenWriter says when more than n bytes were written to it.
type seenWriter struct {
	mu   sync.Mutex
	n    int
	got  strings.Builder
	seen chan struct{}
	once sync.Once
}

func (w *seenWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.got.Write(p)
	if w.got.Len() > w.n {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

// One run of the expression that yields result after result (-n with
// inputs) writes them out as it goes, not all at the end: the output of
// a producer that has not ended yet arrives, and memory stays bounded.
func TestOneRunWritesAsItGoes(t *testing.T) {
	line := `{"type":"text","content":"still going"}` + "\n"
	in := &heldReader{data: strings.Repeat(line, 10000) + `{"type":`, release: make(chan struct{})}
	f, err := Compile(Options{Expr: "inputs", NullInput: true, Output: Output{Compact: true}})
	if err != nil {
		t.Fatal(err)
	}
	out := &seenWriter{n: 64 << 10, seen: make(chan struct{})}
	done := make(chan error, 1)
	go func() {
		_, err := f.Run([]Input{{Name: "live", Open: func() (io.ReadCloser, error) { return in, nil }}}, out, io.Discard)
		done <- err
	}()
	select {
	case <-out.seen:
	case err := <-done:
		t.Fatalf("the run ended before its input did: %v", err)
	}
	close(in.release)
	<-done
	if got := out.got.String(); strings.Count(got, "still going") != 10000 || strings.Count(got, "\n") != 10000 {
		t.Errorf("output %d bytes, not the 10000 results", len(got))
	}
}
