package cli

import (
	"fmt"
	"io"
	"runtime/debug"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
)

func validateCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "validate",
		Usage:     "check streams against their JSON Schemas and stream rules",
		ArgsUsage: "[FILE...]",
		Description: `Checks every line of each FILE (standard input when none is given, or for
"-") against the JSON Schema of its dialect (see zevo schema; each line's
own, as the dialect registry tells it by the line's fields), and the rules
a schema cannot express: each dialect's runs start and end where their
producers start and end them, with one run id, and every tool result
answers an earlier tool call (docs/inspect.md). Runs are cut as stats and
view cut them (docs/runs.md). A run cut short (the input ends inside it,
or a line of another dialect comes) is an error, or with
--allow-unfinished a warning (a warning always for a producer that ends a
cancelled run so).
Problems are printed as
FILE:LINE: error|warning: FIELD: MESSAGE; the exit status is 1 when any line is invalid.
Values quoted from the input are escaped, and redacted with the default
rules unless --no-redact (--redact-extra adds translate's stronger patterns).
Interrupted (SIGINT, SIGTERM), it reports what it has read as if the input
ended there, and exits 130 or 143.

Examples:
   zevo validate run.jsonl
   AGENT --output-format stream-json | zevo validate --as NAME
   zevo validate --json run.jsonl | jq '.files[] | {file, errors}'`,
		Flags: append([]ucli.Flag{
			&ucli.StringFlag{Name: "as", Value: "auto", Usage: "schema: auto (each line its own dialect's), or a schema or dialect zevo schema lists"},
			&ucli.BoolFlag{Name: "json", Usage: "write one JSON report instead of text"},
			&ucli.BoolFlag{Name: "allow-unfinished", Usage: "an input that ends inside a run (live, cut short or cancelled) is a warning, not an error"},
		}, redactFlags()...),
		Action: func(c *ucli.Context) error { return runValidate(c, e) },
	}
}

// validateReport is the --json output.
type validateReport struct {
	Valid       bool                 `json:"valid"`
	Errors      int                  `json:"errors"`
	Warnings    int                  `json:"warnings"`
	Files       []inspect.FileReport `json:"files"`
	Diagnostics []jsonl.Diagnostic   `json:"diagnostics"`
}

func runValidate(c *ucli.Context, e *env) error {
	dialect, schema, err := inspect.ParseValidateAs(c.String("as"))
	if err != nil {
		return usageErr("--as: %v", err)
	}
	// A diagnostic quotes the input (a type, a value): it is redacted
	// as any text zevo shows.
	rd, err := redactorOf(c, e, true)
	if err != nil {
		return err
	}
	asJSON := c.Bool("json")
	w := jsonl.NewWriter(e.stdout)
	rep := validateReport{Files: []inspect.FileReport{}, Diagnostics: []jsonl.Diagnostic{}}
	emit := func(d jsonl.Diagnostic) {
		if asJSON {
			if rd != nil {
				d.Field, d.Message = rd.String(d.Field), rd.String(d.Message)
			}
			rep.Diagnostics = append(rep.Diagnostics, d)
			return
		}
		w.WriteLine([]byte(e.shown(d.Labelled())))
	}
	// Each line is checked with e.mu held, so that an interruption (tail -f
	// run.jsonl | zevo validate, then Ctrl-C) finds the report whole: the
	// input read so far is validated as if it ended there, and the
	// report, text or JSON, is written out.
	var cur *inspect.Validator
	fileDone := func(fr inspect.FileReport) {
		if rd != nil {
			for i := range fr.RunList {
				r := &fr.RunList[i]
				r.ID, r.Status, r.Cut = rd.String(r.ID), rd.String(r.Status), rd.String(r.Cut)
			}
		}
		rep.Files = append(rep.Files, fr)
		rep.Errors += fr.Errors
		rep.Warnings += fr.Warnings
	}
	finish := func(failed int) error {
		rep.Valid = rep.Errors == 0 && failed == 0
		if asJSON {
			b, err := jsonOut(e.stdout, rep)
			if err != nil {
				return err
			}
			w.WriteLine(b)
		}
		return w.Flush()
	}
	finished := false
	e.whenStopped(func() {
		if finished {
			return
		}
		if cur != nil {
			// The line the input stopped inside is reported as a file
			// ending there reports it.
			cur.Pending()
			fileDone(cur.End())
		}
		// An input that could not be opened was said on stderr; what was
		// read is reported as it stands.
		if err := finish(0); err != nil {
			e.warnf("writing output: %v", err)
		}
	})
	opt := inspect.ValidateOptions{Dialect: dialect, Schema: schema, AllowUnfinished: c.Bool("allow-unfinished")}
	flush := func() error {
		e.mu.Lock()
		defer e.mu.Unlock()
		return w.Flush()
	}
	// Validating keeps a copy of each line and of its strings with
	// escapes while a small heap stays live (the compiled schemas): at
	// the default pace the collector runs every few megabytes, and was
	// marking for nearly half of a 100 MB input's run. Collecting less
	// often (as jq does) costs a few megabytes of memory.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	failed, err := eachInput(e, c.Args().Slice(), func(name string, r io.Reader) error {
		v, err := inspect.NewValidator(name, opt, emit)
		if err != nil {
			return err
		}
		e.mu.Lock()
		cur = v
		e.mu.Unlock()
		// Lines are read and checked ahead on a second goroutine, and
		// applied in order under e.mu.
		rerr := v.Stream(r, name, &e.mu, flush)
		e.mu.Lock()
		defer e.mu.Unlock()
		fileDone(v.End())
		cur = nil
		if w.Err() != nil {
			return w.Err()
		}
		if rerr != nil {
			e.warnf("%s: read error: %v", name, rerr)
			rep.Errors++
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	e.mu.Lock()
	finished = true
	err = finish(failed)
	e.mu.Unlock()
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if !rep.Valid {
		return silentExit(ExitDiagnostics)
	}
	return nil
}
