package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects"
	zevent "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// validate reads every line as every command does: its dialect through
// the registry (event.Input: dialects.All, with event.Detector's rule for
// a line several dialects may write), its events from the dialect's
// decoder, placed in runs by the run rules every dialect shares
// (event/runs.go), so that validate and stats agree on an input's runs.
// Each line is checked against its schema (the dialect's, the one its
// events' Variant names), then its events against the dialect's stream
// rules (event.Dialect's NewRules, else the rules every dialect shares,
// sharedRules).

// ValidateOptions configure validation.
type ValidateOptions struct {
	// Dialect, when not nil, is the dialect of every line, and Schema,
	// when not nil, one of its schemas, which every line is checked
	// against (nil: each line's own). Nil: the registry names each line's
	// dialect.
	Dialect *zevent.Dialect
	Schema  *zevent.Schema
	// AllowUnfinished accepts a run cut short (the input ends inside it,
	// or a line of another dialect comes): a warning instead of an error,
	// for the dialects whose producers always end their runs.
	AllowUnfinished bool
	// Idle, if not nil, is called whenever reading would wait for more
	// input, so diagnostics of a live stream can be flushed.
	Idle func() error
}

// RunReport is one run as validate, stats and view all see it.
type RunReport struct {
	Protocol  string `json:"protocol"` // the name of its first line's schema, else its dialect
	ID        string `json:"id,omitempty"`
	FirstLine int    `json:"firstLine"`
	LastLine  int    `json:"lastLine"`
	// Status is the producer's own word for how it ended when it has one
	// (the event's StatusWord: a stated status, the word of the line
	// that ends it), else the event model's; "incomplete" when cut short.
	Status string `json:"status"`
	Cut    string `json:"cut,omitempty"` // why it was cut short
}

// FileReport sums up one validated input.
type FileReport struct {
	File     string      `json:"file"`
	Protocol string      `json:"protocol"` // the schemas (else dialects) of its lines, in order; "" when no event was read
	Lines    int         `json:"lines"`
	Events   int         `json:"events"`
	Runs     int         `json:"runs"`
	RunList  []RunReport `json:"runList"`
	Errors   int         `json:"errors"`
	Warnings int         `json:"warnings"`
}

// Validator checks the lines of one input against their dialect's JSON
// Schema and the stream rules a schema cannot express. It is not safe for
// concurrent use.
type Validator struct {
	opt    ValidateOptions
	emit   func(jsonl.Diagnostic)
	report FileReport
	last   int // number of the last non-blank line
	dec    jsonl.Decoder
	cur    checked // the line Line checks
	names  []string

	in      *zevent.Input
	evs     []zevent.Event // of the line being applied
	steps   []zevent.Step
	collect func(*zevent.Event, zevent.Step)

	chk      zevent.Check
	rules    map[string]zevent.Rules // by dialect name, in rulesOrder
	order    []zevent.Rules
	lastName string // of rulesOf's last answer
	lastRule zevent.Rules

	schemas  map[*zevent.Schema]*compiledSchema
	listOf   *zevent.Dialect // the dialect whose SchemaList is list
	list     []*zevent.Schema
	lineName string // the name of the line being applied (its schema's, else its dialect's)

	runs     []runRef // the runs that ended
	openRun  *zevent.Run
	openName string

	general   bool // every line through the general schema validator (for tests of the fast path)
	fastLines int  // lines the fast path accepted, for its tests

	reader atomic.Pointer[jsonl.Reader] // Stream's, for Pending
	// guess is the schema the last line applied was held to: Stream's
	// reading goroutine tries each line on its fast path ahead (check),
	// and apply takes that answer when the line's schema is the same.
	guess      atomic.Pointer[compiledSchema]
	aheadLines int // lines whose fast path answer check gave (tests)
}

// runRef is a run that ended, for the report (a late line may still
// extend it).
type runRef struct {
	r          *zevent.Run
	name, word string
}

// NewValidator returns a validator of the input named name that passes
// each diagnostic to emit, in line order.
func NewValidator(name string, opt ValidateOptions, emit func(jsonl.Diagnostic)) (*Validator, error) {
	return newValidator(name, opt, emit, true)
}

// newValidator is NewValidator; skipText has the decoders leave out the
// texts no dialect's rules read (event.DecodeOptions.SkipText): false
// is the reference its tests hold it to.
func newValidator(name string, opt ValidateOptions, emit func(jsonl.Diagnostic), skipText bool) (*Validator, error) {
	v := &Validator{opt: opt, emit: emit, rules: map[string]zevent.Rules{}, schemas: map[*zevent.Schema]*compiledSchema{}}
	v.report.File = name
	v.report.RunList = []RunReport{}
	if d := opt.Dialect; d != nil {
		dopt := dialects.DecodeOptions()
		dopt.SkipText = skipText
		v.in = zevent.NewInput([]*zevent.Dialect{d}, d, dopt)
	} else {
		v.in = dialects.NewInput(zevent.DecodeOptions{SkipText: skipText})
	}
	v.collect = func(ev *zevent.Event, s zevent.Step) {
		v.evs = append(v.evs, *ev)
		v.steps = append(v.steps, s)
	}
	v.chk = zevent.Check{Report: v.diag, Unfinished: jsonl.SevError}
	if opt.AllowUnfinished {
		v.chk.Unfinished = jsonl.SevWarning
	}
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

// Line checks one line.
func (v *Validator) Line(l jsonl.Line) {
	v.check(l, &v.cur)
	v.tryFast(&v.cur)
	v.apply(&v.cur)
}

// checked is a line read: what depends on no other line (check), so
// that Stream's reading goroutine does it, ahead of apply.
type checked struct {
	num     int
	blank   bool
	raw     []byte // the line, a copy
	typ     string
	decoded bool // obj and err hold the protocol decoder's reading (decode)
	err     *jsonl.LineError
	obj     jsonl.LineObject
	// line is raw read once, on the reading goroutine (Stream); ok says
	// it is one JSON object.
	line zevent.Line
	ok   bool
	// plain: ok, and event.Line read each member as written (no key
	// escaped), once: decode has nothing to add of it.
	plain bool
	// fastBy is the schema whose fast path tryFast tried the line on
	// (nil: none), fastOK its answer; top is the line as the fast path
	// reads it (here, not allocated for each line).
	fastBy *compiledSchema
	fastOK bool
	top    top
}

// check reads l into c. It changes nothing of v.
func (v *Validator) check(l jsonl.Line, c *checked) {
	c.num, c.typ, c.decoded, c.err = l.Num, "", false, nil
	c.ok, c.plain, c.fastBy = false, false, nil
	if c.blank = jsonl.IsBlank(l.Bytes); !c.blank {
		c.raw = bytes.Clone(l.Bytes)
		c.line.ReadOwned(c.raw)
		c.ok = c.line.Check()
		c.plain = !v.general && c.ok && plainLine(&c.line)
	}
}

// tryFast tries c, a line check read, on the fast path of the schema the
// last line applied was held to, for apply to take that answer when the
// line's schema is the same. It changes nothing of v: Stream's worker
// runs it, ahead of apply.
func (v *Validator) tryFast(c *checked) {
	c.fastBy = nil
	if g := v.guess.Load(); g != nil && g.fast != nil && c.plain {
		typ, _ := c.line.Type()
		c.fastBy, c.fastOK = g, g.fast.accepts(&c.top, &c.line, typ)
	}
}

// decode reads c's line with the one decoder of a line's JSON, for what
// a line read once (event.Line) does not say: the wording of a bad line,
// NaN and a repeated key. It reports whether the line is good. Only the
// lines the plain path does not take come here, so the decoder's
// layouts, a shortcut for the commonest lines, would not pay.
func (v *Validator) decode(c *checked) bool {
	// obj.Keep: values taken from the line are kept (names, ids,
	// messages) after the reader reuses its buffer.
	c.obj.Keep, c.decoded = true, true
	if c.err = v.dec.Decode(c.raw, &c.obj); c.err != nil {
		return false
	}
	c.typ = c.obj.Str("type")
	return true
}

// apply checks what a line is in the stream, and words its problems: its
// schema's, then its decoder's, then its events' in their runs.
func (v *Validator) apply(c *checked) {
	v.report.Lines++
	if c.blank {
		return
	}
	v.last = c.num
	// Most lines are one object, read once for the schema's fast path
	// and the dialect's decoder; the others go through decode.
	plain := c.plain
	if plain {
		c.typ, _ = c.line.Type()
	} else if !v.decode(c) {
		v.diag(c.num, jsonl.SevError, "", c.err.Error())
		return
	}
	v.report.Events++
	v.evs, v.steps = v.evs[:0], v.steps[:0]
	line := c.raw
	if c.decoded && c.obj.Raw != string(line) {
		// The decoder's reading of the line (NaN read as null): the
		// dialect's decoder reads that, as the schema does.
		line = []byte(c.obj.Raw)
	}
	var derr error
	read := &c.line // the line the decoder read, for its fields
	if c.decoded && c.obj.Raw != string(c.raw) {
		derr = v.in.Line(line, c.num, v.collect)
		read = v.in.Checked()
	} else {
		// The line is c.raw, a copy of its own never written again (its
		// events' strings are cut from it); the events go straight into
		// v.evs, not copied there out of a callback.
		v.evs, v.steps, derr = v.in.AppendChecked(v.evs, v.steps, &c.line, c.num, nil)
	}
	dl := v.in.Dialect()
	sch := v.opt.Schema
	if sch == nil {
		variant := ""
		for i := range v.evs {
			if v.evs[i].Line == c.num {
				variant = v.evs[i].Variant
			}
		}
		if dl != v.listOf {
			v.listOf, v.list = dl, dl.SchemaList()
		}
		sch = schemaOf(v.list, variant)
	}
	v.lineName = dl.Name
	if sch != nil {
		v.lineName = sch.Name
	}
	if !slices.Contains(v.names, v.lineName) {
		v.names = append(v.names, v.lineName)
		v.report.Protocol = strings.Join(v.names, ", ")
	}
	if c.decoded {
		prefix := prefixOr(c.typ)
		for _, tok := range c.obj.NonFinite {
			v.diag(c.num, jsonl.SevWarning, prefix, jsonl.NonFiniteMessage(tok))
		}
		if c.obj.Dup != "" {
			v.diag(c.num, jsonl.SevWarning, prefix, jsonl.DuplicateMessage(c.obj.Dup))
		}
	}
	if bad := v.schema(c, sch, plain); derr != nil && !bad {
		v.rulesOf(dl.Name).Decoded(derr, c.num, &v.chk)
	}
	for i := range v.evs {
		v.event(&v.evs[i], v.steps[i], read, c.num)
	}
	clear(v.evs)
}

// plainLine reports a checked line whose members event.Line read as written
// (no key escaped), each once: decode has nothing to add of it.
func plainLine(l *zevent.Line) bool {
	_, ok := l.Fields()
	return ok && !l.Dup()
}

// schemaOf is the schema, of a dialect's list, of its lines whose events
// are of variant: the one it names, else the first; nil when there is
// none.
func schemaOf(list []*zevent.Schema, variant string) *zevent.Schema {
	if len(list) == 0 {
		return nil
	}
	for _, s := range list {
		if s.Name == variant {
			return s
		}
	}
	return list[0]
}

// event places one event's run in the report and checks it with its
// dialect's rules; f reads its line's fields.
func (v *Validator) event(ev *zevent.Event, s zevent.Step, f zevent.Fields, line int) {
	if s.Closed != nil {
		v.closed(s.Closed, ev, line)
	}
	if s.Start {
		v.openRun, v.openName = s.Run, v.lineName
	}
	v.rulesOf(ev.Dialect).Event(ev, s, f, line, &v.chk)
	if s.End {
		word := ev.StatusWord
		if word == "" {
			word = string(s.Run.Status)
		}
		v.ended(s.Run, word)
	}
}

// closed records the run r cut short before the event ev (nil at the
// end of the input) and has its dialect's rules word why.
func (v *Validator) closed(r *zevent.Run, ev *zevent.Event, line int) {
	v.ended(r, string(r.Status))
	v.rulesOf(r.Dialect).Cut(r, ev, line, &v.chk)
}

// ended records a run that is over.
func (v *Validator) ended(r *zevent.Run, word string) {
	name := r.Dialect
	if r == v.openRun {
		name = v.openName
		v.openRun = nil
	}
	v.report.Runs++
	v.runs = append(v.runs, runRef{r, name, word})
}

// rulesOf is the rules of the dialect called name for this input.
func (v *Validator) rulesOf(name string) zevent.Rules {
	if name == v.lastName && v.lastRule != nil {
		return v.lastRule
	}
	r := v.rules[name]
	if r == nil {
		r = &sharedRules{calls: map[string]bool{}}
		if d, ok := dialects.ByName(name); ok && d.NewRules != nil {
			r = d.NewRules()
		}
		v.rules[name] = r
		v.order = append(v.order, r)
	}
	v.lastName, v.lastRule = name, r
	return r
}

// noFields reads no field: the events the end of the input implies have
// no line of their own.
type noFields struct{}

func (noFields) Get(string) gjson.Result { return gjson.Result{} }

// End applies the rules about the end of the input and returns the report.
func (v *Validator) End() FileReport {
	v.lineName = ""
	v.in.End(func(ev *zevent.Event, s zevent.Step) {
		if ev == nil {
			v.closed(s.Closed, nil, v.last)
			return
		}
		v.event(ev, s, noFields{}, v.last)
	})
	if v.report.Events == 0 && v.report.Errors == 0 {
		v.diag(max(v.last, 1), jsonl.SevWarning, "", "no events")
	}
	for _, r := range v.order {
		r.End(v.last, &v.chk)
	}
	for _, ref := range v.runs {
		r := ref.r
		v.report.RunList = append(v.report.RunList, RunReport{Protocol: ref.name, ID: r.ID, FirstLine: r.FirstLine, LastLine: r.LastLine, Status: ref.word, Cut: cutWords[r.Cut]})
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

// schema checks the line against its schema, and reports whether it
// found a problem: what the fast path does not accept goes to the
// general validator, which words the problems.
func (v *Validator) schema(c *checked, s *zevent.Schema, plain bool) bool {
	if s == nil {
		return false
	}
	cs := v.schemas[s]
	if cs == nil {
		var err error
		if cs, err = compiledFor(s); err != nil {
			v.diag(c.num, jsonl.SevError, "", err.Error())
			return true
		}
		v.schemas[s] = cs
	}
	v.guess.Store(cs)
	if plain && cs.fast != nil {
		ok := c.fastOK
		if c.fastBy != cs {
			ok = cs.fast.accepts(&c.top, &c.line, c.typ)
		} else {
			v.aheadLines++
		}
		if ok {
			v.fastLines++
			return false
		}
	}
	var dec *json.Decoder
	if c.decoded {
		dec = json.NewDecoder(strings.NewReader(c.obj.Raw))
	} else {
		dec = json.NewDecoder(bytes.NewReader(c.raw))
	}
	dec.UseNumber()
	var val any
	if err := dec.Decode(&val); err != nil { // the decoder checked the line
		v.diag(c.num, jsonl.SevError, "", "not valid JSON: "+err.Error())
		return true
	}
	errs := cs.validate(val, c.typ)
	if errs == nil {
		return false
	}
	for _, p := range cs.problems(errs, c.typ, &s.Words) {
		v.diag(c.num, jsonl.SevError, p.field, p.msg)
	}
	return true
}

// The schemas are compiled when a line first needs one, once per
// process, so that no other command pays for them.
var compiledSchemas struct {
	mu sync.Mutex
	m  map[*zevent.Schema]*compiledSchema
}

func compiledFor(s *zevent.Schema) (*compiledSchema, error) {
	compiledSchemas.mu.Lock()
	defer compiledSchemas.mu.Unlock()
	if cs, ok := compiledSchemas.m[s]; ok {
		return cs, nil
	}
	cs, err := compileSchema(s.Text, s.Name)
	if err != nil {
		return nil, err
	}
	// What the fast path cannot compile, the general validator decides.
	cs.fast, _ = compileFast(s.Text)
	if compiledSchemas.m == nil {
		compiledSchemas.m = map[*zevent.Schema]*compiledSchema{}
	}
	compiledSchemas.m[s] = cs
	return cs, nil
}

// prefixOr is the field prefix of an event's diagnostics: its type, or
// "event".
func prefixOr(typ string) string {
	if typ == "" {
		return "event"
	}
	return typ
}

// sharedRules are the stream rules every dialect shares, for a dialect
// without rules of its own: tool results answer earlier tool calls of
// their run, and a run ends.
type sharedRules struct {
	calls map[string]bool // of the open run
}

func (d *sharedRules) Event(ev *zevent.Event, s zevent.Step, _ zevent.Fields, line int, c *zevent.Check) {
	if s.Start {
		clear(d.calls)
	}
	if s.Run != nil && ev.Tool != nil && ev.Tool.ID != "" {
		switch ev.Kind {
		case zevent.ToolCall:
			d.calls[ev.Tool.ID] = true
		case zevent.ToolResult:
			if !d.calls[ev.Tool.ID] {
				c.Report(ev.Line, jsonl.SevError, prefixOr(ev.Type), "tool result "+jsonl.Quote(ev.Tool.ID)+" answers no earlier tool call of this run")
			}
		}
	}
	if s.End && s.Run.Status == zevent.StatusIncomplete {
		// Its decoder knows the run was cut short.
		c.Report(line, c.Unfinished, prefixOr(ev.Type), "ends "+runName(s.Run)+" cut short: no end of run")
	}
}

func (d *sharedRules) Cut(r *zevent.Run, ev *zevent.Event, line int, c *zevent.Check) {
	switch r.Cut {
	case zevent.CutRunStart:
		c.Report(line, jsonl.SevError, prefixOr(ev.Type), fmt.Sprintf("starts a run inside %s: no end of run", runName(r)))
	case zevent.CutRunID:
		c.Report(line, jsonl.SevError, prefixOr(ev.Type), fmt.Sprintf("belongs to run %s, inside %s: no end of run", jsonl.Quote(ev.Run), runName(r)))
	case zevent.CutOtherDialect:
		c.Report(line, c.Unfinished, "", fmt.Sprintf("a line of %s starts a new run inside %s: no end of run", ev.Name(), runName(r)))
	case zevent.CutEndOfInput:
		c.Report(line, c.Unfinished, "", "the input ends inside "+runName(r)+": no end of run")
	}
}

// Decoded: the schema found nothing wrong, so what the decoder says is
// about the stream (a repeated line), not the line's form.
func (d *sharedRules) Decoded(err error, line int, c *zevent.Check) {
	c.Report(line, jsonl.SevWarning, "", err.Error())
}

func (d *sharedRules) End(int, *zevent.Check) {}

// runName names a run in a diagnostic.
func runName(r *zevent.Run) string {
	if r.ID == "" {
		return fmt.Sprintf("the run that began at line %d", r.FirstLine)
	}
	return fmt.Sprintf("run %s (line %d)", jsonl.Quote(r.ID), r.FirstLine)
}
