package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStatsPricingErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "prices.json")
	if err := os.WriteFile(bad, []byte("{\n\"m\": {\"input_cost_per_token\": 1e-6,,}\n}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"stats", "--pricing", bad, sampleZero}, "zevo: --pricing: " + bad + ":2: not valid JSON"},
		{[]string{"stats", "--pricing", filepath.Join(dir, "none.json"), sampleZero}, "none.json: no such file"},
		{[]string{"stats", "--by", "colour", sampleZero}, `--by: unknown grouping "colour"`},
	} {
		code, out, errs := run(t, "", c.args...)
		if code != ExitUsage || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, out %q, err %q; want %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestStatsJSONCost checks the --json cost fields end to end: a price
// file's price to the cent, the producer's costUsd first, null and a named
// model for an unknown one.
func TestStatsJSONCost(t *testing.T) {
	dir := t.TempDir()
	prices := filepath.Join(dir, "prices.json")
	if err := os.WriteFile(prices, []byte(`{"acme-large": {"input_cost_per_token": 3e-06, "output_cost_per_token": 1.5e-05}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "runs.jsonl")
	if err := os.WriteFile(log, []byte(
		`{"schemaVersion":2,"type":"run_start","runId":"r1","model":"acme-large"}
{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":1234567,"completionTokens":89012,"totalTokens":1323579}
{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}
{"schemaVersion":2,"type":"run_start","runId":"r2","model":"acme-large"}
{"schemaVersion":2,"type":"usage","runId":"r2","promptTokens":10,"completionTokens":10,"totalTokens":20,"costUsd":0.42}
{"schemaVersion":2,"type":"run_end","runId":"r2","status":"success","exitCode":0}
{"schemaVersion":2,"type":"run_start","runId":"r3","model":"mystery-9"}
{"schemaVersion":2,"type":"usage","runId":"r3","promptTokens":10,"completionTokens":10,"totalTokens":20}
{"schemaVersion":2,"type":"run_end","runId":"r3","status":"success","exitCode":0}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "", "stats", "--json", "--pricing", prices, log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Files []struct {
			Runs []struct {
				ID         string
				Model      string
				Cost       *float64
				CostSource *string
			}
		}
		Total struct {
			Cost           *float64
			PricedCost     *float64
			UnpricedRuns   int
			UnpricedModels []string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	runs := rep.Files[0].Runs
	if r := runs[0]; r.Cost == nil || *r.Cost != 5.038881 || *r.CostSource != "pricing:"+prices {
		t.Errorf("r1: %+v", r)
	}
	if r := runs[1]; r.Cost == nil || *r.Cost != 0.42 || *r.CostSource != "costUsd" {
		t.Errorf("r2: %+v", r)
	}
	if r := runs[2]; r.Cost != nil || r.CostSource != nil || r.Model != "mystery-9" {
		t.Errorf("r3: %+v", r)
	}
	if tot := rep.Total; tot.Cost != nil || tot.PricedCost == nil || *tot.PricedCost != 5.458881 || tot.UnpricedRuns != 1 || len(tot.UnpricedModels) != 1 || tot.UnpricedModels[0] != "mystery-9" {
		t.Errorf("total %+v", tot)
	}
	if !strings.Contains(out, `"cost":null`) {
		t.Errorf("an unpriced run's cost must be null:\n%s", out)
	}
	_, table, _ := run(t, "", "stats", "--pricing", prices, log)
	for _, want := range []string{"5.0389", "0.4200", "unpriced", "5.4589 + 1 unpriced", "unpriced models: mystery-9"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	// Every table names the cost column where countCols puts it.
	for _, args := range [][]string{{"--totals"}, {"--by", "model"}, {"--by", "file"}} {
		_, table, _ := run(t, "", append(append([]string{"stats", "--pricing", prices}, args...), log)...)
		lines := strings.Split(table, "\n")
		head, row := lines[0], lines[1]
		if i := strings.Index(head, "COST USD"); i < 0 || !strings.HasPrefix(row[i:], "5.4589") {
			t.Errorf("%v: the cost is not under COST USD:\n%s", args, table)
		}
	}
}
