// Package cli wires zevo's commands: flags in, library calls, exit codes out.
package cli

import (
	"errors"
	"fmt"
	"syscall"
)

// Exit codes, the only place they are defined.
const (
	ExitOK          = 0   // success, or the consumer closed the pipe early
	ExitDiagnostics = 1   // some lines had diagnostics (output for the rest was written), or output failed
	ExitUsage       = 2   // bad flags or arguments
	ExitInterrupt   = 130 // SIGINT: what was translated is flushed first
	ExitTerminate   = 143 // SIGTERM: likewise
)

// exitError carries an exit code and, when msg is not empty, a message for
// stderr.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usageErr is a usage error: exit 2.
func usageErr(format string, a ...any) error {
	return &exitError{ExitUsage, fmt.Sprintf(format, a...)}
}

// silentExit ends with code, having already said what there was to say.
func silentExit(code int) error {
	return &exitError{code: code}
}

// exitCode maps an error returned by a command to its exit code and message.
func exitCode(err error) (int, string) {
	if err == nil {
		return ExitOK, ""
	}
	if brokenPipe(err) {
		return ExitOK, ""
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code, e.msg
	}
	return ExitDiagnostics, err.Error()
}

// brokenPipe reports a write to a consumer that went away (zevo … | head -1):
// it has read all it wanted, so zevo stops quietly.
func brokenPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE)
}
