package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// writeLog writes lines to a file in a temporary folder and returns its path.
func writeTempLog(t *testing.T, name, lines string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// docs/cost.md: unpricedRuns and unpricedModels are on every run and every
// total, also when nothing is unpriced, so a script need not guess.
func TestStatsJSONAlwaysHasUnpricedFields(t *testing.T) {
	log := writeTempLog(t, "priced.jsonl", `{"schemaVersion":2,"type":"run_start","runId":"r1","model":"m"}
{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":10,"completionTokens":10,"totalTokens":20,"costUsd":0.42}
{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}
`)
	code, out, errs := run(t, "", "stats", "--json", log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Files []struct {
			Runs  []map[string]json.RawMessage
			Total map[string]json.RawMessage
		}
		Total map[string]json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	levels := map[string]map[string]json.RawMessage{"run": rep.Files[0].Runs[0], "file total": rep.Files[0].Total, "total": rep.Total}
	for level, obj := range levels {
		if got := string(obj["unpricedRuns"]); got != "0" {
			t.Errorf("%s: unpricedRuns = %q, want 0", level, got)
		}
		if got := string(obj["unpricedModels"]); got != "[]" {
			t.Errorf("%s: unpricedModels = %q, want []", level, got)
		}
	}
}

// A token count below zero is not a count (the schemas say minimum 0):
// stats leaves it out, as it leaves out counts that are not integers, and
// no run or total costs less than nothing.
func TestStatsNegativeTokensCostNothingNegative(t *testing.T) {
	log := writeTempLog(t, "negative.jsonl", `{"schemaVersion":2,"type":"run_start","runId":"r1","model":"gpt-4.1"}
{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":-1000000,"completionTokens":-5,"totalTokens":-1000005}
{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":100,"completionTokens":10,"totalTokens":110}
{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}
{"type":"usage_stats","input_tokens":-7,"output_tokens":3}
{"type":"done"}
`)
	code, out, errs := run(t, "", "stats", "--json", "--model", "gpt-4.1", log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Files []struct {
			Runs []struct {
				Tokens struct{ Input, Output, Total int64 }
				Cost   *float64
			}
		}
		Total struct {
			Tokens struct{ Input, Output, Total int64 }
			Cost   *float64
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	r := rep.Files[0].Runs
	if len(r) != 2 {
		t.Fatalf("%d runs, want 2: %s", len(r), out)
	}
	if r[0].Tokens.Input != 100 || r[0].Tokens.Output != 10 || r[0].Tokens.Total != 110 {
		t.Errorf("run 1 tokens %+v, want the valid usage only", r[0].Tokens)
	}
	if r[1].Tokens.Input != 0 || r[1].Tokens.Output != 3 || r[1].Tokens.Total != 3 {
		t.Errorf("run 2 tokens %+v, want the valid count only", r[1].Tokens)
	}
	for i, run := range r {
		if run.Cost == nil || *run.Cost < 0 {
			t.Errorf("run %d cost %v", i+1, run.Cost)
		}
	}
	if c := rep.Total.Cost; c == nil || *c < 0 {
		t.Errorf("total cost %v", c)
	}
}

// A number in a diagnostic is written as it is in JSON, never as a fraction.
func TestValidateWritesNumbersAsDecimals(t *testing.T) {
	log := writeTempLog(t, "cost.jsonl", `{"schemaVersion":2,"type":"run_start","runId":"r1","model":"m"}
{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":1,"completionTokens":1,"totalTokens":2,"costUsd":-0.001}
{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":1,"completionTokens":1,"totalTokens":2,"costUsd":-2.5e-7}
{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":-3,"completionTokens":1,"totalTokens":2}
{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}
`)
	code, out, _ := run(t, "", "validate", log)
	if code != ExitDiagnostics {
		t.Fatalf("exit %d: %s", code, out)
	}
	for _, want := range []string{
		"usage.costUsd: -0.001 is less than the minimum 0",
		"usage.costUsd: -0.00000025 is less than the minimum 0",
		"usage.promptTokens: -3 is less than the minimum 0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if fraction := regexp.MustCompile(`-?\d+/\d+ is`); fraction.MatchString(out) {
		t.Errorf("a fraction in\n%s", out)
	}
}
