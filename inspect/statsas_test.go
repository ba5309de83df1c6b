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

	"github.com/zevo/zevo/jsonl"
)

// routedStats is zevo stats' own reading of data, as --as says; bad
// collects the bad lines as "LINE: PROBLEM".
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

// --as names a dialect: every line is read as that dialect's, none of
// another agent's; an input of that dialect alone reads as with auto.
func TestStatsAs(t *testing.T) {
	evo, err := os.ReadFile("../testdata/translate/basic.evosci.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := routedStats(t, evo, "e", "evoscientist")
	want, _ := eventStats(t, evo, "e")
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
