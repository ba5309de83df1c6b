package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
	"golang.org/x/term"
)

func viewCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "view",
		Usage:     "show a stream as a readable transcript",
		ArgsUsage: "[FILE...]",
		Description: `Shows each FILE (standard input when none is given, or for "-") as a
transcript: reasoning dimmed, text as text, each tool call with its
arguments summarized and its result cut to a few lines, permission prompts
and errors highlighted, the final answer and token totals at the end of each
run. Live input is shown event by event. Colour only on a terminal, never
with NO_COLOR set. Control sequences in the content (cursor moves, title
changes, links, bidi overrides) are shown as visible escapes such as \x1b.

--format markdown and --format html write a document instead, for a pull
request or a browser: a heading and summary per run (status, tokens, cost,
tool calls), tool calls and reasoning folded, long outputs clipped with
their size stated, every character of the content escaped, secrets
redacted unless --no-redact. The input is read twice (standard input is
kept in a temporary file meanwhile), so each heading can say how its run
ended.

Examples:
   zevo view testdata/translate/basic.evosci.jsonl
   EvoSci -p "fix the tests" --output-format stream-json | zevo view
   zevo view --full run.jsonl | less -R
   zevo view --format markdown run.jsonl > transcript.md
   zevo view --format html run.jsonl > transcript.html`,
		Flags: []ucli.Flag{
			&ucli.BoolFlag{Name: "full", Usage: "show whole tool results and arguments"},
			&ucli.StringFlag{Name: "format", Value: "text", Usage: "text (for a terminal), markdown or html (a document: see docs/transcripts.md)"},
			&ucli.BoolFlag{Name: "no-redact", Usage: "markdown and html: do not redact secrets"},
		},
		Action: func(c *ucli.Context) error { return runView(c, e) },
	}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// isTerminalReader reports whether r is a terminal.
func isTerminalReader(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && isTerminal(f)
}

// useColor: colour only on a terminal, and never when NO_COLOR is set to
// anything (https://no-color.org).
func useColor(terminal bool, noColor string) bool {
	return terminal && noColor == ""
}

func runView(c *ucli.Context, e *env) error {
	switch f := c.String("format"); f {
	case "text":
	case "markdown", "md":
		return runDocument(c, e, inspect.Markdown)
	case "html":
		return runDocument(c, e, inspect.HTML)
	default:
		return usageErr("--format: unknown format %q (want text, markdown or html)", f)
	}
	w := jsonl.NewWriter(e.stdout)
	opt := inspect.ViewOptions{
		Full:  c.Bool("full"),
		Color: useColor(isTerminal(e.stdout), os.Getenv("NO_COLOR")),
	}
	v := inspect.NewViewer(w, opt)
	e.whenStopped(func() { w.Flush() }) // a signal: what was rendered is written out
	flush := func() error {
		e.mu.Lock()
		defer e.mu.Unlock()
		return w.Flush()
	}
	names := c.Args().Slice()
	bad := 0
	failed, err := eachInput(e, names, func(name string, r io.Reader) error {
		if err := v.File(name, len(names) > 1); err != nil {
			return err
		}
		lr := jsonl.NewReader(r, name, flush)
		for {
			l, err := lr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if w.Err() != nil {
					return w.Err()
				}
				fmt.Fprintf(e.stderr, "zevo: %s: read error: %v\n", name, err)
				bad++
				break
			}
			e.mu.Lock()
			err = v.Line(l)
			e.mu.Unlock()
			var le *inspect.LineError
			if errors.As(err, &le) {
				// Flush first so the note lands next to its place.
				if err := flush(); err != nil {
					return err
				}
				fmt.Fprintf(e.stderr, "zevo: %v\n", le)
				bad++
				continue
			}
			if err != nil {
				return err
			}
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		return v.End()
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if bad > 0 || failed > 0 {
		return silentExit(ExitDiagnostics)
	}
	return nil
}
