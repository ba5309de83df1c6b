//go:build unix

package cli

import (
	"os"
	"syscall"
)

// ownFile is a descriptor of f's own, closed in the programs zevo starts;
// f itself when none can be had. The Go runtime kills the process on a
// write to a closed pipe on descriptors 1 and 2 unless SIGPIPE is caught;
// on another the write returns EPIPE, and zevo ends cleanly (exitCode),
// without catching SIGPIPE, which every command paid for at start.
// (Not ignored either: an ignored signal stays ignored in the programs
// zevo exec starts.)
func ownFile(f *os.File) *os.File {
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return f
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), f.Name())
}
