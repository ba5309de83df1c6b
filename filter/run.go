package filter

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/itchyny/gojq"
	"github.com/zevo/zevo/internal/termsafe"
	"github.com/zevo/zevo/jsonl"
)

// Input is one named input, opened when its turn comes.
type Input struct {
	Name string // "<stdin>" for standard input
	Open func() (io.ReadCloser, error)
}

// Stats account for a run. Every line is either blank, read as values,
// or Bad.
type Stats struct {
	Lines   int // lines read
	Values  int // input values the expression ran on
	Bad     int // values that are not JSON
	Unread  int // inputs that could not be opened or read to the end
	Errors  int // values on which the expression raised an error
	Outputs int // results written
	// LastTruthy: the last result was neither false nor null (for -e).
	LastTruthy bool
	// Halted: halt or halt_error stopped the run with HaltCode.
	Halted   bool
	HaltCode int
	// Stopped: FailFast stopped the run at the first bad line or error.
	Stopped bool
}

func (s *Stats) add(d *Stats) {
	s.Lines += d.Lines
	s.Values += d.Values
	s.Bad += d.Bad
	s.Unread += d.Unread
	s.Errors += d.Errors
	if d.Outputs > 0 {
		s.LastTruthy = d.LastTruthy
	}
	s.Outputs += d.Outputs
	if d.Halted && !s.Halted {
		s.Halted, s.HaltCode = true, d.HaltCode
	}
	s.Stopped = s.Stopped || d.Stopped
}

// runner runs the expression on values and collects what they write:
// results in out, messages for stderr in msgs. Each goroutine has its own.
type runner struct {
	f    *Filter
	dec  decoder
	enc  encoder // results
	menc encoder // values in messages: compact
	out  []byte
	msgs []byte
	vals []any
	// vals1 is the scratch list of one line's values.
	vals1  []decoded
	events []any // scratch list of --stream events
	st     Stats
	stop   bool // halt or FailFast: no more values
	// spill, when set, writes out the results so far: value calls it
	// whenever they pass spillBytes, so that one run that yields without
	// end (-n 'inputs', range(1e9)) is written as it goes, in bounded
	// memory.
	spill func()
	// evalSpill is Eval's spill, made once; it writes to evalOut and keeps
	// the first error in evalErr.
	evalSpill func()
	evalOut   io.Writer
	evalErr   error
}

// spillBytes is how much output value keeps before it calls spill.
const spillBytes = 32 << 10

func (f *Filter) newRunner() *runner {
	r := &runner{f: f, enc: newEncoder(&f.opt.Output), menc: encoder{}}
	r.dec.useArena = f.parallel
	if f.parallel {
		r.dec.want = f.want
	}
	r.vals = append(r.vals, f.vals...)
	if f.places {
		r.vals = append(r.vals, 0, nil)
	}
	return r
}

// diag is the message msg about line num of the input name, as every
// command words it, with its line end.
func diag(name string, num int, msg string) string {
	return jsonl.Diagnostic{File: name, Line: num, Severity: jsonl.SevError, Message: msg}.String() + "\n"
}

// setPlace gives input_line_number and input_filename their values for
// the parallel path.
func (r *runner) setPlace(name string, num int) {
	if r.f.places {
		n := len(r.vals)
		r.vals[n-2] = num
		r.vals[n-1] = name
	}
}

// decoded is one value of a line with its text.
type decoded struct {
	v     any
	raw   []byte
	exact bool
}

// decodeLine decodes every value of line b into vals: a line is run only
// when all of it is JSON. ok is false for a bad line, reported.
func (r *runner) decodeLine(d *decoder, vals []decoded, b []byte, name string, num int) ([]decoded, bool) {
	vals = vals[:0]
	d.reset(b)
	for d.more() {
		v, raw, err := d.next()
		if err != nil {
			r.bad(name, num, badValue(b, num, err))
			return vals[:0], false
		}
		if !d.exact && d.want != nil {
			// The line's text cannot stand for a partly built object, so
			// build all of it.
			want := d.want
			d.want = nil
			vals, ok := r.decodeLine(d, vals, b, name, num)
			d.want = want
			return vals, ok
		}
		if r.f.opt.Stream {
			r.events = streamEvents(r.events[:0], v, raw)
			for _, ev := range r.events {
				vals = append(vals, decoded{v: ev})
			}
			clear(r.events)
			continue
		}
		vals = append(vals, decoded{v, raw, d.exact})
	}
	return vals, true
}

// line decodes the values of one line and runs the expression on each.
func (r *runner) line(b []byte, name string, num int) {
	if r.f.opt.RawInput {
		r.st.Values++
		r.value(string(b), nil, false, name, num)
		return
	}
	vals, ok := r.decodeLine(&r.dec, r.vals1[:0], b, name, num)
	for i := range vals {
		if r.stop {
			break
		}
		r.st.Values++
		r.value(vals[i].v, vals[i].raw, vals[i].exact, name, num)
		vals[i] = decoded{}
	}
	if ok {
		r.vals1 = vals[:0]
	}
}

// badValue describes a syntax error in the text b of a unit that starts
// on line num: by column when the error is on that line, else by line and
// column.
func badValue(b []byte, num int, err error) string {
	se, ok := err.(*syntaxError)
	if !ok {
		return err.Error()
	}
	off := min(se.off, len(b))
	nl := bytes.LastIndexByte(b[:off], '\n')
	if nl < 0 {
		return err.Error()
	}
	line := num + bytes.Count(b[:off], []byte{'\n'})
	return "not valid JSON at line " + strconv.Itoa(line) + ", byte " + strconv.Itoa(off-nl) + ": " + se.msg
}

// bad reports a line that is not JSON.
func (r *runner) bad(name string, num int, msg string) {
	r.st.Bad++
	r.msgs = append(r.msgs, diag(name, num, r.shown(msg))...)
	if r.f.opt.FailFast {
		r.stop = true
		r.st.Stopped = true
	}
}

// shown is a message as written on stderr: redacted (Options.Redactor)
// and escaped.
func (r *runner) shown(msg string) string {
	if rd := r.f.opt.Redactor; rd != nil {
		msg = rd.String(msg)
	}
	return termsafe.String(msg)
}

// unread reports an input that could not be opened or read.
func (r *runner) unread(msg string) {
	r.st.Unread++
	r.msgs = append(r.msgs, msg...)
	if r.f.opt.FailFast {
		r.stop = true
		r.st.Stopped = true
	}
}

// value runs the expression on v, whose JSON text is raw (exact: raw
// spells v faithfully), read at name:num (num 0: no place).
func (r *runner) value(v any, raw []byte, exact bool, name string, num int) {
	if obj, ok := v.(map[string]any); ok && r.f.fast != nil {
		if x, out, known := r.f.fast.eval(obj); known {
			if out {
				r.result(x, v, raw, exact, name, num)
			}
			return
		}
	}
	r.setPlace(name, num)
	iter := r.f.code.RunWithContext(r.f.ctx, v, r.vals...)
	for {
		x, ok := iter.Next()
		if !ok {
			return
		}
		if err, ok := x.(error); ok {
			r.error(err, name, num)
			return
		}
		r.result(x, v, raw, exact, name, num)
		if r.stop {
			return // the output is gone (spill): no more results
		}
	}
}

// result writes one result of the expression on v (see emit), and the
// results so far out once they pass spillBytes (see spill).
func (r *runner) result(x, v any, raw []byte, exact bool, name string, num int) {
	r.emit(x, v, raw, exact, name, num)
	if r.spill != nil && len(r.out) >= spillBytes {
		r.spill()
	}
}

func (r *runner) error(err error, name string, num int) {
	var he *gojq.HaltError
	if errors.As(err, &he) {
		r.stop = true
		r.st.Halted = true
		r.st.HaltCode = he.ExitCode()
		if v := he.Value(); v != nil {
			if s, ok := v.(string); ok {
				r.msgs = append(r.msgs, s...)
			} else {
				r.msgs = r.menc.append(r.msgs, v)
				r.msgs = append(r.msgs, '\n')
			}
		}
		return
	}
	r.st.Errors++
	if num == 0 && r.f.src.num > 0 {
		name, num = r.f.src.name, r.f.src.num // -n: the last line read
	}
	msg := err.Error()
	if msg == "break" {
		// gojq's input says so when there is no more input.
		msg = "error: no more inputs"
	}
	if num > 0 {
		r.msgs = append(r.msgs, diag(name, num, r.shown(msg))...)
	} else {
		r.msgs = append(r.msgs, "zevo: jq: "+r.shown(msg)+"\n"...)
	}
	if r.f.opt.FailFast {
		r.stop = true
		r.st.Stopped = true
	}
}

// emit writes one result. A result that is the input value itself is
// written from the input's text.
func (r *runner) emit(x, in any, raw []byte, exact bool, name string, num int) {
	o := &r.f.opt
	r.st.Outputs++
	r.st.LastTruthy = x != nil && x != false
	if s, ok := x.(string); ok && (o.Raw || o.Join || o.Raw0) && o.ASCII {
		// jq writes such a string as JSON, escaped
		r.out = appendString(r.out, s, true)
	} else if ok && (o.Raw || o.Join || o.Raw0) {
		if o.Raw0 && strings.IndexByte(s, 0) >= 0 {
			r.st.Outputs--
			r.error(errors.New("cannot dump a string containing NUL with --raw-output0"), name, num)
			return
		}
		r.out = append(r.out, s...)
	} else {
		if o.Seq {
			r.out = append(r.out, 0x1e)
		}
		switch {
		case !exact || raw == nil || o.SortKeys || o.ASCII || !same(x, in):
			r.out = r.enc.append(r.out, x)
		case r.enc.plain() && !o.Compact && bytes.IndexByte(raw, '\n') < 0:
			r.out = append(r.out, raw...) // as read
		default:
			r.out = r.enc.appendText(r.out, raw)
		}
	}
	switch {
	case o.Raw0:
		r.out = append(r.out, 0)
	case !o.Join:
		r.out = append(r.out, '\n')
	}
}

// same reports whether result x is the input value in itself: the same
// object or array (gojq never changes a value in place), or an equal
// scalar.
func same(x, in any) bool {
	switch a := in.(type) {
	case map[string]any:
		b, ok := x.(map[string]any)
		return ok && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
	case []any:
		b, ok := x.([]any)
		return ok && len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
	case string:
		b, ok := x.(string)
		return ok && a == b
	case json.Number:
		b, ok := x.(json.Number)
		return ok && a == b
	case bool:
		b, ok := x.(bool)
		return ok && a == b
	case nil:
		return x == nil
	}
	return false
}

func (r *runner) debug(v any) {
	r.msgs = r.menc.append(r.msgs, []any{"DEBUG:", v})
	r.msgs = append(r.msgs, '\n')
}

// stderr writes v as jq 1.7 does: a string as it is, anything else
// compact, with no newline.
func (r *runner) stderr(v any) {
	if s, ok := v.(string); ok {
		r.msgs = append(r.msgs, s...)
		return
	}
	r.msgs = r.menc.append(r.msgs, v)
}

// Run runs the expression on the values of inputs, in order, writing
// results to out and diagnostics to errw. Output is flushed whenever
// reading would wait for input. The error is a failure to write out.
func (f *Filter) Run(inputs []Input, out, errw io.Writer) (Stats, error) {
	w := jsonl.NewWriter(out)
	unlock := f.lock()
	f.w = w
	unlock()
	defer func() {
		unlock := f.lock()
		f.w = nil
		unlock()
	}()
	if f.parallel {
		return f.runParallel(inputs, w, errw)
	}
	return f.runSerial(inputs, w, errw)
}

// lock takes opt.Lock, if any, and returns what releases it.
func (f *Filter) lock() func() {
	if f.opt.Lock == nil {
		return func() {}
	}
	f.opt.Lock.Lock()
	return f.opt.Lock.Unlock
}

// Flush writes out the results Run has buffered. The caller holds
// opt.Lock, so the output then ends at the end of a result: an
// interrupted run leaves no half line behind.
func (f *Filter) Flush() error {
	if f.w == nil {
		return nil
	}
	return f.w.Flush()
}

// Pending reads the line the running Run's input stopped inside (read,
// with no line end yet) as a file ending there would read it: a line that
// is no JSON value is reported on errw, a value's results are written
// out, when the expression can run on a line of its own (not -n, -s,
// input or inputs: it is only checked then). The caller holds opt.Lock,
// as for Flush, and calls Flush after it; Run's later lines are not to
// be written after it.
func (f *Filter) Pending(errw io.Writer) {
	u := f.reading.Load()
	if u == nil || f.w == nil {
		return
	}
	l, ok := u.pending()
	if !ok || len(bytes.TrimSpace(l.Bytes)) == 0 && !f.opt.RawInput {
		return
	}
	r := f.newRunner()
	if f.parallel {
		r.line(l.Bytes, l.Name, l.Num)
	} else if !f.opt.RawInput {
		r.decodeLine(&r.dec, nil, l.Bytes, l.Name, l.Num)
	}
	f.w.Write(r.out)
	errw.Write(r.msgs)
}

// Eval runs the expression on the JSON value text raw, read at name:num,
// writing results to out and messages to errw. It is the filter of a
// stream made elsewhere (translated events); input and inputs find no
// more input. stop is true when halt or FailFast ends the stream.
func (f *Filter) Eval(raw []byte, name string, num int, out, errw io.Writer) (stop bool, err error) {
	r := f.seq
	f.src.name, f.src.num, f.src.r = name, num, r
	// Results beyond spillBytes are written as they come.
	if r.evalSpill == nil {
		r.evalSpill = func() {
			if _, err := r.evalOut.Write(r.out); err != nil && r.evalErr == nil {
				r.evalErr, r.stop = err, true
			}
			r.out = r.out[:0]
		}
	}
	r.evalOut, r.evalErr, r.spill = out, nil, r.evalSpill
	r.line(raw, name, num)
	r.spill, r.evalOut = nil, nil
	err = r.evalErr
	if len(r.out) > 0 && err == nil {
		_, err = out.Write(r.out)
	}
	r.out = r.out[:0]
	if len(r.msgs) > 0 {
		errw.Write(r.msgs)
		r.msgs = r.msgs[:0]
	}
	return r.stop, err
}

// Stats returns the accounting of Eval calls.
func (f *Filter) Stats() Stats { return f.seq.st }
