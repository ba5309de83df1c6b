package cli

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/filter"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/internal/input"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
	"github.com/zevo/zevo/translate"
)

func translateCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "translate",
		Usage:     "translate an agent's stream-json into another agent's",
		ArgsUsage: "[FILE...]",
		Description: `Reads each FILE in turn (standard input when none is given, or for "-"),
detects each line's protocol, and writes the stream in the protocol of --to,
one output event as soon as its input line is read. --to claude writes
Claude Code's stream-json (--output-format stream-json --verbose) from any
agent's stream (docs/dialects.md, "Writing Claude Code's stream-json").

The Zero runs zevo opens get ids in Zero's format, run_<14 digits>_<6 hex>.
Translating FILEs, they are derived from the files' content (their size and
first MiB), so the same files give the same output every time; reading
standard input or with --follow, they are Zero's own: the time and random
hex digits. --run-id sets them.

Examples:
   zevo translate --to zero testdata/translate/basic.evosci.jsonl
   EvoSci -p "fix the tests" --output-format stream-json | zevo translate --to zero --cwd "$PWD"
   zero exec --output-format stream-json "review" | zevo translate --to evosci
   zevo translate --to zero@1 old-client-input.jsonl
   zevo translate --to claude testdata/translate/basic.zero.jsonl
   zevo translate --to zero --unmapped keep --mapping my-fork.json run.jsonl
   zevo translate --to zero --follow agent.log        (like tail -f)
   zevo translate --to zero run.evosci.jsonl.gz       (gzip and zstd are read as they are)`,
		Flags:  translateFlags(false),
		Action: func(c *ucli.Context) error { return runTranslate(c, e) },
	}
}

// translateFlags are translate's flags; hidden ones serve "zevo --to …".
func translateFlags(hidden bool) []ucli.Flag {
	return append([]ucli.Flag{
		&ucli.StringFlag{Name: "to", Hidden: hidden, Usage: "target protocol `FORMAT`: " + translate.TargetNames()},
		&ucli.StringFlag{Name: "from", Hidden: hidden, Value: "auto", Usage: "source protocol `FORMAT`: " + orList(translate.Sources()) + " (auto: each line's own)"},
		&ucli.StringFlag{Name: "run-id", Hidden: hidden, Usage: "use `ID` as the runId of the Zero runs zevo opens, and to derive Claude Code's ids from (later runs get .2, .3, …; default: derived from the FILEs, or from the time on standard input)"},
		&ucli.StringFlag{Name: "session-id", Hidden: hidden, Usage: "use `ID` as the sessionId of the run_start events zevo writes (Claude Code: the session_id of every line)"},
		&ucli.StringFlag{Name: "cwd", Hidden: hidden, Usage: "use `DIR` as the cwd of the run_start (Claude Code: system/init) events zevo writes, where the input has none (default: the working directory)"},
		&ucli.StringFlag{Name: "model", Hidden: hidden, Usage: "use `NAME` as model and apiModel of the run_start events zevo writes"},
		&ucli.StringFlag{Name: "unmapped", Hidden: hidden, Value: "drop", Usage: "events with no counterpart get `POLICY`: drop (counted on stderr), keep (type prefixed) or error"},
		&ucli.BoolFlag{Name: "no-redact", Hidden: hidden, Usage: redactUsage().no},
		&ucli.BoolFlag{Name: "redact", Hidden: hidden, Usage: redactUsage().yes},
		&ucli.BoolFlag{Name: "redact-extra", Hidden: hidden, Usage: "redact any output with the default rules plus GitHub tokens, AWS access keys, PEM private keys, JWTs, Slack tokens and Google API keys"},
		&ucli.StringSliceFlag{Name: "mapping", Hidden: hidden, Usage: "load a mapping table `FILE` that adds or overrides rules (repeatable)"},
		&ucli.BoolFlag{Name: "fail-fast", Hidden: hidden, Usage: "stop at the first bad line (exit 1)"},
		&ucli.StringFlag{Name: "jq", Hidden: hidden, Usage: "run the jq `EXPR` on every translated event and write its results instead (see zevo jq --help)"},
		followFlag(hidden),
	}, jqOutputFlags(hidden)...)
}

func translateOptions(c *ucli.Context, e *env) (translate.Options, error) {
	var opt translate.Options
	if !c.IsSet("to") {
		return opt, usageErr("translate needs --to %s", translate.TargetNames())
	}
	to, err := translate.ParseTarget(c.String("to"))
	if err != nil {
		return opt, usageErr("--to: %v", err)
	}
	from, err := translate.ParseSource(c.String("from"))
	if err != nil {
		return opt, usageErr("--from: %v", err)
	}
	unmapped, err := translate.ParseUnmapped(c.String("unmapped"))
	if err != nil {
		return opt, usageErr("--unmapped: %v", err)
	}
	rd, err := redactorOf(c, e, translate.RedactsByDefault(to))
	if err != nil {
		return opt, err
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
	if id := c.String("run-id"); c.IsSet("run-id") {
		if err := translate.CheckRunID(id); err != nil {
			return opt, usageErr("--run-id %q: %v", id, err)
		}
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
		Redact:    rd != nil,
		Redactor:  rd,
		Tables:    tables,
	}, nil
}

// redactUsage words --no-redact and --redact for the targets whose output
// is redacted by default and the others, as translate decides; once a
// process, for the command tree and translate's hidden copy of its flags.
var redactUsage = sync.OnceValue(func() (u struct{ no, yes string }) {
	var on, off []string
	for _, n := range translate.Targets() {
		if f, err := translate.ParseTarget(n); err == nil && translate.RedactsByDefault(f) {
			on = append(on, n)
		} else if err == nil {
			off = append(off, n)
		}
	}
	u.no = "do not redact the output (redacted by default with --to " + orList(on) + ")"
	u.yes = "redact the output with --to " + orList(off) + " too"
	return u
})

// orList writes names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// runIDSource makes the run ids of a translation of files depend on the
// files alone, so that translating the same files twice gives the same
// output: the clock and the random bytes of Zero's run-id format
// (run_<UTC YYYYMMDDHHMMSS>_<6 hex>) are drawn from a SHA-256 of each
// file's size and first MiB. Standard input and --follow are live: they
// keep the clock and crypto/rand (nil, nil).
func runIDSource(names []string, follow bool) (func() time.Time, io.Reader) {
	if len(names) == 0 || follow {
		return nil, nil
	}
	h := sha256.New()
	for _, name := range names {
		if name == "-" {
			return nil, nil
		}
		// Only a regular file is opened here: a named FIFO opened to be
		// looked at would lose its writer to this look.
		f, regular, err := input.OpenRegular(name)
		if err != nil {
			continue // reported when it is read
		}
		if !regular {
			return nil, nil // a pipe or device: live
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, nil
		}
		fmt.Fprintf(h, "%d\n", fi.Size())
		io.Copy(h, io.LimitReader(f, runIDPrefix))
		f.Close()
	}
	var seed [32]byte
	h.Sum(seed[:0])
	// A second in 2000-2099: digits that read as Zero's timestamp.
	secs := int64(binary.BigEndian.Uint64(seed[:8]) % (100 * 365 * 24 * 3600))
	at := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(secs) * time.Second)
	return func() time.Time { return at }, rand.NewChaCha8(seed)
}

// runIDPrefix is how much of each file its run ids depend on.
const runIDPrefix = 1 << 20

func runTranslate(c *ucli.Context, e *env) error {
	opt, err := translateOptions(c, e)
	if err != nil {
		return err
	}
	opt.Now, opt.Rand = runIDSource(c.Args().Slice(), c.Bool("follow"))
	e.setFollow(c.Bool("follow"), c.Args().Slice())
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
		// The line the input stopped inside is reported as a file ending
		// there reports it.
		err := tr.Pending(func(d *jsonl.Diagnostic) error {
			e.diag(d.Error())
			return nil
		})
		if err == nil && tr.Interrupt() == nil {
			w.Flush()
		}
	})
	flush := func() error {
		e.mu.Lock()
		defer e.mu.Unlock()
		return w.Flush()
	}
	// Each line's copy and events are garbage once written while the
	// live heap stays small: at the default pace the collector runs every
	// few megabytes. Collecting less often, as jq and validate do, costs
	// 13-16 MB more at the peak on a 100 MB input and saves 5-10% of the
	// CPU.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	diags := 0
	failed, err := eachInput(e, c.Args().Slice(), func(name string, r io.Reader) error {
		err := tr.Stream(r, name, &e.mu, flush, func(d *jsonl.Diagnostic) error {
			diags++
			e.diag(d.Error())
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
			e.warnf("%s: read error: %v", name, re.Err)
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
		e.diag(sum)
	}
	if sum := st.DroppedSummary(); sum != "" {
		e.diag(sum)
	}
	if st.Diagnosed > 0 {
		e.warnf("%s read: %d translated, %d unmapped, %d with a diagnostic, %d blank",
			inspect.Plural(st.Lines, "line"), st.Mapped, st.Unmapped, st.Diagnosed, st.Blank)
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
	f, err := filter.Compile(filter.Options{Expr: expr, Workers: 1, FailFast: failFast, Environ: os.Environ, Output: out, Redactor: e.msgs})
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
