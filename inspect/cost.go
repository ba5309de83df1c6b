package inspect

import (
	"encoding/json"
	"math"
	"math/big"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/zevo/zevo/pricing"
)

// NoModel stands for the model of a run that names none, in
// UnpricedModels.
const NoModel = "(no model)"

// RunCost is what runs cost in USD. Never a silent 0: a run whose model
// has no price has no Cost, is counted in UnpricedRuns and its model named
// in UnpricedModels; a total has a Cost only when every run was priced,
// and PricedCost sums the runs that were.
type RunCost struct {
	Cost       *float64 `json:"cost"`
	PricedCost *float64 `json:"pricedCost"`
	CostSource string   `json:"costSource,omitempty"` // runs only: see Pricing
	PricedAs   string   `json:"pricedAs,omitempty"`   // runs only: the table's entry used
	// CacheAtInputPrice: the run's cache reads or writes were priced at
	// the input price, the table having no cache price for the model.
	CacheAtInputPrice bool       `json:"cacheAtInputPrice,omitempty"`
	UnpricedRuns      int        `json:"unpricedRuns"`
	UnpricedModels    modelNames `json:"unpricedModels"`
}

// modelNames is written as [] when empty: docs/cost.md promises the field
// on every run and total, so a script never meets null or nothing.
type modelNames []string

func (m modelNames) MarshalJSON() ([]byte, error) {
	if len(m) == 0 {
		return []byte("[]"), nil
	}
	return json.Marshal([]string(m))
}

func (c *RunCost) addCost(o *RunCost) {
	if o.PricedCost != nil {
		if c.PricedCost == nil {
			c.PricedCost = new(float64)
		}
		// Saturates rather than become +Inf, which JSON cannot hold.
		*c.PricedCost = min(*c.PricedCost+*o.PricedCost, math.MaxFloat64)
	}
	c.UnpricedRuns += o.UnpricedRuns
	c.Cost = nil
	if c.UnpricedRuns == 0 && c.PricedCost != nil {
		c.Cost = new(float64)
		*c.Cost = *c.PricedCost
	}
	for _, m := range o.UnpricedModels {
		if i, found := slices.BinarySearch(c.UnpricedModels, m); !found {
			c.UnpricedModels = slices.Insert(c.UnpricedModels, i, m)
		}
	}
}

// producerCost reads a usage event's costUsd: a number that is not
// negative and keeps the run's sum finite (1e400 would make it +Inf, which
// JSON cannot hold); else the event counts as one without costUsd.
func producerCost(v gjson.Result, sum float64) (float64, bool) {
	c := v.Float()
	return c, v.Type == gjson.Number && c >= 0 && !math.IsInf(sum+c, 0)
}

// usageCost is what a run's usage events said about cost: how many carried
// the producer's own costUsd, and the tokens of those that did not.
type usageCost struct {
	costed   int
	uncosted Tokens
}

// Pricing says how runs are priced, in this order: the producer's own
// costUsd (Zero's usage events; CostSource "costUsd"), then each table in
// turn (CostSource its Source). A run whose usage events carry costUsd
// only in part is priced "costUsd+" the table's Source for the rest.
type Pricing struct {
	Tables []*pricing.Table
	// Model is the model of runs that name none (EvoScientist's never do).
	Model string
}

// Apply prices every run of files and sums the costs into the files'
// totals. A run is looked up by its model, then by Zero's apiModel, then
// by both after run_start's provider and a "/" (deepseek/deepseek-chat).
func (p Pricing) Apply(files []*FileStats) {
	for _, f := range files {
		f.Total.RunCost = RunCost{}
		for _, r := range f.Runs {
			p.PriceRun(r)
			f.Total.addCost(&r.RunCost)
		}
	}
}

// PriceRun prices one run, as Apply does.
func (p Pricing) PriceRun(r *Run) {
	if r.Model == "" {
		r.Model = p.Model
	}
	c := RunCost{}
	rest := r.usage.uncosted
	cost := new(big.Rat)
	if r.usage.costed > 0 {
		cost.SetFloat64(r.CostUSD)
		c.CostSource = "costUsd"
	}
	if rest.Input.Sign() != 0 || rest.Output.Sign() != 0 || nonZero(rest.CacheRead) || nonZero(rest.CacheWrite) {
		names := []string{r.Model, r.APIModel}
		if r.Provider != "" { // LiteLLM keys some models as provider/model
			names = append(names, r.Provider+"/"+r.Model, r.Provider+"/"+r.APIModel)
		}
		price, source, entry, ok := p.lookup(names...)
		if ok {
			tc, atInput := price.CostCached(rest.Input, rest.CacheRead, rest.CacheWrite, rest.Output)
			cost.Add(cost, tc)
			c.CacheAtInputPrice = atInput
		}
		if f, _ := cost.Float64(); !ok || math.IsInf(f, 0) { // no price, or a cost past float64
			name := r.Model
			if name == "" {
				name = NoModel
			}
			r.RunCost = RunCost{UnpricedRuns: 1, UnpricedModels: []string{name}}
			return
		}
		if c.CostSource != "" {
			source = c.CostSource + "+" + source
		}
		c.CostSource, c.PricedAs = source, entry
	}
	if c.CostSource == "" {
		c.CostSource = "no tokens"
	}
	f, _ := cost.Float64()
	c.Cost, c.PricedCost = &f, &f
	r.RunCost = c
}

func (p Pricing) lookup(names ...string) (pricing.Price, string, string, bool) {
	for _, t := range p.Tables {
		for _, n := range names {
			if price, entry, ok := t.Lookup(n); ok {
				return price, t.Source, entry, true
			}
		}
	}
	return pricing.Price{}, "", "", false
}

func nonZero(n *big.Int) bool { return n != nil && n.Sign() != 0 }
