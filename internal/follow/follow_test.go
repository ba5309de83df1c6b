package follow

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// wait is how long a line may take to arrive: generous, since it only
// bounds a failure.
const wait = 10 * time.Second

func lines(t *testing.T, r io.Reader) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	return ch
}

func expect(t *testing.T, ch <-chan string, want string) {
	t.Helper()
	select {
	case got, ok := <-ch:
		if !ok {
			t.Fatalf("reading ended; want %q", want)
		}
		if got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	case <-time.After(wait):
		t.Fatalf("no line %q within %v", want, wait)
	}
}

func appendTo(t *testing.T, name, s string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func testFollow(t *testing.T) {
	name := filepath.Join(t.TempDir(), "agent.log")
	appendTo(t, name, "one\n")
	r, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	ch := lines(t, r)
	expect(t, ch, "one")

	// Growth, a line written in two parts.
	appendTo(t, name, "two\nthr")
	expect(t, ch, "two")
	appendTo(t, name, "ee\n")
	expect(t, ch, "three")

	// Truncated and written again from the start.
	if err := os.WriteFile(name, []byte("four\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	expect(t, ch, "four")

	// Rotated: renamed away (and written to once more), then a new file
	// under the name.
	appendTo(t, name, "five\n")
	if err := os.Rename(name, name+".1"); err != nil {
		t.Fatal(err)
	}
	expect(t, ch, "five")
	appendTo(t, name, "six\n")
	expect(t, ch, "six")
	appendTo(t, name, "seven\n")
	expect(t, ch, "seven")

	// Close ends a waiting Read with io.EOF.
	r.Close()
	select {
	case l, ok := <-ch:
		if ok {
			t.Fatalf("a line after Close: %q", l)
		}
	case <-time.After(wait):
		t.Fatal("Close did not end reading")
	}
}

func TestFollow(t *testing.T) { testFollow(t) }

// TestFollowPolling: the same without change notifications.
func TestFollowPolling(t *testing.T) {
	old := Poll
	Poll = 20 * time.Millisecond
	defer func() { Poll = old }()
	noWatch = true
	defer func() { noWatch = false }()
	testFollow(t)
}

func TestOpenMissing(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Fatal("opened a missing file")
	}
}

// bothWays runs f once with change notifications and once without.
func bothWays(t *testing.T, f func(t *testing.T)) {
	t.Run("notified", f)
	t.Run("polling", func(t *testing.T) {
		old := Poll
		Poll = 20 * time.Millisecond
		noWatch = true
		defer func() { Poll, noWatch = old, false }()
		f(t)
	})
}

// openLines follows name, its lines on the channel returned; the reader
// is closed when the test ends.
func openLines(t *testing.T, name string) <-chan string {
	t.Helper()
	r, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return lines(t, r)
}

// TestRotationEndsHalfLine: the old file ends in half a line when it is
// rotated: that half is a line of its own, and the new file's first line
// is read whole from its beginning.
func TestRotationEndsHalfLine(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		name := filepath.Join(t.TempDir(), "agent.log")
		appendTo(t, name, "one\nhal")
		ch := openLines(t, name)
		expect(t, ch, "one")
		if err := os.Rename(name, name+".1"); err != nil {
			t.Fatal(err)
		}
		appendTo(t, name, "new\n")
		expect(t, ch, "hal")
		expect(t, ch, "new")
		appendTo(t, name, "more\n")
		expect(t, ch, "more")
	})
}

// TestTruncationEndsHalfLine: the same when the file is truncated and
// written again.
func TestTruncationEndsHalfLine(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		name := filepath.Join(t.TempDir(), "agent.log")
		appendTo(t, name, "one\nhal")
		ch := openLines(t, name)
		expect(t, ch, "one")
		if err := os.WriteFile(name, []byte("new\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		expect(t, ch, "hal")
		expect(t, ch, "new")
	})
}

// TestRewriteLongerReadFromStart: a file written again from its start
// with more than it had (seen only once rewritten: no moment where it is
// shorter) is read from its beginning, not from the old offset.
func TestRewriteLongerReadFromStart(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		for _, old := range []string{"one\n", "one\nhal"} {
			name := filepath.Join(t.TempDir(), "agent.log")
			appendTo(t, name, old)
			ch := openLines(t, name)
			expect(t, ch, "one") // and the half line, read with it
			f, err := os.OpenFile(name, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteAt([]byte("first of the new\nsecond\n"), 0); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if old != "one\n" {
				expect(t, ch, "hal")
			}
			expect(t, ch, "first of the new")
			expect(t, ch, "second")
		}
	})
}

// TestRewriteHoldingTheBytesReadReadsOn: a file written again with the
// very bytes already read at its start, and more, cannot be told from one
// that grew (it holds what a grown file holds, under the same inode): its
// new bytes are read on from the offset, and what was read is not read
// twice. Only a rewrite whose bytes differ from those read is read from
// its beginning (TestRewriteLongerReadFromStart).
func TestRewriteHoldingTheBytesReadReadsOn(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		name := filepath.Join(t.TempDir(), "agent.log")
		appendTo(t, name, "one\ntwo\n")
		ch := openLines(t, name)
		expect(t, ch, "one")
		expect(t, ch, "two")
		// Written over in place, never shorter than what was read.
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte("one\ntwo\nthree\n"), 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
		expect(t, ch, "three")
		appendTo(t, name, "four\n")
		expect(t, ch, "four")
	})
}

// TestRewriteKeepsCompressedBytes: a compressed file's bytes are handed
// on as they are: no line end is added when it is rotated (a gzip member
// does not end with one).
func TestRewriteKeepsCompressedBytes(t *testing.T) {
	name := filepath.Join(t.TempDir(), "agent.log.gz")
	first := "\x1f\x8b\x08member one"
	appendTo(t, name, first)
	r, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := make(chan string)
	go func() {
		var b []byte
		buf := make([]byte, 64)
		for len(b) < len(first)+len("\x1f\x8b\x08two") {
			n, err := r.Read(buf)
			b = append(b, buf[:n]...)
			if err != nil {
				break
			}
		}
		got <- string(b)
	}()
	if err := os.Rename(name, name+".1"); err != nil {
		t.Fatal(err)
	}
	appendTo(t, name, "\x1f\x8b\x08two")
	select {
	case b := <-got:
		if want := first + "\x1f\x8b\x08two"; b != want {
			t.Errorf("read %q, want %q", b, want)
		}
	case <-time.After(wait):
		t.Fatal("the new file was not read")
	}
}
