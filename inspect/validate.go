package inspect

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// Severity grades a diagnostic. Only errors make a stream invalid.
type Severity string

const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
)

// Diagnostic is one finding about one line.
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Severity Severity `json:"severity"`
	Field    string   `json:"field,omitempty"` // TYPE.path of the field at fault
	Message  string   `json:"message"`
}

// String formats d as FILE:LINE: [warning: ]FIELD: MESSAGE.
func (d Diagnostic) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d: ", d.File, d.Line)
	if d.Severity == SevWarning {
		b.WriteString("warning: ")
	}
	if d.Field != "" {
		b.WriteString(d.Field)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// ValidateOptions configure validation.
type ValidateOptions struct {
	// As is the protocol every line is checked against; Auto detects it
	// from the first event of each input (and, for Zero, reads each line's
	// schemaVersion).
	As Protocol
	// AllowUnfinished accepts an input that ends inside a run (a stream
	// still being written, or a run that was cancelled): a warning instead
	// of an error.
	AllowUnfinished bool
	// Idle, if not nil, is called whenever reading would wait for more
	// input, so diagnostics of a live stream can be flushed.
	Idle func() error
}

// FileReport sums up one validated input.
type FileReport struct {
	File     string `json:"file"`
	Protocol string `json:"protocol"` // as detected or given; "" when no event was read
	Lines    int    `json:"lines"`
	Events   int    `json:"events"`
	Runs     int    `json:"runs"`
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
}

// Validator checks the lines of one input against the protocol's JSON
// Schema and the stream rules a schema cannot express. It is not safe for
// concurrent use.
type Validator struct {
	opt    ValidateOptions
	proto  Protocol
	emit   func(Diagnostic)
	report FileReport
	last   int // number of the last non-blank line

	zero  zeroRuns
	evo   evoRuns
	input inputRules
}

// NewValidator returns a validator of the input named name that passes
// each diagnostic to emit, in line order.
func NewValidator(name string, opt ValidateOptions, emit func(Diagnostic)) (*Validator, error) {
	if _, err := schemaFor(Zero); err != nil {
		return nil, err
	}
	v := &Validator{opt: opt, proto: opt.As, emit: emit}
	v.report.File = name
	if opt.As != Auto {
		v.report.Protocol = opt.As.String()
	}
	return v, nil
}

func (v *Validator) diag(line int, sev Severity, field, msg string) {
	if sev == SevError {
		v.report.Errors++
	} else {
		v.report.Warnings++
	}
	v.emit(Diagnostic{File: v.report.File, Line: line, Severity: sev, Field: field, Message: msg})
}

// unfinished is the severity of an input that ends inside a run.
func (v *Validator) unfinished() Severity {
	if v.opt.AllowUnfinished {
		return SevWarning
	}
	return SevError
}

// Line checks one line.
func (v *Validator) Line(l jsonl.Line) {
	v.report.Lines++
	if jsonl.IsBlank(l.Bytes) {
		return
	}
	v.last = l.Num
	if !utf8.Valid(l.Bytes) {
		v.diag(l.Num, SevError, "", "invalid UTF-8")
		return
	}
	val, nf, err := decodeLine(l.Bytes)
	if err != nil {
		v.diag(l.Num, SevError, "", jsonError(l.Bytes, err))
		return
	}
	obj, ok := val.(map[string]any)
	if !ok {
		v.diag(l.Num, SevError, "", "not a JSON object")
		return
	}
	v.report.Events++
	typ, _ := obj["type"].(string)
	prefix := typ
	if prefix == "" {
		prefix = "event"
	}
	for _, n := range nf {
		field := prefix
		if n.path != "" {
			field = prefix + "." + n.path
		}
		v.diag(l.Num, SevError, field, "bare "+n.token+" is not JSON (Python writes a non-finite float so); checked as null")
	}
	if nf == nil {
		if dup := duplicateKey(l.Bytes); dup != "" {
			v.diag(l.Num, SevWarning, prefix, "duplicate field "+quote(dup)+" (readers keep the last one)")
		}
	}
	if v.proto == Auto {
		v.proto = detect(obj)
		v.report.Protocol = v.proto.String()
	}
	lineProto := v.proto
	if v.opt.As == Auto && v.proto.isZero() {
		if d := detect(obj); d.isZero() {
			lineProto = d
		}
	}
	sch, err := schemaFor(lineProto)
	if err != nil {
		v.diag(l.Num, SevError, "", err.Error())
		return
	}
	if errs := sch.validate(val, typ); errs != nil {
		for _, p := range schemaProblems(errs, typ, lineProto) {
			v.diag(l.Num, SevError, p.field, p.msg)
		}
	}
	switch {
	case v.proto.isZero():
		v.zero.line(v, l.Num, obj, typ)
	case v.proto == EvoSci:
		v.evo.line(v, l.Num, obj, typ)
	case v.proto == ZeroInput:
		v.input.line(obj)
	}
}

// End applies the rules about the end of the input and returns the report.
func (v *Validator) End() FileReport {
	switch {
	case v.report.Events == 0:
		if v.report.Errors == 0 {
			v.diag(max(v.last, 1), SevWarning, "", "no events")
		}
	case v.proto.isZero():
		v.zero.end(v)
		v.report.Runs = v.zero.runs
	case v.proto == EvoSci:
		v.evo.end(v)
		v.report.Runs = v.evo.runs
	case v.proto == ZeroInput:
		v.input.end(v)
	}
	return v.report
}

// Validate reads r to the end and validates it. An error is a read error,
// or the error of opt.Idle.
func Validate(r io.Reader, name string, opt ValidateOptions, emit func(Diagnostic)) (FileReport, error) {
	v, err := NewValidator(name, opt, emit)
	if err != nil {
		return FileReport{}, err
	}
	lr := jsonl.NewReader(r, name, opt.Idle)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return v.End(), err
		}
		v.Line(l)
	}
	return v.End(), nil
}

// duplicateKey returns the first top-level key that occurs twice in a JSON
// object, or "".
func duplicateKey(b []byte) string {
	var seen map[string]bool
	dup := ""
	gjson.ParseBytes(b).ForEach(func(k, _ gjson.Result) bool {
		if seen == nil {
			seen = map[string]bool{}
		}
		if seen[k.Str] {
			dup = k.Str
			return false
		}
		seen[k.Str] = true
		return true
	})
	return dup
}

func str(obj map[string]any, key string) string {
	s, _ := obj[key].(string)
	return s
}

// zeroRuns holds the stream rules of Zero output: each run is run_start …
// run_end with one runId, or (a failure before the run started) error and
// run_end alone; tool results answer earlier tool calls of their run.
type zeroRuns struct {
	open     bool
	id       string
	start    int  // line of the run's first event
	started  bool // the run has a run_start
	reported bool // "before run_start" already said for this run
	version  string
	calls    map[string]bool
	ended    map[string]int // runId → line of its run_end, for "after run_end"
	used     map[string]int // runId → line where its run began
	runs     int
}

func (z *zeroRuns) begin(v *Validator, line int, id string, started bool, version string) {
	// Events after a run_end that carry its runId were reported already.
	if prev, ok := z.used[id]; ok && id != "" && (started || z.ended[id] == 0) {
		v.diag(line, SevWarning, "", fmt.Sprintf("runId %s was already used by the run at line %d", quote(id), prev))
	}
	if z.used == nil {
		z.used = map[string]int{}
	}
	z.used[id] = line
	z.open, z.id, z.start, z.started, z.reported, z.version = true, id, line, started, false, version
	z.calls = map[string]bool{}
	z.runs++
}

func (z *zeroRuns) line(v *Validator, line int, obj map[string]any, typ string) {
	id := str(obj, "runId")
	version := ""
	if n, ok := obj["schemaVersion"].(json.Number); ok {
		version = n.String()
	}
	if typ == "run_start" {
		switch {
		case z.open && !z.started && z.id == id:
			// Events came before their run_start; that was said already.
			z.started = true
			return
		case z.open && (z.started || !z.reported):
			v.diag(line, SevError, "run_start", fmt.Sprintf("run %s (line %d) has no run_end before this run_start", quote(z.id), z.start))
		}
		z.begin(v, line, id, true, version)
		return
	}
	if !z.open {
		reported := true
		switch {
		case z.ended[id] > 0:
			v.diag(line, SevError, prefixOr(typ), fmt.Sprintf("comes after the run_end of run %s (line %d)", quote(id), z.ended[id]))
		case typ == "error" || typ == "run_end":
			// Zero reports a failure before the run starts as error + run_end.
			reported = false
		default:
			v.diag(line, SevError, prefixOr(typ), "comes before run_start (a Zero run starts with run_start)")
		}
		z.begin(v, line, id, false, version)
		z.reported = reported
	} else {
		if id != z.id {
			v.diag(line, SevError, prefixOr(typ)+".runId", fmt.Sprintf("%s differs from the run's runId %s (line %d)", quote(id), quote(z.id), z.start))
		}
		if version != z.version && isVersion(version) && isVersion(z.version) {
			v.diag(line, SevError, prefixOr(typ)+".schemaVersion", fmt.Sprintf("%s in a run that began with schemaVersion %s (line %d)", version, z.version, z.start))
		}
		if !z.started && !z.reported && typ != "error" && typ != "run_end" {
			v.diag(line, SevError, prefixOr(typ), "comes before run_start (a Zero run starts with run_start)")
			z.reported = true
		}
	}
	switch typ {
	case "tool_call":
		if cid := str(obj, "id"); cid != "" {
			z.calls[cid] = true
		}
	case "tool_result":
		if cid, ok := obj["id"].(string); ok && !z.calls[cid] {
			v.diag(line, SevError, "tool_result.id", quote(cid)+" answers no earlier tool_call of this run")
		}
	case "run_end":
		if z.ended == nil {
			z.ended = map[string]int{}
		}
		z.ended[z.id] = line
		z.open = false
	}
}

func (z *zeroRuns) end(v *Validator) {
	// A run whose start was already found wrong is not reported again.
	if z.open && (z.started || !z.reported) {
		v.diag(v.last, v.unfinished(), "", fmt.Sprintf("the input ends inside run %s (line %d): no run_end", quote(z.id), z.start))
		z.open = false
	}
}

func isVersion(s string) bool { return s == "1" || s == "2" }

func prefixOr(typ string) string {
	if typ == "" {
		return "event"
	}
	return typ
}

// evoRuns holds the stream rules of EvoScientist: a run ends with one done
// (or, when it failed, with error); tool results answer earlier tool calls;
// done carries the run's text.
type evoRuns struct {
	open     bool
	start    int
	calls    map[string]bool
	pending  map[string]int // tool name → calls not yet answered, for results without id
	subCalls map[string]bool
	text     strings.Builder
	lastEnd  string // "done" or "error": how the previous run ended
	lastLine int    // line of that end
	afterEnd bool   // nothing came since that end
	runs     int
}

func (e *evoRuns) begin(line int) {
	e.open, e.start = true, line
	e.calls, e.pending, e.subCalls = map[string]bool{}, map[string]int{}, map[string]bool{}
	e.text.Reset()
	e.runs++
}

func (e *evoRuns) line(v *Validator, line int, obj map[string]any, typ string) {
	if typ == "done" && e.afterEnd {
		if e.lastEnd == "done" {
			v.diag(line, SevError, "done", fmt.Sprintf("a second done right after the done at line %d (a run ends with one done)", e.lastLine))
		}
		// After error, a done may follow: the protocol allows both.
		e.afterEnd = false
		if c, ok := obj["content"].(string); ok {
			if r, ok := obj["response"].(string); ok && c != r {
				v.diag(line, SevError, "done", "content and response differ (EvoScientist writes the same text in both)")
			}
		}
		return
	}
	e.afterEnd = false
	if !e.open {
		e.begin(line)
	}
	switch typ {
	case "text":
		if s, ok := obj["content"].(string); ok {
			e.text.WriteString(s)
		}
	case "tool_call":
		if id := str(obj, "id"); id != "" {
			e.calls[id] = true
		}
		e.pending[str(obj, "name")]++
	case "tool_result":
		name := str(obj, "name")
		id, hasID := obj["id"].(string)
		switch {
		case hasID && !e.calls[id]:
			v.diag(line, SevError, "tool_result.id", quote(id)+" answers no earlier tool_call of this run")
		case !hasID && e.pending[name] == 0:
			v.diag(line, SevError, "tool_result", "has no id and answers no earlier tool_call named "+quote(name))
		}
		if e.pending[name] > 0 {
			e.pending[name]--
		}
	case "subagent_tool_call":
		if id := str(obj, "id"); id != "" {
			e.subCalls[id] = true
		}
	case "subagent_tool_result":
		if id, ok := obj["id"].(string); ok && !e.subCalls[id] {
			v.diag(line, SevError, "subagent_tool_result.id", quote(id)+" answers no earlier subagent_tool_call of this run")
		}
	case "done":
		content, cok := obj["content"].(string)
		response, rok := obj["response"].(string)
		if cok && rok {
			if content != response {
				v.diag(line, SevError, "done", "content and response differ (EvoScientist writes the same text in both)")
			}
			if got := e.text.String(); response != got {
				v.diag(line, SevWarning, "done.response", fmt.Sprintf("differs from the run's text events joined (%d characters against %d)", utf8.RuneCountInString(response), utf8.RuneCountInString(got)))
			}
		}
		e.close(line, "done")
	case "error":
		e.close(line, "error")
	}
}

func (e *evoRuns) close(line int, how string) {
	e.open, e.lastEnd, e.lastLine, e.afterEnd = false, how, line, true
}

func (e *evoRuns) end(v *Validator) {
	if e.open {
		v.diag(v.last, v.unfinished(), "", fmt.Sprintf("the input ends inside the run that began at line %d: no done or error (the run was cancelled or cut short)", e.start))
		e.open = false
	}
}

// inputRules holds what Zero requires of a whole input: at least one event
// with non-blank content.
type inputRules struct {
	content bool
}

func (in *inputRules) line(obj map[string]any) {
	if s, ok := obj["content"].(string); ok && strings.TrimFunc(s, unicode.IsSpace) != "" {
		in.content = true
	}
}

func (in *inputRules) end(v *Validator) {
	if !in.content {
		v.diag(v.last, SevError, "", "no event has non-blank content: Zero needs at least one prompt or user message")
	}
}
