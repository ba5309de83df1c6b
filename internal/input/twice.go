package input

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
)

// Twice is an input read twice (a transcript's run summaries, then the
// document). A regular, uncompressed file is opened again by its name;
// any other input (standard input, a pipe, a named FIFO, a device, a
// compressed file) can be read only once, so it is read once through Open,
// decompressed, into a temporary file that both readings read.
type Twice struct {
	Name string // the name diagnostics use

	path string        // what Open opens: "" nothing yet
	src  io.ReadCloser // what Keep copies into the temporary file
	temp *os.File      // the temporary file, nil for a file read by name

	written int64 // bytes in the temporary file
	whole   int64 // of which the whole lines
	limit   int64 // what Open reads of the temporary file: -1 all
	done    bool  // Keep has read its input to the end

	once sync.Once
}

// KeepError is a failure to write the temporary file (a full disk), as
// opposed to a failure to read the input.
type KeepError struct {
	Name string
	Err  error
}

func (e *KeepError) Error() string {
	return fmt.Sprintf("keeping %s in a temporary file: %v", e.Name, e.Err)
}

func (e *KeepError) Unwrap() error { return e.Err }

// Twice opens name (see Open) to be read twice. An input that must be
// kept gets its temporary file (in os.TempDir) from Keep; Remove removes
// it.
func (o *Opener) Twice(name string) (*Twice, error) {
	display, r, plain, err := o.open(name)
	if err != nil {
		return nil, err
	}
	if plain {
		r.Close()
		return &Twice{Name: display, path: name, limit: -1, done: true}, nil
	}
	return &Twice{Name: display, src: r, limit: -1}, nil
}

// Keep reads the input to its end into the temporary file (nothing to do
// for a file read by name). Each write is made with guard held, so that
// whoever takes guard for good (an interruption) finds the file holding
// what was read, and may call Stop. A read error is returned as it is,
// and Open then reads the whole lines kept before it; a failure to write
// the temporary file is a *KeepError.
func (t *Twice) Keep(guard sync.Locker) error {
	// Made with guard held: an interruption that takes guard finds the
	// temporary file made and known to Remove, or not made at all.
	guard.Lock()
	if t.done { // a file read by name, or stopped
		guard.Unlock()
		return nil
	}
	f, err := os.CreateTemp("", "zevo-view-*.jsonl")
	if err == nil {
		t.temp, t.path = f, f.Name()
	}
	guard.Unlock()
	if err != nil {
		return &KeepError{t.Name, err}
	}
	buf := make([]byte, 64<<10)
	for {
		n, rerr := t.src.Read(buf)
		if n > 0 {
			guard.Lock()
			if t.done { // stopped
				guard.Unlock()
				return nil
			}
			_, werr := t.temp.Write(buf[:n])
			if werr == nil {
				if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
					t.whole = t.written + int64(i) + 1
				}
				t.written += int64(n)
			}
			guard.Unlock()
			if werr != nil {
				return &KeepError{t.Name, werr}
			}
		}
		if rerr == io.EOF {
			guard.Lock()
			t.done = true
			guard.Unlock()
			return nil
		}
		if rerr != nil {
			guard.Lock()
			t.done, t.limit = true, t.whole
			guard.Unlock()
			return rerr
		}
	}
}

// Stop ends the input where Keep has got to: Open reads all that was
// kept, a line being written when zevo was interrupted too, so that it
// is reported as a file ending there reports it, not lost. It is called
// with Keep's guard held.
func (t *Twice) Stop() {
	if !t.done {
		t.done, t.limit = true, t.written
	}
}

// Open opens the input for one reading.
func (t *Twice) Open() (io.ReadCloser, error) {
	if t.path == "" { // interrupted before Keep began
		return io.NopCloser(bytes.NewReader(nil)), nil
	}
	f, err := os.Open(t.path)
	if err != nil || t.limit < 0 {
		return f, err
	}
	return readCloser{io.LimitReader(f, t.limit), f}, nil
}

// Remove closes the input and removes the temporary file. It may be
// called more than once.
func (t *Twice) Remove() {
	t.once.Do(func() {
		if t.src != nil {
			t.src.Close()
		}
		if t.temp != nil {
			t.temp.Close()
			os.Remove(t.temp.Name())
		}
	})
}
