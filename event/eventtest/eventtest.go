// Package eventtest is what every dialect's tests share: reading lines
// through a decoder and the run rules with the model's invariants checked,
// the facts tests compare, and the fuzz harness.
package eventtest

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"
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
	dec := d.NewDecoder(event.DecodeOptions{Effects: event.EffectsOf([]*event.Dialect{d})})
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

// Capture reads the lines of the capture NAME of AGENT, from a dialect's
// folder: the folder's own testdata/captures/NAME, else the shared
// testdata/captures/AGENT/NAME.
func Capture(t testing.TB, agent, name string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "captures", name))
	if errors.Is(err, fs.ErrNotExist) {
		b, err = os.ReadFile(filepath.Join("..", "..", "testdata", "captures", agent, name))
	}
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
// match under the shared testdata/ and under the folder's own, it requires that no input panics the decoder,
// that every line gives events or an error, and that every event names
// its dialect and line.
func Fuzz(f *testing.F, d *event.Dialect, globs ...string) {
	for _, g := range globs {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", g))
		own, _ := filepath.Glob(filepath.Join("testdata", g))
		files = append(files, own...)
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
		dec := d.NewDecoder(event.DecodeOptions{Effects: event.EffectsOf([]*event.Dialect{d})})
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

// DetectCases is every JSON object line of testdata (the folder's path
// from the test's), every dialect's, and edge cases: keys written twice,
// fields of other types, escaped keys, lines that are not objects. A
// dialect's Detect and DetectLine are held on them to a plain reading of
// the line, field by field.
func DetectCases(t testing.TB, testdata string) [][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(testdata, "*", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(testdata, "*", "*", "*.jsonl"))
	// The captures each dialect's folder keeps (dialects/NAME/testdata/captures).
	own, _ := filepath.Glob(filepath.Join(testdata, "..", "dialects", "*", "testdata", "captures", "*.jsonl"))
	var lines [][]byte
	for _, f := range append(append(files, more...), own...) {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			if gjson.ValidBytes(sc.Bytes()) && gjson.ParseBytes(sc.Bytes()).IsObject() {
				lines = append(lines, append([]byte(nil), sc.Bytes()...))
			}
		}
		fh.Close()
	}
	if len(lines) < 500 {
		t.Fatalf("only %d lines", len(lines))
	}
	for _, l := range []string{
		`{"type":"result","type":1}`,
		`{"type":1,"type":"result"}`,
		`{"type":"assistant","message":{"content":[]},"message":{"id":"m"}}`,
		`{"type":"assistant","message":{"id":"m"},"message":{}}`,
		`{"type":"assistant","message":"id"}`,
		`{"type":"assistant","message":["id"]}`,
		`{"type":"result","usage":{"inputTokens":1},"usage":{}}`,
		`{"type":"result","usage":{},"usage":{"inputTokens":1}}`,
		`{"type":"result","usage":5}`,
		`{"ty\u0070e":"tool_call","call_id":"c"}`,
		`{"type":"tool_call","call_id":"c","uuid":null}`,
		`{"type":"x","session_id":1,"timestamp_ms":null}`,
		`{"type":"x","session_id":1}`,
		`{"type":"thinking","subtype":"delta"}`,
		`{"type":"thinking"}`,
		`{"tools":[],"type":"system"}`,
		`{"a":{"type":"system","uuid":"u"},"type":"user"}`,
		`{"type":"text","schemaVersion":null}`,
		`{"schemaVersion":2,"type":"text"}`,
		`{"type":"text","type":"run_start"}`,
		`{"type":"done"}`,
		`["type","result"]`,
		`[{"type":"result"}]`,
		`"type"`,
		`{"a":1,"type":"rate_limit_event"}`,
		`{"type":"x","session_id":"s","call_id":"c","tools":[]}`,
		`{"type":"x","call_id":"c","session_id":"s"}`,
		`{"type":"thinking","sess\u0069on_id":"s"}`,
		`{"type":"tool_call","call\u005fid":"c"}`,
		`{"type":"tool_call","c\u0061ll_id":"c"}`,
		`{"type":"x","session\u005fid":"s","timestamp_ms":1}`,
		`{"type":"x","session_id":"s","timestamp\u005Fms":1}`,
		`{"type":"text","schem\u0061Version":2}`,
		`{"type":"text","sessionI\u0044":"s"}`,
		`{"type":"text","sessionID":"s"}`,
		`{}`,
	} {
		lines = append(lines, []byte(l))
	}
	return lines
}

// Twice is lines with each written twice in a row, as a producer that
// retries a write, or a log appended twice, gives them.
func Twice(lines [][]byte) [][]byte {
	twice := make([][]byte, 0, 2*len(lines))
	for _, l := range lines {
		twice = append(twice, l, l)
	}
	return twice
}

// SameStory fails t where got tells another story than want: the runs'
// statuses, the tool calls, the final answers, the text and the errors.
func SameStory(t testing.TB, name string, got, want Decoded) {
	t.Helper()
	Eq(t, name+" runs", got.Statuses(), want.Statuses())
	Eq(t, name+" tools", got.Calls(), want.Calls())
	Eq(t, name+" final", got.Texts(event.Final), want.Texts(event.Final))
	Eq(t, name+" text", got.Texts(event.Text), want.Texts(event.Text))
	Eq(t, name+" errors", got.Texts(event.Error), want.Texts(event.Error))
}
