package translate

import (
	"errors"
	"io"
	"sync"

	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// ReadError is an error reading an input, as Stream returns it.
type ReadError struct{ Err error }

func (e *ReadError) Error() string { return e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }

// Lines travel from the reading goroutine to the translating one in
// batches, copied into the batch's buffer; a few batches are recycled, so
// memory stays flat whatever the input.
const (
	batchBytes = 128 << 10
	batchLines = 1024
	batches    = 4
)

type batch struct {
	buf     []byte
	lines   []prepared        // reused, with their fields
	text    []byte            // decoded strings of the lines (protocol.Object.Arena)
	members []protocol.Member // the lines' members (protocol.Object.MemberArena)
	n       int
	flush   bool          // the input would block after these lines
	err     error         // reading ended: io.EOF or a read error
	ack     chan struct{} // closed once translated: the line is still in the reader's buffer
	// waited: the translating goroutine waited for this batch; it tells
	// the reading one to do less for it (preparer.balance).
	waited bool
}

func (b *batch) reset() {
	if b.buf == nil {
		b.buf = make([]byte, 0, 2*batchBytes)
	}
	// The lines' decoded strings are in an arena of the batch, so that
	// memory follows the batch's bytes, not its number of lines. Cleared:
	// a view kept past its line reads as zero bytes (which tests notice),
	// not as another line's text.
	if cap(b.text) > 4*batchBytes {
		b.text = nil // after a long line
	}
	clear(b.text)
	b.text = b.text[:0]
	// The members of a batch's lines are in one array, in line order:
	// the translating goroutine then reads, and the reading one later
	// overwrites, consecutive memory, which the other core's cache
	// hands over faster than members scattered line by line. Cleared
	// like the arenas above, and so that no member holds on to a long
	// line's memory.
	clear(b.members)
	b.members = b.members[:0]
	b.buf, b.n, b.flush, b.err, b.ack = b.buf[:0], 0, false, nil, nil
	b.waited = false
}

func (b *batch) next() *prepared {
	if b.n == len(b.lines) {
		b.lines = append(b.lines, prepared{})
	}
	b.n++
	p := &b.lines[b.n-1]
	p.later = false // left set only if translation stopped early
	p.ev.Arena = &b.text
	p.ev.MemberArena = &b.members
	return p
}

var errStopped = errors.New("translation stopped")

// Stream translates the lines of r (named name in diagnostics) as Line
// would, one by one and in order, while a second goroutine reads, validates
// and splits the lines ahead. flush is called whenever the input would
// block, once every line read so far is translated, so that a live pipe sees
// each event at once. lk, when not nil, is held while a batch of lines is
// translated (not while waiting for input). diag gets each bad line. An error from diag, flush or
// emit stops Stream and is returned; a read error is returned as
// *ReadError. Stream does not call End. When Stream returns early, the
// reading goroutine ends at its next read.
func (t *Translator) Stream(r io.Reader, name string, lk sync.Locker, flush func() error, diag func(*jsonl.Diagnostic) error) error {
	free := make(chan *batch, batches)
	full := make(chan *batch, batches)
	done := make(chan struct{})
	defer close(done)
	if t.batches == nil {
		for range batches {
			t.batches = append(t.batches, &batch{})
		}
	}
	for _, b := range t.batches {
		free <- b
	}
	t.streamLines = 0
	go t.readAhead(r, name, free, full, done)
	stopped := true
	defer func() {
		if stopped {
			t.batches = nil // the reading goroutine may still hold one
		}
	}()
	for {
		var b *batch
		select {
		case b = <-full:
		default:
			b = <-full
			b.waited = true
		}
		if err := t.applyBatch(b, lk, diag); err != nil {
			return err
		}
		if b.ack != nil {
			close(b.ack)
		}
		if b.flush {
			if err := flush(); err != nil {
				return err
			}
		}
		rerr := b.err
		free <- b
		if rerr != nil {
			stopped = false // every batch is back in free
		}
		switch {
		case rerr == io.EOF:
			return nil
		case rerr != nil:
			return &ReadError{rerr}
		}
	}
}

func (t *Translator) applyBatch(b *batch, lk sync.Locker, diag func(*jsonl.Diagnostic) error) error {
	if lk != nil {
		lk.Lock()
		defer lk.Unlock()
	}
	for i := 0; i < b.n; i++ {
		p := &b.lines[i]
		if p.later {
			// Prepared here, in memory this core has: the reading
			// goroutine was behind.
			p.later = false
			t.pre.prepare(p.line, p)
		}
		t.streamLines++
		err := t.apply(p)
		if err == nil {
			continue
		}
		var d *jsonl.Diagnostic
		if errors.As(err, &d) {
			if err := diag(d); err != nil {
				return err
			}
			continue
		}
		return err
	}
	return nil
}

// readAhead reads lines into batches and prepares them.
func (t *Translator) readAhead(r io.Reader, name string, free, full chan *batch, done chan struct{}) {
	pre := t.streamPreparer()
	var b *batch
	get := func() bool {
		waited := false
		select {
		case b = <-free:
		default:
			waited = true // every batch is full: the translating goroutine is behind
		}
		if waited {
			select {
			case b = <-free:
			case <-done:
				return false
			}
		}
		pre.balance(waited, b.waited)
		b.reset()
		return true
	}
	send := func() bool {
		select {
		case full <- b:
			b = nil
			return true
		case <-done:
			return false
		}
	}
	if !get() {
		return
	}
	lr := jsonl.NewReader(r, name, func() error {
		// The next read may wait: hand over what there is, to be flushed.
		b.flush = true
		if !send() || !get() {
			return errStopped
		}
		return nil
	})
	t.reader.Store(lr)
	for {
		l, err := lr.Next()
		if err != nil {
			if errors.Is(err, errStopped) {
				return
			}
			b.err = err
			send()
			return
		}
		if len(l.Bytes) > batchBytes {
			// A long line is not copied: it is translated where it is,
			// while this goroutine waits.
			if b.n > 0 && (!send() || !get()) {
				return
			}
			pre.prepare(l, b.next())
			ack := make(chan struct{})
			b.ack = ack
			if !send() {
				return
			}
			select {
			case <-ack:
			case <-done:
				return
			}
			if !get() {
				return
			}
			continue
		}
		start := len(b.buf)
		b.buf = append(b.buf, l.Bytes...)
		l.Bytes = b.buf[start:len(b.buf):len(b.buf)]
		if p := b.next(); pre.here() {
			pre.prepare(l, p)
		} else {
			p.later, p.line = true, l
		}
		if len(b.buf) >= batchBytes || b.n >= batchLines {
			if !send() || !get() {
				return
			}
		}
	}
}

// Pending translates the line Stream's input stopped inside (read, with
// no line end yet) as Line would at the input's end, if every line before
// it is translated, and passes its diagnostic to diag: an interruption
// reports what a file ending there reports. Call it with Stream's lk
// held, before Interrupt; Stream's later lines are not to be applied
// after it.
func (t *Translator) Pending(diag func(*jsonl.Diagnostic) error) error {
	lr := t.reader.Load()
	if lr == nil {
		return nil
	}
	l, ok := lr.Pending()
	if !ok || l.Num != t.streamLines+1 {
		return nil
	}
	t.streamLines++
	err := t.Line(l)
	var d *jsonl.Diagnostic
	if errors.As(err, &d) {
		return diag(d)
	}
	return err
}
