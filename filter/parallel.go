package filter

import (
	"io"
	"sync"
	"sync/atomic"

	"github.com/zevo/zevo/internal/termsafe"
	"github.com/zevo/zevo/jsonl"
)

// The parallel path: the reading goroutine cuts the input into batches of
// lines, workers run the expression on whole batches, and one writer
// goroutine writes their results in input order. Batches are small enough
// to keep memory flat and big enough that the hand-offs cost little.
// Each hand-off between goroutines can cost a scheduler wake-up, which on
// a busy machine takes milliseconds, so batches are large.
const (
	batchLines = 2048
	batchBytes = 128 << 10
)

type lineRef struct {
	name       string
	num        int
	start, end int
}

type batch struct {
	buf   []byte
	lines []lineRef
	flush bool // input would block after this batch: flush the output
	out   []byte
	msgs  []byte
	st    Stats
	done  chan struct{}
	// spilled carries the results of a batch that outgrow spillBytes (one
	// line yielding without end: range(1e9), .[] of a huge array) to the
	// writing goroutine while the batch still runs. Its few places bound
	// the memory of a batch that is not the next to be written: its worker
	// waits until it is. Closed when the batch is done.
	spilled chan []byte
}

// spillChunks is how many chunks of results a batch holds before its
// worker waits for the writing goroutine.
const spillChunks = 4

func (b *batch) reset() {
	b.buf, b.lines, b.out, b.msgs = b.buf[:0], b.lines[:0], b.out[:0], b.msgs[:0]
	b.flush = false
	b.st = Stats{}
}

func (f *Filter) runParallel(inputs []Input, w *jsonl.Writer, errw io.Writer) (Stats, error) {
	workers := f.opt.Workers
	// A fixed set of batches circulates, so their buffers are reused and
	// memory stays flat: the reader waits for a free one. There are enough
	// that a worker the system pauses for a while does not stall the
	// others behind it, and few enough that the input and results they
	// hold stay a few MB.
	nbatch := 2*workers + 4
	work := make(chan *batch, nbatch)
	order := make(chan *batch, nbatch)
	free := make(chan *batch, nbatch)
	for range nbatch {
		free <- &batch{}
	}
	var stopped atomic.Bool
	var total Stats
	var werr error

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.newRunner()
			var cur *batch
			r.spill = func() {
				cur.spilled <- r.out
				r.out = make([]byte, 0, spillBytes+spillBytes/2)
			}
			for b := range work {
				if !stopped.Load() {
					cur = b
					r.batch(b)
				}
				close(b.spilled)
				close(b.done)
			}
		}()
	}
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		for b := range order {
			for c := range b.spilled {
				unlock := f.lock()
				if !stopped.Load() {
					w.Write(c)
					if w.Err() != nil {
						stopped.Store(true)
						werr = w.Err()
					}
				}
				unlock()
			}
			<-b.done
			unlock := f.lock()
			if !stopped.Load() {
				w.Write(b.out)
				if len(b.msgs) > 0 {
					// Results before a message reach stdout first.
					w.Flush()
					errw.Write(b.msgs)
				}
				total.add(&b.st)
				if b.flush {
					w.Flush()
				}
				if b.st.Halted || b.st.Stopped || w.Err() != nil {
					stopped.Store(true)
					werr = w.Err()
				}
			}
			unlock()
			b.reset()
			free <- b
		}
	}()

	var cur *batch
	get := func() *batch { return <-free }
	cur = get()
	dispatch := func(flush bool) {
		cur.flush = flush
		cur.done = make(chan struct{})
		cur.spilled = make(chan []byte, spillChunks)
		if len(cur.lines) == 0 {
			close(cur.spilled) // nothing to run: only messages or a flush
			close(cur.done)
		} else {
			work <- cur
		}
		order <- cur
		cur = get()
	}
	report := func(msg string) {
		dispatch(false)
		cur.msgs = append(cur.msgs, msg...)
		cur.st.Unread++
		if f.opt.FailFast {
			cur.st.Stopped = true
		}
		dispatch(false)
	}
	idle := func() error {
		dispatch(true)
		return nil
	}

inputs:
	for _, in := range inputs {
		if stopped.Load() {
			break
		}
		rc, err := in.Open()
		if err != nil {
			report("zevo: " + termsafe.String(err.Error()) + "\n")
			continue
		}
		rd := f.openUnits(rc, in.Name, idle)
		num := 0
		for {
			l, err := rd.next()
			if err != nil {
				if err != io.EOF {
					report(diag(in.Name, num+1, "read error: "+err.Error()))
				}
				break
			}
			num = l.Num + l.Lines - 1
			cur.st.Lines += l.Lines
			if l.Blank {
				continue
			}
			start := len(cur.buf)
			cur.buf = append(cur.buf, l.Bytes...)
			if l.CR && f.opt.RawInput {
				cur.buf = append(cur.buf, '\r')
			}
			cur.lines = append(cur.lines, lineRef{l.Name, l.Num, start, len(cur.buf)})
			if len(cur.lines) >= batchLines || len(cur.buf) >= batchBytes {
				dispatch(false)
				if stopped.Load() {
					rc.Close()
					break inputs
				}
			}
		}
		rc.Close()
	}
	dispatch(true)
	close(work)
	close(order)
	wg.Wait()
	<-writerDone
	if werr == nil {
		unlock := f.lock()
		werr = w.Flush()
		unlock()
	}
	return total, werr
}

// batch runs the expression on every line of b.
func (r *runner) batch(b *batch) {
	r.out, r.msgs, r.st, r.stop = b.out, b.msgs, b.st, false
	for _, l := range b.lines {
		if r.stop {
			break
		}
		r.line(b.buf[l.start:l.end], l.name, l.num)
	}
	b.out, b.msgs, b.st = r.out, r.msgs, r.st
	r.out, r.msgs = nil, nil
}
