package inspect

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	zevent "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// ValidateOptions configure validation.
type ValidateOptions struct {
	// As is the protocol every line is checked against; nil checks each
	// line against its own (protocol.Detect).
	As *protocol.Protocol
	// Dialect, when not nil, is the dialect of every line: one with a
	// schema of its own (DialectSchemas). Nil with As nil names each
	// line's dialect through the registry.
	Dialect *zevent.Dialect
	// AllowUnfinished accepts a Zero run cut short (the input ends inside
	// it, or a line of the other protocol comes): a warning instead of an
	// error. An EvoScientist run cut so is always a warning, since a
	// cancelled EvoScientist run ends that way.
	AllowUnfinished bool
	// Idle, if not nil, is called whenever reading would wait for more
	// input, so diagnostics of a live stream can be flushed.
	Idle func() error
}

// RunReport is one run as validate, stats and view all see it.
type RunReport struct {
	Protocol  string `json:"protocol"`
	ID        string `json:"id,omitempty"` // Zero's runId
	FirstLine int    `json:"firstLine"`
	LastLine  int    `json:"lastLine"`
	// Status: Zero's run_end status; "done" or "error" for EvoScientist;
	// "incomplete" when cut short, "input" for Zero input events.
	Status string `json:"status"`
	Cut    string `json:"cut,omitempty"` // why it was cut short
}

func runReport(r *protocol.Run) RunReport {
	return RunReport{Protocol: r.Protocol.Name, ID: r.ID, FirstLine: r.FirstLine, LastLine: r.LastLine, Status: r.Status, Cut: r.Cut.String()}
}

// FileReport sums up one validated input.
type FileReport struct {
	File     string      `json:"file"`
	Protocol string      `json:"protocol"` // the protocols of its lines, in order; "" when no event was read
	Lines    int         `json:"lines"`
	Events   int         `json:"events"`
	Runs     int         `json:"runs"`
	RunList  []RunReport `json:"runList"`
	Errors   int         `json:"errors"`
	Warnings int         `json:"warnings"`
}

// Validator checks the lines of one input against their protocol's JSON
// Schema and the stream rules a schema cannot express. It is not safe for
// concurrent use.
type Validator struct {
	opt    ValidateOptions
	emit   func(jsonl.Diagnostic)
	report FileReport
	last   int // number of the last non-blank line
	lines  lines
	cur    checked      // the line Line checks
	ld     lineDialects // names the dialects of the lines Line checks
	runs   []runRef     // the runs that ended

	dl dialectRules // the lines of the dialect path

	zero  zeroRules
	evo   evoRules
	input inputRules

	general bool // every line through the general schema validator (for tests of the fast path)

	reader atomic.Pointer[jsonl.Reader] // Stream's, for Pending
}

// NewValidator returns a validator of the input named name that passes
// each diagnostic to emit, in line order.
func NewValidator(name string, opt ValidateOptions, emit func(jsonl.Diagnostic)) (*Validator, error) {
	if _, err := schemaFor(protocol.ZeroV2); err != nil {
		return nil, err
	}
	v := &Validator{opt: opt, emit: emit, lines: lines{as: opt.As}}
	v.report.File = name
	v.report.RunList = []RunReport{}
	return v, nil
}

func (v *Validator) diag(line int, sev jsonl.Severity, field, msg string) {
	if sev == jsonl.SevError {
		v.report.Errors++
	} else {
		v.report.Warnings++
	}
	v.emit(jsonl.Diagnostic{File: v.report.File, Line: line, Severity: sev, Field: field, Message: msg})
}

// unfinished is the severity of a run cut short.
func (v *Validator) unfinished() jsonl.Severity {
	if v.opt.AllowUnfinished {
		return jsonl.SevWarning
	}
	return jsonl.SevError
}

// Line checks one line.
func (v *Validator) Line(l jsonl.Line) {
	v.check(&v.lines.dec, &v.ld, l, &v.cur)
	v.apply(&v.cur)
}

// checked is a line decoded: what depends on no other line (check), so
// that Stream's reading goroutine does it, ahead of apply. (The schema's
// fast path depends on no other line either, but Stream's goroutines are
// even with it in apply: the decoding and the schema take about as long.)
type checked struct {
	decoded
	nonBlank bool
	dialect  *zevent.Dialect // of the dialect path; nil for a protocol's line
}

// check reads l into c with dec, and names its dialect with ld. It
// changes nothing of v.
func (v *Validator) check(dec *protocol.Decoder, ld *lineDialects, l jsonl.Line, c *checked) {
	decode(dec, v.lines.as, l, &c.decoded)
	c.nonBlank = !jsonl.IsBlank(l.Bytes)
	c.dialect = nil
	switch {
	case c.blank || c.err != nil || v.lines.as != nil:
	case v.opt.Dialect != nil:
		c.dialect = v.opt.Dialect
	default:
		c.dialect = ld.of(l.Bytes, &c.decoded)
	}
}

// apply checks what a line is in the stream, and words its problems.
func (v *Validator) apply(c *checked) {
	v.report.Lines++
	if c.nonBlank {
		v.last = c.num
	}
	if c.dialect != nil {
		v.dialectLine(c)
		return
	}
	if !c.blank && c.err == nil {
		v.leaveDialects(c.num, c.proto.Name)
	}
	ev, lerr := v.lines.place(&c.decoded)
	if lerr != nil {
		v.diag(c.num, jsonl.SevError, "", lerr.Error())
		return
	}
	if ev == nil {
		return
	}
	v.report.Events++
	v.report.Protocol = v.lines.protocols()
	prefix := prefixOr(ev.typ)
	for _, tok := range ev.obj.NonFinite {
		v.diag(c.num, jsonl.SevWarning, prefix, protocol.NonFiniteMessage(tok))
	}
	if ev.obj.Dup != "" {
		v.diag(c.num, jsonl.SevWarning, prefix, protocol.DuplicateMessage(ev.obj.Dup))
	}
	v.schema(ev)
	if r := ev.step.Closed; r != nil {
		v.closed(c.num, r, ev)
	}
	if ev.step.Start {
		v.zero.calls, v.evo.calls, v.evo.pending, v.evo.subCalls = map[string]bool{}, map[string]bool{}, map[string]int{}, map[string]bool{}
		v.evo.text.Reset()
		v.zero.reported = false
	}
	switch ev.proto.Family {
	case protocol.FamilyZero:
		v.zero.line(v, ev)
	case protocol.FamilyEvoSci:
		v.evo.line(v, ev)
	case protocol.FamilyZeroInput:
		v.input.line(ev.obj)
	}
	if ev.step.End {
		v.ended(ev.step.Run)
	}
}

// schema checks the line against its protocol's JSON Schema: what the
// fast path does not accept goes to the general validator, which words
// the problems.
func (v *Validator) schema(ev *event) {
	sch, err := schemaFor(ev.proto)
	if err != nil {
		v.diag(ev.num, jsonl.SevError, "", err.Error())
		return
	}
	if !v.general && sch.fast.accepts(ev.obj, ev.typ) {
		return
	}
	dec := json.NewDecoder(strings.NewReader(ev.obj.Raw))
	dec.UseNumber()
	var val any
	if err := dec.Decode(&val); err != nil { // the decoder checked the line
		v.diag(ev.num, jsonl.SevError, "", "not valid JSON: "+err.Error())
		return
	}
	if errs := sch.validate(val, ev.typ); errs != nil {
		for _, p := range schemaProblems(errs, ev.typ, ev.proto) {
			v.diag(ev.num, jsonl.SevError, p.field, p.msg)
		}
	}
}

// ended records a run that is over (a late done may still extend it).
func (v *Validator) ended(r *protocol.Run) {
	v.report.Runs++
	v.runs = append(v.runs, runRef{p: r})
}

// closed reports a run cut short before the event ev.
func (v *Validator) closed(line int, r *protocol.Run, ev *event) {
	v.ended(r)
	switch {
	case r.Cut == protocol.CutRunStart:
		if !v.zero.reported || r.Started {
			v.diag(line, jsonl.SevError, "run_start", fmt.Sprintf("run %s (line %d) has no run_end before this run_start", protocol.Quote(r.ID), r.FirstLine))
		}
	case r.Cut == protocol.CutRunID:
		v.diag(line, jsonl.SevError, prefixOr(ev.typ)+".runId", fmt.Sprintf("%s differs from the run's runId %s (line %d)", protocol.Quote(ev.obj.Str("runId")), protocol.Quote(r.ID), r.FirstLine))
	case r.Cut == protocol.CutOtherProtocol:
		v.cutByOther(line, r, ev.proto.Name)
	}
}

// cutByOther reports the run r cut by a line of the protocol or dialect
// called name.
func (v *Validator) cutByOther(line int, r *protocol.Run, name string) {
	switch r.Protocol.Family {
	case protocol.FamilyZero:
		v.diag(line, v.unfinished(), "", fmt.Sprintf("a line of %s starts a new run inside run %s (line %d): no run_end", name, protocol.Quote(r.ID), r.FirstLine))
	case protocol.FamilyEvoSci:
		v.diag(line, jsonl.SevWarning, "", fmt.Sprintf("a line of %s starts a new run inside the run that began at line %d: no done or error", name, r.FirstLine))
	}
}

// End applies the rules about the end of the input and returns the report.
func (v *Validator) End() FileReport {
	v.endDialects()
	if r := v.lines.runs.End(); r != nil {
		v.ended(r)
		switch r.Protocol.Family {
		case protocol.FamilyZero:
			// A run whose start was already found wrong is not reported again.
			if r.Started || !v.zero.reported {
				v.diag(v.last, v.unfinished(), "", fmt.Sprintf("the input ends inside run %s (line %d): no run_end", protocol.Quote(r.ID), r.FirstLine))
			}
		case protocol.FamilyEvoSci:
			// EvoScientist itself ends a cancelled run this way (Ctrl-C
			// writes neither done nor error), so it is real output: a
			// warning. Zero always writes run_end, even when interrupted.
			v.diag(v.last, jsonl.SevWarning, "", fmt.Sprintf("the input ends inside the run that began at line %d: no done or error (the run was cancelled or cut short)", r.FirstLine))
		}
	}
	switch {
	case v.report.Events == 0:
		if v.report.Errors == 0 {
			v.diag(max(v.last, 1), jsonl.SevWarning, "", "no events")
		}
	case v.input.seen:
		v.input.end(v)
	}
	for _, r := range v.runs {
		v.report.RunList = append(v.report.RunList, r.report())
	}
	v.runs = nil
	return v.report
}

// Validate reads r to the end and validates it. An error is a read error,
// or the error of opt.Idle.
func Validate(r io.Reader, name string, opt ValidateOptions, emit func(jsonl.Diagnostic)) (FileReport, error) {
	return validate(r, name, opt, emit, false)
}

// validate is Validate, with every line through the general schema
// validator when general is set.
func validate(r io.Reader, name string, opt ValidateOptions, emit func(jsonl.Diagnostic), general bool) (FileReport, error) {
	v, err := NewValidator(name, opt, emit)
	if err != nil {
		return FileReport{}, err
	}
	v.general = general
	err = v.Stream(r, name, nil, opt.Idle)
	return v.End(), err
}

// zeroRules holds the stream rules of Zero output that the run tracker
// does not decide: a run starts with run_start (or, a failure before the
// run started, is error and run_end alone), keeps one schema version, and
// tool results answer earlier tool calls of their run.
type zeroRules struct {
	reported bool            // "before run_start" already said for the open run
	version  string          // schemaVersion of the open run's first event
	calls    map[string]bool // tool call ids of the open run
	ended    map[string]int  // runId → line of its run_end, for "after run_end"
	used     map[string]int  // runId → line where its run began
}

func (z *zeroRules) line(v *Validator, ev *event) {
	r, typ, line := ev.step.Run, ev.typ, ev.num
	if ev.step.Start {
		// A run begun by an event of another runId was reported as such.
		c := ev.step.Closed
		byID := c != nil && c.Cut == protocol.CutRunID
		// Events after a run_end that carry its runId are reported below;
		// so was a run cut just now that had the same runId.
		if prev, ok := z.used[r.ID]; ok && r.ID != "" && !byID && (c == nil || c.ID != r.ID) && (r.Started || z.ended[r.ID] == 0) {
			v.diag(line, jsonl.SevWarning, "", fmt.Sprintf("runId %s was already used by the run at line %d", protocol.Quote(r.ID), prev))
		}
		if z.used == nil {
			z.used = map[string]int{}
		}
		z.used[r.ID] = line
		z.version = ev.obj.Peek("schemaVersion").Raw
		if !r.Started {
			switch {
			case z.ended[r.ID] > 0:
				v.diag(line, jsonl.SevError, prefixOr(typ), fmt.Sprintf("comes after the run_end of run %s (line %d)", protocol.Quote(r.ID), z.ended[r.ID]))
				z.reported = true
			case typ == "error" || typ == "run_end":
				// Zero reports a failure before the run starts as error + run_end.
			case byID:
				z.reported = true
			default:
				v.diag(line, jsonl.SevError, prefixOr(typ), "comes before run_start (a Zero run starts with run_start)")
				z.reported = true
			}
		}
	} else {
		if version := ev.obj.Peek("schemaVersion").Raw; version != z.version && isVersion(version) && isVersion(z.version) {
			v.diag(line, jsonl.SevError, prefixOr(typ)+".schemaVersion", fmt.Sprintf("%s in a run that began with schemaVersion %s (line %d)", version, z.version, r.FirstLine))
		}
		if !r.Started && !z.reported && typ != "error" && typ != "run_end" {
			v.diag(line, jsonl.SevError, prefixOr(typ), "comes before run_start (a Zero run starts with run_start)")
			z.reported = true
		}
	}
	switch typ {
	case "tool_call":
		if cid := ev.obj.Str("id"); cid != "" {
			z.calls[cid] = true
		}
	case "tool_result":
		if id := ev.obj.Get("id"); id.Exists() && id.Str != "" && !z.calls[id.Str] {
			v.diag(line, jsonl.SevError, "tool_result.id", protocol.Quote(id.Str)+" answers no earlier tool_call of this run")
		}
	case "run_end":
		if z.ended == nil {
			z.ended = map[string]int{}
		}
		z.ended[r.ID] = line
	}
}

func isVersion(s string) bool { return s == "1" || s == "2" }

// evoRules holds the stream rules of EvoScientist the run tracker does not
// decide: one done per run, tool results answer earlier tool calls, done
// carries the run's text.
type evoRules struct {
	calls    map[string]bool
	pending  map[string]int // tool name → calls not yet answered, for results without id
	subCalls map[string]bool
	text     strings.Builder
	lastDone int // line of the done that ended the previous run, 0 when not right before
}

func (e *evoRules) line(v *Validator, ev *event) {
	o, typ, line := ev.obj, ev.typ, ev.num
	lastDone := e.lastDone
	e.lastDone = 0
	if ev.step.Late {
		// A done after the error that ended its run: the protocol allows both.
		checkDone(v, o, line)
		return
	}
	switch typ {
	case "text":
		e.text.WriteString(o.Str("content"))
	case "tool_call":
		if id := o.Str("id"); id != "" {
			e.calls[id] = true
		}
		e.pending[o.Str("name")]++
	case "tool_result":
		name := o.Str("name")
		id := o.Get("id")
		switch {
		case id.Exists() && !e.calls[id.Str]:
			v.diag(line, jsonl.SevError, "tool_result.id", protocol.Quote(id.Str)+" answers no earlier tool_call of this run")
		case !id.Exists() && e.pending[name] == 0:
			v.diag(line, jsonl.SevError, "tool_result", "has no id and answers no earlier tool_call named "+protocol.Quote(name))
		}
		if e.pending[name] > 0 {
			e.pending[name]--
		}
	case "subagent_tool_call":
		if id := o.Str("id"); id != "" {
			e.subCalls[id] = true
		}
	case "subagent_tool_result":
		if id := o.Get("id"); id.Exists() && !e.subCalls[id.Str] {
			v.diag(line, jsonl.SevError, "subagent_tool_result.id", protocol.Quote(id.Str)+" answers no earlier subagent_tool_call of this run")
		}
	case "done":
		if ev.step.Start && lastDone > 0 {
			v.diag(line, jsonl.SevError, "done", fmt.Sprintf("a second done right after the done at line %d (a run ends with one done)", lastDone))
			e.lastDone = line
			return
		}
		if checkDone(v, o, line) {
			if got, response := e.text.String(), o.Str("response"); response != got {
				v.diag(line, jsonl.SevWarning, "done.response", fmt.Sprintf("differs from the run's text events joined (%d characters against %d)", utf8.RuneCountInString(response), utf8.RuneCountInString(got)))
			}
		}
		e.lastDone = line
	}
}

// checkDone checks that done's content and response agree; it reports
// whether both are strings.
func checkDone(v *Validator, o *protocol.Object, line int) bool {
	c, r := o.Get("content"), o.Get("response")
	if !c.Exists() || !r.Exists() || c.Raw[0] != '"' || r.Raw[0] != '"' {
		return false
	}
	if c.Str != r.Str {
		v.diag(line, jsonl.SevError, "done", "content and response differ (EvoScientist writes the same text in both)")
	}
	return true
}

// inputRules holds what Zero requires of a whole input: at least one event
// with non-blank content.
type inputRules struct {
	seen, content bool
}

func (in *inputRules) line(o *protocol.Object) {
	in.seen = true
	if s := o.Str("content"); strings.TrimFunc(s, unicode.IsSpace) != "" {
		in.content = true
	}
}

func (in *inputRules) end(v *Validator) {
	if !in.content {
		v.diag(v.last, jsonl.SevError, "", "no event has non-blank content: Zero needs at least one prompt or user message")
	}
}
