package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/inspect"
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
run, per file and in total: events by type, tokens (the sum of Zero's usage
events, or of EvoScientist's usage_stats), tool calls by name with their
failures, permission requests and decisions, errors, how each run ended and
the length of its final answer. Files are read concurrently and reported in
the order given.

Examples:
   zevo stats testdata/translate/basic.zero.jsonl testdata/translate/basic.evosci.jsonl
   zevo stats --json run.jsonl | jq '.total.tokens'`,
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "as", Value: "auto", Usage: "protocol: auto (each line its own), zero, zero@1, zero-input or evosci"},
			&ucli.BoolFlag{Name: "json", Usage: "write JSON for scripts instead of a table"},
		},
		Action: func(c *ucli.Context) error { return runStats(c, e) },
	}
}

// statsReport is the --json output.
type statsReport struct {
	Files []*inspect.FileStats `json:"files"`
	Total inspect.Counts       `json:"total"`
}

func runStats(c *ucli.Context, e *env) error {
	as, err := inspect.ParseProtocol(c.String("as"))
	if err != nil {
		return usageErr("--as: %v", err)
	}
	names := c.Args().Slice()
	if len(names) == 0 {
		names = []string{"-"}
	}
	type result struct {
		stats *inspect.FileStats
		err   error
	}
	results := make([]result, len(names))
	bar := statsProgress(e, names)
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	var stdinMu sync.Mutex // "-" named twice: read in turn, not at once
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			var r io.Reader = e.stdin
			display := stdinName
			if name == "-" {
				stdinMu.Lock()
				defer stdinMu.Unlock()
			} else {
				f, err := os.Open(name)
				if err != nil {
					results[i].err = err
					return
				}
				defer f.Close()
				r, display = f, name
			}
			if bar != nil {
				r = &countingReader{r: r, bar: bar}
			}
			st, err := inspect.Summarize(r, display, as)
			if err != nil {
				err = fmt.Errorf("%s: read error: %w", display, err)
			}
			results[i] = result{st, err}
		}()
	}
	wg.Wait()
	if bar != nil {
		bar.Finish()
	}
	var files []*inspect.FileStats
	failed := 0
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintf(e.stderr, "zevo: %v\n", r.err)
			failed++
		}
		if r.stats != nil {
			files = append(files, r.stats)
		}
	}
	if c.Bool("json") {
		rep := statsReport{Files: files, Total: inspect.SumFiles(files)}
		if rep.Files == nil {
			rep.Files = []*inspect.FileStats{}
		}
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		if _, err := e.stdout.Write(append(b, '\n')); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
	} else if err := inspect.WriteStatsTable(e.stdout, files); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if failed > 0 {
		return silentExit(ExitDiagnostics)
	}
	return nil
}

// statsProgress returns a progress bar on stderr when stderr is a terminal
// and the named regular files are large; nil otherwise.
func statsProgress(e *env, names []string) *progressbar.ProgressBar {
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
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription("reading"),
		progressbar.OptionShowBytes(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}

// countingReader reports bytes read to a progress bar.
type countingReader struct {
	r   io.Reader
	bar *progressbar.ProgressBar
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.bar.Add(n)
	return n, err
}
