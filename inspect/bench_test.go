package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/jsonl"
)

// corpus generates a stream of runs of the protocol, about size bytes.
func corpus(p Protocol, size int) []byte {
	var b bytes.Buffer
	for run := 0; b.Len() < size; run++ {
		if p == EvoSci {
			fmt.Fprintf(&b, `{"type": "thinking", "content": "step %d: reading the file", "id": 0}`+"\n", run)
			for i := 0; i < 5; i++ {
				fmt.Fprintf(&b, `{"type": "tool_call", "name": "read_file", "args": {"path": "src/f%d.go"}, "id": "call_%d"}`+"\n", i, i)
				fmt.Fprintf(&b, `{"type": "tool_result", "name": "read_file", "content": "%s", "success": true, "id": "call_%d"}`+"\n", strings.Repeat(`package main\n`, 20), i)
			}
			b.WriteString(`{"type": "text", "content": "All good."}` + "\n")
			b.WriteString(`{"type": "usage_stats", "input_tokens": 5123, "output_tokens": 388}` + "\n")
			b.WriteString(`{"type": "done", "content": "All good.", "response": "All good."}` + "\n")
			continue
		}
		id := fmt.Sprintf("run_20260603100000_%06x", run)
		fmt.Fprintf(&b, `{"apiModel":"m","cwd":"/repo","model":"m","provider":"p","runId":"%s","schemaVersion":2,"type":"run_start"}`+"\n", id)
		fmt.Fprintf(&b, `{"delta":"reading","runId":"%s","schemaVersion":2,"type":"reasoning"}`+"\n", id)
		for i := 0; i < 5; i++ {
			fmt.Fprintf(&b, `{"args":{"path":"src/f%d.go"},"id":"call_%d","name":"read_file","runId":"%s","schemaVersion":2,"sideEffect":"read","type":"tool_call"}`+"\n", i, i, id)
			fmt.Fprintf(&b, `{"id":"call_%d","name":"read_file","output":"%s","runId":"%s","schemaVersion":2,"status":"ok","truncated":false,"type":"tool_result"}`+"\n", i, strings.Repeat(`package main\n`, 20), id)
		}
		fmt.Fprintf(&b, `{"delta":"All good.","runId":"%s","schemaVersion":2,"type":"text"}`+"\n", id)
		fmt.Fprintf(&b, `{"completionTokens":8,"promptTokens":12,"runId":"%s","schemaVersion":2,"totalTokens":20,"type":"usage"}`+"\n", id)
		fmt.Fprintf(&b, `{"runId":"%s","schemaVersion":2,"text":"All good.","type":"final"}`+"\n", id)
		fmt.Fprintf(&b, `{"exitCode":0,"runId":"%s","schemaVersion":2,"status":"success","type":"run_end"}`+"\n", id)
	}
	return b.Bytes()
}

// The corpora are valid: the benchmarks measure the normal path.
func TestCorpusValid(t *testing.T) {
	for _, p := range []Protocol{Zero, EvoSci} {
		got, rep := validateString(t, "c", string(corpus(p, 64<<10)), p)
		if got != "" || rep.Runs < 10 {
			t.Errorf("%s corpus: %d runs, %s", p, rep.Runs, got)
		}
	}
}

func benchLines(b *testing.B, data []byte, fn func(l jsonl.Line)) {
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		lr := jsonl.NewReader(bytes.NewReader(data), "c", nil)
		for {
			l, err := lr.Next()
			if err == io.EOF {
				break
			}
			fn(l)
		}
	}
}

// BenchmarkReference is what every command does at least: read the lines
// and check each is JSON. The others are stated as ratios against it.
func BenchmarkReference(b *testing.B) {
	for _, p := range []Protocol{Zero, EvoSci} {
		data := corpus(p, 1<<20)
		b.Run(p.String(), func(b *testing.B) {
			benchLines(b, data, func(l jsonl.Line) {
				if !json.Valid(l.Bytes) {
					b.Fatal("invalid")
				}
			})
		})
	}
}

func BenchmarkValidate(b *testing.B) {
	for _, p := range []Protocol{Zero, EvoSci} {
		data := corpus(p, 1<<20)
		b.Run(p.String(), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Validate(bytes.NewReader(data), "c", ValidateOptions{}, func(jsonl.Diagnostic) { b.Fatal("diagnostic") }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSummarize(b *testing.B) {
	for _, p := range []Protocol{Zero, EvoSci} {
		data := corpus(p, 1<<20)
		b.Run(p.String(), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Summarize(bytes.NewReader(data), "c", Auto); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkView is zevo view of Zero's and EvoScientist's corpora and of
// each agent's real captures (repeated to about 256 KiB), every line read
// through the event model.
func BenchmarkView(b *testing.B) {
	type corp struct {
		name string
		data []byte
	}
	var cs []corp
	for _, p := range []Protocol{Zero, EvoSci} {
		cs = append(cs, corp{p.String(), corpus(p, 1<<20)})
	}
	for _, agent := range []string{"claude", "codex", "opencode", "cursor"} {
		cs = append(cs, corp{"captures-" + agent, captureCorpus(b, agent, 256<<10)})
	}
	for _, c := range cs {
		b.Run(c.name, func(b *testing.B) {
			v := NewViewer(io.Discard, ViewOptions{Color: true})
			benchLines(b, c.data, func(l jsonl.Line) {
				if err := v.Line(l); err != nil {
					b.Fatal(err)
				}
			})
			v.End()
		})
	}
}

// captureCorpus is an agent's real captures, one after the other, again
// until about size bytes.
func captureCorpus(b *testing.B, agent string, size int) []byte {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "captures", agent, "*.jsonl"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no captures of %s: %v", agent, err)
	}
	var out []byte
	for len(out) < size {
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, data...)
			if len(data) > 0 && data[len(data)-1] != '\n' {
				out = append(out, '\n')
			}
		}
	}
	return out
}
