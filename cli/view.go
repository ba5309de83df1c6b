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
run. Live input is shown event by event. Control sequences in the content
(cursor moves, title changes, links, bidi overrides) are shown as visible
escapes such as \x1b. Secrets are redacted with the default rules (values
under keys such as password or apiKey, sk-… keys, api_key=…, Bearer …)
unless --no-redact; --redact-extra adds translate's stronger
patterns.

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
   zevo view --follow agent.log
   zevo view --full --color always run.jsonl | less -R
   zevo view --format markdown run.jsonl > transcript.md
   zevo view --format html run.jsonl > transcript.html`,
		Flags: append([]ucli.Flag{
			&ucli.BoolFlag{Name: "full", Usage: "show whole tool results and arguments"},
			&ucli.StringFlag{Name: "format", Value: "text", Usage: "text (for a terminal), markdown or html (a document: see docs/transcripts.md)"},
			&ucli.StringFlag{Name: "color", Value: "auto", Usage: "colour `WHEN`: auto (on a terminal, unless NO_COLOR is set), always or never"},
			followFlag(false),
		}, append(redactFlags(), pricingFlags()...)...),
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

// useColor: with auto, colour only on a terminal, and never when NO_COLOR
// is set to anything (https://no-color.org); always and never are meant.
func useColor(when string, terminal bool, noColor string) (bool, error) {
	switch when {
	case "auto":
		return terminal && noColor == "", nil
	case "always":
		return true, nil
	case "never":
		return false, nil
	}
	return false, usageErr("view: --color: want auto, always or never, not %q", when)
}

func runView(c *ucli.Context, e *env) error {
	switch f := c.String("format"); f {
	case "text":
	case "markdown", "md", "html":
		if c.Bool("follow") {
			// A document is written at the end of its inputs, which a
			// followed file never reaches; a live pipe may be
			// interrupted instead.
			return usageErr("view: --follow shows a growing log as text; --format %s reads its inputs to their end (for a live log: tail -F FILE | zevo view --format %s, and Ctrl-C writes the document of what was read)", f, f)
		}
		if f == "html" {
			return runDocument(c, e, inspect.HTML)
		}
		return runDocument(c, e, inspect.Markdown)
	default:
		return usageErr("--format: unknown format %q (want text, markdown or html)", f)
	}
	color, err := useColor(c.String("color"), isTerminal(e.stdout), os.Getenv("NO_COLOR"))
	if err != nil {
		return err
	}
	out := &lastByte{w: e.stdout}
	w := jsonl.NewWriter(out)
	v := inspect.NewViewer(w, inspect.ViewOptions{Full: c.Bool("full"), Color: color})
	rd, err := redactorOf(c, e, true)
	if err != nil {
		return err
	}
	var redacted []byte
	// A signal: what was rendered is written out, and the terminal is
	// left at the start of a line.
	var (
		cur     *jsonl.Reader // the input being read, set with e.mu held
		applied int           // its lines shown
	)
	e.whenStopped(func() {
		// The line the input stopped inside is reported as a file ending
		// there reports it.
		var le *jsonl.Diagnostic
		if cur != nil {
			if l, ok := cur.Pending(); ok && l.Num == applied+1 {
				l, _ = redactLine(rd, l, nil)
				errors.As(v.Line(l), &le)
			}
		}
		if w.Flush() == nil && out.last != '\n' && out.last != 0 {
			e.stdout.Write([]byte{'\n'})
		}
		if le != nil {
			e.diag(le.String())
		}
	})
	e.setFollow(c.Bool("follow"), c.Args().Slice())
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
		e.mu.Lock()
		cur, applied = lr, 0
		e.mu.Unlock()
		for {
			l, err := lr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if w.Err() != nil {
					return w.Err()
				}
				e.warnf("%s: read error: %v", name, err)
				bad++
				break
			}
			l, redacted = redactLine(rd, l, redacted)
			e.mu.Lock()
			err = v.Line(l)
			applied++
			e.mu.Unlock()
			var le *jsonl.Diagnostic
			if errors.As(err, &le) {
				// Flush first so the note lands next to its place.
				if err := flush(); err != nil {
					return err
				}
				e.diag(le.String())
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

// lastByte remembers the last byte written through it.
type lastByte struct {
	w    io.Writer
	last byte
}

func (l *lastByte) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	if n > 0 {
		l.last = p[n-1]
	}
	return n, err
}
