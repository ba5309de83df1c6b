// Package follow reads a file as it grows, as tail -f does, across truncation and rotation.
package follow

import (
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
// shrinks (truncated: reading starts again at its beginning) or is
// replaced by another file of the same name (rotated: the new one is read
// from its beginning, once the old one is read to its end), reading goes
// on. Read returns io.EOF only after Close.
type Reader struct {
	name    string
	f       *os.File
	off     int64
	watcher *fsnotify.Watcher // nil: polling only
	poll    time.Duration
	done    chan struct{}
	once    sync.Once
	mu      sync.Mutex // held to replace f, and by Close
}

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
	for {
		select {
		case <-r.done:
			return 0, io.EOF
		default:
		}
		r.mu.Lock()
		f := r.f
		r.mu.Unlock()
		n, err := f.Read(p)
		r.off += int64(n)
		if n > 0 {
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

// reopened starts again when the file was replaced or truncated; it is
// called at the end of the file, so nothing of the old one is left unread.
func (r *Reader) reopened() bool {
	cur, err := r.f.Stat()
	if err != nil {
		return false
	}
	if now, err := os.Stat(r.name); err == nil && !os.SameFile(cur, now) {
		if f, err := os.Open(r.name); err == nil {
			r.mu.Lock()
			defer r.mu.Unlock()
			select {
			case <-r.done:
				f.Close()
				return false
			default:
			}
			r.f.Close()
			r.f, r.off = f, 0
			return true
		}
	}
	if cur.Size() < r.off {
		if _, err := r.f.Seek(0, io.SeekStart); err == nil {
			r.off = 0
			return true
		}
	}
	return false
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
