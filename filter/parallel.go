package filter

import (
	"errors"
	"io"

	"github.com/zevo/zevo/internal/pipeline"
	"github.com/zevo/zevo/internal/termsafe"
	"github.com/zevo/zevo/jsonl"
)

// The parallel path: the reading goroutine cuts the input into batches of
// lines, workers run the expression on whole batches, and the writing
// one writes their results in input order (internal/pipeline). Batches
// are small enough to keep memory flat and big enough that the
// hand-offs cost little. Each hand-off between goroutines can cost a
// scheduler wake-up, which on a busy machine takes milliseconds, so
// batches are large.
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
	out   []byte
	msgs  []byte
	st    Stats
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
	b.st = Stats{}
}

// errHalted stops the pipeline at halt or FailFast; Run does not return it.
var errHalted = errors.New("halted")

// errReadStopped ends reading an input once the pipeline has stopped.
var errReadStopped = errors.New("stopped")

func (f *Filter) runParallel(inputs []Input, w *jsonl.Writer, errw io.Writer) (Stats, error) {
	var total Stats
	p := &pipeline.Pipe[batch]{
		// A fixed set of batches circulates, so their buffers are reused
		// and memory stays flat: the reader waits for a free one. There
		// are enough that a worker the system pauses for a while does not
		// stall the others behind it, and few enough that the input and
		// results they hold stay a few MB.
		Batches: 2*f.opt.Workers + 4,
		New:     func() *batch { return &batch{} },
		Workers: f.opt.Workers,
		Worker: func(stop <-chan struct{}) func(*batch) {
			r := f.newRunner()
			var cur *batch
			r.spill = func() {
				select {
				case cur.spilled <- r.out:
					r.out = make([]byte, 0, spillBytes+spillBytes/2)
				case <-stop:
					// Nothing is written any more: the line need not go on.
					r.out, r.stop = r.out[:0], true
				}
			}
			return func(b *batch) {
				cur = b
				r.batch(b)
				close(b.spilled)
			}
		},
		// A batch of only messages or a flush has nothing to run.
		NeedsWork: func(b *batch) bool { return len(b.lines) > 0 },
		Drain: func(b *batch) error {
			for c := range b.spilled {
				unlock := f.lock()
				w.Write(c)
				err := w.Err()
				unlock()
				if err != nil {
					return err
				}
			}
			return nil
		},
		Write: func(b *batch, _ bool) error {
			defer f.lock()()
			w.Write(b.out)
			if len(b.msgs) > 0 {
				// Results before a message reach stdout first.
				w.Flush()
				errw.Write(b.msgs)
			}
			total.add(&b.st)
			if err := w.Err(); err != nil {
				return err
			}
			if b.st.Halted || b.st.Stopped {
				return errHalted
			}
			return nil
		},
		Flush: func() error {
			defer f.lock()()
			return w.Flush()
		},
	}
	err := p.Run(func(feed *pipeline.Feed[batch]) error {
		f.readBatches(feed, inputs)
		return nil
	})
	if err == errHalted {
		err = nil
	}
	if err == nil {
		unlock := f.lock()
		err = w.Flush()
		unlock()
	}
	return total, err
}

// readBatches cuts inputs into batches for runParallel.
func (f *Filter) readBatches(feed *pipeline.Feed[batch], inputs []Input) {
	var cur *batch
	get := func() bool {
		var ok bool
		if cur, _, ok = feed.Get(); ok {
			cur.reset()
		}
		return ok
	}
	// hand hands cur over, to be flushed once written if idle; false once
	// the pipeline has stopped.
	hand := func(idle bool) bool {
		if len(cur.lines) > 0 {
			cur.spilled = make(chan []byte, spillChunks)
		}
		if idle {
			return feed.Idle(cur)
		}
		return feed.Send(cur)
	}
	send := func(idle bool) bool { return hand(idle) && get() }
	report := func(msg string) bool {
		if !send(false) {
			return false
		}
		cur.msgs = append(cur.msgs, msg...)
		cur.st.Unread++
		if f.opt.FailFast {
			cur.st.Stopped = true
		}
		return send(false)
	}
	idle := func() error {
		if !send(true) {
			return errReadStopped
		}
		return nil
	}
	if !get() {
		return
	}
	for _, in := range inputs {
		if feed.Stopped() {
			return
		}
		rc, err := in.Open()
		if err != nil {
			if !report("zevo: " + termsafe.String(err.Error()) + "\n") {
				return
			}
			continue
		}
		ok := f.readInput(rc, in.Name, &cur, idle, send, report)
		rc.Close()
		if !ok {
			return
		}
	}
	hand(true)
}

// readInput adds the units of one input to *cur, sending each batch as it
// fills; false once the pipeline has stopped.
func (f *Filter) readInput(rc io.Reader, name string, cur **batch, idle func() error, send func(bool) bool, report func(string) bool) bool {
	rd := f.openUnits(rc, name, idle)
	num := 0
	for {
		l, err := rd.next()
		if errors.Is(err, errReadStopped) {
			return false
		}
		if err == io.EOF {
			return true
		}
		if err != nil {
			return report(diag(name, num+1, "read error: "+err.Error()))
		}
		b := *cur
		num = l.Num + l.Lines - 1
		b.st.Lines += l.Lines
		if l.Blank {
			continue
		}
		start := len(b.buf)
		b.buf = append(b.buf, l.Bytes...)
		if l.CR && f.opt.RawInput {
			b.buf = append(b.buf, '\r')
		}
		b.lines = append(b.lines, lineRef{l.Name, l.Num, start, len(b.buf)})
		if len(b.lines) >= batchLines || len(b.buf) >= batchBytes {
			if !send(false) {
				return false
			}
		}
	}
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
