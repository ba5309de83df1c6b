package inspect

import (
	"io"
	"math/big"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// Tokens are token counts summed as the protocol requires: Zero's usage
// events (promptTokens, completionTokens, totalTokens) or EvoScientist's
// usage_stats (input_tokens, output_tokens; total is their sum). Counts are
// exact at any size.
type Tokens struct {
	Input  *big.Int `json:"input"`
	Output *big.Int `json:"output"`
	Total  *big.Int `json:"total"`
}

func newTokens() Tokens { return Tokens{new(big.Int), new(big.Int), new(big.Int)} }

func (t Tokens) add(o Tokens) {
	t.Input.Add(t.Input, o.Input)
	t.Output.Add(t.Output, o.Output)
	t.Total.Add(t.Total, o.Total)
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
	ID        string `json:"id,omitempty"` // Zero's runId
	FirstLine int    `json:"firstLine"`
	LastLine  int    `json:"lastLine"`
	// Status: Zero's run_end status; "done" or "error" for EvoScientist;
	// "unfinished" when the input ended inside the run.
	Status   string `json:"status"`
	ExitCode *int   `json:"exitCode,omitempty"`
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
	Protocol string `json:"protocol"`
	Lines    int    `json:"lines"`
	Invalid  int    `json:"invalidLines"` // not a JSON object: not counted
	Runs     []*Run `json:"runs"`
	Total    Counts `json:"total"`
}

// Summarizer builds the statistics of one input, line by line.
type Summarizer struct {
	fs    FileStats
	proto Protocol
	run   *Run
	calls map[string]string // tool call id → name, in the open run
	end   string            // EvoScientist: "done" or "error" once the open run ended
}

// NewSummarizer returns a summarizer for the input named name; as may be
// Auto.
func NewSummarizer(name string, as Protocol) *Summarizer {
	s := &Summarizer{proto: as}
	s.fs.File = name
	s.fs.Runs = []*Run{}
	s.fs.Total = newCounts()
	if as != Auto {
		s.fs.Protocol = as.String()
	}
	return s
}

func (s *Summarizer) newRun(line int, id string) *Run {
	r := &Run{ID: id, FirstLine: line, Status: "unfinished", Counts: newCounts(), ErrorEvents: []ErrorEvent{}, FinalLength: -1, usage: usageCost{uncosted: newTokens()}}
	s.fs.Runs = append(s.fs.Runs, r)
	s.run = r
	s.calls = map[string]string{}
	s.end = ""
	return r
}

// Line adds one line.
func (s *Summarizer) Line(l jsonl.Line) {
	s.fs.Lines++
	if jsonl.IsBlank(l.Bytes) {
		return
	}
	b := l.Bytes
	if jsonl.TooDeep(b) { // before gjson, whose validator recurses per level
		s.fs.Invalid++
		return
	}
	if !gjson.ValidBytes(b) {
		fixed, tokens := replaceNonFinite(b)
		if tokens == nil || !gjson.ValidBytes(fixed) {
			s.fs.Invalid++
			return
		}
		b = fixed // sentinels stand where NaN was; stats do not read them
	}
	ev := gjson.ParseBytes(b)
	if !ev.IsObject() {
		s.fs.Invalid++
		return
	}
	typ := ev.Get("type").String()
	if s.proto == Auto {
		s.proto = EvoSci
		if sv := ev.Get("schemaVersion"); sv.Exists() {
			s.proto = Zero
			if sv.Raw == "1" {
				s.proto = Zero1
			}
			if typ == "message" || typ == "prompt" {
				s.proto = ZeroInput
			}
		}
		s.fs.Protocol = s.proto.String()
	}
	switch s.proto {
	case EvoSci:
		s.evoLine(l.Num, ev, typ)
	case ZeroInput:
		if s.run == nil {
			s.newRun(l.Num, "").Status = "input"
		}
		s.count(typ)
	default:
		s.zeroLine(l.Num, ev, typ)
	}
	if s.run != nil {
		s.run.LastLine = l.Num
	}
}

func (s *Summarizer) count(typ string) *Run {
	r := s.run
	r.Events++
	r.Types[typ]++
	return r
}

// toolCall counts a call and remembers its name for the result (both
// protocols' tool_call have id and name).
func (s *Summarizer) toolCall(r *Run, ev gjson.Result) {
	name := ev.Get("name").String()
	s.calls[ev.Get("id").String()] = name
	r.tool(name).Calls++
}

func (s *Summarizer) zeroLine(line int, ev gjson.Result, typ string) {
	id := ev.Get("runId").String()
	if typ == "run_start" || s.run == nil || s.run.Status != "unfinished" || id != s.run.ID {
		s.newRun(line, id)
	}
	r := s.count(typ)
	switch typ {
	case "tool_call":
		s.toolCall(r, ev)
	case "tool_result":
		name := ev.Get("name").String()
		if name == "" {
			name = s.calls[ev.Get("id").String()]
		}
		t := r.tool(name)
		t.Results++
		if ev.Get("status").String() == "error" {
			t.Errors++
		}
	case "permission_request":
		r.Permissions.Requests++
	case "permission_decision":
		switch ev.Get("action").String() {
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
		r.Model, r.APIModel = ev.Get("model").String(), ev.Get("apiModel").String()
		if r.Model == "" {
			r.Model = r.APIModel
		}
		r.Provider, r.SessionID = ev.Get("provider").String(), ev.Get("sessionId").String()
	case "usage":
		r.Tokens.addZero(ev)
		if c := ev.Get("costUsd"); c.Type == gjson.Number {
			r.CostUSD += c.Float()
			r.usage.costed++
		} else {
			r.usage.uncosted.addZero(ev)
		}
	case "final":
		r.FinalLength = utf8.RuneCountInString(ev.Get("text").String())
	case "warning":
		r.Warnings++
	case "error":
		r.Errors++
		r.ErrorEvents = append(r.ErrorEvents, ErrorEvent{line, ev.Get("code").String(), ev.Get("message").String()})
	case "run_end":
		r.Status = ev.Get("status").String()
		if r.Status == "" || r.Status == "unfinished" {
			r.Status = "ended"
		}
		if c := ev.Get("exitCode"); c.Type == gjson.Number {
			n := int(c.Int())
			r.ExitCode = &n
		}
	}
}

func (s *Summarizer) evoLine(line int, ev gjson.Result, typ string) {
	// A done right after the error that ended a run belongs to that run
	// (the protocol allows error "instead or also").
	if s.run == nil || s.end == "done" || s.end == "error" && typ != "done" {
		s.newRun(line, "")
	}
	r := s.count(typ)
	switch typ {
	case "tool_call":
		s.toolCall(r, ev)
	case "tool_result":
		t := r.tool(ev.Get("name").String())
		t.Results++
		if ev.Get("success").Type == gjson.False {
			t.Errors++
		}
	case "subagent_start":
		r.Subagents++
	case "subagent_tool_call":
		r.tool(ev.Get("subagent").String()+"/"+ev.Get("name").String()).Calls++
	case "subagent_tool_result":
		t := r.tool(ev.Get("subagent").String() + "/" + ev.Get("name").String())
		t.Results++
		if ev.Get("success").Type == gjson.False {
			t.Errors++
		}
	case "interrupt":
		r.Permissions.Requests += len(ev.Get("action_requests").Array())
	case "ask_user":
		r.Permissions.Questions += len(ev.Get("questions").Array())
	case "usage_stats":
		r.Tokens.addEvoSci(ev)
		r.usage.uncosted.addEvoSci(ev)
	case "error":
		r.Errors++
		r.ErrorEvents = append(r.ErrorEvents, ErrorEvent{Line: line, Message: ev.Get("message").String()})
		r.Status, s.end = "error", "error"
	case "done":
		r.FinalLength = utf8.RuneCountInString(ev.Get("response").String())
		if s.end == "" {
			r.Status = "done"
		}
		s.end = "done"
	}
}

// addInt adds an integer JSON number to sum exactly; other values are
// left out (zevo validate reports them).
// addZero adds a Zero usage event: its own totalTokens counts.
func (t *Tokens) addZero(ev gjson.Result) {
	addInt(t.Input, ev.Get("promptTokens"))
	addInt(t.Output, ev.Get("completionTokens"))
	addInt(t.Total, ev.Get("totalTokens"))
}

// addEvoSci adds an EvoScientist usage_stats event, which has no total.
func (t *Tokens) addEvoSci(ev gjson.Result) {
	in, out := ev.Get("input_tokens"), ev.Get("output_tokens")
	addInt(t.Input, in)
	addInt(t.Output, out)
	addInt(t.Total, in)
	addInt(t.Total, out)
}

func addInt(sum *big.Int, v gjson.Result) {
	if v.Type != gjson.Number {
		return
	}
	var n big.Int
	if _, ok := n.SetString(v.Raw, 10); ok {
		sum.Add(sum, &n)
	}
}

// Open returns the run the last line went to (nil before the first run)
// and the input's protocol, for commands that follow runs as they are
// read: a run is complete once Open returns another one, or at End.
func (s *Summarizer) Open() (*Run, Protocol) { return s.run, s.proto }

// End returns the statistics of the input.
func (s *Summarizer) End() *FileStats {
	for _, r := range s.fs.Runs {
		s.fs.Total.add(&r.Counts)
	}
	return &s.fs
}

// Summarize reads r to the end and returns its statistics.
func Summarize(r io.Reader, name string, as Protocol) (*FileStats, error) {
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
