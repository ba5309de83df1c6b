package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// gojqCase is a case of gojq's CLI spec (testdata/gojq, see its README).
type gojqCase struct {
	Name     string   `yaml:"name"`
	Args     []string `yaml:"args"`
	Input    string   `yaml:"input"`
	Env      []string `yaml:"env"`
	Expected string   `yaml:"expected"`
	Error    string   `yaml:"error"`
	ExitCode int      `yaml:"exit_code"`
}

// yamlOnly tells the cases about gojq's YAML support, which jq lacks.
func (c *gojqCase) yamlOnly() bool {
	if strings.Contains(strings.ToLower(c.Name), "yaml") {
		return true
	}
	for _, a := range c.Args {
		if strings.Contains(a, "yaml") {
			return true
		}
	}
	return false
}

// gojqMinPass is the share of gojq's CLI cases zevo jq must pass.
const gojqMinPass = 0.95

// TestGojqSpec runs gojq's CLI spec through zevo jq as a jq user would
// see it: the same output, or the same JSON values (zevo writes compact
// lines into a pipe where gojq pretty-prints, and keeps number spellings),
// and success where gojq succeeds, failure where it fails. Error messages
// are not compared: they are worded differently. -v lists the failures.
func TestGojqSpec(t *testing.T) {
	data, err := os.ReadFile("testdata/gojq/test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []gojqCase
	if err := yaml.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	t.Chdir("testdata/gojq")
	// The spec's times are in UTC-7, as gojq's own run of it sets.
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.FixedZone("UTC-7", -7*60*60)
	t.Setenv("NO_COLOR", "")
	t.Setenv("JQ_COLORS", "")
	run, pass := 0, 0
	for _, c := range cases {
		if c.yamlOnly() {
			continue
		}
		run++
		if why := runGojqCase(t, c); why != "" {
			t.Logf("FAIL %s: zevo jq %q: %s", c.Name, c.Args, why)
			continue
		}
		pass++
	}
	rate := float64(pass) / float64(run)
	t.Logf("gojq CLI spec: %d of %d cases pass (%.1f%%)", pass, run, 100*rate)
	if run < 800 || rate < gojqMinPass {
		t.Errorf("gojq CLI spec: %d of %d cases pass (%.1f%%), want at least %.0f%%", pass, run, 100*rate, 100*gojqMinPass)
	}
}

// runGojqCase runs one case and says why it fails ("" when it passes).
func runGojqCase(t *testing.T, c gojqCase) string {
	for _, kv := range c.Env {
		k, v, _ := strings.Cut(kv, "=")
		if k == "GOJQ_COLORS" {
			k = "JQ_COLORS"
		}
		old, had := os.LookupEnv(k)
		os.Setenv(k, v)
		if had {
			defer os.Setenv(k, old)
		} else {
			defer os.Unsetenv(k)
		}
	}
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- -1
			}
		}()
		done <- Run(append([]string{"zevo", "jq"}, c.Args...), strings.NewReader(c.Input), &stdout, &stderr)
	}()
	var code int
	select {
	case code = <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: zevo jq %q did not end", c.Name, c.Args)
	}
	if code < 0 {
		return "panic"
	}
	// debug and stderr write to stderr and succeed
	failed := c.Error != "" && !strings.Contains(c.Error, "DEBUG:") || c.ExitCode != 0
	switch {
	case failed && code == 0:
		return fmt.Sprintf("exit 0, gojq fails (%q)", c.Error)
	case !failed && code != 0:
		return fmt.Sprintf("exit %d: %s", code, stderr.String())
	}
	if got := stdout.String(); got != c.Expected && !sameJSONValues(got, c.Expected) {
		return fmt.Sprintf("stdout %q, gojq %q", got, c.Expected)
	}
	return ""
}

// sameJSONValues reports whether a and b are the same non-empty
// sequences of JSON values, numbers compared by value.
func sameJSONValues(a, b string) bool {
	va, oka := jsonValues(a)
	vb, okb := jsonValues(b)
	return oka && okb && len(va) > 0 && reflect.DeepEqual(va, vb)
}

func jsonValues(s string) ([]any, bool) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var vs []any
	for d.More() {
		var v any
		if err := d.Decode(&v); err != nil {
			return nil, false
		}
		vs = append(vs, normalNumbers(v))
	}
	return vs, true
}

// normalNumbers spells every number in one way, so 1.0 equals 1.
func normalNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _, err := big.ParseFloat(string(x), 10, 256, big.ToNearestEven)
		if err != nil {
			return string(x)
		}
		return f.Text('g', 60)
	case []any:
		for i := range x {
			x[i] = normalNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = normalNumbers(x[k])
		}
	}
	return v
}
