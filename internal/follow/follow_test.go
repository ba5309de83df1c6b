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
