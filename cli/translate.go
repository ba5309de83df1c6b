package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/filter"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
	"github.com/zevo/zevo/protocol"
	"github.com/zevo/zevo/redact"
	"github.com/zevo/zevo/translate"
)

func translateCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "translate",
		Usage:     "translate EvoScientist stream-json into Zero stream-json, or back",
		ArgsUsage: "[FILE...]",
		Description: `Reads each FILE in turn (standard input when none is given, or for "-"),
detects each line's protocol, and writes the stream in the protocol of --to,
one output event as soon as its input line is read.

Examples:
   zevo translate --to zero testdata/translate/basic.evosci.jsonl
   EvoSci -p "fix the tests" --output-format stream-json | zevo translate --to zero --cwd "$PWD"
   zero exec --output-format stream-json "review" | zevo translate --to evosci
   zevo translate --to zero@1 old-client-input.jsonl
   zevo translate --to zero --unmapped keep --mapping my-fork.json run.jsonl`,
		Flags:  translateFlags(false),
		Action: func(c *ucli.Context) error { return runTranslate(c, e) },
	}
}

// translateFlags are translate's flags; hidden ones serve "zevo --to …".
func translateFlags(hidden bool) []ucli.Flag {
	return append([]ucli.Flag{
		&ucli.StringFlag{Name: "to", Hidden: hidden, Usage: "target protocol `FORMAT`: zero, zero@1 or evosci"},
		&ucli.StringFlag{Name: "from", Hidden: hidden, Value: "auto", Usage: "source protocol `FORMAT`: auto (per line), zero or evosci"},
		&ucli.StringFlag{Name: "run-id", Hidden: hidden, Usage: "use `ID` as the runId of the Zero runs zevo opens (later runs get .2, .3, …)"},
		&ucli.StringFlag{Name: "session-id", Hidden: hidden, Usage: "use `ID` as the sessionId of the run_start events zevo writes"},
		&ucli.StringFlag{Name: "cwd", Hidden: hidden, Usage: "use `DIR` as the cwd of the run_start events zevo writes (default: the working directory)"},
		&ucli.StringFlag{Name: "model", Hidden: hidden, Usage: "use `NAME` as model and apiModel of the run_start events zevo writes"},
		&ucli.StringFlag{Name: "unmapped", Hidden: hidden, Value: "drop", Usage: "events with no counterpart get `POLICY`: drop (counted on stderr), keep (type prefixed) or error"},
		&ucli.BoolFlag{Name: "no-redact", Hidden: hidden, Usage: "do not apply Zero's redaction to Zero output"},
		&ucli.BoolFlag{Name: "redact", Hidden: hidden, Usage: "apply Zero's redaction to EvoScientist output too"},
		&ucli.BoolFlag{Name: "redact-extra", Hidden: hidden, Usage: "redact any output with Zero's rules plus GitHub tokens, AWS access keys, PEM private keys, JWTs, Slack tokens and Google API keys"},
		&ucli.StringSliceFlag{Name: "mapping", Hidden: hidden, Usage: "load a mapping table `FILE` that adds or overrides rules (repeatable)"},
		&ucli.BoolFlag{Name: "fail-fast", Hidden: hidden, Usage: "stop at the first bad line (exit 1)"},
		&ucli.StringFlag{Name: "jq", Hidden: hidden, Usage: "run the jq `EXPR` on every translated event and write its results instead (see zevo jq --help)"},
	}, jqOutputFlags(hidden)...)
}

// runIDPattern is Zero's run id rule, shortened so that the suffixes of
// later runs still fit its 128 characters.
var runIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,119}$`)

func translateOptions(c *ucli.Context, e *env) (translate.Options, error) {
	var opt translate.Options
	if !c.IsSet("to") {
		return opt, usageErr("translate needs --to zero, zero@1 or evosci")
	}
	to, err := protocol.Lookup(c.String("to"))
	if err != nil || (to != translate.Zero && to != translate.Zero1 && to != translate.EvoSci) {
		return opt, usageErr("--to: unknown format %q (want zero, zero@1 or evosci)", c.String("to"))
	}
	from := translate.Auto
	if name := c.String("from"); name != "auto" {
		from, err = protocol.Lookup(name)
		if err != nil || (from != translate.Zero && from != translate.EvoSci) {
			return opt, usageErr("--from: unknown format %q (want auto, zero or evosci)", name)
		}
	}
	unmapped, err := translate.ParseUnmapped(c.String("unmapped"))
	if err != nil {
		return opt, usageErr("--unmapped: %v", err)
	}
	if (c.Bool("redact") || c.Bool("redact-extra")) && c.Bool("no-redact") {
		return opt, usageErr("--redact or --redact-extra and --no-redact contradict each other")
	}
	tables := mappings.Default()
	for _, path := range c.StringSlice("mapping") {
		data, err := os.ReadFile(path)
		if err != nil {
			return opt, usageErr("--mapping: %v", err)
		}
		if err := tables.Load(path, data); err != nil {
			return opt, usageErr("--mapping: %v", err)
		}
	}
	if id := c.String("run-id"); c.IsSet("run-id") && !runIDPattern.MatchString(id) {
		return opt, usageErr("--run-id %q: Zero run ids match %s (at most 120 characters here, leaving room for .2, .3, …)", id, runIDPattern)
	}
	cwd := c.String("cwd")
	if !c.IsSet("cwd") {
		cwd, _ = e.getwd()
	}
	return translate.Options{
		To:        to,
		From:      from,
		RunID:     c.String("run-id"),
		SessionID: c.String("session-id"),
		Cwd:       cwd,
		Model:     c.String("model"),
		Unmapped:  unmapped,
		Redact:    (to != translate.EvoSci && !c.Bool("no-redact")) || c.Bool("redact") || c.Bool("redact-extra"),
		Redactor:  redactor(c.Bool("redact-extra")),
		Tables:    tables,
	}, nil
}

// redactor is Zero's rules, or with extra those and the stronger patterns.
func redactor(extra bool) *redact.Redactor {
	if extra {
		return redact.WithExtra()
	}
	return nil
}

func runTranslate(c *ucli.Context, e *env) error {
	opt, err := translateOptions(c, e)
	if err != nil {
		return err
	}
	w := jsonl.NewWriter(e.stdout)
	failFast := c.Bool("fail-fast")
	out, err := jqOutput(c, e.stderr)
	if err != nil {
		return err
	}
	emit, jq, err := jqEmit(c.String("jq"), failFast, out, w, e)
	if err != nil {
		return err
	}
	var tr *translate.Translator
	if jq.f != nil {
		// The --jq stage names the input line of each event.
		inner := emit
		emit = func(ev []byte) error {
			jq.name, jq.num = tr.Place()
			return inner(ev)
		}
	}
	tr = translate.New(opt, emit)
	e.whenStopped(func() {
		if tr.Interrupt() == nil {
			w.Flush()
		}
	})
	flush := func() error {
		e.mu.Lock()
		defer e.mu.Unlock()
		return w.Flush()
	}
	diags := 0
	failed, err := eachInput(e, c.Args().Slice(), func(name string, r io.Reader) error {
		err := tr.Stream(r, name, &e.mu, flush, func(d *translate.Diagnostic) error {
			diags++
			fmt.Fprintln(e.stderr, d.Error())
			if failFast {
				return silentExit(ExitDiagnostics)
			}
			return nil
		})
		var re *translate.ReadError
		switch {
		case errors.As(err, &re):
			if w.Err() != nil {
				return w.Err()
			}
			fmt.Fprintf(e.stderr, "zevo: %s: read error: %v\n", name, re.Err)
			diags++
		case err != nil:
			return err
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		return tr.End(name)
	})
	ferr := flush()
	st := tr.Stats()
	if e.account != nil {
		e.account(st)
	}
	if brokenPipe(err) || brokenPipe(ferr) {
		// The consumer has all it wanted; counts of a cut-short run
		// would only mislead.
		if diags > 0 {
			return silentExit(ExitDiagnostics)
		}
		return nil
	}
	if sum := st.Summary(opt.Unmapped); sum != "" && opt.Unmapped != translate.Keep {
		fmt.Fprintln(e.stderr, sum)
	}
	if sum := st.DroppedSummary(); sum != "" {
		fmt.Fprintln(e.stderr, sum)
	}
	if st.Diagnosed > 0 {
		fmt.Fprintf(e.stderr, "zevo: %d line(s) read: %d translated, %d unmapped, %d with a diagnostic, %d blank\n",
			st.Lines, st.Mapped, st.Unmapped, st.Diagnosed, st.Blank)
	}
	if err != nil && !errors.Is(err, errJQStop) {
		var ee *exitError
		if errors.As(err, &ee) {
			return err
		}
		return fmt.Errorf("writing output: %w", err)
	}
	if ferr != nil {
		return fmt.Errorf("writing output: %w", ferr)
	}
	if diags > 0 || failed > 0 {
		return silentExit(ExitDiagnostics)
	}
	return jq.exit()
}

// errJQStop ends a translation that the --jq expression stopped (halt, or
// an error with --fail-fast).
var errJQStop = errors.New("stopped by the --jq expression")

// translateJQ is the --jq stage: the place of the input line being
// translated, for input_line_number and messages, and the filter.
type translateJQ struct {
	f    *filter.Filter
	name string
	num  int
}

// jqEmit returns the emit function for translate.New: w.WriteLine, or
// with --jq the compiled expression run on each event before w.
func jqEmit(expr string, failFast bool, out filter.Output, w *jsonl.Writer, e *env) (func([]byte) error, *translateJQ, error) {
	jq := &translateJQ{}
	if expr == "" {
		return w.WriteLine, jq, nil
	}
	f, err := filter.Compile(filter.Options{Expr: expr, Workers: 1, FailFast: failFast, Environ: os.Environ, Output: out})
	if err != nil {
		return nil, nil, &exitError{ExitJQCompile, "--jq: " + err.Error()}
	}
	jq.f = f
	return func(ev []byte) error {
		stop, err := f.Eval(ev, jq.name, jq.num, w, e.stderr)
		if err != nil {
			return err
		}
		if stop {
			return errJQStop
		}
		return nil
	}, jq, nil
}

// exit is the exit code the --jq expression asks for, if any.
func (jq *translateJQ) exit() error {
	if jq.f == nil {
		return nil
	}
	if code := jqExitCode(jq.f.Stats(), false); code != ExitOK {
		return silentExit(code)
	}
	return nil
}
