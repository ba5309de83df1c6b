// Package pricing prices token counts from model price tables in LiteLLM's model_prices_and_context_window.json format.
package pricing

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"sort"
	"strings"
	"sync"
)

// SnapshotDate is the day the shipped snapshot's list prices were taken.
const SnapshotDate = "2025-10-31"

// snapshotJSON holds the providers' public list prices (USD per token) for
// the models coding agents commonly run, in LiteLLM's format. Only
// plain per-token prices are in it: a model whose price depends on the
// prompt's length (gemini-2.5-pro) is left out rather than priced wrongly.
//
//go:embed snapshot.json
var snapshotJSON []byte

// Price is what one model costs, in USD per token. The cache prices are
// nil when the table gives none.
type Price struct {
	Input, Output            *big.Rat
	CacheRead, CacheCreation *big.Rat
}

// Cost returns the exact cost of in prompt tokens and out completion
// tokens, every prompt token at the input price.
func (p Price) Cost(in, out *big.Int) *big.Rat {
	c := new(big.Rat).Mul(new(big.Rat).SetInt(in), p.Input)
	return c.Add(c, new(big.Rat).Mul(new(big.Rat).SetInt(out), p.Output))
}

// CostCached returns the exact cost of in prompt tokens (cache not
// included), cacheRead and cacheWrite cached prompt tokens (nil: none) and
// out completion tokens. Cache reads cost cache_read_input_token_cost and
// writes cache_creation_input_token_cost; where the table gives no such
// price, the input price, and atInput says so (when there were such
// tokens).
func (p Price) CostCached(in, cacheRead, cacheWrite, out *big.Int) (cost *big.Rat, atInput bool) {
	c := p.Cost(in, out)
	for _, x := range [...]struct {
		n     *big.Int
		price *big.Rat
	}{{cacheRead, p.CacheRead}, {cacheWrite, p.CacheCreation}} {
		if x.n == nil || x.n.Sign() == 0 {
			continue
		}
		price := x.price
		if price == nil {
			price, atInput = p.Input, true
		}
		c.Add(c, new(big.Rat).Mul(new(big.Rat).SetInt(x.n), price))
	}
	return c, atInput
}

// Table maps model names to prices.
type Table struct {
	// Source names the table in reports: "pricing:FILE" or
	// "snapshot:DATE".
	Source string
	prices map[string]Price
}

// Len returns the number of models the table prices.
func (t *Table) Len() int { return len(t.prices) }

// Lookup returns the price of model: its own entry, else, for a name
// such as "openai/gpt-4.1", the entry of the part after the last "/".
func (t *Table) Lookup(model string) (Price, string, bool) {
	if model == "" {
		return Price{}, "", false
	}
	if p, ok := t.prices[model]; ok {
		return p, model, true
	}
	if i := strings.LastIndexByte(model, '/'); i >= 0 {
		if p, ok := t.prices[model[i+1:]]; ok {
			return p, model[i+1:], true
		}
	}
	return Price{}, "", false
}

// Snapshot returns the shipped table.
var Snapshot = sync.OnceValue(func() *Table {
	t, err := Parse("snapshot:"+SnapshotDate, snapshotJSON)
	if err != nil {
		panic(err) // the shipped file is tested
	}
	return t
})

// LoadFile reads a price table in LiteLLM's format. Errors name the file.
func LoadFile(path string) (*Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := Parse("pricing:"+path, data)
	var le *lineError
	switch {
	case errors.As(err, &le):
		return nil, fmt.Errorf("%s:%d: %v", path, le.line, le.err)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// The keys of a LiteLLM entry that zevo reads.
const (
	keyInput         = "input_cost_per_token"
	keyOutput        = "output_cost_per_token"
	keyCacheRead     = "cache_read_input_token_cost"
	keyCacheCreation = "cache_creation_input_token_cost"
)

// Parse reads a table in LiteLLM's format: an object from model name to an
// object with per-token costs. An entry without both input and output
// per-token costs (images, audio, LiteLLM's "sample_spec") prices nothing;
// a cost that is not a non-negative number is an error naming the model.
func Parse(source string, data []byte) (*Table, error) {
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, jsonError(data, err)
	}
	if entries == nil {
		return nil, errors.New("not a JSON object of model prices")
	}
	t := &Table{Source: source, prices: map[string]Price{}}
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	sort.Strings(names) // the first error is always the same one
	for _, name := range names {
		if name == "sample_spec" {
			continue
		}
		d := json.NewDecoder(bytes.NewReader(entries[name]))
		d.UseNumber()
		var fields map[string]any
		if err := d.Decode(&fields); err != nil || fields == nil {
			return nil, fmt.Errorf("model %q: not a JSON object", name)
		}
		var p Price
		for key, dst := range map[string]**big.Rat{keyInput: &p.Input, keyOutput: &p.Output, keyCacheRead: &p.CacheRead, keyCacheCreation: &p.CacheCreation} {
			v, ok := fields[key]
			if !ok || v == nil {
				continue
			}
			n, ok := v.(json.Number)
			r, good := new(big.Rat).SetString(string(n))
			if !ok || !good || r.Sign() < 0 {
				return nil, fmt.Errorf("model %q: %s is %s, want a non-negative number", name, key, describe(v))
			}
			*dst = r
		}
		if p.Input != nil && p.Output != nil {
			t.prices[name] = p
		}
	}
	if len(t.prices) == 0 {
		return nil, fmt.Errorf("no model has both %s and %s", keyInput, keyOutput)
	}
	return t, nil
}

func describe(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		b = append(b[:40], "…"...)
	}
	return string(b)
}

// lineError is an error at a line of the table.
type lineError struct {
	line int
	err  error
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %v", e.line, e.err) }

// jsonError names the line of a syntax error.
func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off := min(int(se.Offset), len(data))
		return &lineError{1 + bytes.Count(data[:off], []byte("\n")), fmt.Errorf("not valid JSON: %v", se)}
	case errors.As(err, &te):
		return errors.New("not a JSON object of model prices")
	}
	return fmt.Errorf("not valid JSON: %v", err)
}
