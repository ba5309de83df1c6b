package evosci

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/zevo/zevo/event"
)

// FuzzDecode: no line panics the decoder; every line gives events or an
// error; every event names its dialect and line.
func FuzzDecode(f *testing.F) {
	for _, g := range []string{"translate/*.jsonl", "inspect/*.jsonl", "golden/*/*.jsonl", "hostile/*.jsonl"} {
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
		d := Dialect.NewDecoder(event.DecodeOptions{})
		var evs []event.Event
		for i, line := range bytes.Split(data, []byte("\n")) {
			n := len(evs)
			var err error
			evs, err = d.Decode(evs, line, i+1)
			if len(evs) == n && err == nil {
				t.Fatalf("line %d %q: no event and no error", i+1, line)
			}
		}
		evs = d.End(evs)
		var runs event.Runs
		for i := range evs {
			if evs[i].Dialect != Name || evs[i].Line == 0 {
				t.Fatalf("event %v: dialect %q, line %d", evs[i].Kind, evs[i].Dialect, evs[i].Line)
			}
			runs.Place(&evs[i])
		}
		runs.End()
	})
}
