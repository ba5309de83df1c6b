package filter

import (
	"bytes"
	"io"
	"os"

	"github.com/zevo/zevo/internal/termsafe"
	"github.com/zevo/zevo/jsonl"
)

// source yields the input values one by one across all inputs, for the
// sequential path; it is also the iterator behind input and inputs.
type source struct {
	f      *Filter
	inputs []Input
	idx    int
	rc     io.ReadCloser
	rd     *units
	noNL   bool // the last unit read had no line end
	idle   func() error
	dec    decoder
	// line holds the current line's bytes: a copy, since a value's text
	// must outlive the reading of later lines by input.
	line []byte
	// pending are the values of line not yet read.
	pending []decoded
	at      int
	name    string
	num     int
	r       *runner // where bad lines are reported
	// slurped is what input yields once with -n -s: the array of all values.
	slurped any
	err     error // a fatal error (writing output)
}

// next returns the next input value, its text and whether the text spells
// it faithfully; ok is false at the end or when the run must stop.
func (s *source) next() (v any, raw []byte, exact, ok bool) {
	for {
		if s.err != nil || s.r.stop {
			return nil, nil, false, false
		}
		if s.at < len(s.pending) {
			d := s.pending[s.at]
			s.pending[s.at] = decoded{}
			s.at++
			s.r.st.Values++
			return d.v, d.raw, d.exact, true
		}
		if s.rd == nil && !s.open() {
			return nil, nil, false, false
		}
		l, err := s.rd.next()
		if err != nil {
			if err != io.EOF {
				if s.err = s.idleErr(); s.err != nil {
					return nil, nil, false, false
				}
				s.r.unread(diag(s.name, s.num+1, "read error: "+err.Error()))
			}
			s.rc.Close()
			s.rd = nil
			continue
		}
		s.name, s.num, s.noNL = l.Name, l.Num, l.NoNewline
		s.r.st.Lines += l.Lines
		if s.f.opt.RawInput {
			s.r.st.Values++
			return rawLine(l), nil, false, true
		}
		if l.Blank {
			continue
		}
		s.line = bytes.Clone(l.Bytes)
		s.pending, _ = s.r.decodeLine(&s.dec, s.pending, s.line, s.name, s.num)
		s.at = 0
	}
}

// rawLine is the string of a line with -R: its text, with the CR of a
// CR LF line end, as jq keeps it.
func rawLine(l unit) string {
	if l.CR {
		return string(l.Bytes) + "\r"
	}
	return string(l.Bytes)
}

// idleErr tells a read error from the idle hook's (a failed flush).
func (s *source) idleErr() error {
	if s.idle != nil {
		return s.idle()
	}
	return nil
}

// open opens the next input; false when there is none.
func (s *source) open() bool {
	for s.idx < len(s.inputs) {
		in := s.inputs[s.idx]
		s.idx++
		rc, err := in.Open()
		if err != nil {
			s.r.unread("zevo: " + termsafe.String(err.Error()) + "\n")
			if s.r.stop {
				return false
			}
			continue
		}
		s.rc = rc
		s.rd = s.f.openUnits(rc, in.Name, s.idle)
		return true
	}
	return false
}

// Next implements gojq.Iter for input and inputs.
func (s *source) Next() (any, bool) {
	if s.slurped != nil {
		v := s.slurped
		s.slurped = nil
		return v, true
	}
	v, _, _, ok := s.next()
	return v, ok
}

// close closes an input left open by a run that stopped early.
func (s *source) close() {
	if s.rd != nil {
		s.rc.Close()
		s.rd = nil
	}
}

// runSerial runs the expression on one goroutine: needed for -n, -s,
// input, inputs, debug and stderr.
func (f *Filter) runSerial(inputs []Input, w *jsonl.Writer, errw io.Writer) (Stats, error) {
	r := f.seq
	s := f.src
	s.inputs, s.idx, s.r = inputs, 0, r
	drain := func() error {
		defer f.lock()()
		if len(r.out) > 0 {
			w.Write(r.out)
			r.out = r.out[:0]
		}
		if len(r.msgs) > 0 {
			if err := w.Flush(); err != nil {
				return err
			}
			errw.Write(r.msgs)
			r.msgs = r.msgs[:0]
		}
		return w.Err()
	}
	s.idle = func() error {
		if err := drain(); err != nil {
			return err
		}
		defer f.lock()()
		return w.Flush()
	}
	r.spill = func() {
		if err := drain(); err != nil && s.err == nil {
			s.err = err
			r.stop = true
		}
	}
	defer func() { r.spill = nil }() // Eval runs on r too, into its own output
	defer s.close()
	switch {
	case f.opt.Slurp:
		all := []any{}
		var text []byte
		for {
			v, _, _, ok := s.next()
			if !ok {
				break
			}
			if f.opt.RawInput {
				text = append(text, v.(string)...)
				if !s.noNL {
					text = append(text, '\n')
				}
				continue
			}
			all = append(all, v)
		}
		if s.err == nil && !r.stop {
			var in any = all
			if f.opt.RawInput {
				in = string(text)
			}
			if f.opt.NullInput {
				s.slurped = in
				r.value(nil, nil, false, "", 0)
				s.slurped = nil
			} else {
				r.value(in, nil, false, s.name, s.num)
			}
		}
	case f.opt.NullInput:
		r.value(nil, nil, false, "", 0)
	default:
		for {
			v, raw, exact, ok := s.next()
			if !ok {
				break
			}
			r.value(v, raw, exact, s.name, s.num)
			if err := drain(); err != nil {
				s.err = err
			}
		}
	}
	if s.err == nil {
		s.err = drain()
	}
	unlock := f.lock()
	if err := w.Flush(); s.err == nil {
		s.err = err
	}
	unlock()
	return r.st, s.err
}

// idleFor returns the idle hook for reading r: none for a regular file,
// which never makes the reader wait, so that its output is written in
// big blocks and the parallel path is not cut into small batches.
func idleFor(r io.Reader, idle func() error) func() error {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return nil
		}
	}
	return idle
}
