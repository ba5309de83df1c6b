package cli

import (
	"fmt"
	"io"
	"os"
)

// stdinName names standard input in diagnostics.
const stdinName = "<stdin>"

// eachInput calls fn for each named file in order, standard input for "-"
// or when there are none. A file that cannot be opened is reported on
// stderr and counted in failed; the others are still read.
func eachInput(e *env, names []string, fn func(name string, r io.Reader) error) (failed int, err error) {
	if len(names) == 0 {
		names = []string{"-"}
	}
	for _, name := range names {
		if name == "-" {
			if err := fn(stdinName, e.stdin); err != nil {
				return failed, err
			}
			continue
		}
		f, oerr := os.Open(name)
		if oerr != nil {
			fmt.Fprintf(e.stderr, "zevo: %v\n", oerr)
			failed++
			continue
		}
		err := fn(name, f)
		f.Close()
		if err != nil {
			return failed, err
		}
	}
	return failed, nil
}
