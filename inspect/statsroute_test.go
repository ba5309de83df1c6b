package inspect

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	evt "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// routedStats is zevo stats' own reading of data: StatsSummarizer, as
// --as says; bad collects the bad lines as "LINE: PROBLEM".
func routedStats(t testing.TB, data []byte, name, as string) (f *FileStats, bad []string) {
	t.Helper()
	a, err := ParseStatsAs(as)
	if err != nil {
		t.Fatal(err)
	}
	s := a.New(name)
	s.Invalid = func(n int, err error) { bad = append(bad, fmt.Sprintf("%d: %v", n, err)) }
	lr := jsonl.NewReader(bytes.NewReader(data), name, nil)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s.Line(l)
	}
	return s.End(), bad
}

// todayStats is Summarizer's reading of data, with its bad lines.
func todayStats(t testing.TB, data []byte, name string) (*FileStats, []string) {
	var bad []string
	s := NewSummarizer(name, nil)
	s.Invalid = func(n int, err error) { bad = append(bad, fmt.Sprintf("%d: %v", n, err)) }
	lr := jsonl.NewReader(bytes.NewReader(data), name, nil)
	for {
		l, err := lr.Next()
		if err != nil {
			break
		}
		s.Line(l)
	}
	return s.End(), bad
}

func eventStats(t testing.TB, data []byte, name string) (*FileStats, []string) {
	var bad []string
	f := summarizeEventsWith(t, data, name, func(n int, err error) { bad = append(bad, fmt.Sprintf("%d: %v", n, err)) })
	return f, bad
}

func sameStats(t *testing.T, what string, got, want *FileStats, gotBad, wantBad []string) {
	t.Helper()
	if g, w := statsJSON(t, got), statsJSON(t, want); !reflect.DeepEqual(g, w) {
		var d []string
		jsonDiff("", w, g, &d)
		t.Errorf("%s: %v", what, d)
	}
	if !reflect.DeepEqual(gotBad, wantBad) {
		t.Errorf("%s: bad lines %q, want %q", what, gotBad, wantBad)
	}
}

// Every Zero and EvoScientist stream of testdata is summarized as today,
// to the last field and bad line, whatever the event model makes of it.
func TestStatsReadsZeroAndEvoSciAsToday(t *testing.T) {
	for _, file := range statsStreams(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		got, gotBad := routedStats(t, data, file, "auto")
		want, wantBad := todayStats(t, data, file)
		sameStats(t, file, got, want, gotBad, wantBad)
	}
}

// Every capture of the other agents is summarized from its events, as
// before, blank and bad lines before its first JSON line included.
func TestStatsReadsOtherAgentsFromEvents(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "captures", "*", "*.jsonl"))
	if len(files) < 10 {
		t.Fatalf("only %d captures", len(files))
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		data = append([]byte("\nnot json\n\n"), data...)
		got, gotBad := routedStats(t, data, file, "auto")
		want, wantBad := eventStats(t, data, file)
		sameStats(t, file, got, want, gotBad, wantBad)
		if len(got.Runs) == 0 || got.Invalid != 1 || got.Lines != want.Lines {
			t.Errorf("%s: %d runs, %d bad of %d lines", file, len(got.Runs), got.Invalid, got.Lines)
		}
	}
}

// withLine is data with line inserted as its line n (1-based).
func withLine(data []byte, n int, line string) []byte {
	lines := bytes.SplitAfter(data, []byte("\n"))
	out := bytes.Join(lines[:n-1], nil)
	out = append(out, line+"\n"...)
	return append(out, bytes.Join(lines[n-1:], nil)...)
}

// A line of another agent in a Zero or EvoScientist input, and the
// converse, is a bad line: named, counted with the bad lines, in no run;
// the stats are those of the input with a line of junk in its place.
func TestStatsReportsAnotherAgentsLine(t *testing.T) {
	read := func(dir, file string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "testdata", dir, file))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	claude := string(bytes.SplitAfter(read("captures", "claude/agent-harness-thinking-bash.jsonl"), []byte("\n"))[1])
	codex := `{"type":"turn.started"}`
	zero := `{"schemaVersion":2,"type":"text","runId":"r","delta":"a"}`
	evosci := `{"type":"usage_stats","input_tokens":5,"output_tokens":7}`
	for _, c := range []struct {
		name, dir, file string
		at              int
		line            string
		today           bool
	}{
		{"claude in evosci", "translate", "basic.evosci.jsonl", 3, strings.TrimSpace(claude), true},
		{"codex in zero", "translate", "basic.zero.jsonl", 2, codex, true},
		{"zero in claude", "captures", "claude/agent-harness-thinking-bash.jsonl", 3, zero, false},
		{"evosci in codex", "captures", "codex/agent-harness-shell-command.jsonl", 4, evosci, false},
	} {
		data := read(c.dir, c.file)
		got, gotBad := routedStats(t, withLine(data, c.at, c.line), c.name, "auto")
		junk := withLine(data, c.at, "junk")
		want, wantBad := eventStats(t, junk, c.name)
		problem := "a line of a Zero/EvoScientist stream in another agent's input"
		if c.today {
			want, wantBad = todayStats(t, junk, c.name)
			problem = "a line of another agent's stream in a Zero/EvoScientist input"
		}
		if len(wantBad) != 1 {
			t.Fatalf("%s: junk gives %q", c.name, wantBad)
		}
		wantBad[0] = fmt.Sprintf("%d: %s", c.at, problem)
		sameStats(t, c.name, got, want, gotBad, wantBad)
	}
}

// A line both kinds of agent may write (a bare error: EvoScientist's and
// Codex's) is the input's own, whichever the input is.
func TestStatsKeepsALineBothAgentsWrite(t *testing.T) {
	bare := `{"type":"error","message":"boom"}`
	for _, c := range []struct {
		name, file string
		today      bool
	}{
		{"evosci", "../testdata/translate/basic.evosci.jsonl", true},
		{"codex", "../testdata/captures/codex/agent-harness-shell-command.jsonl", false},
	} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		data = withLine(data, 3, bare)
		got, gotBad := routedStats(t, data, c.name, "auto")
		want, wantBad := eventStats(t, data, c.name)
		if c.today {
			want, wantBad = todayStats(t, data, c.name)
		}
		sameStats(t, c.name, got, want, gotBad, wantBad)
		if got.Total.Errors != want.Total.Errors || got.Invalid != 0 {
			t.Errorf("%s: %d errors, %d bad lines", c.name, got.Total.Errors, got.Invalid)
		}
	}
}

// --as names a protocol of today's (read as today) or any other dialect
// (every line read as that dialect's, none of another agent's).
func TestStatsAs(t *testing.T) {
	evo, err := os.ReadFile("../testdata/translate/basic.evosci.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := routedStats(t, evo, "e", "evoscientist")
	want, _ := Summarize(bytes.NewReader(evo), "e", protocol.EvoSci)
	sameStats(t, "--as evoscientist", got, want, nil, nil)

	codex, err := os.ReadFile("../testdata/captures/codex/agent-harness-shell-command.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	codex = withLine(codex, 2, `{"type":"error","message":"boom"}`)
	got, bad := routedStats(t, codex, "c", "codex")
	if got.Protocol != "codex" || got.Total.Errors != 1 || len(bad) != 0 {
		t.Errorf("--as codex: %q, %d errors, bad %q; want every line Codex's", got.Protocol, got.Total.Errors, bad)
	}
	if _, err := ParseStatsAs("nosuch"); err == nil || !strings.Contains(err.Error(), "opencode") {
		t.Errorf("--as nosuch: %v; want the dialects named", err)
	}
}

// todayClaims, which reads today's decoding of a line, says of every line
// of testdata's streams and captures, and of lines made to sit on the
// edges, what Zero's and EvoScientist's dialects say (Detect).
func TestStatsTodayClaimsAsTheDialects(t *testing.T) {
	files := statsStreams(t)
	caps, _ := filepath.Glob(filepath.Join("..", "testdata", "captures", "*", "*.jsonl"))
	var lines [][]byte
	for _, f := range append(files, caps...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, bytes.Split(data, []byte("\n"))...)
	}
	for _, l := range []string{
		`{"type":"usage_stats"}`, `{"type":"nosuch"}`, `{"type":1}`, `{}`, `{"type":"text","schemaVersion":"x"}`,
		`{"schemaVersion":null}`, `{"type":"assistant","message":{}}`, `{"type":"thread.started","thread_id":"t"}`,
		`{"type":"tool_call","call_id":"c","subtype":"started"}`, `{"type":"te\u0078t"}`,
	} {
		lines = append(lines, []byte(l))
	}
	n := 0
	for _, l := range lines {
		var d decoded
		var dec protocol.Decoder
		decode(&dec, nil, jsonl.Line{Bytes: l, Num: 1}, &d)
		if d.blank || d.err != nil {
			continue
		}
		want := false
		for dl := range todays {
			want = want || dl.Detect(l) != evt.No
		}
		if got := todayClaims(&d); got != want {
			t.Errorf("todayClaims %v, the dialects say %v: %.200s", got, want, l)
		}
		n++
	}
	if n < 500 {
		t.Errorf("only %d lines", n)
	}
}
