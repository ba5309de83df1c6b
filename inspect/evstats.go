package inspect

import (
	"bytes"
	"math"
	"math/big"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	evt "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// EventSummarizer builds the statistics of one input from its events,
// whatever its dialect: each line is read through an event.Input (the
// dialects' decoders and the one run tracker), and only events are
// counted. Its FileStats are what tables, --json, grouping and pricing
// read. docs/inspect.md says what it counts.
type EventSummarizer struct {
	// Invalid, when set, is called for each line that is not a JSON
	// object (counted in FileStats.Invalid, and nowhere else), with its
	// number and what is wrong with it.
	Invalid func(line int, err error)
	// Each, when set, is called after each event is counted, and with a
	// nil event for a run closed cut at the end of the input: a command
	// that follows the events (otel) sees the runs as stats counts them
	// (Run gives a run's summary so far).
	Each func(ev *evt.Event, st evt.Step)

	in       *evt.Input
	fs       FileStats
	outside  Counts // lines of events that belong to no run
	runs     map[*evt.Run]*evRun
	last     *evRun // the run of the last event
	counted  int    // the last line counted (a line counts once, in its first event's run)
	dialects []string
	dec      jsonl.Decoder // words a bad line's problem, as every command does
	obj      jsonl.LineObject
}

// evRun is a run being summarized, with what only summing needs.
type evRun struct {
	*Run
	model *evt.Run
	calls map[string]string // tool call id → name
	subs  map[string]bool   // sub-agents seen
	// word is the producer's own word for how the run ended (its RunEnd's
	// StatusWord), which stats shows rather than the model's.
	word string
}

// NewEventSummarizer returns a summarizer for the input named name, read
// through in (dialects.NewInput, or one dialect's input for --as).
func NewEventSummarizer(name string, in *evt.Input) *EventSummarizer {
	s := &EventSummarizer{in: in, runs: map[*evt.Run]*evRun{}}
	s.fs.File = name
	s.fs.Runs = []*Run{}
	s.fs.Total = newCounts()
	s.outside = newCounts()
	return s
}

// Line adds one line.
func (s *EventSummarizer) Line(l jsonl.Line) {
	s.fs.Lines++
	b := l.Bytes
	if jsonl.IsBlank(b) {
		return
	}
	b, lerr := s.object(b)
	if lerr != nil {
		s.fs.Invalid++
		if s.Invalid != nil {
			s.Invalid(l.Num, lerr)
		}
		return
	}
	s.in.Line(b, l.Num, s.step) // a decoder's diagnostic is validate's to report
	if s.counted < l.Num {
		// A line that gave no event (a repeat the decoder skips) still
		// counts: in the open run, else outside every run.
		s.counted = l.Num
		c := &s.outside
		if r := s.last; r != nil && r.model.Open() {
			c = &r.Counts
		}
		c.Events++
		c.Types[gjson.GetBytes(b, "type").String()]++
	}
}

// object checks that b is one JSON object, as every command reads one:
// the common line is checked in the scan that reads its fields for the
// dialects (event.Input.Check); anything else goes through the
// protocol decoder, which words the problem, and whose non-finite numbers
// (NaN, Infinity) read as null.
func (s *EventSummarizer) object(b []byte) ([]byte, *jsonl.LineError) {
	if s.in.Check(b) { // read once, for the check and the decoder
		return b, nil
	}
	c := bytes.Clone(b)
	if err := s.dec.Decode(c, &s.obj); err != nil {
		return nil, err
	}
	if fixed, n := jsonl.ReplaceNonFinite(c, func(dst []byte, _ string, _ int) []byte { return append(dst, "null"...) }); n > 0 {
		return fixed, nil
	}
	return c, nil
}

// step counts one event, then hands it to Each.
func (s *EventSummarizer) step(ev *evt.Event, st evt.Step) {
	s.event(ev, st)
	if s.Each != nil {
		s.Each(ev, st)
	}
}

// Run is the summary of run m so far (nil for a run it has not seen): its
// status and last line are set once m is closed.
func (s *EventSummarizer) Run(m *evt.Run) *Run {
	if r := s.runs[m]; r != nil {
		return r.Run
	}
	return nil
}

// forget drops what the summarizer keeps of runs, which have ended and
// which no event can reach any more (a run has started after them), for a
// reader that keeps their summaries itself (ScanDocFile).
func (s *EventSummarizer) forget(runs []*Run) {
	for m, r := range s.runs {
		if slices.Contains(runs, r.Run) {
			delete(s.runs, m)
		}
	}
}

// event counts one event.
func (s *EventSummarizer) event(ev *evt.Event, st evt.Step) {
	if st.Closed != nil {
		s.finish(st.Closed)
	}
	if ev == nil {
		return
	}
	if d := dialectOf(ev); !slices.Contains(s.dialects, d) {
		s.dialects = append(s.dialects, d)
		s.fs.Protocol = strings.Join(s.dialects, ", ")
	}
	r := s.runOf(ev, st)
	c := &s.outside
	if r != nil {
		c, s.last = &r.Counts, r
	}
	if ev.Line > s.counted { // the line's first event: the line counts here
		s.counted = ev.Line
		c.Events++
		c.Types[ev.Type]++
	}
	if r == nil {
		return
	}
	switch ev.Kind {
	case evt.RunStart:
		if ev.Model != "" {
			r.Model = ev.Model
		}
		r.Provider, r.SessionID, r.APIModel = ev.Provider, ev.Session, ev.APIModel
	case evt.ToolCall:
		r.calls[ev.Tool.ID] = ev.Tool.Name
		r.tool(toolName(ev, ev.Tool.Name)).Calls++
	case evt.ToolResult:
		name := ev.Tool.Name
		if name == "" {
			name = r.calls[ev.Tool.ID]
		}
		t := r.tool(toolName(ev, name))
		t.Results++
		if ev.Tool.Failed {
			t.Errors++
		}
	case evt.PermissionRequest, evt.PermissionDecision:
		r.permission(ev)
	case evt.Usage:
		r.addUsage(ev.Usage)
	case evt.Final:
		r.FinalLength = utf8.RuneCountInString(ev.Text)
	case evt.Warning:
		r.Warnings++
	case evt.Error:
		r.Errors++
		r.ErrorEvents = append(r.ErrorEvents, ErrorEvent{Line: ev.Line, Code: ev.Code, Message: ev.Text})
	case evt.RunEnd:
		if ev.Sub == "" {
			if ev.ExitCode != nil {
				n := *ev.ExitCode
				r.ExitCode = &n
			}
			r.word = ev.StatusWord
		}
	}
	if ev.Sub != "" && !r.subs[ev.Sub] {
		r.subs[ev.Sub] = true
		r.Subagents++
	}
	if st.End {
		s.finish(st.Run)
	}
}

// dialectOf names the dialect of an event as stats shows it: its
// variant, when the dialect has several.
func dialectOf(ev *evt.Event) string {
	if ev.Variant != "" {
		return ev.Variant
	}
	return ev.Dialect
}

// toolName is the name a tool's calls count under: a sub-agent's tools
// under SUBAGENT/TOOL when the producer names the sub-agent (its Agent),
// else under the tool's own name.
func toolName(ev *evt.Event, name string) string {
	if ev.SubName != "" {
		return ev.SubName + "/" + name
	}
	return name
}

// permission counts a permission request or decision: a check the
// producer made without asking is other, a question to the user counts
// its questions.
func (r *evRun) permission(ev *evt.Event) {
	p := &r.Permissions
	switch pm := ev.Permission; {
	case pm.Auto:
		p.Other++
	case pm.Questions != nil:
		p.Questions += len(pm.Questions)
	case ev.Kind == evt.PermissionRequest:
		p.Requests++
	case pm.Decision == evt.Allowed:
		p.Allowed++
	case pm.Decision == evt.Denied:
		p.Denied++
	case pm.Decision == evt.Cancelled:
		p.Cancelled++
	default:
		p.Other++
	}
}

// runOf is the summary of the event's run, begun when the event starts it.
func (s *EventSummarizer) runOf(ev *evt.Event, st evt.Step) *evRun {
	if st.Run == nil {
		return nil
	}
	if r := s.runs[st.Run]; r != nil {
		return r
	}
	r := &evRun{
		Run:   &Run{Protocol: dialectOf(ev), FirstLine: st.Run.FirstLine, Counts: newCounts(), ErrorEvents: []ErrorEvent{}, FinalLength: -1, usage: usageCost{uncosted: newTokens()}},
		model: st.Run, calls: map[string]string{}, subs: map[string]bool{},
	}
	s.runs[st.Run] = r
	s.fs.Runs = append(s.fs.Runs, r.Run)
	return r
}

// usage counts a usage event: a run's own total (ScopeRun) replaces what
// the run counted before it; a message's adds to it. The producer's cost,
// when it states one, is the cost of its tokens; the tokens of the others
// are priced from the table (Pricing).
func (r *evRun) addUsage(u *evt.Tokens) {
	if u.Scope == evt.ScopeRun {
		r.Tokens = newTokens()
		r.CostUSD = 0
		r.usage = usageCost{uncosted: newTokens()}
	}
	if r.Model == "" && u.Model != "" {
		r.Model = u.Model
	}
	t := tokensOf(u)
	r.Tokens.add(t)
	if c := u.CostUSD; c != nil && *c >= 0 && !math.IsInf(r.CostUSD+*c, 0) {
		r.CostUSD += *c
		r.usage.costed++
	} else {
		r.usage.uncosted.add(t)
	}
}

// tokensOf is a usage event's counts, exact past int64 too; total is the
// producer's own when it states one, else every token once.
func tokensOf(u *evt.Tokens) Tokens {
	t := Tokens{Input: big.NewInt(u.Input), Output: big.NewInt(u.Output)}
	if u.Has&(evt.HasCacheRead|evt.HasCacheWrite|evt.HasReasoning) != 0 {
		t.CacheRead, t.CacheWrite, t.Reasoning = big.NewInt(u.CacheRead), big.NewInt(u.CacheWrite), big.NewInt(u.Reasoning)
	}
	var stated *big.Int
	if u.Has&evt.HasTotal != 0 {
		stated = big.NewInt(u.StatedTotal)
	}
	if p := u.Past; p != nil {
		// Counts past int64 are counted; one below 0 is none (0).
		if p.Input != nil && p.Input.Sign() > 0 {
			t.Input = new(big.Int).Set(p.Input)
		}
		if p.Output != nil && p.Output.Sign() > 0 {
			t.Output = new(big.Int).Set(p.Output)
		}
		if p.Total != nil && p.Total.Sign() > 0 {
			stated = new(big.Int).Set(p.Total)
		}
	}
	if t.Total = stated; t.Total == nil {
		t.Total = new(big.Int).Add(t.Input, t.Output)
		if t.CacheRead != nil {
			t.Total.Add(t.Total, t.CacheRead)
			t.Total.Add(t.Total, t.CacheWrite)
		}
	}
	return t
}

// finish takes how a run ended from the run tracker.
func (s *EventSummarizer) finish(m *evt.Run) {
	r := s.runs[m]
	if r == nil {
		return
	}
	r.ID, r.FirstLine, r.LastLine = m.ID, m.FirstLine, m.LastLine
	r.Status, r.Ended, r.Cut = string(m.Status), m.Status, cutWords[m.Cut]
	if r.word != "" && m.Cut == evt.NotCut {
		r.Status = r.word
	}
}

// cutWords say why a run was cut, in stats' words (--json's cut).
var cutWords = [...]string{
	evt.NotCut:          "",
	evt.CutEndOfInput:   "the input ended inside the run",
	evt.CutOtherDialect: "a line of another protocol came",
	evt.CutRunStart:     "a run_start came",
	evt.CutRunID:        "an event of another runId came",
}

// End returns the statistics of the input.
func (s *EventSummarizer) End() *FileStats {
	s.in.End(s.step)
	for m := range s.runs {
		s.finish(m) // the last lines of runs ended before their late lines
	}
	for _, r := range s.fs.Runs {
		s.fs.Total.add(&r.Counts)
	}
	if s.outside.Events > 0 {
		s.fs.Outside = s.outside.Events
		s.fs.Total.add(&s.outside)
	}
	return &s.fs
}
