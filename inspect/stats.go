package inspect

import (
	"io"
	"math/big"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	evt "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
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

// Summarizer builds the statistics of one Zero or EvoScientist input,
// line by line, through the protocol package: the path otel still reads
// those inputs by. zevo stats reads every input through the events
// (EventSummarizer), and a test holds the two to the same output
// (TestStatsOfZeroAndEvoSciAreTodays).
type Summarizer struct {
	// Invalid, when set, is called for each line that is not a JSON
	// object (counted in FileStats.Invalid, and nowhere else), with its
	// number and what is wrong with it.
	Invalid func(line int, err error)

	fs    FileStats
	lines lines
	run   *Run              // the open run, or the one that ended last
	calls map[string]string // tool call id → name, in the open run
	out   Event             // what Read returns
}

// NewSummarizer returns a summarizer for the input named name; as nil
// takes each line's own protocol.
func NewSummarizer(name string, as *protocol.Protocol) *Summarizer {
	s := &Summarizer{lines: lines{as: as}}
	s.fs.File = name
	s.fs.Runs = []*Run{}
	s.fs.Total = newCounts()
	return s
}

// Line adds one line.
func (s *Summarizer) Line(l jsonl.Line) { s.Read(l) }

// Event is one event as the summarizer read it, for commands that follow
// the runs line by line (zevo otel): the same decoding, protocol and run.
type Event struct {
	Line     int
	Protocol *protocol.Protocol
	Object   *protocol.Object // valid until the next line
	Type     string
	Step     protocol.Step // what the event did to the runs
	Run      *Run          // the run it went to
}

// Read adds one line like Line and returns the event it held, nil for a
// blank line or one that is not an event.
func (s *Summarizer) Read(l jsonl.Line) *Event {
	decode(&s.lines.dec, s.lines.as, l, &s.lines.cur)
	s.fs.Lines++
	num := s.lines.cur.num
	ev, lerr := s.lines.place(&s.lines.cur)
	if lerr != nil {
		s.fs.Invalid++
		if s.Invalid != nil {
			s.Invalid(num, lerr)
		}
		return nil
	}
	if ev == nil {
		return nil
	}
	s.fs.Protocol = s.lines.protocols()
	if c := ev.step.Closed; c != nil {
		s.finish(c)
	}
	if ev.step.Start {
		r := &Run{Protocol: ev.proto.Name, ID: ev.step.Run.ID, FirstLine: num, Counts: newCounts(), ErrorEvents: []ErrorEvent{}, FinalLength: -1, usage: usageCost{uncosted: newTokens()}}
		s.fs.Runs = append(s.fs.Runs, r)
		s.run = r
		s.calls = map[string]string{}
	}
	r := s.run
	r.Events++
	r.Types[ev.typ]++
	switch ev.proto.Family {
	case protocol.FamilyEvoSci:
		s.evoLine(r, ev)
	case protocol.FamilyZero:
		s.zeroLine(r, ev)
	}
	r.LastLine = num
	if ev.step.End {
		s.finish(ev.step.Run)
	}
	s.out = Event{Line: num, Protocol: ev.proto, Object: ev.obj, Type: ev.typ, Step: ev.step, Run: r}
	return &s.out
}

// finish takes how the run ended from the run tracker.
func (s *Summarizer) finish(pr *protocol.Run) {
	s.run.Status, s.run.Cut = pr.Status, pr.Cut.String()
}

// toolCall counts a call and remembers its name for the result (both
// protocols' tool_call have id and name).
func (s *Summarizer) toolCall(r *Run, o *protocol.Object) {
	name := o.Str("name")
	s.calls[o.Str("id")] = name
	r.tool(name).Calls++
}

func (s *Summarizer) zeroLine(r *Run, ev *event) {
	o := ev.obj
	switch ev.typ {
	case "tool_call":
		s.toolCall(r, o)
	case "tool_result":
		name := o.Str("name")
		if name == "" {
			name = s.calls[o.Str("id")]
		}
		t := r.tool(name)
		t.Results++
		if o.Str("status") == "error" {
			t.Errors++
		}
	case "permission_request":
		r.Permissions.Requests++
	case "permission_decision":
		switch o.Str("action") {
		case "allow":
			r.Permissions.Allowed++
		case "deny":
			r.Permissions.Denied++
		case "cancel":
			r.Permissions.Cancelled++
		}
	case "permission":
		r.Permissions.Other++
	case "run_start":
		r.Model, r.APIModel = o.Str("model"), o.Str("apiModel")
		if r.Model == "" {
			r.Model = r.APIModel
		}
		r.Provider, r.SessionID = o.Str("provider"), o.Str("sessionId")
	case "usage":
		r.Tokens.addZero(o)
		if c, ok := producerCost(o.Get("costUsd"), r.CostUSD); ok {
			r.CostUSD += c
			r.usage.costed++
		} else {
			r.usage.uncosted.addZero(o)
		}
	case "final":
		r.FinalLength = utf8.RuneCountInString(o.Str("text"))
	case "warning":
		r.Warnings++
	case "error":
		r.Errors++
		r.ErrorEvents = append(r.ErrorEvents, ErrorEvent{ev.num, o.Str("code"), o.Str("message")})
	case "run_end":
		if c := o.Get("exitCode"); c.Type == gjson.Number {
			n := int(c.Int())
			r.ExitCode = &n
		}
	}
}

func (s *Summarizer) evoLine(r *Run, ev *event) {
	o := ev.obj
	switch ev.typ {
	case "tool_call":
		s.toolCall(r, o)
	case "tool_result":
		t := r.tool(o.Str("name"))
		t.Results++
		if o.Get("success").Type == gjson.False {
			t.Errors++
		}
	case "subagent_start":
		r.Subagents++
	case "subagent_tool_call":
		r.tool(o.Str("subagent")+"/"+o.Str("name")).Calls++
	case "subagent_tool_result":
		t := r.tool(o.Str("subagent") + "/" + o.Str("name"))
		t.Results++
		if o.Get("success").Type == gjson.False {
			t.Errors++
		}
	case "interrupt":
		r.Permissions.Requests += len(o.Get("action_requests").Array())
	case "ask_user":
		r.Permissions.Questions += len(o.Get("questions").Array())
	case "usage_stats":
		r.Tokens.addEvoSci(o)
		r.usage.uncosted.addEvoSci(o)
	case "error":
		r.Errors++
		r.ErrorEvents = append(r.ErrorEvents, ErrorEvent{Line: ev.num, Message: o.Str("message")})
	case "done":
		if !ev.step.Late {
			r.FinalLength = utf8.RuneCountInString(o.Str("response"))
		}
	}
}

// addZero adds a Zero usage event: its own totalTokens counts.
func (t *Tokens) addZero(ev *protocol.Object) {
	addInt(t.Input, ev.Get("promptTokens"))
	addInt(t.Output, ev.Get("completionTokens"))
	addInt(t.Total, ev.Get("totalTokens"))
}

// addEvoSci adds an EvoScientist usage_stats event, which has no total.
func (t *Tokens) addEvoSci(ev *protocol.Object) {
	in, out := ev.Get("input_tokens"), ev.Get("output_tokens")
	addInt(t.Input, in)
	addInt(t.Output, out)
	addInt(t.Total, in)
	addInt(t.Total, out)
}

// addInt adds a count (an integer JSON number, not negative) to sum
// exactly; other values are left out (zevo validate reports them), so no
// total or cost goes below zero.
func addInt(sum *big.Int, v gjson.Result) {
	if v.Type != gjson.Number {
		return
	}
	var n big.Int
	if _, ok := n.SetString(v.Raw, 10); ok && n.Sign() >= 0 {
		sum.Add(sum, &n)
	}
}

// End returns the statistics of the input.
func (s *Summarizer) End() *FileStats {
	if pr := s.lines.runs.End(); pr != nil {
		s.finish(pr)
	}
	for _, r := range s.fs.Runs {
		s.fs.Total.add(&r.Counts)
	}
	return &s.fs
}

// Summarize reads r to the end and returns its statistics.
func Summarize(r io.Reader, name string, as *protocol.Protocol) (*FileStats, error) {
	s := NewSummarizer(name, as)
	lr := jsonl.NewReader(r, name, nil)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return s.End(), err
		}
		s.Line(l)
	}
	return s.End(), nil
}

// SumFiles adds up several files' statistics.
func SumFiles(files []*FileStats) Counts {
	c := newCounts()
	for _, f := range files {
		c.add(&f.Total)
	}
	return c
}
