package input

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func readTwice(t *testing.T, in *Twice) string {
	t.Helper()
	var got [2]string
	for i := range got {
		r, err := in.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		got[i] = string(b)
	}
	if got[0] != got[1] {
		t.Errorf("the two readings differ: %q, %q", got[0], got[1])
	}
	return got[0]
}

// A regular file that is not compressed is read by name, not copied; a
// compressed one is kept decompressed in a temporary file, which Remove
// removes.
func TestTwiceKeepsOnlyWhatCannotBeReadAgain(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	plain := "{\"a\": 1}\n{\"b\": 2}\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(plain))
	zw.Close()
	for name, data := range map[string][]byte{"run.jsonl": []byte(plain), "run.gz": gz.Bytes()} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := (&Opener{}).Twice(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := in.Keep(&sync.Mutex{}); err != nil {
			t.Fatal(err)
		}
		kept, _ := filepath.Glob(filepath.Join(tmp, "*"))
		if want := map[bool]int{true: 1, false: 0}[name == "run.gz"]; len(kept) != want {
			t.Errorf("%s: %d temporary files, want %d", name, len(kept), want)
		}
		if got := readTwice(t, in); got != plain {
			t.Errorf("%s: read %q", name, got)
		}
		in.Remove()
		if kept, _ := filepath.Glob(filepath.Join(tmp, "*")); len(kept) != 0 {
			t.Errorf("%s: temporary files left: %v", name, kept)
		}
	}
}

// Stopped while the input is kept (an interruption), the readings get
// all that was read, the line being written too, as a file ending there
// has it: it is reported, not lost. Cut by a read error, they get the
// whole lines kept.
func TestTwiceStoppedKeepsTheLineBeingRead(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// Written before Twice, which reads the first bytes to tell
	// compressed input.
	written := "{\"a\": 1}\n{\"b\": 2}\n{\"c\": "
	io.WriteString(w, written)
	in, err := (&Opener{Stdin: r}).Twice("-")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Remove()
	var mu sync.Mutex
	go in.Keep(&mu)
	for i := 0; ; i++ { // until Keep has written it all
		mu.Lock()
		if in.written == int64(len(written)) {
			break
		}
		mu.Unlock()
		if i == 1000 {
			t.Fatal("Keep did not keep what was written")
		}
		time.Sleep(5 * time.Millisecond)
	}
	in.Stop()
	mu.Unlock()
	if got := readTwice(t, in); got != written {
		t.Errorf("stopped: read %q, want %q", got, written)
	}

	broken := errors.New("broken")
	in, err = (&Opener{Stdin: io.MultiReader(strings.NewReader("{\"a\": 1}\n{\"b\""), errReader{broken})}).Twice("-")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Remove()
	if err := in.Keep(&sync.Mutex{}); err != broken {
		t.Errorf("Keep: %v, want the read error", err)
	}
	if got := readTwice(t, in); got != "{\"a\": 1}\n" {
		t.Errorf("cut by a read error: read %q", got)
	}
}
