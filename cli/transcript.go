package cli

import (
	"errors"
	"fmt"
	"io"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/internal/input"
	"github.com/zevo/zevo/jsonl"
)

// docRun is one writing of a transcript document.
type docRun struct {
	e      *env
	w      *jsonl.Writer
	opts   inspect.DocOptions
	prices inspect.Pricing
	inputs []*input.Twice // appended with e.mu held
}

// runDocument writes a Markdown or HTML transcript. Each run's heading shows
// how the run ended, so the inputs are read twice (see input.Twice): an
// input that cannot be read twice is first kept in a temporary file.
func runDocument(c *ucli.Context, e *env, format inspect.DocFormat) error {
	rd, err := redactorOf(c, e, true)
	if err != nil {
		return err
	}
	prices, err := pricingFromFlags(c)
	if err != nil {
		return err
	}
	names := c.Args().Slice()
	if len(names) == 0 {
		names = []string{"-"}
	}
	d := &docRun{e: e, w: jsonl.NewWriter(e.stdout), prices: prices, opts: inspect.DocOptions{
		Format:   format,
		Full:     c.Bool("full"),
		Redact:   rd != nil,
		Redactor: rd,
		Version:  Version,
	}}
	defer d.remove()
	// Interrupted while the inputs are read (a live pipe), the document is
	// written of what was read, as the text view writes what it read.
	e.whenStopped(func() {
		for _, in := range d.inputs {
			in.Stop()
		}
		d.write(true)
		d.w.Flush()
		d.remove()
	})
	bad := 0
	o := e.opener()
	for _, name := range names {
		in, err := o.Twice(name)
		if err != nil {
			e.warnf("%v", err)
			bad++
			continue
		}
		e.mu.Lock()
		d.inputs = append(d.inputs, in)
		e.mu.Unlock()
		if err := in.Keep(&e.mu); err != nil {
			var ke *input.KeepError
			if errors.As(err, &ke) {
				return err
			}
			e.warnf("%s: read error: %v", in.Name, err)
			bad++
		}
	}
	n, err := d.write(false)
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if bad+n > 0 {
		return silentExit(ExitDiagnostics)
	}
	return nil
}

// remove removes the inputs' temporary files.
func (d *docRun) remove() {
	for _, in := range d.inputs {
		in.Remove()
	}
}

// write reads the inputs twice, for the runs' summaries and to render the
// document, and returns how many lines or reads had diagnostics. stopped:
// it is called by an interruption, with e.mu held, and ends the document
// where the inputs end, as interrupted.
func (d *docRun) write(stopped bool) (int, error) {
	e := d.e
	lock, unlock := e.mu.Lock, e.mu.Unlock
	if stopped {
		lock, unlock = func() {}, func() {}
	}
	bad := 0
	var files []*inspect.DocFile
	var readable []*input.Twice
	for _, in := range d.inputs {
		f, err := in.Open()
		if err != nil {
			e.warnf("%v", err)
			bad++
			continue
		}
		df, err := inspect.ScanDocFile(f, in.Name, d.prices)
		f.Close()
		if err != nil {
			e.warnf("%s: read error: %v", in.Name, err)
			bad++
		}
		files = append(files, df)
		readable = append(readable, in)
	}
	doc := inspect.NewDocument(d.w, d.opts, files)
	if !stopped {
		e.whenStopped(func() {
			// The document says where it was stopped and is ended as a
			// finished one is (the run and its file closed, the page's
			// end written): an interrupted transcript is still a whole
			// document.
			doc.Interrupt()
			d.w.Flush()
			d.remove()
		})
	}
	flush := func() error {
		lock()
		defer unlock()
		return d.w.Flush()
	}
	for i, in := range readable {
		n, err := renderInput(e, doc, in, lock, unlock, flush)
		bad += n
		if err == nil && !(stopped && i == len(readable)-1) {
			lock()
			err = doc.EndFile()
			unlock()
		}
		if err != nil {
			return bad, err
		}
	}
	var err error
	lock()
	if stopped {
		err = doc.Interrupt()
	} else {
		err = doc.Close()
	}
	unlock()
	if err == nil {
		err = flush()
	}
	return bad, err
}

// renderInput renders one input's lines; it returns how many lines or
// reads had diagnostics, and write errors.
func renderInput(e *env, doc *inspect.Document, in *input.Twice, lock, unlock func(), flush func() error) (int, error) {
	f, err := in.Open()
	if err != nil { // gone since it was scanned
		e.warnf("%v", err)
		return 1, nil
	}
	defer f.Close()
	lock()
	err = doc.File()
	unlock()
	if err != nil {
		return 0, err
	}
	bad := 0
	lr := jsonl.NewReader(f, in.Name, nil)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			e.warnf("%s: read error: %v", in.Name, err)
			bad++
			break
		}
		lock()
		err = doc.Line(l)
		unlock()
		var le *jsonl.Diagnostic
		if errors.As(err, &le) {
			if err := flush(); err != nil {
				return bad, err
			}
			e.diag(le.String())
			bad++
			continue
		}
		if err != nil {
			return bad, err
		}
	}
	return bad, nil
}
