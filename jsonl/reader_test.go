package jsonl

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readAll(t *testing.T, r io.Reader) []Line {
	t.Helper()
	lr := NewReader(r, "f", nil)
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
