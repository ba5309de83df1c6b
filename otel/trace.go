// Package otel turns agent runs into OpenTelemetry traces following the GenAI semantic conventions.
package otel

import (
	"crypto/rand"
	"crypto/sha256"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
	"github.com/zevo/zevo/redact"
)

// Clock says how span times are assigned; the streams carry no
// timestamps, so only a run's start can be real (Zero's runId holds the
// UTC second the run began).
type Clock int

const (
	// ReadClock times each event when zevo reads it: live, those are the
	// event's real times; from a file, a run's spans span the reading.
	ReadClock Clock = iota
	// SyntheticClock times event N of a file at N milliseconds, so the
	// same input gives the same output, trace and span ids included.
	SyntheticClock
)

// syntheticBase is where the synthetic clock starts for a run whose runId
// holds no time.
var syntheticBase = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Options configure a Tracer.
type Options struct {
	Clock Clock
	// Invalid, when set, is called for each line that is not a JSON
	// object (not exported), with its number and what is wrong with it.
	Invalid func(line int, err error)
	// Now is the reading time (time.Now when nil).
	Now func() time.Time
	// Model and Provider stand for what a run does not name (EvoScientist
	// runs name neither).
	Model, Provider string
	// As is the input's protocol; nil takes each line's own.
	As *protocol.Protocol
	// Dialect, when set (and As is not), is the dialect every line is
	// read as, through events (see onEventPath).
	Dialect *event.Dialect
	// Version is zevo's, for the instrumentation scope.
	Version string
	// Pricing, when set, prices each run as zevo stats does, for the
	// zevo.cost.* attributes.
	Pricing *inspect.Pricing
	// Repeat is how many inputs of the same name came before this one in
	// one export: with the synthetic clock, the ids of a file read again
	// are other than the first time's.
	Repeat int
}

// Tracer builds the traces of one input, line by line: one trace per run,
// handed to emit when the run ends. An input goes one of two paths (see
// onEventPath): through zevo stats' summarizer (inspect.Summarizer.Read),
// or through events (eventTracer); either way runs are cut by the run
// tracker stats uses and the token sums and status are the ones stats
// reports.
type Tracer struct {
	file string
	opt  Options
	emit func(ptrace.Traces, *inspect.Run)
	sum  *inspect.Summarizer
	runs int
	cur  *runTrace // the open run's, or an EvoScientist run ended by an error, which a done may still join
	route
}

// runTrace is the trace of the run being read.
type runTrace struct {
	run       *inspect.Run
	agent     string
	td        ptrace.Traces
	spans     ptrace.SpanSlice
	root      ptrace.Span
	traceID   pcommon.TraceID
	anchor    time.Time // the run's start
	firstRead time.Time // reading time of its first line
	last      time.Time // time of its last line
	tools     map[string]ptrace.Span
	pending   []pendingCall // calls without a result, oldest first
}

type pendingCall struct {
	key, name string
}

// New returns a Tracer for the input named file.
func New(file string, opt Options, emit func(ptrace.Traces, *inspect.Run)) *Tracer {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	sum := inspect.NewSummarizer(file, opt.As)
	sum.Invalid = opt.Invalid
	t := &Tracer{file: file, opt: opt, emit: emit, sum: sum}
	switch {
	case opt.As != nil:
	case opt.Dialect != nil:
		t.ev = newEventTracer(file, &t.opt, event.NewInput([]*event.Dialect{opt.Dialect}, opt.Dialect, event.DecodeOptions{}), emit)
	default:
		t.det = event.NewDetector(dialects.All)
	}
	return t
}

// Line adds one line. A run's trace is emitted as soon as the run ends,
// except an EvoScientist run ended by an error: a done may still belong to
// it, so it waits for the next run or the end of the input.
func (t *Tracer) Line(l jsonl.Line) {
	if t.det != nil && t.routeLine(l) {
		return // the event path's, or a line of the other path's dialects
	}
	if t.ev != nil {
		t.ev.Line(l)
		return
	}
	var read time.Time
	if t.opt.Clock == ReadClock {
		read = t.opt.Now()
	}
	ev := t.sum.Read(l)
	if ev == nil {
		return // blank, or not an event: stats counts it, nothing to trace
	}
	if ev.Step.Start || ev.Step.Closed != nil {
		t.finish()
	}
	if ev.Step.Start {
		t.start(ev.Run, ev.Protocol, l.Num, read)
	}
	if t.cur == nil {
		return // the tracker never places an event outside a run; kept safe
	}
	at := t.time(l.Num, read)
	t.cur.last = at
	if ev.Step.Late {
		return // a done after the error that ended the run: changes nothing
	}
	t.event(ev, at)
	if ev.Step.End && !(ev.Protocol.Family == protocol.FamilyEvoSci && ev.Type == "error") {
		t.finish()
	}
}

// End completes the last run and returns the input's statistics.
func (t *Tracer) End() *inspect.FileStats {
	if t.ev != nil {
		return t.ev.End()
	}
	fs := t.sum.End()
	t.finish()
	return fs
}

// time gives line num, read at read, its time in the open run.
func (t *Tracer) time(num int, read time.Time) time.Time {
	if t.opt.Clock == SyntheticClock {
		return t.cur.anchor.Add(time.Duration(num-t.cur.run.FirstLine) * time.Millisecond)
	}
	return t.cur.anchor.Add(read.Sub(t.cur.firstRead))
}

func (t *Tracer) start(run *inspect.Run, proto *protocol.Protocol, num int, read time.Time) {
	t.runs++
	rt := &runTrace{run: run, td: ptrace.NewTraces(), tools: map[string]ptrace.Span{}, firstRead: read}
	rs := rt.td.ResourceSpans().AppendEmpty()
	agent := agentName(proto)
	rs.Resource().Attributes().PutStr("service.name", agent)
	rs.Resource().Attributes().PutStr("zevo.source.file", clean(t.file))
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName("github.com/zevo/zevo/otel")
	ss.Scope().SetVersion(t.opt.Version)
	rt.spans = ss.Spans()
	rt.anchor = read
	if t.opt.Clock == SyntheticClock {
		rt.anchor = syntheticBase.Add(time.Duration(num) * time.Millisecond)
		parts := []string{t.file, strconv.Itoa(t.runs), run.ID}
		if t.opt.Repeat > 0 { // a first reading's ids are those it always had
			parts = append(parts, "again "+strconv.Itoa(t.opt.Repeat))
		}
		rt.traceID = pcommon.TraceID(hash(16, parts...))
	} else {
		rt.traceID = pcommon.TraceID(random(16))
	}
	if at, ok := protocol.ZeroRunIDTime(run.ID); ok && inRange(at) {
		rt.anchor = at
	}
	rt.root = rt.spans.AppendEmpty()
	rt.root.SetName("invoke_agent")
	rt.root.SetKind(ptrace.SpanKindInternal)
	rt.root.SetTraceID(rt.traceID)
	rt.root.SetSpanID(t.spanID(rt, num, "run"))
	rt.root.Attributes().PutStr("gen_ai.operation.name", "invoke_agent")
	rt.root.Attributes().PutStr("gen_ai.agent.name", agent)
	rt.agent = agent
	t.cur = rt
}

// A runId's time is taken as the run's start only from just after 1970
// to the end of 2261: OTLP writes times as unsigned nanoseconds since 1970
// in 64 bits (0 meaning unknown), and after 2262-04-11 the nanoseconds no
// longer fit Go's time arithmetic; the margin leaves room for the run's
// own lines after its start. Other times would wrap to a wrong date.
var (
	earliestRunIDTime = time.Unix(1, 0).UTC()
	latestRunIDTime   = time.Date(2261, 12, 31, 23, 59, 59, 0, time.UTC)
)

func inRange(at time.Time) bool {
	return !at.Before(earliestRunIDTime) && !at.After(latestRunIDTime)
}

func agentName(p *protocol.Protocol) string {
	if p.Family == protocol.FamilyEvoSci {
		return "evoscientist"
	}
	return "zero"
}

// spanID is random, or with the synthetic clock derived from the trace,
// the line and what the span is.
func (t *Tracer) spanID(rt *runTrace, num int, kind string) pcommon.SpanID {
	if t.opt.Clock == SyntheticClock {
		return pcommon.SpanID(hash(8, string(rt.traceID[:]), strconv.Itoa(num), kind))
	}
	return pcommon.SpanID(random(8))
}

func hash(n int, parts ...string) []byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum(nil)[:n]
}

func random(n int) []byte {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	return b[:n]
}

// event adds what one event means to the open run's trace.
func (t *Tracer) event(e *inspect.Event, at time.Time) {
	rt := t.cur
	ev, typ, num, proto := e.Object, e.Type, e.Line, e.Protocol.Family
	switch {
	case typ == "tool_call":
		t.toolCall(ev.Str("id"), ev.Str("name"), "", ev, num, at)
	case typ == "subagent_tool_call":
		t.toolCall("subagent:"+ev.Str("instance_id")+":"+ev.Str("id"), ev.Str("name"), ev.Str("subagent"), ev, num, at)
	case typ == "tool_result" && proto == protocol.FamilyEvoSci:
		t.toolResult(ev.Str("id"), ev.Str("name"), ev.Get("success").Type == gjson.False, at)
	case typ == "tool_result":
		t.toolResult(ev.Str("id"), ev.Str("name"), ev.Str("status") == "error", at)
	case typ == "subagent_tool_result":
		t.toolResult("subagent:"+ev.Str("instance_id")+":"+ev.Str("id"), ev.Str("name"), ev.Get("success").Type == gjson.False, at)
	case typ == "permission_request" || typ == "permission_decision" || typ == "permission":
		span := t.spanFor(ev.Str("id"), ev.Str("name"))
		e := t.spanEvent(span, typ, num, at)
		t.putStr(e, "gen_ai.tool.name", ev.Str("name"))
		t.putStr(e, "gen_ai.tool.call.id", ev.Str("id"))
		t.putStr(e, "zevo.permission.action", ev.Str("action"))
		t.putStr(e, "zevo.permission.mode", ev.Str("permissionMode"))
		t.putStr(e, "zevo.permission.risk", ev.Lookup("risk.level").String())
		t.putStr(e, "zevo.permission.reason", t.text(ev.Str("reason")))
		t.putStr(e, "zevo.permission.decision_reason", t.text(ev.Str("decisionReason")))
		if g := ev.Get("permissionGranted"); g.IsBool() {
			e.Attributes().PutBool("zevo.permission.granted", g.Bool())
		}
	case typ == "interrupt": // EvoScientist: one request per action
		for _, req := range ev.Get("action_requests").Array() {
			name := req.Get("name").String()
			e := t.spanEvent(t.spanFor("", name), "permission_request", num, at)
			t.putStr(e, "gen_ai.tool.name", name)
			t.putStr(e, "zevo.permission.interrupt_id", ev.Str("interrupt_id"))
			t.putStr(e, "zevo.permission.reason", t.text(req.Get("description").String()))
		}
	case typ == "ask_user":
		e := t.spanEvent(rt.root, "ask_user", num, at)
		e.Attributes().PutInt("zevo.questions", int64(len(ev.Get("questions").Array())))
	case typ == "error":
		e := t.spanEvent(rt.root, "error", num, at)
		t.putStr(e, "error.type", ev.Str("code"))
		t.putStr(e, "error.message", t.text(ev.Str("message")))
	case typ == "warning":
		e := t.spanEvent(rt.root, "warning", num, at)
		t.putStr(e, "zevo.warning.message", t.text(ev.Str("message")))
	}
}

func (t *Tracer) toolCall(key, name, subagent string, ev *protocol.Object, num int, at time.Time) {
	rt := t.cur
	if key == "" {
		key = "line:" + strconv.Itoa(num)
	}
	if old, ok := rt.tools[key]; ok { // the id again: the first call gets no result
		t.endTool(old, key, "missing", at)
	}
	s := rt.spans.AppendEmpty()
	s.SetName("execute_tool " + clean(name))
	s.SetKind(ptrace.SpanKindInternal)
	s.SetTraceID(rt.traceID)
	s.SetSpanID(t.spanID(rt, num, "tool"))
	s.SetParentSpanID(rt.root.SpanID())
	s.SetStartTimestamp(pcommon.NewTimestampFromTime(at))
	a := s.Attributes()
	a.PutStr("gen_ai.operation.name", "execute_tool")
	t.putStr(s, "gen_ai.tool.name", name)
	t.putStr(s, "gen_ai.tool.call.id", ev.Str("id"))
	t.putStr(s, "zevo.tool.side_effect", ev.Str("sideEffect"))
	t.putStr(s, "zevo.subagent", subagent)
	a.PutInt("zevo.source.line", int64(num))
	rt.tools[key] = s
	rt.pending = append(rt.pending, pendingCall{key, name})
}

// toolResult ends the call's span. A result without id (EvoScientist 0.1.x)
// belongs to the earliest pending call of its name, as translate pairs them.
func (t *Tracer) toolResult(key, name string, failed bool, at time.Time) {
	if key == "subagent::" {
		key = ""
	}
	t.cur.result(key, name, failed, at)
}

// result ends the span of the call key, or, when key is "", of the
// earliest pending call of its name; a result without its call (its id
// names none open) ends nothing: stats counts it, no span to end.
func (rt *runTrace) result(key, name string, failed bool, at time.Time) {
	if key == "" {
		key = ""
		for _, p := range rt.pending {
			if p.name == name {
				key = p.key
				break
			}
		}
	}
	s, ok := rt.tools[key]
	if !ok {
		return
	}
	result := "ok"
	if failed {
		result = "error"
	}
	rt.endTool(s, key, result, at)
}

func (t *Tracer) endTool(s ptrace.Span, key, result string, at time.Time) {
	t.cur.endTool(s, key, result, at)
}

// endTool ends the span s of the call key with its result: ok, error or
// missing (none came).
func (rt *runTrace) endTool(s ptrace.Span, key, result string, at time.Time) {
	s.SetEndTimestamp(pcommon.NewTimestampFromTime(at))
	s.Attributes().PutStr("zevo.tool.result", result)
	switch result {
	case "error":
		s.Status().SetCode(ptrace.StatusCodeError)
		s.Status().SetMessage("the tool's result was an error")
		s.Attributes().PutStr("error.type", "tool_error")
	case "ok":
		s.Status().SetCode(ptrace.StatusCodeOk)
	}
	delete(rt.tools, key)
	for i, p := range rt.pending {
		if p.key == key {
			rt.pending = append(rt.pending[:i], rt.pending[i+1:]...)
			break
		}
	}
}

// spanFor is the open span of a tool call by id, else the earliest open
// call of that name, else the run's.
func (t *Tracer) spanFor(id, name string) ptrace.Span { return t.cur.spanFor(id, name) }

func (rt *runTrace) spanFor(id, name string) ptrace.Span {
	if s, ok := rt.tools[id]; ok && id != "" {
		return s
	}
	for _, p := range rt.pending {
		if p.name == name {
			return rt.tools[p.key]
		}
	}
	return rt.root
}

func (t *Tracer) spanEvent(s ptrace.Span, name string, num int, at time.Time) ptrace.SpanEvent {
	return spanEvent(s, name, num, at)
}

func spanEvent(s ptrace.Span, name string, num int, at time.Time) ptrace.SpanEvent {
	e := s.Events().AppendEmpty()
	e.SetName(name)
	e.SetTimestamp(pcommon.NewTimestampFromTime(at))
	e.Attributes().PutInt("zevo.source.line", int64(num))
	return e
}

// attributed is a span or a span event.
type attributed interface{ Attributes() pcommon.Map }

// putStr sets an attribute unless the value is empty.
func (t *Tracer) putStr(x attributed, key, v string) { putStr(x, key, v) }

func putStr(x attributed, key, v string) {
	if v != "" {
		x.Attributes().PutStr(key, clean(v))
	}
}

// clean makes a string from the stream valid UTF-8, as OTLP requires (a
// JSON line may hold invalid UTF-8 in its strings).
func clean(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// maxText is the most characters of a message or reason a span keeps.
const maxText = 1000

// text is a message or reason as exported: redacted with Zero's rules (it
// leaves the machine) and clipped.
func (t *Tracer) text(s string) string { return text(s) }

func text(s string) string {
	var red redact.Redactor
	s = red.String(s)
	if utf8.RuneCountInString(s) <= maxText {
		return s
	}
	r := []rune(s)
	return string(r[:maxText]) + "…"
}

// finish ends the open run's spans and emits its trace.
func (t *Tracer) finish() {
	rt := t.cur
	if rt == nil {
		return
	}
	for _, p := range append([]pendingCall(nil), rt.pending...) {
		t.endTool(rt.tools[p.key], p.key, "missing", rt.last)
	}
	r := rt.run
	root := rt.root
	root.SetStartTimestamp(pcommon.NewTimestampFromTime(rt.anchor))
	root.SetEndTimestamp(pcommon.NewTimestampFromTime(rt.last))
	a := root.Attributes()
	provider := r.Provider
	if provider == "" {
		provider = t.opt.Provider
	}
	if provider == "" {
		provider = rt.agent // as translate names EvoScientist's provider
	}
	t.putStr(root, "gen_ai.provider.name", provider)
	model := r.Model
	if model == "" {
		model = t.opt.Model
	}
	t.putStr(root, "gen_ai.request.model", model)
	t.putStr(root, "gen_ai.conversation.id", r.SessionID)
	putCount(a, "gen_ai.usage.input_tokens", r.Tokens.Input)
	putCount(a, "gen_ai.usage.output_tokens", r.Tokens.Output)
	if t.opt.Pricing != nil {
		t.opt.Pricing.PriceRun(r)
		if r.Cost != nil {
			a.PutDouble("zevo.cost.usd", *r.Cost)
			t.putStr(root, "zevo.cost.source", r.CostSource)
		} else {
			t.putStr(root, "zevo.cost.unpriced_model", r.UnpricedModels[0])
		}
	}
	t.putStr(root, "zevo.run.id", r.ID)
	t.putStr(root, "zevo.run.status", r.Status)
	if r.ExitCode != nil {
		a.PutInt("zevo.run.exit_code", int64(*r.ExitCode))
	}
	a.PutInt("zevo.source.first_line", int64(r.FirstLine))
	a.PutInt("zevo.source.last_line", int64(r.LastLine))
	t.putStr(root, "zevo.run.cut", r.Cut)
	switch {
	case r.Status == "success" || r.Status == "done" || r.Status == "spec_review_required":
		root.Status().SetCode(ptrace.StatusCodeOk)
	case r.Cut != "" || r.Status == protocol.StatusInput:
		// Cut short (the input ended, another run began): how it would
		// have ended is not known.
	default:
		root.Status().SetCode(ptrace.StatusCodeError)
		msg := "the run ended with status " + r.Status
		if r.ExitCode != nil {
			msg += " (exit code " + strconv.Itoa(*r.ExitCode) + ")"
		}
		root.Status().SetMessage(clean(msg))
		errType := r.Status
		if len(r.ErrorEvents) > 0 && r.ErrorEvents[0].Code != "" {
			errType = r.ErrorEvents[0].Code
		}
		t.putStr(root, "error.type", errType)
	}
	t.cur = nil
	t.emit(rt.td, r)
}

// putCount sets a token count: an int, or its decimal digits when it does
// not fit in 64 bits (counts are exact at any size).
func putCount(a pcommon.Map, key string, n *big.Int) {
	if n.IsInt64() {
		a.PutInt(key, n.Int64())
		return
	}
	a.PutStr(key, n.String())
}
