package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
)

// docInput is an input of a transcript document: a file read twice, once
// for the runs' summaries and once to render it.
type docInput struct {
	name, path string
	empty      bool // a second "-": standard input was already read
}

func (in docInput) open() (io.ReadCloser, error) {
	if in.empty {
		return io.NopCloser(strings.NewReader("")), nil
	}
	return os.Open(in.path)
}

// runDocument writes a Markdown or HTML transcript. Each run's heading shows
// how the run ended, so the inputs are read twice: standard input is first
// kept in a temporary file.
func runDocument(c *ucli.Context, e *env, format inspect.DocFormat) error {
	rd, err := redactorOf(c, e, true)
	if err != nil {
		return err
	}
	names := c.Args().Slice()
	if len(names) == 0 {
		names = []string{"-"}
	}
	var inputs []docInput
	spooled := ""
	removeSpool := func() {
		if spooled != "" {
			os.Remove(spooled)
		}
	}
	defer removeSpool()
	for _, name := range names {
		if name != "-" {
			inputs = append(inputs, docInput{name: name, path: name})
			continue
		}
		if spooled != "" {
			inputs = append(inputs, docInput{name: stdinName, empty: true})
			continue
		}
		f, err := os.CreateTemp("", "zevo-view-*.jsonl")
		if err != nil {
			return fmt.Errorf("keeping standard input: %w", err)
		}
		spooled = f.Name()
		e.whenStopped(removeSpool) // a signal while standard input is read
		_, err = io.Copy(f, e.stdin)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("reading standard input: %w", err)
		}
		inputs = append(inputs, docInput{name: stdinName, path: spooled})
	}

	prices, err := pricingFromFlags(c)
	if err != nil {
		return err
	}
	bad := 0
	var files []*inspect.DocFile
	var readable []docInput
	for _, in := range inputs {
		f, err := in.open()
		if err != nil {
			e.warnf("%v", err)
			bad++
			continue
		}
		df, err := inspect.ScanDocFile(f, in.name, prices)
		f.Close()
		if err != nil {
			e.warnf("%s: read error: %v", in.name, err)
			bad++
		}
		files = append(files, df)
		readable = append(readable, in)
	}

	w := jsonl.NewWriter(e.stdout)
	doc := inspect.NewDocument(w, inspect.DocOptions{
		Format:   format,
		Full:     c.Bool("full"),
		Redact:   rd != nil,
		Redactor: rd,
		Version:  Version,
	}, files)
	e.whenStopped(func() {
		// The document says where it was stopped and is ended as a
		// finished one is (the run and its file closed, the page's end
		// written): an interrupted transcript is still a whole document.
		doc.Interrupt()
		w.Flush()
		removeSpool()
	})
	flush := func() error {
		e.mu.Lock()
		defer e.mu.Unlock()
		return w.Flush()
	}
	for _, in := range readable {
		n, err := renderInput(e, doc, in, flush)
		bad += n
		if err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
	}
	e.mu.Lock()
	err = doc.Close()
	e.mu.Unlock()
	if err == nil {
		err = flush()
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if bad > 0 {
		return silentExit(ExitDiagnostics)
	}
	return nil
}

// renderInput renders one input; it returns how many lines or reads had
// diagnostics, and write errors.
func renderInput(e *env, doc *inspect.Document, in docInput, flush func() error) (int, error) {
	f, err := in.open()
	if err != nil { // gone since it was scanned
		e.warnf("%v", err)
		return 1, nil
	}
	defer f.Close()
	e.mu.Lock()
	err = doc.File()
	e.mu.Unlock()
	if err != nil {
		return 0, err
	}
	bad := 0
	lr := jsonl.NewReader(f, in.name, nil)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			e.warnf("%s: read error: %v", in.name, err)
			bad++
			break
		}
		e.mu.Lock()
		err = doc.Line(l)
		e.mu.Unlock()
		var le *inspect.LineError
		if errors.As(err, &le) {
			if err := flush(); err != nil {
				return bad, err
			}
			e.warnf("%v", le)
			bad++
			continue
		}
		if err != nil {
			return bad, err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return bad, doc.EndFile()
}
