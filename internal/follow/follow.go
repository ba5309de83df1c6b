// Package follow reads a file as it grows, as tail -f does, across truncation and rotation.
package follow

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Poll is how often the file is looked at when no change was notified:
// the only way to learn of changes where notifications do not work (some
// network file systems), and a safety net where they do.
var Poll = time.Second

// noWatch turns notifications off (for tests of polling).
var noWatch bool

// Reader reads a file to its end and then waits for more. When the file
// is truncated or written again from its start (reading starts again at
// its beginning) or is replaced by another file of the same name (rotated:
// the new one is read from its beginning, once the old one is read to its
// end), reading goes on. A last line the old file left unfinished is ended
// there with a line end of its own, so that it is read as the cut line it
// is and the new file's first line is read whole. Read returns io.EOF only
// after Close.
type Reader struct {
	name    string
	f       *os.File
	off     int64
	watcher *fsnotify.Watcher // nil: polling only
	poll    time.Duration
	done    chan struct{}
	once    sync.Once
	mu      sync.Mutex // held to replace f, and by Close
	// head and tail are the first and the last bytes read of the current
	// file (tail ending at off), to tell a file written again from one
	// that grew.
	head, tail []byte
	scratch    []byte
	// endLine: a line end is owed before the next file's first byte.
	endLine bool
}

// What is kept of the bytes read, to tell a rewritten file: the file's
// start and the bytes just before the offset reached.
const (
	headSize = 1024
	tailSize = 64
)

// Open opens name for following.
func Open(name string) (*Reader, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	r := &Reader{name: name, f: f, poll: Poll, done: make(chan struct{})}
	// The directory is watched, not the file: that also tells of a file
	// created or renamed under the name.
	if noWatch {
		return r, nil
	}
	if w, err := fsnotify.NewWatcher(); err == nil {
		if w.Add(filepath.Dir(name)) == nil {
			r.watcher = w
		} else {
			w.Close()
			r.poll = min(r.poll, 250*time.Millisecond)
		}
	} else {
		r.poll = min(r.poll, 250*time.Millisecond)
	}
	return r, nil
}

// Read reads what the file has, waiting for more at its end.
func (r *Reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		select {
		case <-r.done:
			return 0, io.EOF
		default:
		}
		if r.endLine {
			r.endLine = false
			p[0] = '\n'
			return 1, nil
		}
		r.mu.Lock()
		f := r.f
		r.mu.Unlock()
		if r.rewritten(f) {
			if _, err := f.Seek(0, io.SeekStart); err == nil {
				r.restart()
				continue
			}
		}
		n, err := f.Read(p)
		if n > 0 {
			r.off += int64(n)
			r.remember(p[:n])
			return n, nil
		}
		if err != nil && err != io.EOF {
			select {
			case <-r.done: // closed while reading
				return 0, io.EOF
			default:
				return 0, err
			}
		}
		if r.reopened() {
			continue
		}
		r.wait()
	}
}

// remember keeps the start of the file and the bytes before the offset.
func (r *Reader) remember(b []byte) {
	if len(r.head) < headSize {
		r.head = append(r.head, b[:min(len(b), headSize-len(r.head))]...)
	}
	if len(b) >= tailSize {
		r.tail = append(r.tail[:0], b[len(b)-tailSize:]...)
		return
	}
	r.tail = append(r.tail, b...)
	if len(r.tail) > tailSize {
		r.tail = append(r.tail[:0], r.tail[len(r.tail)-tailSize:]...)
	}
}

// rewritten reports whether f is no longer the file read so far: shorter
// than the offset reached (truncated), or, as long or longer, with other
// bytes where those read were (truncated and written again before it was
// looked at). Neither its identity (the same inode, written in place) nor
// its size (a rewrite may be longer) nor its time of change (growth
// changes it too) tells; the bytes already read do, at the cost of two
// small reads. A rewrite with the very same start and the same bytes
// before the offset is taken for growth: reading on from the offset then
// reads what such a file holds there.
func (r *Reader) rewritten(f *os.File) bool {
	if r.off == 0 {
		return false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if fi.Size() < r.off {
		return true
	}
	return !r.holds(f, 0, r.head) || !r.holds(f, r.off-int64(len(r.tail)), r.tail)
}

// holds reports whether f has b at offset off (true when it cannot tell).
func (r *Reader) holds(f *os.File, off int64, b []byte) bool {
	if len(b) == 0 {
		return true
	}
	if cap(r.scratch) < len(b) {
		r.scratch = make([]byte, headSize)
	}
	got := r.scratch[:len(b)]
	n, err := f.ReadAt(got, off)
	if n < len(b) {
		return err != nil && err != io.EOF
	}
	return bytes.Equal(got, b)
}

// restart starts a file (another one, or the same one again) at its
// beginning. A last line left unfinished is ended first: glued to the
// next file's first line, it would make a bogus line of both and lose the
// new one. Compressed data is left as it is: a cut member is reported by
// the decompressor, and a line end between whole members would corrupt
// the stream.
func (r *Reader) restart() {
	if n := len(r.tail); n > 0 && r.tail[n-1] != '\n' && !compressed(r.head) {
		r.endLine = true
	}
	r.off, r.head, r.tail = 0, r.head[:0], r.tail[:0]
}

// compressed reports whether a file starting with head is gzip or zstd
// data (their magic numbers), which zevo decompresses above this reader.
func compressed(head []byte) bool {
	return bytes.HasPrefix(head, []byte{0x1f, 0x8b}) || bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd})
}

// reopened switches to the file now under the name when it is another
// one; it is called at the end of the file, so nothing of the old one is
// left unread.
func (r *Reader) reopened() bool {
	cur, err := r.f.Stat()
	if err != nil {
		return false
	}
	now, err := os.Stat(r.name)
	if err != nil || os.SameFile(cur, now) {
		return false
	}
	f, err := os.Open(r.name)
	if err != nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case <-r.done:
		f.Close()
		return false
	default:
	}
	r.f.Close()
	r.f = f
	r.restart()
	return true
}

// wait returns when the directory changed, the poll interval passed, or
// the reader was closed.
func (r *Reader) wait() {
	t := time.NewTimer(r.poll)
	defer t.Stop()
	if r.watcher == nil {
		select {
		case <-t.C:
		case <-r.done:
		}
		return
	}
	select {
	case <-r.watcher.Events:
	case <-r.watcher.Errors:
	case <-t.C:
	case <-r.done:
	}
}

// Close ends following: a Read waiting for more returns io.EOF. It may be
// called while a Read waits.
func (r *Reader) Close() error {
	r.once.Do(func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		close(r.done)
		if r.watcher != nil {
			r.watcher.Close()
		}
		r.f.Close()
	})
	return nil
}
