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
	sigs := make(chan os.Signal, 2)
	caught := make(chan struct{})
	go func() {
		// Set up beside the command's own start, which it would
		// otherwise wait for (threads handed the work, about a tenth
		// of a small translation): a command waits for it before it
		// reads its first input or starts a program (env.caught).
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
		close(caught)
	}()
	e := newEnv(os.Stdin, ownFile(os.Stdout), ownFile(os.Stderr))
	e.signals = caught
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
