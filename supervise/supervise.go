// Package supervise runs a program in a process group of its own and makes sure no process of that group outlives it.
package supervise

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// Process is a started program: the leader of its own process group.
type Process struct {
	cmd  *exec.Cmd
	out  *os.File
	pgid int
	done chan struct{}
	werr error // from Wait, once done is closed
}

// StartError is a program that could not be started. NotFound tells a
// missing program (or interpreter) from one that exists but cannot be run.
type StartError struct {
	Name     string
	NotFound bool
	Err      error
}

func (e *StartError) Error() string {
	if e.NotFound {
		return "cannot run " + strconv.Quote(e.Name) + ": " + notFoundReason(e)
	}
	return "cannot run " + strconv.Quote(e.Name) + ": " + e.Err.Error()
}

func (e *StartError) Unwrap() error { return e.Err }

func notFoundReason(e *StartError) string {
	if errors.Is(e.Err, exec.ErrNotFound) {
		return "no such program in $PATH"
	}
	if _, err := os.Stat(e.Name); err == nil {
		// execve's ENOENT for a file that is there: its #! interpreter is not.
		return "its interpreter (the #! line) was not found"
	}
	return "no such file"
}

// Start starts argv[0] with argv[1:] in a new process group. Its standard
// output is a pipe, read from Stdout; its standard error is stderr (an
// *os.File is handed over as it is); its standard input is stdin, or
// /dev/null when stdin is nil. A program that does not read all of stdin
// is not an error.
func Start(argv []string, stdin io.Reader, stderr io.Writer) (*Process, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, &StartError{Name: "", NotFound: true, Err: exec.ErrNotFound}
	}
	if !supported {
		return nil, &StartError{Name: argv[0], Err: errors.New("process groups are not supported on this system")}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if cmd.Err != nil {
		return nil, &StartError{Name: argv[0], NotFound: errors.Is(cmd.Err, exec.ErrNotFound) || errors.Is(cmd.Err, os.ErrNotExist), Err: cmd.Err}
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, w, stderr
	cmd.SysProcAttr = newGroup()
	// Copies of stdin and stderr (when they are not files) end with the
	// program; a descendant that escaped the group must not hold them open.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, &StartError{Name: argv[0], NotFound: errors.Is(err, os.ErrNotExist), Err: unwrapPath(err)}
	}
	w.Close()
	p := &Process{cmd: cmd, out: r, pgid: cmd.Process.Pid, done: make(chan struct{})}
	go func() {
		p.werr = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// unwrapPath drops the "fork/exec NAME:" prefix: the message names the program already.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Stdout is the read end of the program's standard output.
func (p *Process) Stdout() *os.File { return p.out }

// Pgid is the id of the program's process group (its pid).
func (p *Process) Pgid() int { return p.pgid }

// Done is closed once the program (the group's leader) has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Status describes how the program ended; valid once Done is closed.
// Signal is set when a signal killed it, else Code is its exit status.
func (p *Process) Status() (code int, signal syscall.Signal) {
	st := p.cmd.ProcessState
	if st == nil {
		return -1, 0
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, ws.Signal()
	}
	return st.ExitCode(), 0
}

// Signal sends sig to every process of the group.
func (p *Process) Signal(sig syscall.Signal) { signalGroup(p.pgid, sig) }

// Alive reports whether a process of the group is still running.
func (p *Process) Alive() bool { return Running(p.pgid) }

// Stop ends the group: sig to every process of it, then SIGKILL to what
// is left when the leader has not exited and the group is not empty after
// grace, or when kill receives a value. It returns once the leader has
// exited and the group's processes are gone.
func (p *Process) Stop(sig syscall.Signal, grace time.Duration, kill <-chan struct{}) {
	if p.Alive() {
		p.Signal(sig)
	}
	p.waitGone(grace, kill)
	p.Signal(syscall.SIGKILL)
	<-p.done
	// SIGKILL takes effect when the process next runs: wait for that too
	// (a process stuck in the kernel may not die at all; a second is enough
	// for the others).
	p.waitGone(time.Second, nil)
}

// Clean ends what is left of the group after its leader exited by
// itself: SIGTERM, then SIGKILL after grace. A group that is already
// empty costs nothing.
func (p *Process) Clean(grace time.Duration, kill <-chan struct{}) {
	<-p.done
	if !p.Alive() {
		return
	}
	p.Stop(syscall.SIGTERM, grace, kill)
}

// waitGone waits until the leader has exited and the group is empty, at
// most grace or until kill.
func (p *Process) waitGone(grace time.Duration, kill <-chan struct{}) {
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.done:
			if !p.Alive() {
				return
			}
		default:
		}
		select {
		case <-deadline.C:
			return
		case <-kill:
			return
		case <-tick.C:
		case <-p.done:
		}
	}
}
