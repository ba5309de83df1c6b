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

// Exit code of zevo exec beyond those above, the run's own and those of
// the target's CLI (its dialect's Exits; docs/exec.md): the shell's for a
// program that cannot be run.
const ExitNoAgent = 127

// Exit codes of zevo jq and translate --jq, jq 1.7's. When several apply,
// the first of these wins: halt_error's own code; 2 for a FILE that could
// not be read (jq's "system error"); 5 for values that are not JSON and
// errors raised by the expression; then -e's 4 or 1. Bad options are 2 as
// for every command. zevo goes on past a bad value or an error where jq
// stops; the code is the same.
const (
	ExitJQFalse    = 1 // -e: the last result was false or null
	ExitJQSystem   = 2 // a FILE could not be read
	ExitJQCompile  = 3 // the expression does not parse or compile
	ExitJQNoOutput = 4 // -e: there was no result at all
	ExitJQError    = 5 // a value was not JSON, or the expression raised an error; halt_error's default
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
