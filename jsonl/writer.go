package jsonl

import (
	"bufio"
	"io"
)

// Writer buffers output lines. Its owner calls Flush when input would block
// (see NewReader's idle), so a live pipe sees each event at once while a file
// is still written in big blocks.
type Writer struct {
	bw  *bufio.Writer
	err error
}

// WriterSize is the output buffer size.
const WriterSize = 256 << 10

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{bw: bufio.NewWriterSize(w, WriterSize)} }

// WriteLine writes b and a newline. After the first error every call
// returns it, so a closed pipe stops the work early.
func (w *Writer) WriteLine(b []byte) error {
	if w.err != nil {
		return w.err
	}
	if _, err := w.bw.Write(b); err != nil {
		w.err = err
		return err
	}
	if err := w.bw.WriteByte('\n'); err != nil {
		w.err = err
	}
	return w.err
}

// Write writes b as it is (for output that carries its own separators).
func (w *Writer) Write(b []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.bw.Write(b)
	if err != nil {
		w.err = err
	}
	return n, err
}

// Flush writes out what is buffered.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = err
	}
	return w.err
}

// Err returns the first write error.
func (w *Writer) Err() error { return w.err }
