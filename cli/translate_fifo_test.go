package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A named FIFO given as FILE to translate is opened once, by the reading:
// nothing opens it before to look at it (its writer would meet no reader
// and the reading would wait for another writer forever). Its run ids are
// live, as those of standard input.
func TestTranslateOpensNamedFIFOOnce(t *testing.T) {
	plain, err := os.ReadFile(sampleZero)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"translate", "--to", "evosci", "--run-id", "run_fifo"},
		{"translate", "--to", "zero"},
	} {
		_, want, _ := run(t, "", append(args, sampleZero)...)
		fifo := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no named pipes here:", err)
		}
		wrote := make(chan error, 1)
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				wrote <- err
				return
			}
			_, err = f.Write(plain)
			f.Close()
			wrote <- err
		}()
		type result struct {
			code      int
			out, errs string
		}
		done := make(chan result, 1)
		go func() {
			code, out, errs := run(t, "", append(args, fifo)...)
			done <- result{code, out, errs}
		}()
		select {
		case res := <-done:
			if err := <-wrote; err != nil {
				t.Errorf("%v: the writer: %v", args, err)
			}
			if args[len(args)-1] == "zero" {
				// Live run ids: the same events, other ids.
				if got, n := strings.Count(res.out, "\n"), strings.Count(want, "\n"); res.code != 0 || got != n {
					t.Errorf("%v of a FIFO: exit %d, %d lines, want %d; stderr %q", args, res.code, got, n, res.errs)
				}
			} else if res.code != 0 || res.out != want {
				t.Errorf("%v of a FIFO: exit %d, stderr %q\n%s", args, res.code, res.errs, res.out)
			}
		case <-time.After(20 * time.Second):
			// Let the waiting reading go: a writer that writes nothing.
			if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				f.Close()
			}
			err := <-wrote
			t.Fatalf("%v of a FIFO: still waiting after 20 s (the writer: %v, broken pipe: %v)", args, err, errors.Is(err, syscall.EPIPE))
		}
	}
}
