// Package eventtest is what every dialect's tests share: reading lines
// through a decoder and the run rules with the model's invariants checked,
// the facts tests compare, and the fuzz harness.
package eventtest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/zevo/zevo/event"
)

// Decoded is what a test reads back from a decoded input.
type Decoded struct {
	Events []event.Event
	Errs   []string
	Runs   []*event.Run
	Tokens event.Tokens // every run's usage, each counted as its Scope says
}

// Decode reads lines (numbered from 1) through a new decoder of d and the
// run rules. It fails the test on a line that yields neither an event nor
// an error, and on an event without its dialect, line or raw line.
func Decode(t testing.TB, d *event.Dialect, lines [][]byte) Decoded {
	t.Helper()
	dec := d.NewDecoder(event.DecodeOptions{})
	var runs event.Runs
	var out Decoded
	perRun := map[*event.Run]*event.Tokens{}
	place := func(evs []event.Event) {
		for i := range evs {
			e := &evs[i]
			if e.Dialect != d.Name || e.Line < 1 || e.Raw == nil {
				t.Errorf("line %d: event %v without its dialect, line or raw: %+v", e.Line, e.Kind, e)
			}
			st := runs.Place(e)
			if st.Start {
				out.Runs = append(out.Runs, st.Run)
				perRun[st.Run] = &event.Tokens{}
			}
			if e.Kind == event.Usage && st.Run != nil {
				if e.Usage.Scope == event.ScopeRun {
					*perRun[st.Run] = *e.Usage
				} else {
					perRun[st.Run].Add(e.Usage)
				}
			}
		}
		out.Events = append(out.Events, evs...)
	}
	for i, l := range lines {
		evs, err := dec.Decode(nil, l, i+1)
		if err != nil {
			out.Errs = append(out.Errs, err.Error())
		} else if len(evs) == 0 {
			t.Errorf("line %d: no event and no error: %s", i+1, l)
		}
		place(evs)
	}
	place(dec.End(nil))
	runs.End()
	for _, r := range out.Runs {
		out.Tokens.Add(perRun[r])
	}
	return out
}

// Kinds are the events of kind k, in order.
func (d Decoded) Kinds(k event.Kind) []event.Event {
	var out []event.Event
	for _, e := range d.Events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// Texts are the texts of the events of kind k, in order.
func (d Decoded) Texts(k event.Kind) []string {
	var out []string
	for _, e := range d.Kinds(k) {
		out = append(out, e.Text)
	}
	return out
}

// Calls is each tool call as "name effect", in order.
func (d Decoded) Calls() []string {
	var out []string
	for _, e := range d.Kinds(event.ToolCall) {
		out = append(out, e.Tool.Name+" "+string(e.Tool.Effect))
	}
	return out
}

// Statuses are the runs' statuses, in order.
func (d Decoded) Statuses() []event.Status {
	var out []event.Status
	for _, r := range d.Runs {
		out = append(out, r.Status)
	}
	return out
}

// Capture reads the lines of testdata/captures/AGENT/NAME, from a dialect's
// folder.
func Capture(t testing.TB, agent, name string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captures", agent, name))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

// Eq fails the test when got and want differ.
func Eq[T comparable](t testing.TB, what string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %v, want %v", what, got, want)
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s: %v, want %v", what, got, want)
			return
		}
	}
}

// Fuzz is a dialect's FuzzDecode: seeded with the files that globs
// (under testdata/) match, it requires that no input panics the decoder,
// that every line gives events or an error, and that every event names
// its dialect and line.
func Fuzz(f *testing.F, d *event.Dialect, globs ...string) {
	for _, g := range globs {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", g))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			if len(data) < 1<<16 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := d.NewDecoder(event.DecodeOptions{})
		var evs []event.Event
		for i, line := range bytes.Split(data, []byte("\n")) {
			n := len(evs)
			var err error
			evs, err = dec.Decode(evs, line, i+1)
			if len(evs) == n && err == nil {
				t.Fatalf("line %d %q: no event and no error", i+1, line)
			}
		}
		evs = dec.End(evs)
		var runs event.Runs
		for i := range evs {
			if evs[i].Dialect != d.Name || evs[i].Line == 0 {
				t.Fatalf("event %v: dialect %q, line %d", evs[i].Kind, evs[i].Dialect, evs[i].Line)
			}
			runs.Place(&evs[i])
		}
		runs.End()
	})
}
