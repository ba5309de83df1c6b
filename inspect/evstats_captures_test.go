package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	evt "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/pricing"
)

// captureStats summarizes a real capture (testdata/captures) and prices
// it as stats does, model being --model.
func captureStats(t *testing.T, file, model string) *FileStats {
	t.Helper()
	return statsOf(t, readCapture(t, file), file, model)
}

func readCapture(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "captures", file))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func statsOf(t *testing.T, data []byte, name, model string) *FileStats {
	t.Helper()
	f := summarizeEvents(t, data, name)
	Pricing{Tables: []*pricing.Table{pricing.Snapshot()}, Model: model}.Apply([]*FileStats{f})
	return f
}

func statuses(f *FileStats) string {
	var s []string
	for _, r := range f.Runs {
		s = append(s, r.Status)
	}
	return strings.Join(s, " ")
}

// tokenLine is a total's tokens: input output cacheRead cacheWrite
// reasoning total ("-" for the cache and reasoning when not stated).
func tokenLine(t Tokens) string {
	n := func(b *big.Int) string {
		if b == nil {
			return "-"
		}
		return b.String()
	}
	return strings.Join([]string{n(t.Input), n(t.Output), n(t.CacheRead), n(t.CacheWrite), n(t.Reasoning), n(t.Total)}, " ")
}

// The facts are the raw streams' own (testdata/captures/README.md): each
// run's status, the tokens with the cache apart (input excluding it), and
// the cost the stream states, to the last bit.
func TestEventStatsOfCaptures(t *testing.T) {
	for _, c := range []struct {
		file, model, status, tokens string
		cost                        float64 // -1: unpriced
	}{
		// result: input 18, output 259, cache read 48359, written 5101; total_cost_usd.
		{"claude/agent-harness-thinking-bash.jsonl", "", "success", "18 259 48359 5101 0 53737", 0.0163509},
		// Two results: modelUsage and total_cost_usd are the session's running totals.
		{"claude/nightgauge-subagent-two-results-2.1.223.jsonl", "", "success success", "56 1095 72701 13350 0 87202", 0.0335836},
		{"claude/yoke-partial-messages-2.1.104.jsonl", "", "success", "3 20 12449 6289 0 18761", 0.04604575},
		// The result's output (685), not the messages' snapshots (31).
		{"claude/yoke-thinking-three-bash-calls-2.1.104.jsonl", "", "success", "4 685 18637 19346 0 38672", 0.147376},
		// input_tokens 33075 counts the 16128 cached: 16947 are not.
		{"codex/agent-harness-shell-command.jsonl", "", "success", "16947 168 16128 0 0 33243", -1},
		// 58666 of which 39424 cached; 136 reasoning tokens, of the output.
		{"codex/adk-harness-warning-items-reasoning-tokens.jsonl", "", "success", "19242 234 39424 0 136 58900", -1},
		{"codex/nightgauge-two-commands-0.153.4.jsonl", "", "success", "10849 124 56704 0 0 67677", -1},
		{"codex/agent-harness-unknown-model-turn-failed.jsonl", "", "error", "0 0 - - - 0", 0},
		// Cursor states no usage.
		{"cursor/cursor-hack-thinking-deltas-shell.jsonl", "", "success", "0 0 - - - 0", 0},
		// part.cost 0.003126 and 0.003136.
		{"opencode/nightgauge-priced-steps-stub-model.jsonl", "", "success", "3089 14 0 0 0 3103", 0.003126 + 0.003136},
		// Steps 5640/44/10, 5809/78/7, 5916/22/30 (input/output/reasoning), cost 0.
		{"opencode/nightgauge-read-edit-local-model.jsonl", "", "success", "17365 191 0 0 47 17556", 0},
		{"opencode/nightgauge-bash-permission-rejected.jsonl", "", "blocked", "1533 3 0 0 0 1536", 0},
		{"opencode/nightgauge-provider-error-500.jsonl", "", "error", "0 0 - - - 0", 0},
		{"opencode/nightgauge-context-overflow-error.jsonl", "", "error", "0 0 - - - 0", 0},
	} {
		f := captureStats(t, c.file, c.model)
		if got := statuses(f); got != c.status {
			t.Errorf("%s: runs %q, want %q", c.file, got, c.status)
		}
		if got := tokenLine(f.Total.Tokens); got != c.tokens {
			t.Errorf("%s: tokens %s, want %s", c.file, got, c.tokens)
		}
		switch {
		case c.cost < 0:
			if f.Total.Cost != nil || f.Total.UnpricedRuns != len(f.Runs) || fmt.Sprint(f.Total.UnpricedModels) != "["+NoModel+"]" {
				t.Errorf("%s: cost %v, %d unpriced runs %v; want unpriced, its model named %s", c.file, f.Total.Cost, f.Total.UnpricedRuns, f.Total.UnpricedModels, NoModel)
			}
		case f.Total.Cost == nil || *f.Total.Cost != c.cost:
			t.Errorf("%s: cost %v, want %v exactly", c.file, f.Total.Cost, c.cost)
		}
	}
}

// Codex names no model: with --model its tokens are priced, cache reads
// at the table's cache price.
func TestEventStatsPricesCodexWithModel(t *testing.T) {
	f := captureStats(t, "codex/agent-harness-shell-command.jsonl", "gpt-5")
	// gpt-5 in the snapshot: input 1.25e-06, cache read 1.25e-07, output 1e-05.
	want := new(big.Rat)
	for _, x := range []struct {
		n     int64
		price string
	}{{16947, "1.25e-6"}, {16128, "1.25e-7"}, {168, "1e-5"}} {
		p, _ := new(big.Rat).SetString(x.price)
		want.Add(want, p.Mul(p, big.NewRat(x.n, 1)))
	}
	w, _ := want.Float64()
	r := f.Runs[0]
	if r.Cost == nil || *r.Cost != w || r.CostSource != "snapshot:"+pricing.SnapshotDate || r.PricedAs != "gpt-5" || r.CacheAtInputPrice {
		t.Errorf("cost %v from %q as %q (cache at input price %v), want %v from the snapshot as gpt-5", r.Cost, r.CostSource, r.PricedAs, r.CacheAtInputPrice, w)
	}
}

// A table without cache prices charges cached tokens at the input price,
// and says so.
func TestEventStatsCacheAtInputPrice(t *testing.T) {
	tab, err := pricing.Parse("pricing:t", []byte(`{"m": {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6}}`))
	if err != nil {
		t.Fatal(err)
	}
	f := summarizeEvents(t, readCapture(t, "codex/agent-harness-shell-command.jsonl"), "c")
	Pricing{Tables: []*pricing.Table{tab}, Model: "m"}.Apply([]*FileStats{f})
	r := f.Runs[0]
	w := (16947+16128)*1e-6 + 168*2e-6
	if r.Cost == nil || fmt.Sprintf("%.10f", *r.Cost) != fmt.Sprintf("%.10f", w) || !r.CacheAtInputPrice {
		t.Errorf("cost %v (cache at input price %v), want %v and true", r.Cost, r.CacheAtInputPrice, w)
	}
}

// A Claude run killed before its result: the run is incomplete, and its
// tokens are the messages' (each message once), with no stated cost.
func TestEventStatsClaudeCutRun(t *testing.T) {
	data := readCapture(t, "claude/agent-harness-thinking-bash.jsonl")
	lines := bytes.SplitAfter(data, []byte("\n"))
	var cut []byte
	for _, l := range lines {
		if bytes.Contains(l, []byte(`"type":"result"`)) {
			break
		}
		cut = append(cut, l...)
	}
	f := statsOf(t, cut, "cut", "")
	if got := statuses(f); got != "incomplete" || f.Runs[0].Cut == "" {
		t.Fatalf("runs %q (cut %q), want one incomplete, cut", got, f.Runs[0].Cut)
	}
	r := f.Runs[0]
	if r.CostSource == "costUsd" || r.Tokens.Input.Sign() == 0 {
		t.Errorf("cost source %q, input %s: want the messages' tokens priced from the table", r.CostSource, r.Tokens.Input)
	}
	// Every assistant line repeated: the same message ids, counted once.
	var twice []byte
	for _, l := range bytes.SplitAfter(cut, []byte("\n")) {
		twice = append(twice, l...)
		if bytes.Contains(l, []byte(`"type":"assistant"`)) {
			twice = append(twice, l...)
		}
	}
	g := statsOf(t, twice, "twice", "")
	if a, b := tokenLine(r.Tokens), tokenLine(g.Runs[0].Tokens); a != b {
		t.Errorf("assistant lines repeated: tokens %s, want %s (each message once)", b, a)
	}
}

// Huge outputs and lines that are not JSON objects: the run is still
// counted, the bad lines are named and counted apart.
func TestEventStatsHugeOutputAndGarbage(t *testing.T) {
	data := readCapture(t, "opencode/nightgauge-priced-steps-stub-model.jsonl")
	huge := `{"type":"text","timestamp":1,"sessionID":"x","part":{"type":"text","text":"` + strings.Repeat("a", 8<<20) + `"}}` + "\n"
	in := append([]byte("not json\n"+huge), data...)
	in = append(in, "{\"cut\n"...)
	var bad []string
	f := summarizeEventsWith(t, in, "g", func(n int, err error) { bad = append(bad, fmt.Sprintf("%d: %v", n, err)) })
	if f.Invalid != 2 || len(bad) != 2 || !strings.HasPrefix(bad[0], "1: ") || !strings.HasPrefix(bad[1], fmt.Sprint(f.Lines)+": ") {
		t.Errorf("invalid %d: %q; want lines 1 and the last", f.Invalid, bad)
	}
	if f.Total.Events != f.Lines-2 {
		t.Errorf("%d events of %d lines, 2 bad: a line lost", f.Total.Events, f.Lines)
	}
}

// asideDialect: "note" lines are asides (no run's), "end" ends a run,
// anything else is text of a run.
type asideDecoder struct{}

func (asideDecoder) Decode(dst []evt.Event, line []byte, num int) ([]evt.Event, error) {
	ev := evt.Event{Dialect: "aside", Line: num, Raw: line, Kind: evt.Text, Type: gjsonType(line)}
	switch ev.Type {
	case "note":
		ev.Kind, ev.Aside = evt.Other, true
	case "end":
		ev.Kind, ev.Status = evt.RunEnd, evt.StatusSuccess
	}
	return append(dst, ev), nil
}

func (asideDecoder) End(dst []evt.Event) []evt.Event { return dst }

func gjsonType(line []byte) string {
	var v struct{ Type string }
	_ = json.Unmarshal(line, &v)
	return v.Type
}

// A line whose events belong to no run (an aside before the first run)
// is counted in the file's total and outsideRuns, in no run: no line is
// lost.
func TestEventStatsCountsLinesOutsideRuns(t *testing.T) {
	d := &evt.Dialect{Name: "aside", DetectLine: func(*evt.Line) evt.Certainty { return evt.Sure },
		NewDecoder: func(evt.DecodeOptions) evt.Decoder { return asideDecoder{} }}
	s := NewEventSummarizer("a", evt.NewInput([]*evt.Dialect{d}, d, evt.DecodeOptions{}))
	for i, l := range []string{`{"type":"note"}`, `{"type":"text"}`, `{"type":"end"}`, `{"type":"note"}`} {
		s.Line(jsonl.Line{Bytes: []byte(l), Num: i + 1})
	}
	f := s.End()
	if f.Outside != 1 || f.Total.Events != 4 || len(f.Runs) != 1 || f.Runs[0].Events != 3 || f.Total.Types["note"] != 2 {
		t.Errorf("outside %d, total %d events (%v), runs %d; want 1 outside, 4 events, one run of 3 (the late note its own)", f.Outside, f.Total.Events, f.Total.Types, len(f.Runs))
	}
}

// A line that yields no event (Codex's repeated turn.completed) is still
// counted: in the open run, else outside every run.
func TestEventStatsCountsLinesWithoutEvents(t *testing.T) {
	data := readCapture(t, "codex/agent-harness-shell-command.jsonl")
	var in []byte
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		in = append(in, l...)
		if bytes.Contains(l, []byte(`"turn.completed"`)) {
			in = append(in, l...)
		}
	}
	f := statsOf(t, in, "twice", "")
	if f.Total.Events != f.Lines || f.Total.Types["turn.completed"] != 2 || f.Outside != 1 {
		t.Errorf("%d events of %d lines, turn.completed %d, outside runs %d; want every line, 2, 1", f.Total.Events, f.Lines, f.Total.Types["turn.completed"], f.Outside)
	}
	if tk := tokenLine(f.Total.Tokens); tk != "16947 168 16128 0 0 33243" {
		t.Errorf("tokens %s: the repeated line counted twice", tk)
	}
}

// Every capture cut after each of its lines: no line lost, and a run
// whose end was cut off is incomplete (or failed), never a success.
func TestEventStatsOfCutCaptures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "captures", "*", "*.jsonl"))
	if len(files) < 10 {
		t.Fatalf("%d captures", len(files))
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
		full := statsOf(t, data, file, "")
		for k := 1; k < len(lines); k++ {
			f := statsOf(t, bytes.Join(lines[:k], nil), file, "")
			if f.Total.Events != k {
				t.Errorf("%s cut after line %d: %d events", file, k, f.Total.Events)
			}
			last := f.Runs[len(f.Runs)-1]
			var whole *Run
			for _, r := range full.Runs {
				if r.FirstLine == last.FirstLine {
					whole = r
				}
			}
			// (or error: OpenCode's reader ends a run cut after its error
			// line as failed, which the stream said.)
			if whole != nil && whole.LastLine > k && last.Status != "incomplete" && last.Status != "error" {
				t.Errorf("%s cut after line %d: run at line %d is %s, want incomplete", file, k, last.FirstLine, last.Status)
			}
		}
	}
}
