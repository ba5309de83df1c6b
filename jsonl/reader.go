// Package jsonl reads and writes line-delimited JSON streams: lines of any
// length, each with its place, and output flushed whenever input would block.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime/debug"
	"sync"

	"github.com/zevo/zevo/internal/termsafe"
)

// Line is one input line without its line end.
type Line struct {
	Name  string // file name, "<stdin>" for standard input
	Num   int    // 1-based line number
	Bytes []byte // valid until the next call to Next
	// NoNewline is true for a last line that had no line end.
	NoNewline bool
	// CR is true for a line that ended with CR LF (the CR is removed).
	CR bool
}

// Where formats the line's place as FILE:LINE.
func (l Line) Where() string { return fmt.Sprintf("%s:%d", termsafe.String(l.Name), l.Num) }

// Reader yields the lines of one input. It never caps a line's length: a
// line longer than the buffer is assembled in a scratch slice that is reused.
//
// Pending may be called from another goroutine while Next waits for input
// (an interruption reports the line the input stopped inside): mu is held
// by Next except while it reads or calls idle, and before each read the
// part of a line already read is moved out of the buffer into long, which
// only Next changes, with mu held.
type Reader struct {
	mu      sync.Mutex
	br      *bufio.Reader
	src     *source
	name    string
	num     int
	long    []byte
	idle    func() error
	grown   func(capacity int)
	started bool
	waiting bool // Next is reading or in idle: long holds the line read so far
	err     error
}

// ReaderSize is the read buffer size; large enough that files are read in
// big blocks, small enough to keep memory flat.
const ReaderSize = 256 << 10

// NewReader returns a reader of r named name. idle, if not nil, is called
// every time the reader is about to wait for more input, so that a writer
// can flush what it holds; an error from idle stops reading.
func NewReader(r io.Reader, name string, idle func() error) *Reader {
	size := ReaderSize
	if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		// A small file is read in one block its size: the memory of a
		// full one, never written, still cost a small run its page
		// allocation.
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < ReaderSize {
			size = max(int(fi.Size())+1, minReaderSize)
		}
	}
	return newReaderSize(r, name, idle, size)
}

// minReaderSize is the smallest buffer NewReader gives a file.
const minReaderSize = 4 << 10

// newReaderSize lets tests use a tiny buffer, so that short inputs take the
// long-line path.
func newReaderSize(r io.Reader, name string, idle func() error, size int) *Reader {
	lr := &Reader{name: name, idle: idle}
	lr.src = &source{r: r, mu: &lr.mu}
	lr.br = bufio.NewReaderSize(lr.src, size)
	return lr
}

// source notes whether the last read had less than was asked for: the
// input's end, for now, was reached. It lets go of mu while it reads.
type source struct {
	r     io.Reader
	mu    *sync.Mutex
	short bool
}

func (s *source) Read(p []byte) (int, error) {
	s.mu.Unlock()
	n, err := s.r.Read(p)
	s.mu.Lock()
	s.short = n < len(p)
	return n, err
}

// Waits reports whether the next call to Next may wait for input. It is
// known only of a live input, a reader with an idle hook; false otherwise.
func (r *Reader) Waits() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.idle != nil && r.err == nil && r.waits()
}

// waits reports whether the next read may wait: nothing is buffered, or
// only part of a line after a read that reached the input's end (the rest
// of a line being written; a regular file's reads fill the buffer, so
// this costs it nothing).
func (r *Reader) waits() bool {
	n := r.br.Buffered()
	if n == 0 {
		return true
	}
	if !r.src.short {
		return false
	}
	b, _ := r.br.Peek(n)
	return bytes.IndexByte(b, '\n') < 0
}

// OnGrow sets f to be called with the new capacity each time the buffer
// of a line longer than ReaderSize grows, before it grows: a program that
// limits its heap can make room for a line that is all live memory, or
// the collector runs again and again for nothing it can free.
func (r *Reader) OnGrow(f func(capacity int)) { r.grown = f }

var bom = []byte{0xEF, 0xBB, 0xBF}

// Next returns the next line, io.EOF at the end, or a read error. The UTF-8
// byte order mark at the start of the input and the CR of a CRLF line end
// are removed. Blank lines are returned too (Bytes empty after trimming
// spaces is the caller's to judge).
func (r *Reader) Next() (Line, error) {
	var l Line
	err := r.NextInto(&l)
	return l, err
}

// NextInto is Next into l (the zero Line on an error), for a reader of
// many lines: a Line and an error are returned through memory, and the
// caller's copy of them, in wide loads of what was just written in words,
// waits for the stores (no store forwarding) on every line.
func (r *Reader) NextInto(l *Line) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	*l = Line{}
	if r.err != nil {
		return r.err
	}
	r.long = r.long[:0]
	var chunk []byte
	var err error
	for {
		n := r.br.Buffered()
		buf, _ := r.br.Peek(n)
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			chunk = buf[:i+1]
			r.br.Discard(i + 1)
			break
		}
		// No line end buffered: what there is of the line is kept in
		// long, outside the buffer the next read fills, where Pending
		// finds it while the read waits.
		wait := n == 0 || r.src.short
		r.appendLong(buf)
		r.br.Discard(n)
		r.waiting = true
		if r.idle != nil && wait {
			r.mu.Unlock()
			ierr := r.idle()
			r.mu.Lock()
			if ierr != nil {
				r.waiting = false
				r.err = ierr
				return ierr
			}
		}
		_, err = r.br.Peek(1) // one read
		r.waiting = false
		if err != nil {
			break
		}
	}
	line := chunk
	if len(r.long) > 0 {
		r.appendLong(chunk)
		line = r.long
	}
	if err != nil && !errors.Is(err, io.EOF) {
		r.err = err
		return err
	}
	if len(line) == 0 && err != nil { // clean end of input
		r.err = io.EOF
		return io.EOF
	}
	noNL, cr := true, false
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
		noNL = false
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
			cr = true
		}
	}
	if !r.started {
		r.started = true
		line = bytes.TrimPrefix(line, bom)
		if len(line) == 0 && noNL {
			// An input of a BOM alone has no line, as an empty one has none.
			r.err = io.EOF
			return io.EOF
		}
	}
	r.num++
	l.Name, l.Num, l.Bytes, l.NoNewline, l.CR = r.name, r.num, line, noNL, cr
	return nil
}

// Pending returns a copy of the line being read: the bytes read after the
// last line end, as the next line, without a line end (NoNewline); false
// when there are none. It is what Next would return if the input ended
// now, so that an interruption accounts for a line it stopped inside as a
// file ending there would. It may be called from any goroutine, and ends
// nothing: a later Next goes on reading.
func (r *Reader) Pending() (Line, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b []byte
	if r.waiting {
		b = r.long
	} else if r.err == nil {
		// Between calls of Next: the buffer holds the input not yet
		// returned; it is a line being read only without a line end.
		buf, _ := r.br.Peek(r.br.Buffered())
		if bytes.IndexByte(buf, '\n') >= 0 {
			return Line{}, false
		}
		b = buf
	}
	if len(b) == 0 {
		return Line{}, false
	}
	b = bytes.Clone(b)
	if !r.started {
		if b = bytes.TrimPrefix(b, bom); len(b) == 0 {
			return Line{}, false
		}
	}
	return Line{Name: r.name, Num: r.num + 1, Bytes: b, NoNewline: true}, true
}

// hugeLine is the size from which the buffer of a long line grows by hand.
const hugeLine = 32 << 20

// appendLong adds chunk to the long line being assembled. The buffer
// doubles as it grows; past hugeLine it grows by half and the old one is
// handed back to the system at once: a huge line then costs at most about twice its size while it is
// read, not what append's small steps and the collector's pacing would
// leave behind (several times its size).
func (r *Reader) appendLong(chunk []byte) {
	n := len(r.long) + len(chunk)
	if n > cap(r.long) {
		huge := cap(r.long) >= hugeLine
		c := max(n, 2*cap(r.long))
		if huge {
			c = max(n, cap(r.long)+cap(r.long)/2)
		}
		if r.grown != nil {
			r.grown(c)
		}
		grown := make([]byte, len(r.long), c)
		copyPreemptible(grown, r.long)
		r.long = nil
		if huge {
			debug.FreeOSMemory()
		}
		r.long = grown
	}
	m := len(r.long)
	r.long = r.long[:n]
	copyPreemptible(r.long[m:], chunk)
}

// copyPreemptible is copy for long lines, which touches each page of dst
// in Go code before it copies a megabyte of src there. A copy runs in
// assembly, where the scheduler cannot stop it, and a new page's first
// touch is a slow page fault. The collector must stop this goroutine for a
// moment in each cycle, and signals it every few microseconds until it
// can: faulting inside a long copy, it got a signal at every page. On a
// 2-core virtual machine a 200 MB line took 8 s instead of 3 (reading
// it, most of that in the kernel).
func copyPreemptible(dst, src []byte) {
	const step = 1 << 20
	for len(src) > 0 {
		n := min(len(src), step)
		for i := 0; i < n; i += 4096 {
			dst[i] = 0
		}
		copy(dst, src[:n])
		dst, src = dst[n:], src[n:]
	}
}

// IsBlank reports whether b holds only JSON white space.
func IsBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}
