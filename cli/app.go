package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/redact"
	"github.com/zevo/zevo/translate"
)

// Version is zevo's version, set at build time with -ldflags "-X".
var Version = "0.1.0-dev"

// env is what a command may touch: its streams and the process's place.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getwd          func() (string, error)

	// mu is held by a command while it translates a line or writes out,
	// and by an interruption (SIGINT, SIGTERM) for good: the interruption
	// then runs onStop, so what was translated is flushed whole and
	// nothing is written after it.
	mu     sync.Mutex
	onStop func()

	// follow, when set (--follow), opens a file to be read on as it grows.
	follow func(name string) (io.ReadCloser, error)
	// fileBytes, when set, wraps each file as read from disk, before it is
	// decompressed (stats' progress bar counts the file's own bytes).
	fileBytes func(io.ReadCloser) io.ReadCloser

	// sigMu guards signal: when set, a command takes SIGINT and SIGTERM
	// itself (exec passes them on to the program it runs).
	sigMu  sync.Mutex
	signal func(os.Signal)
	// signals, when set, is closed once SIGINT and SIGTERM are caught
	// (Main); see caught.
	signals <-chan struct{}

	// account, when set (by tests), receives translate's accounting.
	account func(*translate.Stats)

	// msgs redacts every message and diagnostic on stderr (see shown):
	// the default rules until a command decides otherwise (redactorOf).
	msgs *redact.Redactor
}

func newEnv(stdin io.Reader, stdout, stderr io.Writer) *env {
	return &env{stdin: stdin, stdout: stdout, stderr: stderr, getwd: os.Getwd, msgs: new(redact.Redactor)}
}

// Run runs zevo with args (args[0] is the program name) and returns the
// exit code. It never calls os.Exit, so tests run it with buffers.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return newEnv(stdin, stdout, stderr).run(args)
}

func (e *env) run(args []string) int {
	app := newApp(e)
	help := &writeErr{w: e.stdout}
	app.Writer = help // help, version: urfave/cli does not check its writes
	if len(args) > 1 && args[len(args)-1] == completionFlag {
		var ok bool
		if args, ok = completionArgs(args); !ok {
			return 0
		}
	}
	err := unknownHelpTopic(app, args)
	if err == nil {
		var ignored []string
		var host *event.Dialect
		args, ignored, host = hostArgs(args)
		if len(ignored) > 0 {
			e.warnf("ignoring %s options the agent cannot honour: %s", host.Title, strings.Join(ignored, " "))
		}
		run := helpAlone(app, flagsFirst(app, args))
		if len(run) > 1 && app.Command(run[1]) != nil && run[len(run)-1] != completionFlag {
			// zevo's own flags serve "zevo --to …" and come before a
			// command word; with the word first none is given, and
			// urfave/cli would look each of them up on every run, which
			// costs as much as translating a small log.
			app.Flags = nil
		}
		err = app.Run(run)
	}
	if err == nil && help.err != nil {
		err = fmt.Errorf("writing output: %w", help.err)
	}
	code, msg := exitCode(err)
	if h := helpFor(app, args); code == ExitUsage && msg != "" && h != "" && !strings.Contains(msg, "--help") {
		msg += " (see " + h + ")"
	}
	if msg != "" {
		if code != ExitJQCompile {
			e.warnf("%s", msg)
			return code
		}
		// A compile error shows the expression under the message: its
		// lines are kept, each as warnf writes a message.
		lines := strings.Split(strings.TrimPrefix(msg, "zevo: "), "\n")
		for i, l := range lines {
			lines[i] = e.shown(l)
		}
		fmt.Fprintf(e.stderr, "zevo: %s\n", strings.Join(lines, "\n"))
	}
	return code
}

// writeErr keeps the first error of writes that are not checked.
type writeErr struct {
	w   io.Writer
	err error
}

func (w *writeErr) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

// whenStopped sets what an interruption does before zevo exits: flush
// the output, close what is open. It runs with e.mu held.
func (e *env) whenStopped(f func()) {
	e.mu.Lock()
	e.onStop = f
	e.mu.Unlock()
}

// onSignal makes f receive SIGINT and SIGTERM instead of the default
// stop; nil restores it.
func (e *env) onSignal(f func(os.Signal)) {
	e.sigMu.Lock()
	e.signal = f
	e.sigMu.Unlock()
}

// caught waits for SIGINT and SIGTERM to be caught: a command calls it
// before it reads its first input or starts a program, so that from then
// on an interruption flushes what was done. Before, there is nothing to
// flush, and the signal ends zevo as it ends any process.
func (e *env) caught() {
	if e.signals != nil {
		<-e.signals
	}
}

// takeSignal passes sig to the command's handler, if it has one.
func (e *env) takeSignal(sig os.Signal) bool {
	e.sigMu.Lock()
	f := e.signal
	e.sigMu.Unlock()
	if f == nil {
		return false
	}
	f(sig)
	return true
}

// dialectTitles lists the registry's dialects as people name them.
func dialectTitles() string {
	titles := make([]string, len(dialects.All))
	for i, d := range dialects.All {
		titles[i] = d.Title
	}
	return strings.Join(titles, ", ")
}

func newApp(e *env) *ucli.App {
	app := &ucli.App{
		Name:    "zevo",
		Usage:   "translate, filter and inspect AI coding agents' event streams",
		Version: Version,
		Description: `zevo reads the event streams of AI coding agents
(` + dialectTitles() + `: zevo schema lists them),
translates one agent's into another's, runs jq expressions on every line,
and helps you read agent logs. Every command reads standard input when no
FILE is given, reads gzip and zstd input as it is, and takes its flags
anywhere ("--" ends them); zevo help COMMAND shows its options.

Examples:
   EvoSci -p "fix the tests" --output-format stream-json | zevo translate --to zero
   zevo translate --to evosci testdata/translate/basic.zero.jsonl
   zevo --to zero testdata/translate/basic.evosci.jsonl    (same as translate)`,
		Reader:         e.stdin,
		Writer:         e.stdout,
		ErrWriter:      e.stderr,
		ExitErrHandler: func(*ucli.Context, error) {}, // Run maps errors to codes
		OnUsageError: func(_ *ucli.Context, err error, _ bool) error {
			return usageErr("%v (see zevo --help)", err)
		},
		Suggest:              true,
		EnableBashCompletion: true, // answers zevo completion's scripts
	}
	tr := translateCommand(e)
	app.Commands = append(app.Commands, tr)
	jq := jqCommand(e)
	jq.CustomHelpTemplate = jqUsage // zevo help jq: the help zevo jq --help prints
	app.Commands = append(app.Commands, jq)
	app.Commands = append(app.Commands, schemaCommand(e))
	app.Commands = append(app.Commands, validateCommand(e))
	app.Commands = append(app.Commands, statsCommand(e))
	app.Commands = append(app.Commands, viewCommand(e))
	app.Commands = append(app.Commands, otelCommand(e))
	app.Commands = append(app.Commands, execCommand(e))
	app.Commands = append(app.Commands, completionCommand(e))
	app.Commands = append(app.Commands, manCommand(e))
	// "zevo --to zero FILE" is translate without the word.
	app.Flags = translateFlags(true)
	app.Action = func(c *ucli.Context) error {
		if !c.IsSet("to") {
			if c.NArg() > 0 {
				return usageErr("unknown command %q (see zevo --help)", c.Args().First())
			}
			return ucli.ShowAppHelp(c)
		}
		return tr.Action(c)
	}
	app.Flags = cachedNames(app.Flags)
	for _, cmd := range app.Commands {
		cmd.Flags = cachedNames(cmd.Flags)
		// "zevo help COMMAND" is the help command; commands have no
		// subcommands, so no "zevo COMMAND help" (completion then offers
		// files after a command).
		cmd.HideHelpCommand = true
		help := "zevo " + cmd.Name + " --help"
		cmd.OnUsageError = func(_ *ucli.Context, err error, _ bool) error {
			return usageErr("%s: %v (see %s)", cmd.Name, err, help)
		}
	}
	return app
}
