package pricing

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "prices.json")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadFileErrorsNameTheFile(t *testing.T) {
	for _, c := range []struct{ name, content, want string }{
		{"syntax", "{\n  \"m\": {\"input_cost_per_token\": 1e-6,\n  oops\n}", ":3: not valid JSON"},
		{"truncated", "{\"m\": {", ":1: not valid JSON"},
		{"array", "[1, 2]", ": not a JSON object of model prices"},
		{"null", "null", ": not a JSON object of model prices"},
		{"entry not object", `{"m": 3}`, `: model "m": not a JSON object`},
		{"string cost", `{"m": {"input_cost_per_token": "0.000001", "output_cost_per_token": 1e-6}}`, `: model "m": input_cost_per_token is "0.000001", want a non-negative number`},
		{"negative cost", `{"m": {"input_cost_per_token": 1e-6, "output_cost_per_token": -1}}`, `: model "m": output_cost_per_token is -1`},
		{"bad cache cost", `{"m": {"input_cost_per_token": 1e-6, "output_cost_per_token": 1e-6, "cache_read_input_token_cost": true}}`, `cache_read_input_token_cost is true`},
		{"no prices", `{"sample_spec": {"input_cost_per_token": 0, "output_cost_per_token": 0}, "dall-e": {"input_cost_per_pixel": 1e-8}}`, ": no model has both input_cost_per_token and output_cost_per_token"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := writeFile(t, c.content)
			_, err := LoadFile(p)
			if err == nil || !strings.HasPrefix(err.Error(), p) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %s…%s", err, p, c.want)
			}
		})
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestCostToTheCent(t *testing.T) {
	p := writeFile(t, `{
  "sample_spec": {"input_cost_per_token": 0, "output_cost_per_token": 0, "litellm_provider": "one of …"},
  "acme-large": {"input_cost_per_token": 3e-06, "output_cost_per_token": 1.5e-05, "cache_read_input_token_cost": 3e-07, "litellm_provider": "acme"},
  "tts-1": {"input_cost_per_character": 1.5e-05}
}`)
	tab, err := LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != 1 || tab.Source != "pricing:"+p {
		t.Fatalf("table %d models, source %q", tab.Len(), tab.Source)
	}
	price, key, ok := tab.Lookup("acme/acme-large")
	if !ok || key != "acme-large" {
		t.Fatalf("lookup acme/acme-large: %v %q", ok, key)
	}
	// 1,234,567 × $3/M + 89,012 × $15/M = 3.703701 + 1.33518 = 5.038881
	got := price.Cost(big.NewInt(1234567), big.NewInt(89012))
	if want, _ := new(big.Rat).SetString("5.038881"); got.Cmp(want) != 0 {
		t.Fatalf("cost %s, want 5.038881", got.FloatString(9))
	}
	if price.CacheRead.FloatString(7) != "0.0000003" || price.CacheCreation != nil {
		t.Fatalf("cache prices %v %v", price.CacheRead, price.CacheCreation)
	}
	for _, m := range []string{"", "sample_spec", "tts-1", "acme-large-2", "acme-larg"} {
		if _, _, ok := tab.Lookup(m); ok {
			t.Errorf("%q priced", m)
		}
	}
}

func TestSnapshot(t *testing.T) {
	s := Snapshot()
	if s.Source != "snapshot:"+SnapshotDate || s.Len() < 10 {
		t.Fatalf("snapshot %q with %d models", s.Source, s.Len())
	}
	// Zero's default model and the API id Zero sends for claude-sonnet-4.5.
	for model, want := range map[string]string{
		"gpt-4.1":                    "0.010000", // 1000 in × $2/M + 1000 out × $8/M
		"claude-sonnet-4-5-20250929": "0.018000", // $3/M and $15/M
		"anthropic/claude-haiku-4-5": "0.006000", // $1/M and $5/M
	} {
		p, _, ok := s.Lookup(model)
		if !ok {
			t.Fatalf("%s not in the snapshot", model)
		}
		if got := p.Cost(big.NewInt(1000), big.NewInt(1000)).FloatString(6); got != want {
			t.Errorf("%s: %s, want %s", model, got, want)
		}
	}
	if _, _, ok := s.Lookup("gemini-2.5-pro"); ok {
		t.Error("gemini-2.5-pro has tiered prices and must not be in the snapshot")
	}
}

// FuzzParse: any bytes give a table or an error, never a crash, and a
// table prices every model it names at non-negative prices.
func FuzzParse(f *testing.F) {
	f.Add(snapshotJSON)
	f.Add([]byte(`{"m": {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6}}`))
	f.Add([]byte(`{"m": {"input_cost_per_token": 1e400, "output_cost_per_token": -0}}`))
	f.Add([]byte(`{"m": {"input_cost_per_token": "1", "output_cost_per_token": null}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := Parse("fuzz", data)
		if err != nil {
			return
		}
		for name, p := range tab.prices {
			if p.Input.Sign() < 0 || p.Output.Sign() < 0 {
				t.Fatalf("%s: negative price", name)
			}
			if _, _, ok := tab.Lookup(name); !ok && name != "" { // "" is no model: never looked up
				t.Fatalf("%s not found", name)
			}
		}
	})
}

// Cached prompt tokens cost the table's cache prices; without one, the
// input price, and CostCached says so.
func TestCostCachedUsesCachePricesElseInput(t *testing.T) {
	tab, err := Parse("t", []byte(`{
		"cached": {"input_cost_per_token": 4, "output_cost_per_token": 8, "cache_read_input_token_cost": 1, "cache_creation_input_token_cost": 5},
		"plain": {"input_cost_per_token": 4, "output_cost_per_token": 8}}`))
	if err != nil {
		t.Fatal(err)
	}
	n := func(i int64) *big.Int { return big.NewInt(i) }
	for _, c := range []struct {
		model   string
		read    *big.Int
		want    string
		atInput bool
	}{
		{"cached", n(100), "1*4 + 100*1 + 10*5 + 2*8", false},
		{"plain", n(100), "1*4 + 100*4 + 10*4 + 2*8", true},
		{"plain", nil, "1*4 + 10*4 + 2*8", true},
	} {
		p, _, ok := tab.Lookup(c.model)
		if !ok {
			t.Fatal(c.model)
		}
		got, atInput := p.CostCached(n(1), c.read, n(10), n(2))
		want := map[string]int64{"1*4 + 100*1 + 10*5 + 2*8": 170, "1*4 + 100*4 + 10*4 + 2*8": 460, "1*4 + 10*4 + 2*8": 60}[c.want]
		if got.Cmp(big.NewRat(want, 1)) != 0 || atInput != c.atInput {
			t.Errorf("%s: %s (at input price %v), want %s = %d (%v)", c.model, got.RatString(), atInput, c.want, want, c.atInput)
		}
	}
}
