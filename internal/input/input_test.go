package input

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// OpenRegular opens a regular file and leaves a named FIFO unopened: with
// no writer, opening it would wait, and with one it would take the
// writer's bytes from the reading.
func TestOpenRegularLeavesFIFOUnopened(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	if f, ok, err := OpenRegular(fifo); f != nil || ok || err != nil {
		t.Errorf("a FIFO: %v, %v, %v", f, ok, err)
	}
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, ok, err := OpenRegular(plain)
	if f == nil || !ok || err != nil {
		t.Fatalf("a regular file: %v, %v, %v", f, ok, err)
	}
	f.Close()
	if _, ok, err := OpenRegular(filepath.Join(dir, "none")); ok || !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, %v", ok, err)
	}
}
