// Package input is the one way zevo's commands, and its Benthos module,
// reach the bytes of their inputs: standard input or a file, gzip and zstd
// told by their first bytes and decompressed, a file followed as it grows,
// and an input kept in a temporary file when it must be read twice.
package input

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strconv"
)

// StdinName names standard input in diagnostics.
const StdinName = "<stdin>"

// Magic numbers of the compressed formats zevo reads.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// Opener opens a command's inputs.
type Opener struct {
	// Stdin is read for the name "-".
	Stdin io.Reader
	// Follow, when set (--follow), opens a file to be read on as it grows.
	Follow func(name string) (io.ReadCloser, error)
	// FileBytes, when set, wraps each file as read from disk, before it
	// is decompressed (stats' progress bar counts the file's own bytes).
	FileBytes func(io.ReadCloser) io.ReadCloser
}

// Open opens one input: standard input for "-", else the file.
// Compressed input (gzip, zstd) is recognised by its first bytes, whatever
// its name, and decompressed, so that line numbers in diagnostics are
// those of the decompressed stream. It returns the name diagnostics use.
func (o *Opener) Open(name string) (string, io.ReadCloser, error) {
	name, r, _, err := o.open(name)
	return name, r, err
}

// open is Open, and also tells whether r is the regular, uncompressed
// file of that name, which can be opened again and read the same.
func (o *Opener) open(name string) (display string, r io.ReadCloser, plainFile bool, err error) {
	if name == "-" {
		stdin := o.Stdin
		if stdin == nil {
			stdin = os.Stdin
		}
		r, err := Decompress(io.NopCloser(stdin))
		if err != nil {
			return StdinName, nil, false, fmt.Errorf("%s: %w", StdinName, err)
		}
		return StdinName, r, false, nil
	}
	var f io.ReadCloser
	if o.Follow != nil {
		f, err = o.Follow(name)
	} else {
		f, err = os.Open(name)
	}
	if err != nil {
		return name, nil, false, err
	}
	if o.FileBytes != nil {
		f = o.FileBytes(f)
	}
	if osf, ok := f.(*os.File); ok {
		// A regular file is peeked at without reading it, so that an
		// uncompressed one is handed on as the *os.File it is (readers
		// treat regular files apart: they never wait). Pipes and devices
		// are read through Decompress.
		if fi, err := osf.Stat(); err == nil && fi.Mode().IsRegular() {
			head := make([]byte, len(zstdMagic))
			n, _ := osf.ReadAt(head, 0)
			if head = head[:n]; !bytes.HasPrefix(head, gzipMagic) && !bytes.HasPrefix(head, zstdMagic) {
				return name, f, true, nil
			}
		}
	}
	r, err = Decompress(f)
	if err != nil {
		f.Close()
		return name, nil, false, fmt.Errorf("%s: %w", name, err)
	}
	return name, r, false, nil
}

// Decompress returns r's bytes, decompressed when they start with gzip's
// or zstd's magic number. It reads no more than it must to tell: a live
// stream of JSON lines is not held up.
func Decompress(r io.ReadCloser) (io.ReadCloser, error) {
	head := make([]byte, len(zstdMagic))
	n, err := r.Read(head)
	for err == nil && n == 0 {
		n, err = r.Read(head)
	}
	if n > 0 && (head[0] == gzipMagic[0] || head[0] == zstdMagic[0]) && n < len(head) {
		// Could be compressed: read enough to know.
		m, rerr := io.ReadAtLeast(r, head[n:], len(head)-n)
		n += m
		if rerr != nil && rerr != io.ErrUnexpectedEOF && rerr != io.EOF {
			err = rerr
		}
	}
	head = head[:n]
	var rest io.Reader = r
	if err != nil {
		rest = errReader{err}
	}
	whole := readCloser{io.MultiReader(bytes.NewReader(head), rest), r}
	var format string
	var dr io.Reader
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		br := bufio.NewReader(whole)
		zr, zerr := gzip.NewReader(br)
		if zerr != nil {
			return nil, fmt.Errorf("gzip data is corrupt: %w", zerr)
		}
		zr.Multistream(false)
		format, dr = "gzip", &gzipMembers{zr: zr, br: br}
	case bytes.HasPrefix(head, zstdMagic):
		format, dr = "zstd", newZstdReader(whole)
	default:
		return whole, nil
	}
	return &decompressed{r: dr, format: format, c: r}, nil
}

// gzipMembers reads every member of a gzip stream, as gzip -d does, each
// handed on whole before the next one's header is read: gzip's own
// multistream reading holds a member's last bytes until that header comes,
// which a followed log or a live pipe may not have yet.
type gzipMembers struct {
	zr *gzip.Reader
	br *bufio.Reader
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for {
		n, err := g.zr.Read(p)
		if err != io.EOF {
			return n, err
		}
		if n > 0 {
			return n, nil // the end of the member: the next Read goes on
		}
		if err := g.zr.Reset(g.br); err != nil {
			return 0, err // io.EOF: no other member
		}
		g.zr.Multistream(false)
	}
}

// errReader returns the error that ended the first read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

type readCloser struct {
	io.Reader
	io.Closer
}

// decompressed counts the lines it has delivered, so that damage names
// how far the decompressed stream got.
type decompressed struct {
	r      io.Reader
	format string
	lines  int
	c      io.Closer
}

func (d *decompressed) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.lines += bytes.Count(p[:n], []byte{'\n'})
	if err != nil && err != io.EOF {
		lines := strconv.Itoa(d.lines) + " whole lines"
		if d.lines == 1 {
			lines = "1 whole line"
		}
		err = fmt.Errorf("%s data is corrupt or cut short after %s: %w", d.format, lines, err)
	}
	return n, err
}

func (d *decompressed) Close() error {
	if c, ok := d.r.(io.Closer); ok {
		c.Close()
	}
	return d.c.Close()
}

// OpenRegular opens name when it is a regular file, to read it apart from
// its reading as an input (translate derives run ids from its bytes). Any
// other file is told by os.Stat, which opens nothing, and is not opened:
// reading a named FIFO's writer to its end is the reading's alone (opened
// and closed to look at it, the FIFO would lose its writer, and the
// reading would wait for another forever). ok is false for a file that is
// not regular; err is the failure to stat or open it.
func OpenRegular(name string) (f *os.File, ok bool, err error) {
	fi, err := os.Stat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false, err
	}
	f, err = os.Open(name)
	if err != nil {
		return nil, false, err
	}
	// Replaced between the two: whatever it is now, it is not the file
	// that was looked at.
	if now, err := f.Stat(); err != nil || !os.SameFile(fi, now) {
		f.Close()
		return nil, false, err
	}
	return f, true, nil
}
