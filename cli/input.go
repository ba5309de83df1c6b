package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"
	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/internal/follow"
)

// stdinName names standard input in diagnostics.
const stdinName = "<stdin>"

// Magic numbers of the compressed formats zevo reads.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// openInput opens one input for every command: standard input for "-",
// else the file. Compressed input (gzip, zstd) is recognised by its first
// bytes, whatever its name, and decompressed, so that line numbers in
// diagnostics are those of the decompressed stream. It returns the name
// diagnostics use.
func (e *env) openInput(name string) (string, io.ReadCloser, error) {
	if name == "-" {
		r, err := decompress(io.NopCloser(e.stdin))
		if err != nil {
			return stdinName, nil, fmt.Errorf("%s: %w", stdinName, err)
		}
		return stdinName, r, nil
	}
	var f io.ReadCloser
	var err error
	if e.follow != nil {
		f, err = e.follow(name)
	} else {
		f, err = os.Open(name)
	}
	if err != nil {
		return name, nil, err
	}
	if e.fileBytes != nil {
		f = e.fileBytes(f)
	}
	if osf, ok := f.(*os.File); ok {
		// A regular file is peeked at without reading it, so that an
		// uncompressed one is handed on as the *os.File it is (readers
		// treat regular files apart: they never wait). Pipes and devices
		// are read through decompress.
		if fi, err := osf.Stat(); err == nil && fi.Mode().IsRegular() {
			head := make([]byte, len(zstdMagic))
			n, _ := osf.ReadAt(head, 0)
			if head = head[:n]; !bytes.HasPrefix(head, gzipMagic) && !bytes.HasPrefix(head, zstdMagic) {
				return name, f, nil
			}
		}
	}
	r, err := decompress(f)
	if err != nil {
		f.Close()
		return name, nil, fmt.Errorf("%s: %w", name, err)
	}
	return name, r, nil
}

// decompress returns r's bytes, decompressed when they start with gzip's
// or zstd's magic number. It reads no more than it must to tell: a live
// stream of JSON lines is not held up.
func decompress(r io.ReadCloser) (io.ReadCloser, error) {
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
		zr, zerr := zstd.NewReader(whole, zstd.WithDecoderConcurrency(1))
		if zerr != nil {
			return nil, fmt.Errorf("zstd data is corrupt: %w", zerr)
		}
		format, dr = "zstd", zr.IOReadCloser()
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
		err = fmt.Errorf("%s data is corrupt or cut short after %s: %w", d.format, inspect.Plural(d.lines, "whole line"), err)
	}
	return n, err
}

func (d *decompressed) Close() error {
	if c, ok := d.r.(io.Closer); ok {
		c.Close()
	}
	return d.c.Close()
}

// eachInput calls fn for each named input in order (see openInput),
// standard input for "-" or when there are none. An input that cannot be
// opened is reported on stderr and counted in failed; the others are
// still read.
func eachInput(e *env, names []string, fn func(name string, r io.Reader) error) (failed int, err error) {
	if len(names) == 0 {
		names = []string{"-"}
	}
	for _, name := range names {
		display, r, oerr := e.openInput(name)
		if oerr != nil {
			e.warnf("%v", oerr)
			failed++
			continue
		}
		err := fn(display, r)
		r.Close()
		if err != nil {
			return failed, err
		}
	}
	return failed, nil
}

// followFlag is --follow (-f) of translate and view (zevo jq reads
// --follow itself: -f is jq's --from-file).
func followFlag(hidden bool) *ucli.BoolFlag {
	return &ucli.BoolFlag{Hidden: hidden, Name: "follow", Aliases: []string{"f"}, Usage: "keep reading the last FILE as it grows, as tail -f does (also across truncation and rotation), until interrupted"}
}

// setFollow makes the last of names be followed (see internal/follow):
// the others are read to their end first, as usual.
func (e *env) setFollow(on bool, names []string) {
	if !on || len(names) == 0 || names[len(names)-1] == "-" {
		return
	}
	last := names[len(names)-1]
	e.follow = func(name string) (io.ReadCloser, error) {
		if name != last {
			return os.Open(name)
		}
		return follow.Open(name)
	}
}
