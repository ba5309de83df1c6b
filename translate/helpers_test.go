package translate

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/zevo/zevo/jsonl"
)

// fixedNow and zeroRand make synthesized run ids repeatable.
var fixedNow = func() time.Time { return time.Date(2026, 11, 29, 10, 15, 0, 0, time.UTC) }

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 0xab
	}
	return len(p), nil
}

// run translates input and returns the output, the diagnostics and the stats.
func run(t testing.TB, opt Options, input []byte) (out []byte, diags []string, st *Stats) {
	t.Helper()
	if opt.Now == nil {
		opt.Now = fixedNow
	}
	if opt.Rand == nil {
		opt.Rand = zeroReader{}
	}
	var buf bytes.Buffer
	tr := New(opt, func(b []byte) error {
		buf.Write(b)
		buf.WriteByte('\n')
		return nil
	})
	diags = feedLines(t, tr, input, "in", nil, nil)
	if err := tr.End("in"); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), diags, tr.Stats()
}

// feedLines gives each line of input, named name, to tr.Line, after
// prep (if not nil) and after Line with the line's bytes, and returns the
// diagnostics.
func feedLines(t testing.TB, tr *Translator, input []byte, name string, prep func(l *jsonl.Line), after func()) (diags []string) {
	t.Helper()
	r := jsonl.NewReader(bytes.NewReader(input), name, nil)
	for {
		l, err := r.Next()
		if err == io.EOF {
			return diags
		}
		if err != nil {
			t.Fatal(err)
		}
		if prep != nil {
			prep(&l)
		}
		var d *jsonl.Diagnostic
		if err := tr.Line(l); errors.As(err, &d) {
			diags = append(diags, d.Error())
		} else if err != nil {
			t.Fatalf("%s:%d: %v", name, l.Num, err)
		}
		if after != nil {
			after()
		}
	}
}

// events decodes JSONL into values, numbers kept exact.
func events(t testing.TB, b []byte) []map[string]any {
	t.Helper()
	var evs []map[string]any
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		d := json.NewDecoder(strings.NewReader(line))
		d.UseNumber()
		var m map[string]any
		if err := d.Decode(&m); err != nil {
			t.Fatalf("output line is not a JSON object: %v\n%s", err, line)
		}
		evs = append(evs, m)
	}
	return evs
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
