package jsonl

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func readAll(t *testing.T, r io.Reader) []Line {
	t.Helper()
	return readLines(t, NewReader(r, "f", nil))
}

// readLines reads lr to its end, each line copied.
func readLines(t *testing.T, lr *Reader) []Line {
	t.Helper()
	var out []Line
	for {
		l, err := lr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		l.Bytes = bytes.Clone(l.Bytes)
		out = append(out, l)
	}
}

func TestReaderLineEnds(t *testing.T) {
	in := "\xef\xbb\xbf{\"a\":1}\r\n\n  \r\n{\"b\":2}\n{\"c\":3}"
	got := readAll(t, strings.NewReader(in))
	want := []string{`{"a":1}`, ``, `  `, `{"b":2}`, `{"c":3}`}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d", len(got), len(want))
	}
	for i, l := range got {
		if string(l.Bytes) != want[i] || l.Num != i+1 || l.Where() != "f:"+string(rune('1'+i)) {
			t.Errorf("line %d: %q at %s", i+1, l.Bytes, l.Where())
		}
	}
	if !got[4].NoNewline || got[3].NoNewline {
		t.Error("NoNewline wrong")
	}
	if !IsBlank(got[2].Bytes) || IsBlank(got[0].Bytes) {
		t.Error("IsBlank wrong")
	}
}

func TestReaderBOMOnlyAtStart(t *testing.T) {
	got := readAll(t, strings.NewReader("a\n\xef\xbb\xbfb\n"))
	if string(got[1].Bytes) != "\xef\xbb\xbfb" {
		t.Fatalf("a BOM inside the stream is data: got %q", got[1].Bytes)
	}
}

// An input of a BOM alone has no line, as an empty input has none; a BOM
// and a line end is one blank line, as a line end alone is.
func TestReaderBOMAloneIsNoLine(t *testing.T) {
	if got := readAll(t, strings.NewReader("\xef\xbb\xbf")); len(got) != 0 {
		t.Fatalf("a BOM alone gave %d lines", len(got))
	}
	if got := readAll(t, strings.NewReader("\xef\xbb\xbf\n")); len(got) != 1 || len(got[0].Bytes) != 0 {
		t.Fatalf("a BOM and a line end: %d lines", len(got))
	}
}

func TestReaderLongLines(t *testing.T) {
	long := strings.Repeat("x", 3*ReaderSize+17)
	in := long + "\nshort\n" + long
	got := readAll(t, iotest.OneByteReader(strings.NewReader(in[:1000])))
	if len(got) != 1 || len(got[0].Bytes) != 1000 {
		t.Fatalf("one-byte reads: %d lines", len(got))
	}
	got = readAll(t, strings.NewReader(in))
	if len(got) != 3 || string(got[0].Bytes) != long || string(got[1].Bytes) != "short" || string(got[2].Bytes) != long {
		t.Fatalf("long lines not whole: %d lines", len(got))
	}
}

func TestReaderEmpty(t *testing.T) {
	if got := readAll(t, strings.NewReader("")); len(got) != 0 {
		t.Fatalf("empty input gave %d lines", len(got))
	}
}

func TestReaderError(t *testing.T) {
	boom := errors.New("disk on fire")
	lr := NewReader(io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(boom)), "f", nil)
	if l, err := lr.Next(); err != nil || string(l.Bytes) != "a" {
		t.Fatalf("first line: %q %v", l.Bytes, err)
	}
	if _, err := lr.Next(); !errors.Is(err, boom) {
		t.Fatalf("want the read error, got %v", err)
	}
	if _, err := lr.Next(); !errors.Is(err, boom) {
		t.Fatalf("the error must stick, got %v", err)
	}
}

// NextInto overwrites every field of the Line it is given, and leaves it
// the zero Line on an error or at the end, as Next returns.
func TestReaderNextIntoOverwrites(t *testing.T) {
	boom := errors.New("disk on fire")
	lr := NewReader(io.MultiReader(strings.NewReader("\xef\xbb\xbfa\r\nb"), iotest.ErrReader(boom)), "f", nil)
	stale := Line{Name: "stale", Num: 9, Bytes: []byte("stale"), NoNewline: true, CR: true}
	l := stale
	if err := lr.NextInto(&l); err != nil {
		t.Fatal(err)
	}
	if want := (Line{Name: "f", Num: 1, Bytes: []byte("a"), CR: true}); fmt.Sprint(l) != fmt.Sprint(want) {
		t.Fatalf("first line %+v, want %+v", l, want)
	}
	l = stale
	if err := lr.NextInto(&l); !errors.Is(err, boom) || fmt.Sprint(l) != fmt.Sprint(Line{}) {
		t.Fatalf("at the read error: %+v, %v", l, err)
	}
	lr = NewReader(strings.NewReader("x\n"), "g", nil)
	lr.NextInto(&l)
	l = stale
	if err := lr.NextInto(&l); err != io.EOF || fmt.Sprint(l) != fmt.Sprint(Line{}) {
		t.Fatalf("at the end: %+v, %v", l, err)
	}
}

// The idle hook runs whenever the next read would block, and its error stops reading.
func TestReaderIdle(t *testing.T) {
	pr, pw := io.Pipe()
	calls := 0
	lr := NewReader(pr, "f", func() error { calls++; return nil })
	go func() {
		io.WriteString(pw, "a\n")
		io.WriteString(pw, "b\n")
		pw.Close()
	}()
	for {
		if _, err := lr.Next(); err != nil {
			break
		}
	}
	if calls < 3 {
		t.Fatalf("idle called %d times for 2 writes and EOF", calls)
	}
	stop := errors.New("stop")
	lr = NewReader(strings.NewReader("a\n"), "f", func() error { return stop })
	if _, err := lr.Next(); !errors.Is(err, stop) {
		t.Fatalf("idle error not returned: %v", err)
	}
}

// TestReaderIdleBeforeHalfLine: complete lines followed by the first
// part of the next one, then nothing for a while (a log being written, a
// file about to be rotated): the idle hook runs before the read that
// waits, so that what the complete lines gave is handed on.
func TestReaderIdleBeforeHalfLine(t *testing.T) {
	pr, pw := io.Pipe()
	calls := 0
	lr := NewReader(pr, "f", func() error { calls++; return nil })
	go io.WriteString(pw, "a\nb\nhal")
	for _, want := range []string{"a", "b"} {
		if l, err := lr.Next(); err != nil || string(l.Bytes) != want {
			t.Fatalf("got %q %v, want %q", l.Bytes, err, want)
		}
	}
	before := calls
	go func() {
		// The write below waits for the reader's read: by then idle ran.
		io.WriteString(pw, "f\n")
		pw.Close()
	}()
	if l, err := lr.Next(); err != nil || string(l.Bytes) != "half" {
		t.Fatalf("got %q %v, want %q", l.Bytes, err, "half")
	}
	if calls == before {
		t.Error("idle not called before waiting for the end of a half line")
	}
}

// A line past hugeLine, read in the reader's own blocks, comes whole and
// in order: every 8 bytes spell their own offset, so a block copied to the
// wrong place, or a page left as zeros, shows.
func TestReaderHugeLine(t *testing.T) {
	n := hugeLine + hugeLine/2 + 12345
	var b strings.Builder
	b.Grow(n + 20)
	b.WriteString("first\n")
	for i := 0; b.Len() < n; i += 8 {
		fmt.Fprintf(&b, "%08x", i)
	}
	huge := b.String()[len("first\n"):]
	b.WriteString("\nlast")
	got := readAll(t, strings.NewReader(b.String()))
	if len(got) != 3 || string(got[0].Bytes) != "first" || string(got[2].Bytes) != "last" {
		t.Fatalf("%d lines", len(got))
	}
	if g := got[1].Bytes; string(g) != huge {
		i := 0
		for i < len(g) && i < len(huge) && g[i] == huge[i] {
			i++
		}
		t.Fatalf("the huge line (%d bytes, want %d) differs from byte %d", len(g), len(huge), i)
	}
}

// copyPreemptible copies as copy does, whatever the length against its
// megabyte steps and pages, and touches nothing past len(src).
func TestCopyPreemptible(t *testing.T) {
	src := make([]byte, 3<<20+4099)
	for i := range src {
		src[i] = byte(i*7 + i>>12)
	}
	for _, n := range []int{0, 1, 4095, 4096, 4097, 1 << 20, 1<<20 + 1, 2<<20 - 1, len(src)} {
		dst := make([]byte, len(src)+1)
		for i := range dst {
			dst[i] = 0xAA
		}
		copyPreemptible(dst, src[:n])
		if !bytes.Equal(dst[:n], src[:n]) {
			t.Fatalf("%d bytes: the copy differs", n)
		}
		for i := n; i < len(dst); i++ {
			if dst[i] != 0xAA {
				t.Fatalf("%d bytes: byte %d past the copy was written", n, i)
			}
		}
	}
}

// OnGrow hears each growth of a long line's buffer, with capacities that
// rise and end at least as long as the line; a short line grows nothing.
func TestReaderOnGrow(t *testing.T) {
	long := strings.Repeat("y", 5*ReaderSize+3)
	var caps []int
	lr := NewReader(strings.NewReader("short\n"+long+"\nshort\n"), "x", nil)
	lr.OnGrow(func(c int) { caps = append(caps, c) })
	for i := 0; ; i++ {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 && len(caps) != 0 {
			t.Fatalf("a short line grew the buffer: %v", caps)
		}
		if i == 1 && string(l.Bytes) != long {
			t.Fatalf("the long line is %d bytes", len(l.Bytes))
		}
	}
	if len(caps) == 0 || caps[len(caps)-1] < len(long) {
		t.Fatalf("capacities %v for a line of %d bytes", caps, len(long))
	}
	for i := 1; i < len(caps); i++ {
		if caps[i] <= caps[i-1] {
			t.Fatalf("capacities %v do not rise", caps)
		}
	}
}

// While Next waits inside a line (a producer stopped mid-line), another
// goroutine gets that line as a file ending there would give it: its
// number, its bytes, no line end. Long lines (a tiny buffer) too, and
// between calls of Next.
func TestReaderPendingWhileWaitingInsideALine(t *testing.T) {
	for _, size := range []int{16, ReaderSize} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			pr, pw := io.Pipe()
			defer pw.Close()
			lr := newReaderSize(pr, "in", nil, size)
			if _, ok := lr.Pending(); ok {
				t.Fatal("a pending line before any input")
			}
			lines := make(chan Line)
			go func() {
				for {
					l, err := lr.Next()
					if err != nil {
						close(lines)
						return
					}
					l.Bytes = bytes.Clone(l.Bytes)
					lines <- l
				}
			}()
			half := `{"type":"text","content":"a line the producer was stopped inside`
			go io.WriteString(pw, "\xEF\xBB\xBF{\"a\":1}\n"+half)
			if l := <-lines; l.Num != 1 || string(l.Bytes) != `{"a":1}` {
				t.Fatalf("first line %+v", l)
			}
			deadline := time.Now().Add(5 * time.Second)
			for {
				l, ok := lr.Pending()
				if ok && string(l.Bytes) == half {
					if l.Num != 2 || !l.NoNewline || l.Name != "in" {
						t.Errorf("pending %+v", l)
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("pending %q, %v; want %q", l.Bytes, ok, half)
				}
				time.Sleep(time.Millisecond)
			}
			// The line goes on: Pending took nothing.
			io.WriteString(pw, "!\"}\n")
			if l := <-lines; l.Num != 2 || string(l.Bytes) != half+`!"}` {
				t.Fatalf("second line %+v", l)
			}
			if _, ok := lr.Pending(); ok {
				t.Error("a pending line after a line end")
			}
			pw.Close()
			if _, ok := <-lines; ok {
				t.Error("a line after the end")
			}
		})
	}
}

// Between calls of Next, buffered bytes holding a line end are lines not
// yet returned, not a line being read; without one they are.
func TestReaderPendingBetweenCalls(t *testing.T) {
	lr := NewReader(strings.NewReader("a\nb\nc"), "f", nil)
	lr.Next()
	if l, ok := lr.Pending(); ok {
		t.Errorf("pending %+v with whole lines buffered", l)
	}
	lr.Next()
	if l, ok := lr.Pending(); !ok || string(l.Bytes) != "c" || l.Num != 3 {
		t.Errorf("pending %+v, %v; want line 3 \"c\"", l, ok)
	}
}

// A small file gets a buffer its size (NewReader); the file growing past
// it before it is read loses nothing: its long line is read whole, and its
// last line without a line end too.
func TestReaderSmallFileThatGrows(t *testing.T) {
	name := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(name, []byte("{\"a\":1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lr := NewReader(f, "in", nil)
	if size := lr.br.Size(); size >= ReaderSize {
		t.Fatalf("a buffer of %d bytes for an 8-byte file", size)
	}
	long := `{"b":"` + strings.Repeat("x", 3*minReaderSize) + `"}`
	w, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, "%s\n{\"c\":3}", long)
	w.Close()
	var got []string
	for _, l := range readLines(t, lr) {
		got = append(got, string(l.Bytes))
	}
	want := []string{`{"a":1}`, long, `{"c":3}`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("lines %d, want %d: %.60q", len(got), len(want), got)
	}
}
