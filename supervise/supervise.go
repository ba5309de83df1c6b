// Package supervise runs a program in a process group of its own and makes sure no process of that group outlives it.
package supervise

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Process is a started program: the leader of its own process group.
type Process struct {
	cmd  *exec.Cmd
	out  *Output
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
	p := &Process{cmd: cmd, out: &Output{f: r}, pgid: cmd.Process.Pid, done: make(chan struct{})}
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
func (p *Process) Stdout() *Output { return p.out }

// ErrHeld is what Output's Read returns once the group is gone but the
// output stayed open, waiting for bytes that did not come: a process
// outside the group (one that called setsid) holds it.
var ErrHeld = errors.New("the output is still held open by a process outside the process group")

// Output is the read end of a program's standard output. Everything the
// program's group wrote is read to its end, however slowly the reader
// asks for it: a reader that spends its time writing elsewhere loses
// nothing. Once the group is gone (Stop or Clean has returned) the bytes
// it wrote are all in the pipe, and Read returns them at once; after that
// only the time Read spends waiting for bytes that do not come counts,
// and once it adds up to the group's grace period and a second, Read
// returns ErrHeld instead of waiting for ever on a process that escaped
// the group and holds the output open.
type Output struct {
	f       *os.File
	mu      sync.Mutex
	ended   bool          // the group is gone
	hurried bool          // see Hurry
	left    time.Duration // once ended: how much longer Read may wait in all
	reading bool          // a Read is in the pipe's read, since since
	since   time.Time
}

func (o *Output) Read(b []byte) (int, error) {
	o.mu.Lock()
	if o.ended {
		if o.left <= 0 {
			o.mu.Unlock()
			return 0, ErrHeld
		}
		o.f.SetReadDeadline(time.Now().Add(o.left))
	}
	o.reading, o.since = true, time.Now()
	o.mu.Unlock()
	n, err := o.f.Read(b)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.reading = false
	if o.ended {
		o.left -= time.Since(o.since)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			err = ErrHeld
		}
	}
	return n, err
}

// groupGone starts counting the time Read waits: limit in all.
func (o *Output) groupGone(limit time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ended {
		return
	}
	o.ended, o.left = true, limit
	if o.hurried {
		o.left = min(o.left, time.Second)
	}
	o.restart()
}

// Hurry cuts the time Read may wait once the group is gone to a second
// in all (zevo was told to stop: it does not wait the grace period for a
// process outside the group). Bytes the group wrote are still all read.
func (o *Output) Hurry() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.hurried = true
	if o.ended && o.left > time.Second {
		o.left = time.Second
		o.restart()
	}
}

// restart sets the deadline of a Read that is waiting already, for a
// pipe that was empty: from now on its wait counts.
func (o *Output) restart() {
	if o.reading {
		o.since = time.Now()
		o.f.SetReadDeadline(o.since.Add(o.left))
	}
}

// Close closes the read end; a Read waiting on it returns.
func (o *Output) Close() error { return o.f.Close() }

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
// exited and the group's processes are gone; from then on a process
// outside the group that holds the output open gets grace and a second
// (see Output).
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
	p.out.groupGone(grace + time.Second)
}

// Clean ends what is left of the group after its leader exited by
// itself: SIGTERM, then SIGKILL after grace. A group that is already
// empty costs nothing.
func (p *Process) Clean(grace time.Duration, kill <-chan struct{}) {
	<-p.done
	if !p.Alive() {
		p.out.groupGone(grace + time.Second)
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
