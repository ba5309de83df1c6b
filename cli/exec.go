package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/internal/input"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/supervise"
	"github.com/zevo/zevo/translate"
)

const defaultGrace = 5 * time.Second

func execCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "exec",
		Usage:     "start an agent and translate its stream-json output live, as the other agent would write it",
		ArgsUsage: "-- AGENT [ARGS...]",
		Description: `Starts AGENT with ARGS in a process group of its own, reads its standard
output (stream-json of either protocol) and writes the translation in the
protocol of --to, each event as soon as its line is read. AGENT's standard
error passes through. The exit status is the run's: with --to zero the
exitCode of the run_end written, with --to evosci what EvoScientist's CLI
returns. SIGINT and SIGTERM are passed on to AGENT's process group; after
--grace the group is killed.

The prompt comes from --prompt, or from standard input (--input-format
stream-json: ` + dialects.PromptInput.Title + `'s input events; --input-format text: all of it). Every
{prompt} in ARGS is replaced by it; without {prompt} it is written to AGENT's
standard input. Without a prompt option AGENT reads zevo's standard input.

With --to claude --input-format stream-json zevo stands in for Claude Code
under the Claude Agent SDK: it answers the SDK's control requests, runs
AGENT once per user message, fills {model} from --model and ignores, with
one notice, the Claude Code options it cannot honour (docs/exec.md).

Examples:
   zevo exec --to zero --input-format stream-json -- EvoSci -p {prompt} --output-format stream-json
   zevo exec --to evosci --prompt "review this repo" -- zero exec --output-format stream-json {prompt}
   zevo exec --to zero --prompt "fix the tests" --grace 10s -- EvoSci -p {prompt} --output-format stream-json`,
		Flags:  execFlags(),
		Action: func(c *ucli.Context) error { return runExec(c, e) },
	}
}

// execFlags are translate's flags (but --fail-fast: a live agent is not
// stopped for one bad line; nor --follow: there is no FILE) and exec's own.
func execFlags() []ucli.Flag {
	var fs []ucli.Flag
	// cachedNames first: urfave/cli's own Names runs a regular
	// expression over each name, and newApp builds this on every run.
	for _, f := range cachedNames(translateFlags(false)) {
		if n := f.Names()[0]; n != "fail-fast" && n != "follow" {
			fs = append(fs, f)
		}
	}
	return append(fs,
		&ucli.StringFlag{Name: "prompt", Usage: "the prompt `TEXT`, for {prompt} in ARGS or AGENT's standard input"},
		&ucli.StringFlag{Name: "input-format", Usage: "read the prompt from standard input as `FORMAT`: stream-json (" + dialects.PromptInput.Title + "'s input events) or text"},
		&ucli.StringFlag{Name: "agent-model", Hidden: true, Usage: "with --input-format stream-json, standing in for the agent of --to: its --model `NAME`, for {model} in ARGS"},
		&ucli.StringFlag{Name: "agent-resume", Hidden: true, Usage: "with --input-format stream-json, standing in for the agent of --to: its --resume `SESSION`, for {resume} in ARGS"},
		&ucli.DurationFlag{Name: "grace", Value: defaultGrace, Usage: "after SIGINT or SIGTERM, or when the output is closed, wait `DURATION` for AGENT's process group to end before SIGKILL"},
	)
}

// execRun is one zevo exec: the translator and what its output says about
// the run so far.
type execRun struct {
	e     *env
	opt   translate.Options
	tr    *translate.Translator
	w     *jsonl.Writer
	name  string // AGENT's output in diagnostics
	agent string // AGENT, as messages name it

	dialect *event.Dialect // the target's: how its producer's CLI ends a run
	wrote   bool           // an event was written
	open    bool           // a run opened and not yet ended
	outcome int            // exit code the last finished run asks for; -1: none yet
	gave    bool           // the client closed the output: AGENT was stopped for it
}

// see notes what an output event says about the run, before it is
// written: the target dialect's Outcome reads it as its producer's CLI
// would (a run opened, ended, the exit status after it).
func (x *execRun) see(ev []byte) {
	x.wrote = true
	o := x.dialect.Outcome(ev)
	if o.Start {
		x.open = true
	}
	if o.End {
		x.open = false
	}
	if o.Exit >= 0 {
		x.outcome = o.Exit
	}
}

func runExec(c *ucli.Context, e *env) error {
	if !c.IsSet("to") {
		return usageErr("exec needs --to %s", translate.TargetNames())
	}
	opt, err := translateOptions(c, e)
	if err != nil {
		return err
	}
	grace := c.Duration("grace")
	if grace < 0 {
		return usageErr("--grace %v: want a duration of 0 or more", grace)
	}
	args := c.Args().Slice()
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return usageErr("exec needs the AGENT to start: zevo exec --to %s -- AGENT [ARGS...]", c.String("to"))
	}
	if c.IsSet("prompt") && c.IsSet("input-format") {
		return usageErr("--prompt and --input-format both give the prompt: use one")
	}
	if f := c.String("input-format"); c.IsSet("input-format") && f != "text" && f != "stream-json" {
		return usageErr("--input-format: unknown format %q (want stream-json or text)", f)
	}
	if d, _ := dialects.ByName(opt.To.Name); d != nil && d.Host != nil && c.String("input-format") == "stream-json" {
		return runHostSession(c, e, d.Host, opt, args, grace)
	}
	x, jq, err := newExecRun(c, e, opt, args[0], jsonl.NewWriter(e.stdout))
	if err != nil {
		return err
	}

	prompt, err := execPrompt(c, e)
	if err != nil {
		var ie *event.InputError
		if errors.As(err, &ie) && ie.Line > 0 {
			e.diag(lineMsg(stdinName, ie.Line, ie.Reason))
			return x.fail("usage_error", err.Error(), ExitUsage, true)
		}
		return x.fail("usage_error", err.Error(), ExitUsage, false)
	}
	argv, inArgs := withPrompt(args, prompt)
	var stdin io.Reader
	switch {
	case inArgs && prompt == nil:
		return x.fail("usage_error", "ARGS use {prompt} but there is no prompt: give --prompt or --input-format", ExitUsage, false)
	case prompt != nil && !inArgs:
		stdin = strings.NewReader(*prompt)
	case !c.IsSet("input-format") && !isTerminalReader(e.stdin):
		// zevo's standard input is not needed: AGENT gets it. (Not a
		// terminal: AGENT's process group is not the terminal's, and
		// reading it would stop AGENT.)
		stdin = e.stdin
	}

	sigc, release := e.catchSignals()
	defer release()
	proc, err := supervise.Start(argv, stdin, e.stderr)
	if err != nil {
		return x.fail(startCode(err), err.Error(), ExitNoAgent, false)
	}
	return x.supervise(proc, sigc, grace, jq)
}

// startCode is the error code of an AGENT that could not be started.
func startCode(err error) string {
	var se *supervise.StartError
	switch {
	case errors.As(err, &se) && se.NotFound:
		return "agent_not_found"
	case errors.Is(err, fs.ErrPermission):
		return "agent_not_executable"
	}
	return "agent_start_failed" // e.g. ARGS too long for the system
}

// catchSignals holds SIGINT and SIGTERM for AGENT's supervision, from
// before AGENT starts: a signal that comes while it starts (it may
// already be writing) is passed on to its group once it has, rather than
// stopping zevo and leaving the group running. release restores the
// default stop.
func (e *env) catchSignals() (sigc chan os.Signal, release func()) {
	e.caught() // before the program starts
	sigc = make(chan os.Signal, 4)
	e.onSignal(func(s os.Signal) {
		select {
		case sigc <- s:
		default:
		}
	})
	return sigc, func() { e.onSignal(nil) }
}

// newExecRun makes the translator of one AGENT run, writing to w.
func newExecRun(c *ucli.Context, e *env, opt translate.Options, agent string, w *jsonl.Writer) (*execRun, *translateJQ, error) {
	x := &execRun{e: e, opt: opt, w: w, outcome: -1}
	x.dialect, _ = dialects.ByName(opt.To.Name)
	if x.dialect == nil || x.dialect.Outcome == nil {
		return nil, nil, usageErr("exec cannot end a run as %s does", opt.To.Name) // every target says how
	}
	x.agent = filepath.Base(agent)
	x.name = "<" + x.agent + " stdout>"
	out, err := jqOutput(c, e.stderr)
	if err != nil {
		return nil, nil, err
	}
	emit, jq, err := jqEmit(c.String("jq"), false, out, x.w, e)
	if err != nil {
		return nil, nil, err
	}
	x.tr = translate.New(opt, func(ev []byte) error {
		x.see(ev)
		if jq.f != nil {
			jq.name, jq.num = x.tr.Place() // for input_line_number and messages
		}
		return emit(ev)
	})
	return x, jq, nil
}

// execPrompt reads the prompt as the options say; nil when there is none.
func execPrompt(c *ucli.Context, e *env) (*string, error) {
	var p string
	switch {
	case c.IsSet("prompt"):
		p = strings.TrimSpace(c.String("prompt"))
	case c.IsSet("input-format"):
		e.caught()
		data, err := io.ReadAll(e.stdin)
		if err != nil {
			return nil, fmt.Errorf("reading the prompt from standard input: %v", err)
		}
		if c.String("input-format") == "stream-json" {
			p, err = dialects.PromptInput.Prompt(data)
			if err != nil {
				return nil, err
			}
		} else {
			p = strings.TrimSpace(string(data))
		}
	default:
		return nil, nil
	}
	if p == "" {
		return nil, errors.New("the prompt is empty")
	}
	return &p, nil
}

// withPrompt replaces every {prompt} in args[1:] by the prompt, each
// argument staying one argument; inArgs tells whether there was one.
func withPrompt(args []string, prompt *string) (argv []string, inArgs bool) {
	argv = append([]string{args[0]}, args[1:]...)
	for i := 1; i < len(argv); i++ {
		if strings.Contains(argv[i], "{prompt}") {
			inArgs = true
			if prompt != nil {
				argv[i] = strings.ReplaceAll(argv[i], "{prompt}", *prompt)
			}
		}
	}
	return argv, inArgs
}

// fail ends a run that could not start: the message on stderr (unless
// said is set: it was said already), and on stdout a run that failed
// before it started (Translator.Failed). The exit code is code.
func (x *execRun) fail(errCode, msg string, code int, said bool) error {
	if !said {
		x.e.warnf("%s", msg)
	}
	x.e.mu.Lock()
	defer x.e.mu.Unlock()
	err := x.tr.Failed(errCode, msg, "error", code)
	if ferr := x.w.Flush(); err == nil {
		err = ferr
	}
	if err != nil && !brokenPipe(err) {
		x.e.warnf("writing output: %v", err)
	}
	return silentExit(code)
}

// supervise translates AGENT's output until it ends and AGENT's group is
// gone, passes the signals of sigc on, and closes the run as its end
// requires.
func (x *execRun) supervise(proc *supervise.Process, sigc <-chan os.Signal, grace time.Duration, jq *translateJQ) error {
	e := x.e

	flush := func() error {
		e.mu.Lock()
		defer e.mu.Unlock()
		return x.w.Flush()
	}
	streamDone := make(chan error, 1)
	go func() {
		// AGENT's output is read as every command reads its input:
		// compressed output is decompressed (a wrapper may compress the
		// stream it relays). Telling waits for AGENT's first bytes, here
		// and not where signals are handled.
		out, err := input.Decompress(io.NopCloser(proc.Stdout()))
		if err != nil {
			streamDone <- &translate.ReadError{Err: err}
			return
		}
		streamDone <- x.tr.Stream(out, x.name, &e.mu, flush, func(d *jsonl.Diagnostic) error {
			e.diag(d.Error())
			return nil
		})
	}()

	var (
		sig       os.Signal
		kill      = make(chan struct{}) // closed by a second signal: no more waiting
		killed    bool
		stopped   = make(chan struct{}) // closed once the group is gone
		ending    bool                  // the group is being stopped or cleaned up
		streamErr error
		reading   = streamDone
		exited    = proc.Done()
		closed    = outputClosed(e.stdout)
	)
	end := func(f func()) {
		if !ending {
			ending = true
			go func() {
				f()
				close(stopped)
			}()
		}
	}
	// A second signal does not wait for the output either: once the group
	// is gone, a client that does not read no longer keeps zevo.
	for gone := stopped; (reading != nil && !killed) || gone != nil; {
		select {
		case streamErr = <-reading:
			reading = nil
			var re *translate.ReadError
			if streamErr != nil && !errors.As(streamErr, &re) {
				// The output failed (or --jq stopped it): AGENT has
				// nobody to talk to any more.
				end(func() { proc.Stop(syscall.SIGTERM, grace, kill) })
			}
		case s := <-sigc:
			proc.Stdout().Hurry() // no waiting the grace period for an escaped process
			if sig != nil {
				if !killed {
					close(kill)
					killed = true
				}
				continue
			}
			sig = s
			end(func() { proc.Stop(s.(syscall.Signal), grace, kill) })
		case <-exited:
			// What AGENT wrote is read to its end (however long the
			// output takes to write it out); the group's leftovers are
			// stopped meanwhile.
			exited = nil
			end(func() { proc.Clean(grace, kill) })
		case <-closed:
			// The client went away: AGENT has nobody to talk to.
			closed, x.gave = nil, true
			end(func() { proc.Stop(syscall.SIGTERM, grace, kill) })
		case <-gone:
			gone = nil
		}
	}
	if reading != nil {
		// A second signal left the loop once the group was gone: the
		// translation gets a moment to write what the group left (a
		// client that reads takes it at once), not longer, since one
		// stuck writing to a client that does not read must not keep
		// zevo.
		select {
		case streamErr = <-reading:
			reading = nil
		case <-time.After(time.Second):
		}
	}
	proc.Stdout().Close()
	if reading != nil {
		// The translation is stuck writing to a client that does not
		// read: nothing more can be written.
		return silentExit(x.stopped(sig))
	}

	var re *translate.ReadError
	switch {
	case x.gave && sig == nil && (x.open || x.outcome < 0):
		// Nobody reads the run's end: as when the next write finds the
		// pipe closed. (A run that had ended keeps its exit status.)
		return nil
	case streamErr == nil:
	case errors.As(streamErr, &re):
		if errors.Is(re.Err, supervise.ErrHeld) {
			e.warnf("%s exited but its output is still held open (by a process outside its process group); stopped reading", x.agent)
		} else {
			e.warnf("%s: read error: %v", x.name, re.Err)
		}
	case errors.Is(streamErr, errJQStop):
		return jq.exit()
	case brokenPipe(streamErr):
		return nil
	default:
		return fmt.Errorf("writing output: %w", streamErr)
	}
	return x.finish(proc, sig, jq)
}

// finish closes the run as AGENT's end requires and returns the exit code.
func (x *execRun) finish(proc *supervise.Process, sig os.Signal, jq *translateJQ) error {
	e := x.e
	agentCode, agentSig := proc.Status()
	agent := x.agent
	e.mu.Lock()
	defer e.mu.Unlock()
	var code int
	var err error
	switch {
	case sig != nil:
		// Interrupted: as the target's CLI ends when a signal stops it.
		code = x.stopped(sig)
		switch {
		case x.dialect.Exits.Quiet:
		case x.open:
			err = x.tr.Interrupt()
		case !x.wrote:
			err = x.tr.Failed("interrupted", "run cancelled by signal", "interrupted", code)
		case x.outcome >= 0:
			code = x.outcome // the run had ended before the signal: its end stands
		}
	default:
		wrote := x.wrote
		err = x.tr.End(x.name)
		switch {
		case err != nil:
		case !x.wrote && agentSig == 0 && agentCode != 0:
			code = agentCode
			if code > 125 {
				code = ExitDiagnostics
			}
			err = x.tr.Failed("agent_error", fmt.Sprintf("%s exited with status %d before writing any event", agent, agentCode), "error", code)
		case !x.wrote:
			code = x.dialect.Exits.Open
			err = x.tr.Failed("incomplete", fmt.Sprintf("%s %s without writing any event", agent, describe(agentCode, agentSig)), "incomplete", code)
		}
		if err == nil && x.wrote {
			code = x.outcome
			if code < 0 {
				code = x.dialect.Exits.Open // events, but no run ended
			}
		}
		if err == nil && wrote && !x.gave && (agentSig != 0 || agentCode != code) {
			e.warnf("%s %s", agent, describe(agentCode, agentSig))
		}
	}
	ferr := x.w.Flush()
	if err == nil {
		err = ferr
	}
	if sum := x.tr.Stats().Summary(x.opt.Unmapped); sum != "" && x.opt.Unmapped != translate.Keep {
		e.diag(sum)
	}
	switch {
	case brokenPipe(err):
		return nil
	case err != nil && !errors.Is(err, errJQStop):
		return fmt.Errorf("writing output: %w", err)
	}
	if jerr := jq.exit(); jerr != nil && code == ExitOK {
		return jerr
	}
	return silentExit(code)
}

// stopped is the exit status of the target's CLI stopped by sig.
func (x *execRun) stopped(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return x.dialect.Exits.Terminate
	}
	return x.dialect.Exits.Interrupt
}

func describe(code int, sig syscall.Signal) string {
	if sig != 0 {
		return fmt.Sprintf("was killed by signal %d (%v)", int(sig), sig)
	}
	return fmt.Sprintf("exited with status %d", code)
}
