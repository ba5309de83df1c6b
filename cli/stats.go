package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/pricing"
	"github.com/zevo/zevo/redact"
)

// progressMin is the input size from which stats shows a progress bar (on
// a terminal only).
const progressMin = 64 << 20

func statsCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "stats",
		Usage:     "summarize runs: events, tokens, tool calls, permissions, errors, status",
		ArgsUsage: "[FILE...]",
		Description: `Summarizes each FILE (standard input when none is given, or for "-") per
run, per file and in total, whatever agent wrote it (each line is read as
its agent's, told by the line or, for a shape several agents write, by the
lines before it): events by type, tokens (the sum the stream's usage lines state: input and output,
and cache reads, cache writes and reasoning where the stream states
them), tool calls by name with their failures, permission requests and
decisions, errors, how each run ended and the length of its final answer.
Files are read concurrently and reported in the order given. Interrupted
(SIGINT, SIGTERM), it writes the summary of what it has read so far before
it exits 130 or 143, so that tail -f agent.log | zevo stats ends, on
Ctrl-C, with the numbers. What the table and --json show from the input
(event types, tool names, models, error messages) is redacted with the
default rules, as view shows it, unless --no-redact; --redact-extra adds
translate's stronger patterns.

Each run's cost in USD comes from, in this order: the cost the stream
states itself; the --pricing FILE (LiteLLM's model_prices_and_context_window.json
format, cache reads and writes at its cache prices); the price snapshot
shipped with zevo (public list prices of ` + pricing.SnapshotDate + `). A run whose
model has no price shows "unpriced" and its model is named, never $0. Runs
whose stream names no model need --model. docs/cost.md says how each
dialect's tokens and cost are counted.

Examples:
   zevo stats testdata/translate/basic.zero.jsonl testdata/translate/basic.evosci.jsonl
   zevo stats --model claude-sonnet-4-5 testdata/translate/basic.evosci.jsonl
   zevo stats --by model --pricing testdata/pricing/prices.json testdata/translate/*.jsonl
   zevo stats --model gpt-5 testdata/captures/codex/agent-harness-shell-command.jsonl
   zevo stats --totals logs/*.jsonl.gz
   zevo stats --json run.jsonl | zevo jq '.total.tokens, .total.cost'`,
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: "as", Value: "auto", Usage: "dialect: auto (each line by its own) or the `NAME` of one to read every line as (" + inspect.DialectNames() + ")"},
			&ucli.BoolFlag{Name: "json", Usage: "write JSON for scripts instead of a table (one line, unless on a terminal)"},
			&ucli.BoolFlag{Name: "totals", Usage: "write only the totals: one row per file and their sum (with --json: only total)"},
			&ucli.StringFlag{Name: "by", Usage: "one row per `model|tool|file` instead of one per run"},
		}, append(redactFlags(), pricingFlags()...)...),
		Action: func(c *ucli.Context) error { return runStats(c, e) },
	}
}

// statsReport is the --json output; with --totals, files is left out;
// By and Groups with --by.
type statsReport struct {
	Files  []*inspect.FileStats `json:"files,omitempty"`
	Total  inspect.Counts       `json:"total"`
	By     string               `json:"by,omitempty"`
	Groups []inspect.Group      `json:"groups,omitempty"`
}

// pricingFlags are --pricing and --model, as stats and view take them.
func pricingFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: "pricing", Usage: "price models from `FILE`, in LiteLLM's model_prices_and_context_window.json format (before the shipped snapshot)"},
		&ucli.StringFlag{Name: "model", Usage: "the `NAME` of the model of runs whose stream names none"},
	}
}

// pricingFromFlags reads --pricing and --model (stats, otel and view).
func pricingFromFlags(c *ucli.Context) (inspect.Pricing, error) {
	p := inspect.Pricing{Model: c.String("model")}
	if f := c.String("pricing"); f != "" {
		t, err := pricing.LoadFile(f)
		if err != nil {
			return p, usageErr("--pricing: %v", err)
		}
		p.Tables = append(p.Tables, t)
	}
	p.Tables = append(p.Tables, pricing.Snapshot())
	return p, nil
}

// statsOutput is what stats writes: table or JSON, whole or totals only,
// or grouped (--by), with each run priced.
type statsOutput struct {
	json, totals bool
	by           string
	prices       inspect.Pricing
	rd           *redact.Redactor // of what the report shows of the input
}

// statsInput is one input being summarized. Its summarizer is taken under
// mu, so that an interruption can report what was read so far.
type statsInput struct {
	mu    sync.Mutex
	sum   *inspect.EventSummarizer
	stats *inspect.FileStats // at the end
	err   error
	// bad: the lines that are not JSON objects, as FILE:LINE: PROBLEM,
	// the first maxBadLines of them; badMore counts the others.
	bad     []string
	badMore int
	name    string // as in the report
	lr      *jsonl.Reader
	lines   int // read into sum
}

// pending adds the line the input stopped inside (read, with no line end
// yet) as a file ending there would have it, if every line before it was
// read into the summary: an interruption loses nothing it read.
func (in *statsInput) pending() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.lr == nil || in.stats != nil {
		return
	}
	if l, ok := in.lr.Pending(); ok && l.Num == in.lines+1 {
		in.sum.Line(l)
		in.lines++
	}
}

// maxBadLines bounds the bad lines stats names for one input: a file of
// binary junk gets a hundred lines of stderr and a count, not millions.
const maxBadLines = 100

// invalid records a bad line.
func (in *statsInput) invalid(name string) func(int, error) {
	in.name = name
	return func(n int, err error) {
		if len(in.bad) >= maxBadLines {
			in.badMore++
			return
		}
		in.bad = append(in.bad, lineMsg(name, n, err.Error()+" (not counted)"))
	}
}

// sayBad writes the input's bad lines on stderr, once.
func (in *statsInput) sayBad(e *env) int {
	in.mu.Lock()
	defer in.mu.Unlock()
	n := len(in.bad) + in.badMore
	for _, b := range in.bad {
		e.diag(b)
	}
	if in.badMore > 0 {
		e.warnf("%s: %d more lines not JSON objects (not counted)", in.name, in.badMore) // a count, not one line
	}
	in.bad, in.badMore = nil, 0
	return n
}

// result ends the input's summary (once) and returns it.
func (in *statsInput) result() *inspect.FileStats {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.stats == nil && in.sum != nil {
		in.stats = in.sum.End()
	}
	return in.stats
}

func runStats(c *ucli.Context, e *env) error {
	as, err := inspect.ParseStatsAs(c.String("as"))
	if err != nil {
		return usageErr("--as: %v", err)
	}
	out := statsOutput{json: c.Bool("json"), totals: c.Bool("totals"), by: c.String("by")}
	if _, err := inspect.GroupRuns(nil, out.by); out.by != "" && err != nil {
		return usageErr("--by: %v", err)
	}
	if out.prices, err = pricingFromFlags(c); err != nil {
		return err
	}
	// What the table and --json show of the input (event types, tool
	// names, models, error messages) is redacted once it is summarized
	// (writeStats).
	if out.rd, err = redactorOf(c, e, true); err != nil {
		return err
	}
	names := c.Args().Slice()
	if len(names) == 0 {
		names = []string{"-"}
	}
	inputs := make([]*statsInput, len(names))
	for i := range inputs {
		inputs[i] = &statsInput{}
	}
	report := func() error {
		var files []*inspect.FileStats
		for _, in := range inputs {
			if st := in.result(); st != nil {
				files = append(files, st)
			}
		}
		return writeStats(e, files, out)
	}
	// SIGINT or SIGTERM: the summary of what was read so far (tail -f log |
	// zevo stats, then Ctrl-C).
	e.whenStopped(func() {
		for _, in := range inputs {
			in.pending()
			in.sayBad(e)
		}
		if err := report(); err != nil {
			e.warnf("writing output: %v", err)
		}
	})
	bar := statsProgress(e, names)
	if bar != nil {
		e.fileBytes = func(f io.ReadCloser) io.ReadCloser { return &countingReader{f, bar} }
	}
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	var stdinMu sync.Mutex // "-" named twice: read in turn, not at once
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if name == "-" {
				stdinMu.Lock()
				defer stdinMu.Unlock()
			}
			in := inputs[i]
			display, rc, err := e.openInput(name)
			if err != nil {
				in.err = err
				return
			}
			defer rc.Close()
			in.mu.Lock()
			in.sum = as.New(display)
			in.sum.Invalid = in.invalid(display)
			lr := jsonl.NewReader(rc, display, nil)
			in.lr = lr
			in.mu.Unlock()
			for {
				l, err := lr.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					in.err = fmt.Errorf("%s: read error: %w", display, err)
					break
				}
				in.mu.Lock()
				in.sum.Line(l)
				in.lines++
				in.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if bar != nil {
		bar.Finish()
	}
	failed := 0
	for _, in := range inputs {
		if in.sayBad(e) > 0 {
			failed++
		}
		if in.err != nil {
			e.warnf("%v", in.err)
			failed++
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := report(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if failed > 0 {
		return silentExit(ExitDiagnostics)
	}
	return nil
}

// writeStats writes the statistics as out says.
func writeStats(e *env, files []*inspect.FileStats, out statsOutput) error {
	out.prices.Apply(files)
	inspect.RedactStats(files, out.rd)
	var groups []inspect.Group
	if out.by != "" {
		groups, _ = inspect.GroupRuns(files, out.by)
	}
	if !out.json {
		switch {
		case out.by != "":
			return inspect.WriteGroupTable(e.stdout, out.by, groups)
		case out.totals:
			return inspect.WriteStatsTotals(e.stdout, files)
		}
		return inspect.WriteStatsTable(e.stdout, files)
	}
	rep := statsReport{Files: files, Total: inspect.SumFiles(files), By: out.by, Groups: groups}
	if out.totals {
		rep.Files = nil
	} else if rep.Files == nil {
		rep.Files = []*inspect.FileStats{}
	}
	b, err := jsonOut(e.stdout, rep)
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(append(b, '\n'))
	return err
}

// statsProgress returns a progress bar on stderr when stderr is a terminal
// and the named regular files are large; nil otherwise.
func statsProgress(e *env, names []string) *progress {
	if !isTerminal(e.stderr) {
		return nil
	}
	var total int64
	for _, n := range names {
		if n == "-" {
			continue
		}
		if fi, err := os.Stat(n); err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
	}
	if total < progressMin {
		return nil
	}
	return newProgress(e.stderr, total)
}

// countingReader reports bytes read to a progress bar.
type countingReader struct {
	io.ReadCloser
	bar *progress
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.bar.Add(n)
	return n, err
}
