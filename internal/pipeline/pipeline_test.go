package pipeline

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

type batch struct {
	n     int // sequence number, set by the reader
	sq    int // set by the work
	parts chan int
}

// within fails the test if ch is not closed or sent to in a while: what
// it waits for must happen whatever the machine's speed.
func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not happen", what)
	}
}

func sendN(n int, send func(f *Feed[batch], b *batch) bool) func(*Feed[batch]) error {
	return func(f *Feed[batch]) error {
		for i := range n {
			b, _, ok := f.Get()
			if !ok {
				return nil
			}
			b.n = i
			if !send(f, b) {
				return nil
			}
		}
		return nil
	}
}

func TestRunWritesInInputOrderWithWorkersOfDifferentSpeeds(t *testing.T) {
	var next int
	p := &Pipe[batch]{
		Batches: 8,
		New:     func() *batch { return &batch{} },
		Workers: 4,
		Worker: func(<-chan struct{}) func(*batch) {
			return func(b *batch) {
				// The first batches are the slowest, so that without
				// ordering later ones would overtake them.
				if b.n%8 < 3 {
					time.Sleep(time.Duration(3-b.n%8) * time.Millisecond)
				}
				b.sq = b.n * b.n
			}
		},
		Write: func(b *batch, _ bool) error {
			if b.n != next || b.sq != b.n*b.n {
				t.Fatalf("wrote batch %d (work %d), want batch %d worked", b.n, b.sq, next)
			}
			next++
			return nil
		},
	}
	if err := p.Run(sendN(200, (*Feed[batch]).Send)); err != nil {
		t.Fatal(err)
	}
	if next != 200 {
		t.Fatalf("%d batches written, want 200", next)
	}
}

func TestRunHoldsNoMoreBatchesThanItHasWithASlowWriter(t *testing.T) {
	var made, sent, written atomic.Int64
	p := &Pipe[batch]{
		Batches: 3,
		New:     func() *batch { made.Add(1); return &batch{} },
		Write: func(b *batch, _ bool) error {
			if s, w := sent.Load(), written.Load(); s-w > 3 {
				t.Errorf("%d batches sent and not written, with 3 in all", s-w)
			}
			time.Sleep(100 * time.Microsecond)
			written.Add(1)
			return nil
		},
	}
	err := p.Run(sendN(50, func(f *Feed[batch], b *batch) bool {
		sent.Add(1)
		return f.Send(b)
	}))
	if err != nil || written.Load() != 50 {
		t.Fatalf("err %v, %d written, want 50", err, written.Load())
	}
	// A second run reuses the batches of the first.
	if err := p.Run(sendN(10, (*Feed[batch]).Send)); err != nil {
		t.Fatal(err)
	}
	if made.Load() != 3 {
		t.Fatalf("%d batches made, want 3", made.Load())
	}
}

func TestRunReturnsTheReadErrorOnceAllSentIsWritten(t *testing.T) {
	boom := errors.New("disk on fire")
	var written []int
	p := &Pipe[batch]{
		Batches: 2,
		New:     func() *batch { return &batch{} },
		Workers: 2,
		Worker:  func(<-chan struct{}) func(*batch) { return func(*batch) {} },
		Write:   func(b *batch, _ bool) error { written = append(written, b.n); return nil },
	}
	err := p.Run(func(f *Feed[batch]) error {
		sendN(5, (*Feed[batch]).Send)(f)
		return boom
	})
	if err != boom || len(written) != 5 || written[4] != 4 {
		t.Fatalf("err %v, written %v; want %v after batches 0 to 4", err, written, boom)
	}
}

func TestRunStopsAtAWriteErrorMidStream(t *testing.T) {
	stop := errors.New("stop")
	var written int
	readerDone := make(chan struct{})
	var refused atomic.Bool
	p := &Pipe[batch]{
		Batches: 4,
		New:     func() *batch { return &batch{} },
		Workers: 2,
		Worker:  func(<-chan struct{}) func(*batch) { return func(*batch) {} },
		Write: func(b *batch, _ bool) error {
			if b.n == 5 {
				return stop
			}
			written++
			return nil
		},
	}
	err := p.Run(func(f *Feed[batch]) error {
		defer close(readerDone)
		for i := 0; ; i++ {
			b, _, ok := f.Get()
			if ok {
				b.n = i
				ok = f.Send(b)
			}
			if !ok {
				refused.Store(f.Stopped())
				return nil
			}
		}
	})
	if err != stop || written != 5 {
		t.Fatalf("err %v after %d batches written, want %v after 5", err, written, stop)
	}
	within(t, readerDone, "the reader's end")
	if !refused.Load() {
		t.Fatal("the reader was not told the run stopped")
	}
	// A stopped run's batches may still be with its reader: a new run
	// makes its own.
	if p.spare != nil {
		t.Fatal("a stopped run kept its batches")
	}
}

func TestRunReturnsWhileTheReaderWaitsForInput(t *testing.T) {
	stop := errors.New("stop")
	input := make(chan struct{})
	readerDone := make(chan struct{})
	p := &Pipe[batch]{
		Batches: 2,
		New:     func() *batch { return &batch{} },
		Write:   func(*batch, bool) error { return stop },
	}
	var sentAfter atomic.Bool
	ran := make(chan error, 1)
	go func() {
		ran <- p.Run(func(f *Feed[batch]) error {
			defer close(readerDone)
			b, _, _ := f.Get()
			f.Send(b)
			<-input // a read that waits
			b, _, ok := f.Get()
			sentAfter.Store(ok && f.Send(b))
			return nil
		})
	}()
	select {
	case err := <-ran:
		if err != stop {
			t.Fatalf("err %v, want %v", err, stop)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run waited for the reader's input")
	}
	close(input)
	within(t, readerDone, "the reader's end")
	if sentAfter.Load() {
		t.Fatal("the reader could send after the run stopped")
	}
}

// TestIdleFlushesBeforeTheNextRead checks liveness: a batch sent as the
// input waits is written and flushed while the reader waits, not once
// more batches come.
func TestIdleFlushesBeforeTheNextRead(t *testing.T) {
	for _, workers := range []int{0, 2} {
		flushed := make(chan int, 10)
		var last int
		p := &Pipe[batch]{
			Batches: 4,
			New:     func() *batch { return &batch{} },
			Workers: workers,
			Worker:  func(<-chan struct{}) func(*batch) { return func(*batch) {} },
			Write:   func(b *batch, _ bool) error { last = b.n; return nil },
			Flush:   func() error { flushed <- last; return nil },
		}
		err := p.Run(func(f *Feed[batch]) error {
			for i := range 5 {
				b, _, _ := f.Get()
				b.n = i
				f.Idle(b)
				select {
				case n := <-flushed:
					if n != i {
						t.Errorf("flushed after batch %d, want %d", n, i)
					}
				case <-time.After(10 * time.Second):
					t.Errorf("%d workers: batch %d was not flushed while the input waited", workers, i)
					return nil
				}
			}
			b, _, _ := f.Get()
			f.Send(b) // not idle: no flush
			return nil
		})
		if err != nil || len(flushed) != 0 {
			t.Fatalf("err %v, %d flushes after a batch not idle", err, len(flushed))
		}
	}
}

func TestSendWaitReturnsOnceWritten(t *testing.T) {
	var written atomic.Int64
	p := &Pipe[batch]{
		Batches: 4,
		New:     func() *batch { return &batch{} },
		Write: func(*batch, bool) error {
			time.Sleep(time.Millisecond)
			written.Add(1)
			return nil
		},
	}
	err := p.Run(func(f *Feed[batch]) error {
		for i := range 3 {
			b, _, _ := f.Get()
			if !f.SendWait(b) || written.Load() != int64(i+1) {
				t.Errorf("SendWait of batch %d returned with %d written", i, written.Load())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDrainTakesWhatWorkHandsOverWhileItRuns checks that a batch's work
// can hand over more than fits in its batch before it is done, in order.
func TestDrainTakesWhatWorkHandsOverWhileItRuns(t *testing.T) {
	var got []int
	p := &Pipe[batch]{
		Batches: 4,
		New:     func() *batch { return &batch{} },
		Workers: 2,
		Worker: func(<-chan struct{}) func(*batch) {
			return func(b *batch) {
				for i := range 10 {
					b.parts <- b.n*100 + i
				}
				close(b.parts)
			}
		},
		Drain: func(b *batch) error {
			for x := range b.parts {
				got = append(got, x)
			}
			return nil
		},
		Write: func(b *batch, _ bool) error { got = append(got, b.n*100+99); return nil },
	}
	err := p.Run(sendN(6, func(f *Feed[batch], b *batch) bool {
		b.parts = make(chan int, 1)
		return f.Send(b)
	}))
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range got {
		if want := i/11*100 + i%11 + i%11/10*89; x != want {
			t.Fatalf("part %d is %d, want %d: %v", i, x, want, got)
		}
	}
}

// TestRunStopsWorkThatWaits checks that a stopped run does not wait
// forever for work waiting on a writer that has stopped.
func TestRunStopsWorkThatWaits(t *testing.T) {
	stop := errors.New("stop")
	p := &Pipe[batch]{
		Batches: 4,
		New:     func() *batch { return &batch{} },
		Workers: 2,
		Worker: func(halt <-chan struct{}) func(*batch) {
			return func(b *batch) {
				for {
					select {
					case b.parts <- 1:
					case <-halt:
						return
					}
				}
			}
		},
		Drain: func(b *batch) error {
			<-b.parts
			return stop
		},
		Write: func(*batch, bool) error { return nil },
	}
	ran := make(chan struct{})
	var err error
	go func() {
		err = p.Run(sendN(3, func(f *Feed[batch], b *batch) bool {
			b.parts = make(chan int)
			return f.Send(b)
		}))
		close(ran)
	}()
	within(t, ran, "the stopped run's end")
	if err != stop {
		t.Fatalf("err %v, want %v", err, stop)
	}
}

func TestNeedsWorkSkipsTheWorkers(t *testing.T) {
	var worked atomic.Int64
	var written []int
	p := &Pipe[batch]{
		Batches:   4,
		New:       func() *batch { return &batch{} },
		Workers:   2,
		Worker:    func(<-chan struct{}) func(*batch) { return func(*batch) { worked.Add(1) } },
		NeedsWork: func(b *batch) bool { return b.n%2 == 0 },
		Write:     func(b *batch, _ bool) error { written = append(written, b.n); return nil },
	}
	if err := p.Run(sendN(10, (*Feed[batch]).Send)); err != nil {
		t.Fatal(err)
	}
	if worked.Load() != 5 || len(written) != 10 || written[9] != 9 {
		t.Fatalf("%d batches worked, written %v; want 5 worked, 0 to 9 written", worked.Load(), written)
	}
}

// TestInlineStopsAtAWriteError: run on one goroutine, a write's error
// still stops the reader at its next Send and is what Run returns.
func TestInlineStopsAtAWriteError(t *testing.T) {
	stop := errors.New("stop")
	var written []int
	p := &Pipe[batch]{
		Batches: 2, New: func() *batch { return &batch{} }, Inline: true,
		Write: func(b *batch, _ bool) error {
			if b.n == 3 {
				return stop
			}
			written = append(written, b.n)
			return nil
		},
	}
	refused := false
	err := p.Run(func(f *Feed[batch]) error {
		for i := 0; ; i++ {
			b, _, ok := f.Get()
			if ok {
				b.n = i
				ok = f.Send(b)
			}
			if !ok {
				refused = f.Stopped()
				return nil
			}
		}
	})
	if err != stop || len(written) != 3 || !refused {
		t.Fatalf("err %v, written %v, reader told %v; want %v after 0 1 2, told", err, written, refused, stop)
	}
	if p.spare != nil {
		t.Fatal("a stopped run kept its batches")
	}
}

// TestInlineWorksWritesAndFlushesInOrder: on one goroutine, each batch
// is worked (unless NeedsWork says not), written and, when sent with
// Idle, flushed before the reader goes on; SendWait's batch is written
// when it returns; a read error comes back once all sent is written.
func TestInlineWorksWritesAndFlushesInOrder(t *testing.T) {
	readErr := errors.New("read")
	var log []string
	p := &Pipe[batch]{
		Batches: 2, New: func() *batch { return &batch{} }, Inline: true,
		Workers:   2,
		Worker:    func(<-chan struct{}) func(*batch) { return func(b *batch) { b.sq = b.n * 10 } },
		NeedsWork: func(b *batch) bool { return b.n != 2 },
		Write: func(b *batch, waited bool) error {
			log = append(log, "write "+strconv.Itoa(b.n)+" "+strconv.Itoa(b.sq)+" "+strconv.FormatBool(waited))
			b.sq = 0
			return nil
		},
		Flush: func() error { log = append(log, "flush"); return nil },
	}
	err := p.Run(func(f *Feed[batch]) error {
		for i, send := range []func(*batch) bool{f.Send, f.Idle, f.Send, f.SendWait} {
			b, waited, ok := f.Get()
			if !ok || waited {
				t.Fatalf("batch %d: ok %v, waited %v", i, ok, waited)
			}
			b.n = i
			if !send(b) {
				t.Fatalf("batch %d refused", i)
			}
			log = append(log, "sent "+strconv.Itoa(i))
		}
		return readErr
	})
	want := "write 0 0 false,sent 0,write 1 10 false,flush,sent 1,write 2 0 false,sent 2,write 3 30 false,sent 3"
	if got := strings.Join(log, ","); got != want || err != readErr {
		t.Fatalf("got %s, %v\nwant %s, %v", got, err, want, readErr)
	}
}

// TestOneBatch: only a regular file no bigger than a batch is read
// inline; a pipe or a reader of bytes is not, whatever its size.
func TestOneBatch(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, make([]byte, 100), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	for _, c := range []struct {
		what string
		r    io.Reader
		size int64
		want bool
	}{
		{"a pipe", pr, 1 << 20, false},
		{"bytes", bytes.NewReader(make([]byte, 10)), 1 << 20, false},
		{"a file bigger than a batch", f, 99, false},
		{"a file a batch holds", f, 100, true},
	} {
		if got := OneBatch(c.r, c.size); got != c.want {
			t.Errorf("%s: OneBatch %v, want %v", c.what, got, c.want)
		}
	}
}
