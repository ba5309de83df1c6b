package inspect

import (
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/jsonl"
)

// independentSums recomputes, with encoding/json and nothing of the
// summarizer, what stats must report for a whole file.
func independentSums(t *testing.T, path string) (types map[string]int, in, out, total *big.Int, calls, failed map[string]int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	types, calls, failed = map[string]int{}, map[string]int{}, map[string]int{}
	in, out, total = new(big.Int), new(big.Int), new(big.Int)
	add := func(sum *big.Int, v any) {
		if n, ok := v.(json.Number); ok {
			x, ok := new(big.Int).SetString(n.String(), 10)
			if !ok {
				t.Fatalf("%s: %v is not an integer", path, v)
			}
			sum.Add(sum, x)
		}
	}
	names := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		d := json.NewDecoder(strings.NewReader(line))
		d.UseNumber()
		var ev map[string]any
		if d.Decode(&ev) != nil {
			continue
		}
		typ, _ := ev["type"].(string)
		types[typ]++
		switch typ {
		case "usage":
			add(in, ev["promptTokens"])
			add(out, ev["completionTokens"])
			add(total, ev["totalTokens"])
		case "usage_stats":
			add(in, ev["input_tokens"])
			add(out, ev["output_tokens"])
			add(total, ev["input_tokens"])
			add(total, ev["output_tokens"])
		case "tool_call":
			calls[ev["name"].(string)]++
			names[ev["id"].(string)] = ev["name"].(string)
		case "tool_result":
			name, _ := ev["name"].(string)
			if name == "" {
				name = names[ev["id"].(string)]
			}
			if ev["status"] == "error" || ev["success"] == false {
				failed[name]++
			}
		}
	}
	return
}

func TestStatsMatchIndependentSums(t *testing.T) {
	files, _ := filepath.Glob("../testdata/translate/*.jsonl")
	seeds, _ := filepath.Glob("../testdata/inspect/*.jsonl")
	for _, f := range append(files, seeds...) {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		st, err := Summarize(fh, f, Auto)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		types, in, out, total, calls, failed := independentSums(t, f)
		tot := st.Total
		if tot.Tokens.Input.Cmp(in) != 0 || tot.Tokens.Output.Cmp(out) != 0 || tot.Tokens.Total.Cmp(total) != 0 {
			t.Errorf("%s: tokens %v/%v/%v, want %v/%v/%v", f, tot.Tokens.Input, tot.Tokens.Output, tot.Tokens.Total, in, out, total)
		}
		if len(types) != len(tot.Types) {
			t.Errorf("%s: types %v, want %v", f, tot.Types, types)
		}
		events := 0
		for k, n := range types {
			events += n
			if tot.Types[k] != n {
				t.Errorf("%s: %d %s events, want %d", f, tot.Types[k], k, n)
			}
		}
		if tot.Events != events {
			t.Errorf("%s: %d events, want %d", f, tot.Events, events)
		}
		for name, n := range calls {
			if ts := tot.Tools[name]; ts == nil || ts.Calls != n || ts.Errors != failed[name] {
				t.Errorf("%s: tool %s: %+v, want %d calls, %d failed", f, name, ts, n, failed[name])
			}
		}
	}
}

func TestStatsRuns(t *testing.T) {
	fh, err := os.Open("../testdata/translate/basic.evosci.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	st, err := Summarize(fh, "basic.evosci.jsonl", Auto)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		status      string
		first, last int
		events      int
		requests    int
		errors      int
		final       int
		input       string
	}
	want := []row{
		{"done", 1, 12, 12, 0, 0, 41, "6327"},
		{"error", 13, 16, 4, 2, 1, -1, "0"},
		{"incomplete", 17, 18, 2, 0, 0, -1, "0"},
	}
	if st.Protocol != "evosci" || len(st.Runs) != len(want) {
		t.Fatalf("protocol %s, %d runs", st.Protocol, len(st.Runs))
	}
	for i, w := range want {
		r := st.Runs[i]
		got := row{r.Status, r.FirstLine, r.LastLine, r.Events, r.Permissions.Requests, r.Errors, r.FinalLength, r.Tokens.Input.String()}
		if got != w {
			t.Errorf("run %d: %+v, want %+v", i+1, got, w)
		}
	}
	if sa := st.Runs[0].Subagents; sa != 1 {
		t.Errorf("subagents %d", sa)
	}
}

func TestStatsZeroRuns(t *testing.T) {
	in := `{"code":"provider_error","message":"no key","recoverable":false,"runId":"r0","schemaVersion":2,"type":"error"}
{"exitCode":3,"runId":"r0","schemaVersion":2,"status":"error","type":"run_end"}
{"cwd":"/r","provider":"p","runId":"r1","schemaVersion":2,"type":"run_start"}
{"action":"allow","id":"c","name":"n","runId":"r1","schemaVersion":2,"type":"permission_decision"}
{"action":"cancel","id":"c","name":"n","runId":"r1","schemaVersion":2,"type":"permission_decision"}
{"action":"deny","id":"c","name":"n","runId":"r1","schemaVersion":2,"type":"permission_decision"}
{"costUsd":0.25,"completionTokens":2,"promptTokens":3,"runId":"r1","schemaVersion":2,"totalTokens":5,"type":"usage"}
{"runId":"r1","schemaVersion":2,"text":"héllo","type":"final"}
{"exitCode":130,"runId":"r1","schemaVersion":2,"status":"interrupted","type":"run_end"}
not json
{"delta":"x","runId":"r2","schemaVersion":2,"type":"text"}
`
	st := NewSummarizer("x", Auto)
	lr := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
	for i, l := range lr {
		st.Line(lineOf(i+1, l))
	}
	fs := st.End()
	if fs.Invalid != 1 || len(fs.Runs) != 3 {
		t.Fatalf("%d invalid, %d runs", fs.Invalid, len(fs.Runs))
	}
	r0, r1, r2 := fs.Runs[0], fs.Runs[1], fs.Runs[2]
	if r0.Status != "error" || *r0.ExitCode != 3 || r0.Errors != 1 || r0.ErrorEvents[0].Code != "provider_error" {
		t.Errorf("r0 %+v", r0)
	}
	p := r1.Permissions
	if r1.Status != "interrupted" || *r1.ExitCode != 130 || p.Allowed != 1 || p.Denied != 1 || p.Cancelled != 1 || r1.CostUSD != 0.25 || r1.FinalLength != 5 {
		t.Errorf("r1 %+v", r1)
	}
	if r2.Status != "incomplete" || r2.Cut != "the input ended inside the run" || r2.ID != "r2" || r2.FirstLine != 11 {
		t.Errorf("r2 %+v", r2)
	}
}

func TestStatsTableIsSafe(t *testing.T) {
	in := `{"type": "tool_call", "name": "x\u001b]0;t\u0007\ty", "args": {}, "id": "c"}
{"type": "error", "message": "bad\u001b[2J\nthing"}
`
	st := NewSummarizer("f\x1b[1m", Auto)
	for i, l := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
		st.Line(lineOf(i+1, l))
	}
	var b strings.Builder
	if err := WriteStatsTable(&b, []*FileStats{st.End()}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if strings.ContainsAny(got, "\x1b\x07") {
		t.Errorf("control characters in the table: %q", got)
	}
	for _, want := range []string{`f\x1b[1m · evosci · 2 lines · 1 run`, `tools: x\x1b]0;t\a\ty 1`, `error at line 2: bad\x1b[2J\nthing`} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}

func lineOf(n int, s string) jsonl.Line {
	return jsonl.Line{Name: "x", Num: n, Bytes: []byte(s)}
}
