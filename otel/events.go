package otel

import (
	"math/big"
	"strconv"
	"time"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
)

// eventTracer builds the traces of an input read through events: the
// lines go through zevo stats' EventSummarizer, which reads them with the
// dialects' decoders and the one run tracker, so the runs, token sums and
// status are the ones stats reports; each event it counts is also turned
// into spans here. It never switches on a dialect: it asks an event's
// dialect only what the dialect states of itself (its agent's name, the
// time its run ids hold, whether a line holds one call).
type eventTracer struct {
	file string
	opt  *Options
	emit func(*Traces, *inspect.Run)
	sum  *inspect.EventSummarizer
	runs int
	read time.Time // when the line being read was read (ReadClock)
	cur  *eventTrace
	dl   *event.Dialect // the last dialect looked up (dialect)
}

// eventTrace is the trace of the open run.
type eventTrace struct {
	runTrace
	model *event.Run
	has   event.Has // the counts its usage stated, as the summarizer sums them
	// errLine is the line of the run's last error; ended: that line ended
	// the run, whose trace waits for the line after it, which may still
	// belong to it (a late line, see event.Event.Aside).
	errLine int
	ended   bool
}

func newEventTracer(file string, opt *Options, in *event.Input, emit func(*Traces, *inspect.Run)) *eventTracer {
	t := &eventTracer{file: file, opt: opt, emit: emit}
	t.sum = inspect.NewEventSummarizer(file, in)
	t.sum.Invalid = opt.Invalid
	t.sum.Each = t.each
	return t
}

// Line adds one line.
func (t *eventTracer) Line(l jsonl.Line) {
	if t.opt.Clock == ReadClock {
		t.read = t.opt.Now()
	}
	t.sum.Line(l)
}

// End completes the input: the run still open ends cut short.
func (t *eventTracer) End() *inspect.FileStats {
	if t.opt.Clock == ReadClock {
		t.read = t.opt.Now()
	}
	fs := t.sum.End()
	if t.cur != nil {
		t.finish(t.cur.model) // a run ended by an error, that waited
	}
	return fs
}

// dialect is the dialect named name, nil when none is (an event always
// names its decoder's).
func (t *eventTracer) dialect(name string) *event.Dialect {
	if t.dl == nil || t.dl.Name != name {
		t.dl, _ = dialects.ByName(name)
	}
	return t.dl
}

// each turns one event, counted by the summarizer, into spans.
func (t *eventTracer) each(ev *event.Event, st event.Step) {
	if rt := t.cur; rt != nil && rt.ended {
		if ev != nil && st.Run == rt.model && !st.Start {
			rt.last = t.time(ev.Line) // a late line: it changes only the end
			return
		}
		t.finish(rt.model)
	}
	if st.Closed != nil {
		t.finish(st.Closed)
	}
	if ev == nil || st.Run == nil {
		return // an aside before any run: nothing to trace
	}
	if st.Start {
		t.start(st.Run)
	}
	rt := t.cur
	if rt == nil || rt.model != st.Run {
		return // a late line of a run already exported (a notice after its end)
	}
	at := t.time(ev.Line)
	rt.last = at
	t.event(ev, at)
	switch {
	case st.End && rt.errLine == ev.Line:
		rt.ended = true
	case st.End:
		t.finish(st.Run)
	}
}

// time gives line num its time in the open run.
func (t *eventTracer) time(num int) time.Time {
	rt := t.cur
	if t.opt.Clock == SyntheticClock {
		return rt.anchor.Add(time.Duration(num-rt.model.FirstLine) * time.Millisecond)
	}
	return rt.anchor.Add(t.read.Sub(rt.firstRead))
}

func (t *eventTracer) start(m *event.Run) {
	t.runs++
	rt := &eventTrace{model: m}
	rt.td, rt.tools, rt.firstRead, rt.anchor = &Traces{}, map[string]*Span{}, t.read, t.read
	rt.agent = m.Dialect
	dl := t.dialect(m.Dialect)
	if dl != nil {
		rt.agent = dl.AgentName() // the producer's name, as people read it
	}
	rs := &ResourceSpans{}
	rs.Attributes.PutStr("service.name", rt.agent)
	rs.Attributes.PutStr("zevo.source.file", clean(t.file))
	rt.scope = &ScopeSpans{Name: "github.com/zevo/zevo/otel", Version: t.opt.Version}
	rs.Scopes = []*ScopeSpans{rt.scope}
	rt.td.Resources = []*ResourceSpans{rs}
	if t.opt.Clock == SyntheticClock {
		rt.anchor = syntheticBase.Add(time.Duration(m.FirstLine) * time.Millisecond)
		parts := []string{t.file, strconv.Itoa(t.runs), m.ID}
		if t.opt.Repeat > 0 {
			parts = append(parts, "again "+strconv.Itoa(t.opt.Repeat))
		}
		rt.traceID = TraceID(hash(16, parts...))
	} else {
		rt.traceID = TraceID(random(16))
	}
	if dl != nil && dl.RunTime != nil {
		if at, ok := dl.RunTime(m.ID); ok && inRange(at) {
			rt.anchor = at
		}
	}
	rt.root = &Span{Name: "invoke_agent", Kind: SpanKindInternal, TraceID: rt.traceID}
	rt.scope.Spans = append(rt.scope.Spans, rt.root)
	rt.root.SpanID = t.spanID(&rt.runTrace, m.FirstLine, "run")
	rt.root.Attributes.PutStr("gen_ai.operation.name", "invoke_agent")
	rt.root.Attributes.PutStr("gen_ai.agent.name", clean(rt.agent))
	t.cur = rt
}

// spanID is random, or with the synthetic clock derived from the trace,
// the line and what the span is (a line may hold several tool calls).
func (t *eventTracer) spanID(rt *runTrace, num int, kind string) SpanID {
	if t.opt.Clock == SyntheticClock {
		return SpanID(hash(8, string(rt.traceID[:]), strconv.Itoa(num), kind))
	}
	return SpanID(random(8))
}

// event adds what one event means to the open run's trace. Text,
// reasoning, prompts, final answers and tool arguments and outputs are
// never exported; usage is summed on the run's span when it ends.
func (t *eventTracer) event(ev *event.Event, at time.Time) {
	rt := t.cur
	switch ev.Kind {
	case event.Usage:
		if ev.Usage.Scope == event.ScopeRun {
			rt.has = 0
		}
		rt.has |= ev.Usage.Has
	case event.ToolCall:
		t.toolCall(ev, at)
	case event.ToolResult:
		t.toolResult(ev.Tool.ID, ev.Tool.Name, ev.Tool.Failed, at)
	case event.PermissionRequest, event.PermissionDecision:
		t.permission(ev, at)
	case event.Error:
		rt.errLine = ev.Line
		e := spanEvent(rt.root, "error", ev.Line, at)
		putStr(&e.Attributes, "error.type", ev.Code)
		putStr(&e.Attributes, "error.message", text(ev.Text))
		putStr(&e.Attributes, "zevo.subagent", subagent(ev))
	case event.Warning:
		e := spanEvent(rt.root, "warning", ev.Line, at)
		putStr(&e.Attributes, "zevo.warning.message", text(ev.Text))
		putStr(&e.Attributes, "zevo.subagent", subagent(ev))
	}
}

// subagent names the sub-agent that made ev: its name, else its id.
func subagent(ev *event.Event) string {
	if ev.SubName != "" {
		return ev.SubName
	}
	return ev.Sub
}

// permission adds a permission request or decision to the span of the
// call it is about, else the run's: what the producer states of it, the
// reasons redacted and clipped.
func (t *eventTracer) permission(ev *event.Event, at time.Time) {
	rt := t.cur
	p := ev.Permission
	if p.Questions != nil { // questions to the user: no tool's to run
		e := spanEvent(rt.root, "ask_user", ev.Line, at)
		e.Attributes.PutInt("zevo.questions", int64(len(p.Questions)))
		return
	}
	name := ev.Kind.String()
	if p.Auto {
		name = "permission" // a check made without asking anyone
	}
	id := p.ID
	if id == p.Interrupt {
		id = "" // the pause's id, not a call's
	}
	e := spanEvent(rt.spanFor(id, p.Tool), name, ev.Line, at)
	putStr(&e.Attributes, "gen_ai.tool.name", p.Tool)
	putStr(&e.Attributes, "gen_ai.tool.call.id", id)
	putStr(&e.Attributes, "zevo.permission.action", p.Action)
	putStr(&e.Attributes, "zevo.permission.mode", p.Mode)
	putStr(&e.Attributes, "zevo.permission.risk", p.Risk)
	putStr(&e.Attributes, "zevo.permission.interrupt_id", p.Interrupt)
	reason, decided := p.Why(), ""
	if p.RequestReason != "" || p.DecisionReason != "" {
		reason, decided = p.RequestReason, p.DecisionReason // stated apart
	}
	putStr(&e.Attributes, "zevo.permission.reason", text(reason))
	putStr(&e.Attributes, "zevo.permission.decision_reason", text(decided))
	decision := ev.Kind == event.PermissionDecision
	if decision && p.Action == "" { // else the producer's action says it
		putStr(&e.Attributes, "zevo.permission.decision", decisionNames[p.Decision])
	}
	switch {
	case p.Granted != nil:
		e.Attributes.PutBool("zevo.permission.granted", *p.Granted)
	case decision && p.Action == "" && (p.Decision == event.Allowed || p.Decision == event.Denied):
		e.Attributes.PutBool("zevo.permission.granted", p.Decision == event.Allowed)
	}
}

var decisionNames = [...]string{event.Pending: "pending", event.Allowed: "allowed", event.Denied: "denied", event.Cancelled: "cancelled"}

// toolCall opens a tool call's span: a child of the run's span, or of the
// call that started the sub-agent making it, while that call is open.
func (t *eventTracer) toolCall(ev *event.Event, at time.Time) {
	rt := t.cur
	tool := ev.Tool
	key := tool.ID
	if key == "" {
		key = "line:" + strconv.Itoa(ev.Line)
	}
	if old, ok := rt.tools[key]; ok { // the id again: the first call gets no result
		rt.endTool(old, key, "missing", at)
	}
	parent := rt.root
	if s, ok := rt.tools[ev.Sub]; ok && ev.Sub != "" {
		parent = s
	}
	s := &Span{Name: "execute_tool " + clean(tool.Name), Kind: SpanKindInternal, TraceID: rt.traceID}
	rt.scope.Spans = append(rt.scope.Spans, s)
	kind := "tool " + key
	if dl := t.dialect(ev.Dialect); dl != nil && dl.OneCallPerLine {
		kind = "tool" // the line alone tells the call apart
	}
	s.SpanID = t.spanID(&rt.runTrace, ev.Line, kind)
	s.ParentSpanID = parent.SpanID
	s.Start = Nanos(at)
	a := &s.Attributes
	a.PutStr("gen_ai.operation.name", "execute_tool")
	putStr(&s.Attributes, "gen_ai.tool.name", tool.Name)
	putStr(&s.Attributes, "gen_ai.tool.call.id", tool.ID)
	putStr(&s.Attributes, "zevo.tool.side_effect", string(tool.Effect))
	putStr(&s.Attributes, "zevo.subagent", subagent(ev))
	a.PutInt("zevo.source.line", int64(ev.Line))
	rt.tools[key] = s
	rt.pending = append(rt.pending, pendingCall{key, tool.Name})
}

// toolResult ends the call's span: by id, else (no id) the earliest open
// call of its name.
func (t *eventTracer) toolResult(id, name string, failed bool, at time.Time) {
	t.cur.result(id, name, failed, at)
}

// finish ends the run's spans and emits its trace, once the summarizer
// has closed it (its status and last line set).
func (t *eventTracer) finish(m *event.Run) {
	rt := t.cur
	if rt == nil || rt.model != m {
		return
	}
	for _, p := range append([]pendingCall(nil), rt.pending...) {
		rt.endTool(rt.tools[p.key], p.key, "missing", rt.last)
	}
	r := t.sum.Run(m)
	r.LastLine = m.LastLine // its late lines included, as stats ends it
	root := rt.root
	root.Start = Nanos(rt.anchor)
	root.End = Nanos(rt.last)
	a := &root.Attributes
	provider := r.Provider
	if provider == "" {
		provider = t.opt.Provider
	}
	if provider == "" {
		provider = rt.agent
	}
	putStr(&root.Attributes, "gen_ai.provider.name", provider)
	model := r.Model
	if model == "" {
		model = t.opt.Model
	}
	putStr(&root.Attributes, "gen_ai.request.model", model)
	putStr(&root.Attributes, "gen_ai.conversation.id", r.SessionID)
	// GenAI's input tokens include the cache's reads and writes, which
	// are also given apart; its output tokens include the reasoning.
	tk := r.Tokens
	putCount(a, "gen_ai.usage.input_tokens", sum(tk.Input, tk.CacheRead, tk.CacheWrite))
	putCount(a, "gen_ai.usage.output_tokens", tk.Output)
	// A count the producer never states is left out rather than said
	// to be 0.
	if rt.has&event.HasCacheRead != 0 {
		putCount(a, "gen_ai.usage.cache_read.input_tokens", tk.CacheRead)
	}
	if rt.has&event.HasCacheWrite != 0 {
		putCount(a, "gen_ai.usage.cache_creation.input_tokens", tk.CacheWrite)
	}
	if rt.has&event.HasReasoning != 0 {
		putCount(a, "gen_ai.usage.reasoning.output_tokens", tk.Reasoning)
	}
	if t.opt.Pricing != nil {
		t.opt.Pricing.PriceRun(r)
		if r.Cost != nil {
			a.PutDouble("zevo.cost.usd", *r.Cost)
			putStr(&root.Attributes, "zevo.cost.source", r.CostSource)
		} else {
			putStr(&root.Attributes, "zevo.cost.unpriced_model", r.UnpricedModels[0])
		}
	}
	putStr(&root.Attributes, "zevo.run.id", r.ID)
	putStr(&root.Attributes, "zevo.run.status", r.Status)
	if r.ExitCode != nil {
		a.PutInt("zevo.run.exit_code", int64(*r.ExitCode))
	}
	a.PutInt("zevo.source.first_line", int64(r.FirstLine))
	a.PutInt("zevo.source.last_line", int64(r.LastLine))
	putStr(&root.Attributes, "zevo.run.cut", r.Cut)
	switch st := r.Ended; {
	case st == event.StatusSuccess:
		root.StatusCode = StatusCodeOK
	case r.Cut != "" || !st.Failed() || st == event.StatusInterrupted:
		// Cut short, paused for an answer, or ended without saying how:
		// how it went is not known.
	default:
		root.StatusCode = StatusCodeError
		msg := "the run ended with status " + r.Status
		if r.ExitCode != nil {
			msg += " (exit code " + strconv.Itoa(*r.ExitCode) + ")"
		}
		root.StatusMessage = clean(msg)
		errType := r.Status
		if len(r.ErrorEvents) > 0 && r.ErrorEvents[0].Code != "" {
			errType = r.ErrorEvents[0].Code
		}
		putStr(&root.Attributes, "error.type", errType)
	}
	t.cur = nil
	t.emit(rt.td, r)
}

// sum adds counts, nil ones (not stated) as 0.
func sum(ns ...*big.Int) *big.Int {
	s := new(big.Int)
	for _, n := range ns {
		if n != nil {
			s.Add(s, n)
		}
	}
	return s
}
