package cli

import (
	"io"
	"os"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/internal/follow"
	"github.com/zevo/zevo/internal/input"
)

// stdinName names standard input in diagnostics.
const stdinName = input.StdinName

// opener is the one way a command reaches its inputs' bytes (see
// internal/input): standard input or files, gzip and zstd decompressed,
// --follow, and the documents' inputs kept to be read twice.
func (e *env) opener() *input.Opener {
	e.caught()
	return &input.Opener{Stdin: e.stdin, Follow: e.follow, FileBytes: e.fileBytes}
}

// openInput opens one input for every command (see input.Opener.Open).
func (e *env) openInput(name string) (string, io.ReadCloser, error) {
	return e.opener().Open(name)
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
