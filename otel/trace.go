// Package otel turns agent runs into OpenTelemetry traces following the GenAI semantic conventions.
package otel

import (
	"crypto/rand"
	"crypto/sha256"
	"math/big"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/redact"
)

// Clock says how span times are assigned; the streams carry no
// timestamps, so only a run's start can be real (when a dialect's run ids
// state it: event.Dialect.RunTime).
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
	// Model and Provider stand for what a run does not name (some
	// producers' runs name neither).
	Model, Provider string
	// Dialect, when set, is the dialect every line is read as; nil reads
	// each line as the dialect that claims it (dialects.NewInput).
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
// handed to emit when the run ends. Its lines are read through events
// (eventTracer), whose runs, token sums and status are the ones zevo stats
// reports.
type Tracer struct {
	ev *eventTracer
}

// runTrace is the trace of the run being read.
type runTrace struct {
	agent     string
	td        *Traces
	scope     *ScopeSpans // the spans
	root      *Span
	traceID   TraceID
	anchor    time.Time // the run's start
	firstRead time.Time // reading time of its first line
	last      time.Time // time of its last line
	tools     map[string]*Span
	pending   []pendingCall // calls without a result, oldest first
}

type pendingCall struct {
	key, name string
}

// New returns a Tracer for the input named file.
func New(file string, opt Options, emit func(*Traces, *inspect.Run)) *Tracer {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	in := dialects.NewInput(dialects.DecodeOptions())
	if d := opt.Dialect; d != nil {
		in = event.NewInput([]*event.Dialect{d}, d, dialects.DecodeOptions())
	}
	return &Tracer{ev: newEventTracer(file, &opt, in, emit)}
}

// Line adds one line. A run's trace is emitted as soon as the run ends,
// except a run ended by an error: a late line may still belong to it, so
// it waits for the next line or the end of the input.
func (t *Tracer) Line(l jsonl.Line) { t.ev.Line(l) }

// End completes the last run and returns the input's statistics.
func (t *Tracer) End() *inspect.FileStats { return t.ev.End() }

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

// endTool ends the span s of the call key with its result: ok, error or
// missing (none came).
func (rt *runTrace) endTool(s *Span, key, result string, at time.Time) {
	s.End = Nanos(at)
	s.Attributes.PutStr("zevo.tool.result", result)
	switch result {
	case "error":
		s.StatusCode = StatusCodeError
		s.StatusMessage = "the tool's result was an error"
		s.Attributes.PutStr("error.type", "tool_error")
	case "ok":
		s.StatusCode = StatusCodeOK
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
func (rt *runTrace) spanFor(id, name string) *Span {
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

func spanEvent(s *Span, name string, num int, at time.Time) *SpanEvent {
	e := &SpanEvent{Name: name, Time: Nanos(at)}
	e.Attributes.PutInt("zevo.source.line", int64(num))
	s.Events = append(s.Events, e)
	return e
}

// putStr sets an attribute of a span or a span event unless the value is
// empty.
func putStr(a *Attributes, key, v string) {
	if v != "" {
		a.PutStr(key, clean(v))
	}
}

// clean makes a string from the stream valid UTF-8, as OTLP requires (a
// JSON line may hold invalid UTF-8 in its strings).
func clean(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// maxText is the most characters of a message or reason a span keeps.
const maxText = 1000

// text is a message or reason as exported: redacted with the default
// rules (it leaves the machine) and clipped.
func text(s string) string {
	var red redact.Redactor
	s = red.String(s)
	if utf8.RuneCountInString(s) <= maxText {
		return s
	}
	r := []rune(s)
	return string(r[:maxText]) + "…"
}

// putCount sets a token count: an int, or its decimal digits when it does
// not fit in 64 bits (counts are exact at any size).
func putCount(a *Attributes, key string, n *big.Int) {
	if n.IsInt64() {
		a.PutInt(key, n.Int64())
		return
	}
	a.PutStr(key, n.String())
}
