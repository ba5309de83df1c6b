package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// statsJSONOf runs stats --json and decodes what a script reads of it.
type statsJSONRun struct {
	Status     string
	Cost       *float64
	CostSource string
	Tokens     struct{ Input, Output, CacheRead, CacheWrite, Total json.Number }
}

type statsJSONReport struct {
	Files []struct {
		Invalid int `json:"invalidLines"`
		Runs    []statsJSONRun
	}
	Total struct {
		Cost           *float64
		UnpricedModels []string
	}
}

func statsJSONOf(t *testing.T, args ...string) (int, statsJSONReport, string) {
	t.Helper()
	code, out, errs := run(t, "", append([]string{"stats", "--json"}, args...)...)
	var rep statsJSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stats --json %v: %v\n%s%s", args, err, out, errs)
	}
	return code, rep, errs
}

// A real Claude Code log with garbage lines inserted: each is named
// FILE:LINE on stderr and counted apart, the run and the stream's own
// cost are as without them.
func TestStatsClaudeLogWithGarbageLines(t *testing.T) {
	src := "../testdata/captures/claude/agent-harness-thinking-bash.jsonl"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	bad := append([]string{"\x00\x01 binary\n"}, lines[:3]...)
	bad = append(bad, "{\"type\":\"assistant\",\n")
	bad = append(bad, lines[3:]...)
	file := filepath.Join(t.TempDir(), "claude.jsonl")
	if err := os.WriteFile(file, []byte(strings.Join(bad, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	code, rep, errs := statsJSONOf(t, file)
	if code != ExitDiagnostics {
		t.Errorf("exit %d, want %d", code, ExitDiagnostics)
	}
	for _, want := range []string{file + ":1: ", file + ":5: "} {
		if !strings.Contains("\n"+errs, "\n"+want) {
			t.Errorf("stderr does not name %s:\n%s", want, errs)
		}
	}
	f := rep.Files[0]
	if f.Invalid != 2 || len(f.Runs) != 1 || f.Runs[0].Status != "success" || f.Runs[0].Cost == nil || *f.Runs[0].Cost != 0.0163509 || f.Runs[0].CostSource != "costUsd" {
		t.Errorf("invalid %d, runs %+v; want 2, one success costing 0.0163509 (total_cost_usd)", f.Invalid, f.Runs)
	}
	if tk := f.Runs[0].Tokens; tk.Input != "18" || tk.Output != "259" || tk.CacheRead != "48359" || tk.CacheWrite != "5101" {
		t.Errorf("tokens %+v, want the result's 18/259, cache 48359/5101", tk)
	}
}

// Codex names no model: unpriced without --model (never $0), priced with
// it; --as reads every line as the dialect named.
func TestStatsCodexNeedsModel(t *testing.T) {
	src := "../testdata/captures/codex/nightgauge-two-commands-0.153.4.jsonl"
	_, rep, _ := statsJSONOf(t, src)
	if rep.Total.Cost != nil || len(rep.Total.UnpricedModels) != 1 || rep.Files[0].Runs[0].Cost != nil {
		t.Errorf("without --model: cost %v, unpriced %v; want null and (no model)", rep.Total.Cost, rep.Total.UnpricedModels)
	}
	_, rep, _ = statsJSONOf(t, "--model", "gpt-5-mini", "--as", "codex", src)
	if r := rep.Files[0].Runs[0]; r.Cost == nil || *r.Cost <= 0 || r.CostSource == "costUsd" || r.Tokens.CacheRead != "56704" {
		t.Errorf("with --model: %+v; want priced from the table, 56704 cache reads", r)
	}
	if code, _, errs := run(t, "", "stats", "--as", "nosuch", src); code != ExitUsage || !strings.Contains(errs, "codex") {
		t.Errorf("--as nosuch: exit %d, %q; want a usage error naming the dialects", code, errs)
	}
}

// A line of another agent in an input is read as that agent's, as a Zero
// line in an EvoScientist input always was: it cuts the open run there
// and forms a run of its own, which the next line of the input's agent
// cuts in turn; it is no bad line (nothing on stderr, exit 0).
func TestStatsCutsARunAtAnotherAgentsLine(t *testing.T) {
	read := func(f string) string {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	claude := read("../testdata/captures/claude/agent-harness-thinking-bash.jsonl")
	evosci := read("../testdata/translate/basic.evosci.jsonl")
	dir := t.TempDir()
	write := func(name, s string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return f
	}
	first, rest, _ := strings.Cut(evosci, "\n")
	mixed := write("evosci.jsonl", first+"\n"+strings.SplitAfter(claude, "\n")[0]+rest)
	first, rest, _ = strings.Cut(claude, "\n")
	converse := write("claude.jsonl", first+"\n"+`{"schemaVersion":2,"type":"text","runId":"r","delta":"a"}`+"\n"+rest)
	code, rep, errs := statsJSONOf(t, mixed, converse)
	if code != 0 || errs != "" {
		t.Errorf("exit %d, stderr %q; want 0 and nothing", code, errs)
	}
	statuses := func(i int) string {
		var s []string
		for _, r := range rep.Files[i].Runs {
			s = append(s, r.Status)
		}
		return strings.Join(s, " ")
	}
	for i, want := range []string{"incomplete incomplete done error incomplete", "incomplete incomplete success"} {
		if got := statuses(i); got != want || rep.Files[i].Invalid != 0 {
			t.Errorf("input %d: runs %s, %d bad lines; want %s, none", i+1, got, rep.Files[i].Invalid, want)
		}
	}
}
