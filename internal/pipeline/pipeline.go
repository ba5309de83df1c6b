// Package pipeline carries an input from a reading goroutine to a writing
// one in batches, through workers when a command wants them, and writes
// the batches in the order they were read.
//
// A fixed set of batches circulates: the reader fills a free one and sends
// it on, the writer hands it back once written, so memory stays bounded
// whatever the input. A live input is not held back for a batch to fill:
// when reading would wait, the reader sends what it has with Idle, and the
// writer flushes right after writing it.
package pipeline

import (
	"io"
	"io/fs"
	"sync"
)

// Pipe is one pipeline's stages. Its batches are kept for the next Run
// when a Run ends with all of them back.
type Pipe[B any] struct {
	// Batches is how many batches circulate; New makes them.
	Batches int
	New     func() *B

	// Workers, when more than 0, is how many goroutines run the function
	// Worker returns on each batch before it is written; several run at
	// once, so batches are written in order, not as they are done. Worker
	// is called once per goroutine; stop is closed when the run stops
	// early, which work that may wait must watch.
	Workers int
	Worker  func(stop <-chan struct{}) func(*B)
	// NeedsWork, when set, tells which batches the workers have nothing
	// to do for (only a flush, say): those go straight to the writer.
	NeedsWork func(*B) bool
	// Drain, when set, is called on the writing goroutine with a batch
	// whose work may still run, as soon as it is the next to be written,
	// for what the work hands over while it runs; it returns once the
	// work no longer needs it.
	Drain func(*B) error

	// Write writes a batch, in input order; waited tells that the writer
	// waited for it (the reader was behind).
	Write func(b *B, waited bool) error
	// Flush, when set, is called after writing a batch sent with Idle.
	Flush func() error

	// Inline, when set, runs read, the work and the writes on Run's
	// goroutine: each batch sent is worked and written at once. For an
	// input no bigger than a batch (OneBatch) the stages could not
	// overlap anyway, and starting the goroutines and handing the batch
	// from thread to thread cost a small input more than its own work.
	// The goroutines are the reference; tests compare the two. Not with
	// Drain, which runs while work goes on elsewhere.
	Inline bool

	spare []*B
}

type item[B any] struct {
	b       *B
	flush   bool
	written chan struct{} // SendWait's
	worked  chan struct{} // closed once the workers are done with b
}

// Feed is the reader's end of a running pipe.
type Feed[B any] struct {
	inline func(item[B]) bool // Inline's: works and writes a batch sent
	free   chan *B
	work   chan item[B]
	queue  chan item[B]
	stop   chan struct{}
	needs  func(*B) bool
}

// Run runs read on a goroutine of its own and writes what it sends on the
// caller's, in order, until read returns and all it sent is written; then
// it returns read's error. An error from Write, Drain or Flush stops the
// run and is returned at once: the reader's next Get or Send returns false
// (a reader waiting for input ends at its next read), and Run waits only
// for the workers.
func (p *Pipe[B]) Run(read func(*Feed[B]) error) error {
	n := p.Batches
	f := &Feed[B]{
		free:  make(chan *B, n),
		queue: make(chan item[B], n),
		stop:  make(chan struct{}),
		needs: p.NeedsWork,
	}
	if len(p.spare) != n {
		p.spare = p.spare[:0]
		for range n {
			p.spare = append(p.spare, p.New())
		}
	}
	for _, b := range p.spare {
		f.free <- b
	}
	if p.Inline && p.Drain == nil {
		return p.runInline(f, read)
	}
	var wg sync.WaitGroup
	if p.Workers > 0 {
		f.work = make(chan item[B], n)
		for range p.Workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f.worker(p.Worker(f.stop))
			}()
		}
	}
	var readErr error
	go func() {
		readErr = read(f)
		if f.work != nil {
			close(f.work)
		}
		close(f.queue)
	}()

	stopped := true
	defer func() {
		close(f.stop)
		wg.Wait()
		if stopped {
			p.spare = nil // the reader may still hold one
		}
	}()
	for {
		var it item[B]
		var ok, waited bool
		select {
		case it, ok = <-f.queue:
		default:
			waited = true
			it, ok = <-f.queue
		}
		if !ok {
			break
		}
		if it.worked != nil {
			if p.Drain != nil {
				if err := p.Drain(it.b); err != nil {
					return err
				}
			}
			<-it.worked
		}
		if err := p.Write(it.b, waited); err != nil {
			return err
		}
		if it.written != nil {
			close(it.written)
		}
		if it.flush && p.Flush != nil {
			if err := p.Flush(); err != nil {
				return err
			}
		}
		f.free <- it.b
	}
	stopped = false
	return readErr
}

// runInline is Run with every stage on the caller's goroutine (Inline).
func (p *Pipe[B]) runInline(f *Feed[B], read func(*Feed[B]) error) error {
	var work func(*B)
	if p.Workers > 0 {
		work = p.Worker(f.stop)
	}
	var werr error
	f.inline = func(it item[B]) bool {
		if work != nil && (f.needs == nil || f.needs(it.b)) {
			work(it.b)
		}
		werr = p.Write(it.b, false)
		if werr == nil && it.flush && p.Flush != nil {
			werr = p.Flush()
		}
		if werr != nil {
			close(f.stop) // the reader's next Get or Send returns false
			return false
		}
		f.free <- it.b
		return true
	}
	err := read(f)
	if werr != nil {
		p.spare = nil // as Run: the reader may have kept one
		return werr
	}
	close(f.stop)
	return err
}

func (f *Feed[B]) worker(work func(*B)) {
	for {
		select {
		case it, ok := <-f.work:
			if !ok {
				return
			}
			select {
			case <-f.stop:
			default:
				work(it.b)
			}
			close(it.worked)
		case <-f.stop:
			return
		}
	}
}

// Get returns a free batch, as the writer left it, waiting for one if
// need be (waited then tells so: the writer is behind). ok is false once
// the run has stopped.
func (f *Feed[B]) Get() (b *B, waited, ok bool) {
	select {
	case b = <-f.free:
		return b, false, true
	default:
	}
	select {
	case b = <-f.free:
		return b, true, true
	case <-f.stop:
		return nil, true, false
	}
}

// Send sends b on to be written (through the workers, if any). It returns
// false once the run has stopped; b is then dropped.
func (f *Feed[B]) Send(b *B) bool { return f.send(item[B]{b: b}) }

// Idle sends b as Send does, for the writer to flush once it is written:
// the input would wait after it.
func (f *Feed[B]) Idle(b *B) bool { return f.send(item[B]{b: b, flush: true}) }

// SendWait sends b as Send does and returns once it is written, so that
// memory b points into may be reused.
func (f *Feed[B]) SendWait(b *B) bool {
	if f.inline != nil {
		return f.send(item[B]{b: b}) // written when send returns
	}
	it := item[B]{b: b, written: make(chan struct{})}
	if !f.send(it) {
		return false
	}
	select {
	case <-it.written:
		return true
	case <-f.stop:
		return false
	}
}

// Stopped reports whether the run has stopped: the reader need not open
// another input.
func (f *Feed[B]) Stopped() bool {
	select {
	case <-f.stop:
		return true
	default:
		return false
	}
}

func (f *Feed[B]) send(it item[B]) bool {
	if f.Stopped() {
		return false
	}
	if f.inline != nil {
		return f.inline(it)
	}
	if f.work != nil && (f.needs == nil || f.needs(it.b)) {
		it.worked = make(chan struct{})
		select {
		case f.work <- it:
		case <-f.stop:
			return false
		}
	}
	select {
	case f.queue <- it:
		return true
	case <-f.stop:
		return false
	}
}

// OneBatch tells whether r is a regular file of at most size bytes: an
// input a batch of that size holds whole, which Inline suits. A pipe, a
// terminal or a followed file is read as it comes: never inline.
func OneBatch(r io.Reader, size int64) bool {
	f, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode().IsRegular() && fi.Size() <= size
}
