package inspect

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/zevo/zevo/pricing"
)

func zeroRun(id, model, apiModel string, usage ...string) string {
	var b strings.Builder
	b.WriteString(`{"schemaVersion":2,"type":"run_start","runId":"` + id + `","model":"` + model + `","apiModel":"` + apiModel + `"}` + "\n")
	for _, u := range usage {
		b.WriteString(`{"schemaVersion":2,"type":"usage","runId":"` + id + `",` + u + "}\n")
	}
	b.WriteString(`{"schemaVersion":2,"type":"run_end","runId":"` + id + `","status":"success","exitCode":0}` + "\n")
	return b.String()
}

func priced(t *testing.T, p Pricing, input string) *FileStats {
	t.Helper()
	fs, err := Summarize(strings.NewReader(input), "x.jsonl", Auto)
	if err != nil {
		t.Fatal(err)
	}
	p.Apply([]*FileStats{fs})
	return fs
}

func TestCost(t *testing.T) {
	table, err := pricing.Parse("pricing:p.json", []byte(`{
		"acme-large": {"input_cost_per_token": 3e-06, "output_cost_per_token": 1.5e-05},
		"gpt-4.1": {"input_cost_per_token": 1e-06, "output_cost_per_token": 1e-06},
		"acme/chat-v2": {"input_cost_per_token": 5e-07, "output_cost_per_token": 1e-06}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	p := Pricing{Tables: []*pricing.Table{table, pricing.Snapshot()}}
	input := zeroRun("a", "acme-large", "", `"promptTokens":1000000,"completionTokens":200000,"totalTokens":1200000`, `"promptTokens":234567,"completionTokens":1,"totalTokens":234568`) +
		zeroRun("b", "mystery-1", "", `"promptTokens":10,"completionTokens":10,"totalTokens":20`) +
		zeroRun("c", "gpt-4.1", "", `"promptTokens":999,"completionTokens":999,"totalTokens":1998,"costUsd":1.25`) +
		zeroRun("d", "claude-sonnet-4.5", "claude-sonnet-4-5-20250929", `"promptTokens":1000,"completionTokens":1000,"totalTokens":2000`) +
		zeroRun("e", "gpt-4o", "", `"promptTokens":1000,"completionTokens":0,"totalTokens":1000,"costUsd":0.5`, `"promptTokens":1000,"completionTokens":1000,"totalTokens":2000`) +
		zeroRun("f", "", "") +
		zeroRun("h", "gpt-4.1", "", `"promptTokens":1000000,"completionTokens":0,"totalTokens":1000000,"costUsd":1e400`, `"promptTokens":0,"completionTokens":0,"totalTokens":0,"costUsd":-1`) +
		`{"schemaVersion":2,"type":"run_start","runId":"g","model":"chat-v2","provider":"acme"}
{"schemaVersion":2,"type":"usage","runId":"g","promptTokens":1000000,"completionTokens":0,"totalTokens":1000000}
{"schemaVersion":2,"type":"run_end","runId":"g","status":"success","exitCode":0}
`
	fs := priced(t, p, input)
	want := []struct {
		cost             string // "null" when unpriced
		source, pricedAs string
	}{
		// 1,234,567 × $3/M + 200,001 × $15/M = 3.703701 + 3.000015
		{"6.703716", "pricing:p.json", "acme-large"},
		{"null", "", ""},
		{"1.25", "costUsd", ""}, // preferred over the pricing file
		{"0.018", "snapshot:" + pricing.SnapshotDate, "claude-sonnet-4-5-20250929"},
		{"0.5125", "costUsd+snapshot:" + pricing.SnapshotDate, "gpt-4o"}, // 0.5 + 1000 × $2.5/M + 1000 × $10/M
		{"0", "no tokens", ""},
		{"1", "pricing:p.json", "gpt-4.1"},        // costUsd 1e400 and -1 are not costs: priced from the table
		{"0.5", "pricing:p.json", "acme/chat-v2"}, // by provider/model
	}
	for i, w := range want {
		r := fs.Runs[i]
		got := "null"
		if r.Cost != nil {
			got = strconv.FormatFloat(*r.Cost, 'f', -1, 64)
		}
		if got != w.cost || r.CostSource != w.source || r.PricedAs != w.pricedAs {
			t.Errorf("run %s: cost %s from %q as %q, want %s from %q as %q", r.ID, got, r.CostSource, r.PricedAs, w.cost, w.source, w.pricedAs)
		}
	}
	tot := fs.Total
	// One run is unpriced: the total has no cost, only the priced runs' sum.
	if tot.Cost != nil || tot.PricedCost == nil || formatUSD(*tot.PricedCost) != "9.9842" || tot.UnpricedRuns != 1 || !slices.Equal(tot.UnpricedModels, []string{"mystery-1"}) {
		t.Errorf("total %+v", tot.RunCost)
	}
	if r := fs.Runs[1]; r.UnpricedRuns != 1 || r.Model != "mystery-1" {
		t.Errorf("unpriced run %+v", r.RunCost)
	}
}

func TestCostEvoSciModel(t *testing.T) {
	input := `{"type": "usage_stats", "input_tokens": 1000, "output_tokens": 1000}` + "\n" + `{"type": "done", "content": "", "response": ""}` + "\n"
	fs := priced(t, Pricing{Tables: []*pricing.Table{pricing.Snapshot()}}, input)
	if r := fs.Runs[0]; r.Cost != nil || !slices.Equal(fs.Total.UnpricedModels, []string{NoModel}) {
		t.Errorf("EvoScientist run without --model: %+v / %+v", r.RunCost, fs.Total.RunCost)
	}
	fs = priced(t, Pricing{Tables: []*pricing.Table{pricing.Snapshot()}, Model: "gpt-4.1"}, input)
	if r := fs.Runs[0]; r.Cost == nil || formatUSD(*r.Cost) != "0.0100" || r.Model != "gpt-4.1" {
		t.Errorf("EvoScientist run with --model gpt-4.1: %+v", r.RunCost)
	}
	if tot := fs.Total; tot.Cost == nil || *tot.Cost != *fs.Runs[0].Cost || *tot.PricedCost != *tot.Cost || tot.UnpricedRuns != 0 {
		t.Errorf("every run priced: total %+v", tot.RunCost)
	}
	fs = priced(t, Pricing{Tables: []*pricing.Table{pricing.Snapshot()}, Model: "no-such-model"}, input)
	if r := fs.Runs[0]; r.Cost != nil || !slices.Equal(fs.Total.UnpricedModels, []string{"no-such-model"}) {
		t.Errorf("unknown --model: %+v", fs.Total.RunCost)
	}
}

func TestGroupRuns(t *testing.T) {
	input := zeroRun("a", "gpt-4.1", "", `"promptTokens":1000,"completionTokens":1000,"totalTokens":2000`) +
		zeroRun("b", "gpt-4.1", "", `"promptTokens":1000,"completionTokens":1000,"totalTokens":2000`) +
		zeroRun("c", "mystery-1", "", `"promptTokens":1,"completionTokens":1,"totalTokens":2`)
	fs := priced(t, Pricing{Tables: []*pricing.Table{pricing.Snapshot()}}, input)
	groups, err := GroupRuns([]*FileStats{fs}, ByModel)
	if err != nil || len(groups) != 2 {
		t.Fatalf("%v %+v", err, groups)
	}
	if g := groups[0]; g.Key != "gpt-4.1" || g.Runs != 2 || g.Tokens.Total.Int64() != 4000 || formatUSD(*g.Cost) != "0.0200" {
		t.Errorf("gpt-4.1 group %+v", g)
	}
	if g := groups[1]; g.Key != "mystery-1" || g.Cost != nil || g.PricedCost != nil || g.UnpricedRuns != 1 {
		t.Errorf("mystery-1 group %+v", g)
	}
	var b strings.Builder
	if err := WriteGroupTable(&b, ByModel, groups); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mystery-1  1     3       1          1     2      unpriced", "total      3", "0.0200 + 1 unpriced", "unpriced models: mystery-1"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	other := priced(t, Pricing{Tables: []*pricing.Table{pricing.Snapshot()}}, `{"type": "tool_call", "name": "ls", "args": {}, "id": "1"}
{"type": "tool_result", "name": "ls", "content": "", "success": false, "id": "1"}
{"type": "tool_call", "name": "ls", "args": {}, "id": "2"}
`)
	other.File = "y.jsonl"
	files := []*FileStats{fs, other}
	byFile, _ := GroupRuns(files, ByFile)
	if len(byFile) != 2 || byFile[0].Key != "x.jsonl" || byFile[0].Runs != 3 || byFile[0].Tokens.Total.Int64() != 4002 || byFile[1].Key != "y.jsonl" || byFile[1].Runs != 1 {
		t.Errorf("by file: %+v", byFile)
	}
	byTool, _ := GroupRuns(files, ByTool)
	if len(byTool) != 1 || byTool[0].Key != "ls" || byTool[0].Runs != 1 || *byTool[0].Tool != (ToolStat{Calls: 2, Results: 1, Errors: 1}) || byTool[0].Counts != nil {
		t.Errorf("by tool: %+v", byTool)
	}
	if _, err := GroupRuns(nil, "colour"); err == nil {
		t.Error("unknown grouping accepted")
	}
}

// TestCostPastFloat: a cost too large for a float64 (JSON has no +Inf) is
// reported unpriced rather than break --json.
func TestCostPastFloat(t *testing.T) {
	huge := "1" + strings.Repeat("0", 400)
	fs := priced(t, Pricing{Tables: []*pricing.Table{pricing.Snapshot()}}, zeroRun("a", "gpt-4.1", "", `"promptTokens":`+huge+`,"completionTokens":0,"totalTokens":`+huge))
	if r := fs.Runs[0]; r.Cost != nil || r.UnpricedRuns != 1 {
		t.Errorf("%+v", r.RunCost)
	}
	if _, err := json.Marshal(fs); err != nil {
		t.Error(err)
	}
	big := 1e308
	c := RunCost{PricedCost: &big}
	c.addCost(&c)
	if *c.PricedCost != math.MaxFloat64 {
		t.Errorf("sum %v", *c.PricedCost)
	}
}
