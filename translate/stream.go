package translate

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"time"

	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/internal/pipeline"
	"github.com/zevo/zevo/jsonl"
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
	// eventBatchLines is batchLines for lines decoded ahead for the event
	// path (decodeAhead).
	eventBatchLines = 256
	batches         = 4
)

type batch struct {
	buf     []byte
	lines   []prepared         // reused, with their fields
	text    []byte             // decoded strings of the lines (jsonl.LineObject.Arena)
	members []jsonl.LineMember // the lines' members (jsonl.LineObject.MemberArena)
	// the events of the lines decoded ahead, and their steps (decodeAhead)
	evs   []model.Event
	steps []model.Step
	// evText is where their strings with escapes are unescaped: an
	// arena only appended to, whose bytes handed out are never written
	// again (a full block is dropped, not reused).
	evText []byte
	// evsHigh and linesHigh are how many events and lines the batch's
	// last filling had: those past this filling's are cleared
	// (decodeBatch).
	evsHigh, linesHigh int
	n                  int
	// waited: the translating goroutine waited for this batch; it tells
	// the reading one to do less for it (preparer.balance).
	waited bool
	// seq is the batch's place in Stream's input; decoded: the reading
	// goroutine decoded its lines (decodeTurns).
	seq     uint64
	decoded bool
}

func (b *batch) reset() {
	// The lines' decoded strings are in an arena of the batch, so that
	// memory follows the batch's bytes, not its number of lines.
	// Cleared: a view kept past its line reads as zero bytes (which
	// tests notice), not as another line's text.
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
	// The events decoded ahead are overwritten by the next lines' rather
	// than cleared: what they hold on to (lines of this batch, at most a
	// batch's worth) is let go then.
	b.evs, b.steps = b.evs[:0], b.steps[:0]
	b.buf, b.n = b.buf[:0], 0
	b.decoded = false
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
// and splits the lines ahead (internal/pipeline). flush is called whenever
// the input would block, once every line read so far is translated, so that
// a live pipe sees each event at once. lk, when not nil, is held while a
// batch of lines is translated (not while waiting for input). diag gets
// each bad line. An error from diag, flush or emit stops Stream and is
// returned; a read error is returned as *ReadError. Stream does not call
// End. When Stream returns early, the reading goroutine ends at its next
// read.
func (t *Translator) Stream(r io.Reader, name string, lk sync.Locker, flush func() error, diag func(*jsonl.Diagnostic) error) error {
	events := t.allEvents()
	if t.pipe == nil {
		t.pipe = &pipeline.Pipe[batch]{Batches: batches, New: func() *batch { return &batch{} }}
	}
	turns := &decodeTurns{on: t.decodeOn}
	t.pipe.Write = func(b *batch, waited bool) error {
		b.waited = waited
		return t.applyBatch(b, events, turns, lk, diag)
	}
	t.pipe.Flush = flush
	// A file a batch holds is read, decoded and written on this
	// goroutine: the stages could not overlap, and the goroutines cost
	// a small translation more than its own work (differential_test.go
	// compares the two ways).
	t.pipe.Inline = pipeline.OneBatch(r, t.oneBatch)
	t.streamLines = 0
	err := t.pipe.Run(func(f *pipeline.Feed[batch]) error { return t.readAhead(f, r, name, turns) })
	// The reading goroutine, which may still run, decodes no more: End
	// may be ending the input.
	t.ep.mu.Lock()
	turns.stopped = true
	t.ep.turn.Broadcast()
	t.ep.mu.Unlock()
	return err
}

// decodeTurns is where and in which order Stream's batches are decoded
// for the event path: one after the other, in input order, since
// decoders keep the state of the input's runs; on the translating
// goroutine, or on the reading one when that makes the input go through
// faster (here). next and stopped are guarded by the Translator's ep.mu;
// the rest is the reading goroutine's.
type decodeTurns struct {
	next    uint64                // the seq of the batch to decode next
	stopped bool                  // Stream has returned: nothing more is decoded
	on      func(seq uint64) bool // Translator.decodeOn
	clock   func() time.Duration  // tests'; the time since started when nil

	reader bool // the reading goroutine decodes
	// The window of batches being timed: its first batch, when it began
	// (time.Duration since started) and the bytes of its lines.
	from  uint64
	began time.Duration
	bytes int
	// rate is the throughput timed in each place (bytes a second; [1]
	// the reading goroutine's), the better of its last two windows, 0
	// before any; last is the current place's last window's. settle:
	// the window is the first of the input or follows a move, and is not
	// timed (the run's start, a move's wait). trying: the decoding moved
	// to be timed in its new place, and goes back if it was faster
	// before. timed counts the windows timed since the last move.
	rate, last [2]float64
	settle     bool
	trying     bool
	timed      int
}

const (
	// turnWindow is how many batches a window times.
	turnWindow = 16
	// turnRetry is how many windows the decoding stays where it is
	// faster before the other place is timed again (the input may have
	// changed).
	turnRetry = 64
)

// here tells the reading goroutine whether it decodes batch seq, whose
// lines hold n bytes. The input's throughput is timed with the decoding
// on each goroutine in turn, two windows each, and the decoding stays
// where it was faster, trying the other place again every turnRetry
// windows.
// Throughput is timed, not each stage: the stages share the machine, and
// each one's time changed with where the decoding was, so they did not
// tell what a move would give. The window after a move is not timed: a
// move to the reading goroutine first waits for the batches already sent.
func (d *decodeTurns) here(seq uint64, n int) bool {
	if d.on != nil {
		return d.on(seq)
	}
	var now time.Duration
	if d.clock != nil {
		now = d.clock()
	} else {
		now = time.Since(started)
	}
	if seq == 0 {
		d.began, d.settle = now, true
	}
	d.bytes += n
	if seq+1-d.from < turnWindow {
		return d.reader
	}
	cur, other := 0, 1
	if d.reader {
		cur, other = 1, 0
	}
	move := false
	if d.settle {
		d.settle = false
	} else {
		// The better of two windows: a collection cycle or another
		// program slows a window a third or more.
		r := float64(d.bytes) / max(now-d.began, 1).Seconds()
		d.timed++
		d.rate[cur] = r
		if d.timed > 1 {
			d.rate[cur] = max(r, d.last[cur])
		}
		d.last[cur] = r
		switch {
		case d.timed < 2:
		case d.trying:
			d.trying = false
			move = d.rate[other] > d.rate[cur] // back where it was faster
		case d.rate[other] == 0 || d.timed >= turnRetry:
			move, d.trying = true, true
		}
	}
	if move {
		d.reader, d.settle, d.timed = !d.reader, true, 0
	}
	d.from, d.began, d.bytes = seq+1, now, 0
	return d.reader
}

// decodeHere decodes b on the reading goroutine once every batch before
// it is decoded; false once Stream has returned.
func (t *Translator) decodeHere(turns *decodeTurns, b *batch, pre *preparer) bool {
	ep := &t.ep
	ep.mu.Lock()
	defer ep.mu.Unlock()
	for turns.next != b.seq && !turns.stopped {
		ep.turn.Wait()
	}
	if turns.stopped {
		return false
	}
	t.decodeBatch(b, pre)
	b.decoded = true
	turns.next++
	return true
}

// applyBatch translates b's lines; events: they go the event path, and
// are decoded here unless the reading goroutine did (decodeTurns).
func (t *Translator) applyBatch(b *batch, events bool, turns *decodeTurns, lk sync.Locker, diag func(*jsonl.Diagnostic) error) error {
	if lk != nil {
		lk.Lock()
		defer lk.Unlock()
	}
	if events && !b.decoded {
		// Batches come in order, each decoded here or before it was
		// sent: this one's turn has come.
		ep := &t.ep
		ep.mu.Lock()
		t.decodeBatch(b, &t.pre)
		turns.next++
		ep.turn.Broadcast()
		ep.mu.Unlock()
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

// readAhead reads lines into batches and prepares them. It returns a read
// error as *ReadError.
func (t *Translator) readAhead(f *pipeline.Feed[batch], r io.Reader, name string, turns *decodeTurns) error {
	pre := t.streamPreparer()
	// Unless Plain: this goroutine reads and checks the lines for the
	// event path (readLineAhead), and decodes them too when the
	// translating one is behind (decodeTurns).
	events := t.allEvents()
	lines := batchLines
	if events {
		// A line decoded ahead keeps more (its events, its reading) in
		// its batch: fewer a batch, so that memory stays as it was.
		lines = eventBatchLines
	}
	var b *batch
	var lc lineCopies
	// Lines by pointer, here and to readLineAhead: see Reader.NextInto.
	prepare := func(l *jsonl.Line, p *prepared) {
		if events {
			t.readLineAhead(p, &pre, l) // for decodeBatch
		} else {
			pre.prepare(*l, p)
		}
	}
	// filled is how many bytes of lines the batch holds: the event path's
	// are in lc's blocks, not in the batch's buffer.
	filled := 0
	var seq uint64
	get := func() bool {
		var waited, ok bool
		if b, waited, ok = f.Get(); !ok {
			return false
		}
		pre.balance(waited, b.waited)
		b.reset()
		b.seq, seq = seq, seq+1
		filled = 0
		return true
	}
	// ahead decodes b here, before it is sent, when this goroutine has
	// the time.
	ahead := func() bool {
		if !events {
			return true
		}
		return !turns.here(b.seq, filled) || t.decodeHere(turns, b, &pre)
	}
	if !get() {
		return nil
	}
	lr := jsonl.NewReader(r, name, func() error {
		// The next read may wait: hand over what there is, to be flushed.
		if !ahead() || !f.Idle(b) || !get() {
			return errStopped
		}
		return nil
	})
	t.reader.Store(lr)
	var l jsonl.Line
	for {
		if err := lr.NextInto(&l); err != nil {
			if errors.Is(err, errStopped) || !ahead() || !f.Send(b) || err == io.EOF {
				return nil
			}
			return &ReadError{err}
		}
		if len(l.Bytes) > batchBytes {
			// A long line is not copied: it is translated where it is,
			// while this goroutine waits.
			if b.n > 0 && (!ahead() || !f.Send(b) || !get()) {
				return nil
			}
			if events {
				l.Bytes = lc.copy(l.Bytes)
			}
			prepare(&l, b.next())
			filled = len(l.Bytes)
			if !ahead() || !f.SendWait(b) || !get() {
				return nil
			}
			continue
		}
		if events {
			// Copied once, where the event path reads it (readLineAhead),
			// not into the batch's buffer first.
			l.Bytes = lc.copy(l.Bytes)
		} else {
			if b.buf == nil {
				// Made here: the event path's lines are not in it.
				b.buf = make([]byte, 0, 2*batchBytes)
			}
			start := len(b.buf)
			b.buf = append(b.buf, l.Bytes...)
			l.Bytes = b.buf[start:len(b.buf):len(b.buf)]
		}
		filled += len(l.Bytes)
		if p := b.next(); pre.here() {
			prepare(&l, p)
		} else {
			p.later, p.line = true, l
		}
		if filled >= batchBytes || b.n >= lines {
			if !ahead() || !f.Send(b) || !get() {
				return nil
			}
		}
	}
}

// lineCopies copies the lines the event path reads ahead
// (readLineAhead), as they are read, each into memory never written again, since decoders
// and encoders may hold on to a line's strings past it: short lines
// side by side in small blocks, so that a line costs no allocation of its
// own, and a string kept holds on to one block at most.
type lineCopies struct{ block []byte }

// lineBlock is the size of lineCopies' blocks; a line longer than a
// quarter of one gets memory of its own.
const lineBlock = 16 << 10

func (c *lineCopies) copy(line []byte) []byte {
	if len(line) > lineBlock/4 {
		return bytes.Clone(line)
	}
	if len(line) > cap(c.block)-len(c.block) {
		c.block = make([]byte, 0, lineBlock)
	}
	start := len(c.block)
	c.block = append(c.block, line...)
	return c.block[start:len(c.block):len(c.block)]
}

// decodeBatch decodes the lines of b that go the event path into their
// events, in order, with ep.mu held: those read by readLineAhead, and
// those the reading goroutine left (prepared.later), read first with pre.
func (t *Translator) decodeBatch(b *batch, pre *preparer) {
	for i := range b.lines[:b.n] {
		p := &b.lines[i]
		if p.later {
			p.later = false
			t.readLineAhead(p, pre, &p.line)
		}
		if p.ahead {
			p.ahead = false
			t.decodeAhead(b, p)
		}
	}
	// What the last filling left past this one's is cleared: events
	// and lines kept there would hold on to memory of any age.
	if n := len(b.evs); n < b.evsHigh {
		clear(b.evs[n:b.evsHigh])
		clear(b.steps[n:b.evsHigh])
	}
	b.evsHigh = len(b.evs)
	for i := b.n; i < b.linesHigh; i++ {
		p := &b.lines[i]
		p.evs, p.steps, p.input, p.derr = nil, nil, nil, nil
		if p.eline != nil {
			p.eline.Clear()
		}
	}
	b.linesHigh = b.n
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

// started is the origin of decodeTurns' times: a monotonic clock.
var started = time.Now()
