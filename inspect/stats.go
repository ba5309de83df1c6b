package inspect

import (
	"math/big"

	evt "github.com/zevo/zevo/event"
)

// Tokens are token counts summed as the protocol requires: Zero's usage
// events (promptTokens, completionTokens, totalTokens) or EvoScientist's
// usage_stats (input_tokens, output_tokens; total is their sum). Counts are
// exact at any size.
//
// Cache reads and writes and reasoning tokens are there only when the
// producer states them (Claude Code, Codex, OpenCode): input excludes the
// cache, output includes reasoning, and total is every token once.
type Tokens struct {
	Input      *big.Int `json:"input"`
	Output     *big.Int `json:"output"`
	Total      *big.Int `json:"total"`
	CacheRead  *big.Int `json:"cacheRead,omitempty"`
	CacheWrite *big.Int `json:"cacheWrite,omitempty"`
	Reasoning  *big.Int `json:"reasoning,omitempty"`
}

func newTokens() Tokens {
	return Tokens{Input: new(big.Int), Output: new(big.Int), Total: new(big.Int)}
}

func (t *Tokens) add(o Tokens) {
	t.Input.Add(t.Input, o.Input)
	t.Output.Add(t.Output, o.Output)
	t.Total.Add(t.Total, o.Total)
	if o.CacheRead != nil {
		if t.CacheRead == nil {
			t.CacheRead, t.CacheWrite, t.Reasoning = new(big.Int), new(big.Int), new(big.Int)
		}
		t.CacheRead.Add(t.CacheRead, o.CacheRead)
		t.CacheWrite.Add(t.CacheWrite, o.CacheWrite)
		t.Reasoning.Add(t.Reasoning, o.Reasoning)
	}
}

// ToolStat counts the calls of one tool.
type ToolStat struct {
	Calls   int `json:"calls"`
	Results int `json:"results"`
	Errors  int `json:"errors"` // results with status error / success false
}

// Permissions counts permission traffic. EvoScientist has no decisions in
// its stream: each action request of an interrupt is one request.
type Permissions struct {
	Requests  int `json:"requests"`
	Allowed   int `json:"allowed"`
	Denied    int `json:"denied"`
	Cancelled int `json:"cancelled"`
	Other     int `json:"other"` // Zero's plain permission events
	Questions int `json:"questions"`
}

func (p *Permissions) add(o Permissions) {
	p.Requests += o.Requests
	p.Allowed += o.Allowed
	p.Denied += o.Denied
	p.Cancelled += o.Cancelled
	p.Other += o.Other
	p.Questions += o.Questions
}

// ErrorEvent is one error event of a run.
type ErrorEvent struct {
	Line    int    `json:"line"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}

// Counts are what runs, files and totals all have.
type Counts struct {
	Events      int                  `json:"events"`
	Types       map[string]int       `json:"types"`
	Tokens      Tokens               `json:"tokens"`
	CostUSD     float64              `json:"costUsd,omitempty"`
	Tools       map[string]*ToolStat `json:"tools"`
	Permissions Permissions          `json:"permissions"`
	Errors      int                  `json:"errors"`
	Warnings    int                  `json:"warnings"`
	Subagents   int                  `json:"subagents,omitempty"`
	RunCost
}

func newCounts() Counts {
	return Counts{Types: map[string]int{}, Tokens: newTokens(), Tools: map[string]*ToolStat{}}
}

func (c *Counts) tool(name string) *ToolStat {
	t := c.Tools[name]
	if t == nil {
		t = &ToolStat{}
		c.Tools[name] = t
	}
	return t
}

func (c *Counts) add(o *Counts) {
	c.Events += o.Events
	for k, n := range o.Types {
		c.Types[k] += n
	}
	c.Tokens.add(o.Tokens)
	c.CostUSD += o.CostUSD
	for k, t := range o.Tools {
		m := c.tool(k)
		m.Calls += t.Calls
		m.Results += t.Results
		m.Errors += t.Errors
	}
	c.Permissions.add(o.Permissions)
	c.Errors += o.Errors
	c.Warnings += o.Warnings
	c.Subagents += o.Subagents
	c.addCost(&o.RunCost)
}

// Run is one run's summary.
type Run struct {
	Protocol  string `json:"protocol"`
	ID        string `json:"id,omitempty"` // Zero's runId
	FirstLine int    `json:"firstLine"`
	LastLine  int    `json:"lastLine"`
	// Status: Zero's run_end status; "done" or "error" for EvoScientist;
	// "incomplete" when the run was cut short (Cut says why), "input" for
	// Zero input events.
	Status string `json:"status"`
	// Ended is how the run ended in the event model's words, the same for
	// every dialect, where Status may be the producer's own word (done);
	// EventSummarizer's runs only.
	Ended    evt.Status `json:"-"`
	Cut      string     `json:"cut,omitempty"`
	ExitCode *int       `json:"exitCode,omitempty"`
	Counts
	ErrorEvents []ErrorEvent `json:"errorEvents"`
	// FinalLength is the length in characters of the final answer (Zero's
	// final.text, EvoScientist's done.response); -1 when there was none.
	FinalLength int `json:"finalLength"`
	// Model is Zero's run_start model (else apiModel); Provider, SessionID
	// and APIModel are run_start's too.
	Model     string `json:"model,omitempty"`
	APIModel  string `json:"-"`
	Provider  string `json:"-"`
	SessionID string `json:"-"`
	usage     usageCost
}

// FileStats is the summary of one input.
type FileStats struct {
	File     string `json:"file"`
	Protocol string `json:"protocol"` // the protocols of its lines, in order
	Lines    int    `json:"lines"`
	Invalid  int    `json:"invalidLines"` // not a JSON object: not counted
	// Outside counts the lines of events that belong to no run (a hook's
	// line before the first run starts): in Total, in no run.
	Outside int    `json:"outsideRuns,omitempty"`
	Runs    []*Run `json:"runs"`
	Total   Counts `json:"total"`
}

// SumFiles adds up several files' statistics.
func SumFiles(files []*FileStats) Counts {
	c := newCounts()
	for _, f := range files {
		c.add(&f.Total)
	}
	return c
}
