package cli

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// stopGrace bounds the wait for the last flush after a signal: output that
// a consumer no longer reads must not keep zevo alive.
const stopGrace = 2 * time.Second

// Main runs zevo as the process: on the process's streams, with a closed
// output pipe ending it quietly (see exitCode) and SIGINT or SIGTERM
// flushing what was already translated before it exits 130 or 143.
func Main() int {
	// Without this the Go runtime kills the process on the first write to
	// a closed stdout; caught, the write returns EPIPE and zevo ends
	// cleanly. (Caught, not ignored: an ignored signal stays ignored in
	// the programs zevo exec starts.)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	e := newEnv(os.Stdin, os.Stdout, os.Stderr)
	done := make(chan int, 1)
	go func() { done <- e.run(os.Args) }()
	for {
		select {
		case code := <-done:
			return code
		case sig := <-sigs:
			if e.takeSignal(sig) {
				continue
			}
			return e.stop(sig, sigs)
		}
	}
}

// stop ends the work for a signal: waits for the line being translated,
// runs onStop, and keeps e.mu so that nothing more is written.
func (e *env) stop(sig os.Signal, more <-chan os.Signal) int {
	code := ExitInterrupt
	if sig == syscall.SIGTERM {
		code = ExitTerminate
	}
	flushed := make(chan struct{})
	go func() {
		e.mu.Lock()
		if e.onStop != nil {
			e.onStop()
		}
		close(flushed)
	}()
	select {
	case <-flushed:
	case <-more: // a second signal: do not wait
	case <-time.After(stopGrace):
	}
	return code
}
