package cli

import (
	"io"
	"io/fs"
	"os"
	"syscall"
	"unsafe"
)

// outputClosed returns a channel closed once nobody can read w any more:
// w is a pipe or socket whose reading end was closed (the client went
// away). It tells without writing, so that an agent that writes nothing
// for a while is not left running for nobody. Nil when w is not one.
func outputClosed(w io.Writer) <-chan struct{} {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) == 0 {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	var fd int
	if rc.Control(func(s uintptr) { fd = int(s) }) != nil {
		return nil
	}
	closed := make(chan struct{})
	go func() {
		// poll with no event asked for: it reports only POLLERR (a pipe
		// without readers) and POLLHUP (a socket shut down).
		const pollErr, pollHup = 0x8, 0x10
		pfd := struct {
			fd              int32
			events, revents int16
		}{fd: int32(fd)}
		for {
			_, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, 0, 0, 0, 0)
			switch {
			case errno == syscall.EINTR:
				continue
			case errno != 0:
				return
			case pfd.revents&(pollErr|pollHup) != 0:
				close(closed)
			}
			return
		}
	}()
	return closed
}
