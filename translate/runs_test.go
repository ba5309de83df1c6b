package translate

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/zevo/zevo/bench/corpus"
)

// runsInputs are the inputs the runs are tested on: every JSONL file of
// the repository's test data, generated corpora of both protocols, and
// lines whose "type" or "runId" is unusual.
func runsInputs(t *testing.T) map[string][]byte {
	t.Helper()
	in := map[string][]byte{}
	for _, root := range []string{"../testdata", "testdata"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(path) != ".jsonl" {
				return err
			}
			b, err := os.ReadFile(path)
			in[path] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []corpus.Protocol{corpus.Zero, corpus.EvoSci} {
		var buf bytes.Buffer
		if _, err := corpus.Write(&buf, corpus.Options{Protocol: p, Size: 64 << 10, Seed: 3}); err != nil {
			t.Fatal(err)
		}
		in["generated "+p.Name] = buf.Bytes()
	}
	in["unusual"] = []byte(`{"schemaVersion":2,"type":"run_start","runId":"r\u0031"}
{"schemaVersion":2,"type":"text","runId":"r1","delta":"a"}
{"schemaVersion":2,"type":"text","runId":7,"delta":"a"}
{"schemaVersion":2,"type":"text","delta":"no runId"}
{"schemaVersion":2,"type":5,"runId":"r1"}
{"schemaVersion":2,"runId":"r2"}
{"schemaVersion":2,"type":"evosci.done","runId":"r2"}
{"schemaVersion":2,"type":"evosci.error","runId":"r2","message":"x"}
{"type":"zero.run_start","runId":"r3","schemaVersion":2}
{"type":"zero.run_end","runId":"r3","schemaVersion":2,"status":"success"}
{"type":"text","content":"a","runId":"r4"}
{"type":"error","message":"x"}
{"type":"done"}
{"type":"done"}
{"schemaVersion":1,"type":"run_start","runId":"r5"}
{"schemaVersion":1,"type":"run_end","runId":"r5","status":"error"}
{"schemaVersion":3,"type":"run_end","runId":"r6"}
{"schemaVersion":2,"type":"message","runId":"r7","role":"user","content":"hi"}
{"schemaVersion":2,"type":"run_end","runId":"r7","status":7}
{"schemaVersion":2,"type":"run_end","runId":"r\"8","status":"\u0064one"}
`)
	return in
}

// TestShortcutsChangeNothingOnRuns: on the inputs of the runs' tests
// (runsInputs), the shortcuts taken for speed change no output and no
// diagnostic: Line, and Stream decoding on its reading goroutine, write what
// Line writes with Options.Plain.
func TestShortcutsChangeNothingOnRuns(t *testing.T) {
	for name, input := range runsInputs(t) {
		for _, opt := range []Options{{To: EvoSci}, {To: Zero, Redact: true, RunID: "R"}, {To: Zero, RunID: "R"}, {To: Zero1, Redact: true, RunID: "R"}} {
			got, gotDiags, _ := run(t, opt, input)
			ahead, aheadDiags := streamedAhead(t, opt, input)
			opt.Plain = true
			want, wantDiags, _ := run(t, opt, input)
			if !bytes.Equal(got, want) || jsonText(gotDiags) != jsonText(wantDiags) {
				t.Fatalf("%s --to %s: with shortcuts\n%s%v\nthe plain path\n%s%v", name, opt.To, got, gotDiags, want, wantDiags)
			}
			if !bytes.Equal(ahead, want) || jsonText(aheadDiags) != jsonText(wantDiags) {
				t.Fatalf("%s --to %s: Stream decoding on its reading goroutine\n%s%v\nthe plain path\n%s%v", name, opt.To, ahead, aheadDiags, want, wantDiags)
			}
		}
	}
}
