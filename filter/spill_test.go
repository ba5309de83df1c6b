package filter

import (
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
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

// heapWriter counts what is written to it and samples the Go heap every
// megabyte of it.
type heapWriter struct {
	n, next int
	peak    uint64
}

func (w *heapWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	if w.n >= w.next {
		w.next += 1 << 20
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		w.peak = max(w.peak, ms.HeapAlloc)
	}
	return len(p), nil
}

// One line whose results have no end in sight (range(1e9), .[] of a huge
// array) is written as it goes on the parallel path too, in bounded
// memory: its results wait in a few chunks, not whole in its batch.
func TestOneLineWritesAsItGoes(t *testing.T) {
	f, err := Compile(Options{Expr: "range(5000000)", Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !f.Parallel() {
		t.Fatal("range(…) on each line should run on the parallel path")
	}
	runtime.GC()
	w := &heapWriter{}
	st, err := f.Run([]Input{strInput("one", "1\n")}, w, io.Discard)
	if err != nil || st.Outputs != 5000000 {
		t.Fatalf("%v, %d results", err, st.Outputs)
	}
	// 37 MiB of results; a few chunks of 32 KB in flight.
	if w.n < 37<<20 || w.peak > 16<<20 {
		t.Errorf("%d bytes written; the heap peaked at %d MB", w.n, w.peak>>20)
	}
}

// The same for Eval (translate --jq): one event's results are written as
// they come.
func TestEvalWritesAsItGoes(t *testing.T) {
	f, err := Compile(Options{Expr: "range(5000000)"})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	w := &heapWriter{}
	if stop, err := f.Eval([]byte("1"), "one", 1, w, io.Discard); stop || err != nil {
		t.Fatal(stop, err)
	}
	if w.n < 37<<20 || w.peak > 16<<20 {
		t.Errorf("%d bytes written; the heap peaked at %d MB", w.n, w.peak>>20)
	}
}

// failAfter fails every write after the first n bytes.
type failAfter struct{ n int }

func (w *failAfter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, io.ErrClosedPipe
	}
	return len(p), nil
}

// A line whose results have no end stops once its output fails, on the
// parallel path: the run ends with the write error instead of running
// the expression to its end with nowhere to write.
func TestOneEndlessLineStopsWhenOutputFails(t *testing.T) {
	f, err := Compile(Options{Expr: "range(1e15)", Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := f.Run([]Input{strInput("one", "1\n2\n")}, &failAfter{n: 1 << 20}, io.Discard)
		done <- err
	}()
	select {
	case err := <-done:
		if err != io.ErrClosedPipe {
			t.Fatalf("err %v, want %v", err, io.ErrClosedPipe)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the run went on after its output failed")
	}
}
