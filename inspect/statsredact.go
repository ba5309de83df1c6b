package inspect

import (
	"slices"

	"github.com/zevo/zevo/redact"
)

// RedactStats hides what the input's own strings may hold (event types,
// tool names, models, run ids, statuses, error codes and messages) in the
// statistics of files, with rd, as every command shows text. It is done
// on the summary once it is priced, not on every line read: what stats
// shows is the same, at the cost of its few strings. A nil rd shows them
// as they are.
func RedactStats(files []*FileStats, rd *redact.Redactor) {
	if rd == nil {
		return
	}
	for _, f := range files {
		for _, r := range f.Runs {
			r.ID, r.Status, r.Model = rd.String(r.ID), rd.String(r.Status), rd.String(r.Model)
			for i := range r.ErrorEvents {
				e := &r.ErrorEvents[i]
				e.Code, e.Message = rd.String(e.Code), rd.String(e.Message)
			}
			r.Counts.redact(rd)
		}
		f.Total.redact(rd)
	}
}

func (c *Counts) redact(rd *redact.Redactor) {
	c.Types = redactKeys(c.Types, rd, func(a, b int) int { return a + b })
	c.Tools = redactKeys(c.Tools, rd, func(a, b *ToolStat) *ToolStat {
		return &ToolStat{Calls: a.Calls + b.Calls, Results: a.Results + b.Results, Errors: a.Errors + b.Errors}
	})
	if len(c.UnpricedModels) > 0 {
		var ms modelNames
		for _, m := range c.UnpricedModels {
			if m = rd.String(m); !slices.Contains(ms, m) {
				ms = append(ms, m)
			}
		}
		slices.Sort(ms)
		c.UnpricedModels = ms
	}
}

// redactKeys redacts a count's keys; keys that redact to the same text
// count as one.
func redactKeys[V any](m map[string]V, rd *redact.Redactor, merge func(V, V) V) map[string]V {
	changed := false
	for k := range m {
		if rd.String(k) != k {
			changed = true
			break
		}
	}
	if !changed {
		return m
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		r := rd.String(k)
		if old, ok := out[r]; ok {
			v = merge(old, v)
		}
		out[r] = v
	}
	return out
}
