package inspect

import (
	"errors"
	"io"
	"sync"

	"github.com/zevo/zevo/internal/pipeline"
	"github.com/zevo/zevo/jsonl"
)

// Validating a line is three steps: what depends on no other line
// (reading it from the input, once: check), trying it on the fast path
// of its likely schema (tryFast), and what depends on the lines before
// it or words problems (its dialect, events, schema, runs, calls:
// apply). Stream does each on a goroutine of its own, so that the two
// cores share the work whichever step costs most on an input; apply
// stays in line order on the caller's, and alone changes the
// Validator's state (an interruption reports the lines applied). The
// diagnostics are the same as Line's, line for line (TestStreamAsLine).

// Lines travel from the reading goroutine in batches; a few are recycled.
const (
	checkBatchLines = 256
	checkBatchBytes = 256 << 10
	checkBatches    = 4
)

type checkBatch struct {
	lines []checked
	n     int
	bytes int
}

var errCheckStopped = errors.New("validation stopped")

// Stream validates the lines of r (named name) as Line would, in order,
// while a second goroutine reads and checks them ahead
// (internal/pipeline). lk, when not nil, is held while a batch of lines
// is applied, not while waiting for input; flush, when not nil, is called
// (without lk) whenever the input would block, once every line read so
// far is applied, so that a live stream's diagnostics go out at once. It
// returns a read error, or flush's. When it returns early, the reading
// goroutine ends at its next read.
func (v *Validator) Stream(r io.Reader, name string, lk sync.Locker, flush func() error) error {
	p := &pipeline.Pipe[checkBatch]{
		Batches: checkBatches,
		New:     func() *checkBatch { return &checkBatch{lines: make([]checked, checkBatchLines)} },
		Workers: 1,
		Worker: func(<-chan struct{}) func(*checkBatch) {
			return func(b *checkBatch) {
				for i := range b.n {
					v.tryFast(&b.lines[i])
				}
			}
		},
		Write: func(b *checkBatch, _ bool) error {
			if lk != nil {
				lk.Lock()
				defer lk.Unlock()
			}
			for i := range b.n {
				v.apply(&b.lines[i])
			}
			return nil
		},
		Flush: flush,
	}
	return p.Run(func(f *pipeline.Feed[checkBatch]) error { return v.readAhead(f, r, name) })
}

// readAhead reads lines into batches and checks them.
func (v *Validator) readAhead(f *pipeline.Feed[checkBatch], r io.Reader, name string) error {
	var b *checkBatch
	get := func() bool {
		var ok bool
		if b, _, ok = f.Get(); ok {
			b.n, b.bytes = 0, 0
		}
		return ok
	}
	if !get() {
		return nil
	}
	lr := jsonl.NewReader(r, name, func() error {
		// The next read may wait: hand over what there is, to be flushed.
		if !f.Idle(b) || !get() {
			return errCheckStopped
		}
		return nil
	})
	v.reader.Store(lr)
	for {
		l, err := lr.Next()
		if err != nil {
			if errors.Is(err, errCheckStopped) || !f.Send(b) || err == io.EOF {
				return nil
			}
			return err
		}
		v.check(l, &b.lines[b.n])
		b.n++
		if b.bytes += len(l.Bytes); b.n == len(b.lines) || b.bytes >= checkBatchBytes {
			if !f.Send(b) || !get() {
				return nil
			}
		}
	}
}

// Pending checks the line Stream's input stopped inside (read, with no
// line end yet) as Line would check it at the input's end, if every line
// before it is applied: an interruption then reports what a file ending
// there reports. Call it with Stream's lk held, before End; Stream's
// later lines are not to be applied after it.
func (v *Validator) Pending() {
	lr := v.reader.Load()
	if lr == nil {
		return
	}
	if l, ok := lr.Pending(); ok && l.Num == v.report.Lines+1 {
		v.Line(l)
	}
}
