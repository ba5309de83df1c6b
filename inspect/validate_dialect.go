package inspect

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/zevo/zevo/dialects"
	zevent "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// validate reads each line's dialect through the registry (dialects.All,
// with event.Detector's rule for a line several dialects may write). A
// dialect that is one of package protocol's (its name is a protocol name)
// keeps the protocol path: protocol.Detect, the fast schemas, the Zero and
// EvoScientist stream rules. Every other dialect takes the dialect path:
// the line is checked against the dialect's own schema (event.Dialect's Schema),
// decoded by the dialect's decoder, and its events are placed in runs by
// zevent.Runs, whose rules hold for every dialect.

// DialectSchema is a dialect whose lines validate checks against a schema
// of its own.
type DialectSchema struct {
	Dialect *zevent.Dialect
	File    string // NAME.schema.json, its URL's last part
	Text    []byte
}

// dialectPath lists the dialects of the dialect path, each with its
// schema (Text nil when it ships none), in the registry's order.
var dialectPath = sync.OnceValue(func() map[*zevent.Dialect]*DialectSchema {
	m := map[*zevent.Dialect]*DialectSchema{}
	for _, d := range dialects.All {
		if _, err := protocol.Lookup(d.Name); err == nil {
			continue
		}
		ds := &DialectSchema{Dialect: d}
		if d.Schema != nil {
			ds.File, ds.Text = d.Name+".schema.json", d.Schema
		}
		m[d] = ds
	}
	return m
})

// DialectSchemas lists the dialects that ship a schema of their own, in
// the registry's order (the protocols' schemas are protocol.All's).
func DialectSchemas() []*DialectSchema {
	var out []*DialectSchema
	for _, d := range dialects.All {
		if ds := dialectPath()[d]; ds != nil && ds.Text != nil {
			out = append(out, ds)
		}
	}
	return out
}

// Title reads the schema's title.
func (ds *DialectSchema) Title() string {
	var head struct{ Title string }
	_ = json.Unmarshal(ds.Text, &head) // a shipped file; the tests compile it
	return head.Title
}

// LookupDialectSchema finds a dialect with a schema of its own by its
// name or an alias.
func LookupDialectSchema(name string) (*DialectSchema, bool) {
	d, ok := dialects.ByName(name)
	if !ok {
		return nil, false
	}
	ds := dialectPath()[d]
	return ds, ds != nil && ds.Text != nil
}

// ParseValidateAs reads validate's --as: "auto" (each line its own), a
// protocol, or a dialect with a schema of its own.
func ParseValidateAs(s string) (*protocol.Protocol, *zevent.Dialect, error) {
	p, err := ParseProtocol(s)
	if err == nil {
		return p, nil, nil
	}
	if ds, ok := LookupDialectSchema(s); ok {
		return nil, ds.Dialect, nil
	}
	var names []string
	for _, ds := range DialectSchemas() {
		names = append(names, ds.Dialect.Name)
	}
	return nil, nil, fmt.Errorf("%v, or a dialect: %s", err, strings.Join(names, ", "))
}

// lineDialects names each line's dialect for one input, as event.Input
// does: a line no dialect claims is the dialect of the lines before it,
// else dialects.Fallback's.
type lineDialects struct {
	// registryOnly asks the registry about every line without Zero's
	// schemaVersion (no ownFields shortcut): the plain path
	// TestValidateShortcutAsTheRegistry holds the shortcut to.
	registryOnly bool
	det          *zevent.Detector
	used         bool // det has read a line
	last         *zevent.Dialect
}

// protocolDialect is the registry's dialect of each protocol (the one
// whose name or alias is the protocol's name).
var protocolDialect = sync.OnceValue(func() map[*protocol.Protocol]*zevent.Dialect {
	m := map[*protocol.Protocol]*zevent.Dialect{}
	for _, p := range protocol.All {
		m[p], _ = dialects.ByName(p.Name)
	}
	return m
})

// notZero is the registry's list without the dialect of the lines with
// schemaVersion, which is sure of those and of no other line: a detector
// of the other lines need not ask it.
var notZero = sync.OnceValue(func() []*zevent.Dialect {
	zero := protocolDialect()[protocol.ZeroV2]
	return slices.DeleteFunc(slices.Clone(dialects.All), func(d *zevent.Dialect) bool { return d == zero })
})

// of returns the dialect of line, which protocol.Detect reads as p's,
// when it takes the dialect path, else nil.
func (ld *lineDialects) of(line []byte, d *decoded) *zevent.Dialect {
	p := d.proto
	if p.Family == protocol.FamilyZero || p.Family == protocol.FamilyZeroInput {
		// A line with schemaVersion is the Zero dialect's, and it is sure
		// of it (TestZeroLinesNeedNoDetector): no detector need read the
		// line, which is most of a Zero stream. A sure line leaves the
		// next ambiguous line to the first dialect that may write it, as
		// a new detector does.
		if ld.used {
			ld.det, ld.used = nil, false
		}
		ld.last = protocolDialect()[p]
		return nil
	}
	if !ld.registryOnly && (ld.last == nil || ld.last == protocolDialect()[p]) && d.ownFields() {
		// As sure as the registry would be, without asking it; the
		// detector starts afresh after it, as after a Zero line.
		if ld.used {
			ld.det, ld.used = nil, false
		}
		ld.last = protocolDialect()[p]
		return nil
	}
	if ld.det == nil {
		ld.det = zevent.NewDetector(notZero())
	}
	ld.used = true
	dl := ld.det.Detect(line)
	if dl == nil {
		if dl = ld.last; dl == nil {
			dl = dialects.Fallback
		}
	}
	ld.last = dl
	if dialectPath()[dl] == nil {
		return nil
	}
	return dl
}

// The dialects' schemas are compiled when a line first needs one, so that
// no other command, and no validation of Zero or EvoScientist alone, pays
// for them.
var dialectCompiled struct {
	mu sync.Mutex
	m  map[*zevent.Dialect]*compiledDialect
}

type compiledDialect struct {
	cs  *compiledSchema
	err error
}

// dialectSchemaFor returns the compiled schema of d, nil when it ships
// none.
func dialectSchemaFor(d *zevent.Dialect) (*compiledSchema, error) {
	dialectCompiled.mu.Lock()
	defer dialectCompiled.mu.Unlock()
	if c, ok := dialectCompiled.m[d]; ok {
		return c.cs, c.err
	}
	if dialectCompiled.m == nil {
		dialectCompiled.m = map[*zevent.Dialect]*compiledDialect{}
	}
	c := &compiledDialect{}
	if ds := dialectPath()[d]; ds != nil && ds.Text != nil {
		c.cs, c.err = compileDialect(ds)
	}
	dialectCompiled.m[d] = c
	return c.cs, c.err
}

func compileDialect(ds *DialectSchema) (*compiledSchema, error) {
	return compileSchema(ds.Text, ds.Dialect.Name)
}

// dialectRules is what the dialect path keeps of one input: each
// dialect's decoder, the runs, and the tool calls of the open run.
type dialectRules struct {
	decs  map[*zevent.Dialect]zevent.Decoder
	last  *zevent.Dialect // of the last line, nil when a protocol line came after it
	runs  zevent.Runs
	calls map[string]bool
	buf   []zevent.Event
}

// runRef is a run of either path, for the report.
type runRef struct {
	p *protocol.Run
	e *zevent.Run
}

func (r runRef) report() RunReport {
	if r.p != nil {
		return runReport(r.p)
	}
	e := r.e
	return RunReport{Protocol: e.Dialect, ID: e.ID, FirstLine: e.FirstLine, LastLine: e.LastLine, Status: string(e.Status), Cut: e.Cut.String()}
}

// dialectLine checks a line of the dialect path: its schema, what the
// decoder says of it, and the run rules.
func (v *Validator) dialectLine(c *checked) {
	dl, d := c.dialect, &v.dl
	v.report.Events++
	v.lines.saw(dl.Name)
	v.report.Protocol = v.lines.protocols()
	// A protocol run open is cut by this line, as by a line of the other
	// protocol.
	if r := v.lines.runs.End(); r != nil {
		v.ended(r)
		if r.Status == protocol.StatusIncomplete {
			r.Cut = protocol.CutOtherProtocol
			v.cutByOther(c.num, r, dl.Name)
		}
	}
	prefix := prefixOr(c.typ)
	for _, tok := range c.obj.NonFinite {
		v.diag(c.num, jsonl.SevWarning, prefix, protocol.NonFiniteMessage(tok))
	}
	if c.obj.Dup != "" {
		v.diag(c.num, jsonl.SevWarning, prefix, protocol.DuplicateMessage(c.obj.Dup))
	}
	bad := v.dialectSchema(c)
	if d.last != nil && d.last != dl {
		// What the other dialect's decoder holds belongs before this line.
		if r := d.place(v, c.num, d.decs[d.last].End(d.buf[:0])); r != nil {
			v.diag(c.num, v.unfinished(), "", fmt.Sprintf("a line of %s starts a new run inside %s: no end of run", dl.Name, runName(r)))
		}
	}
	d.last = dl
	dec := d.decs[dl]
	if dec == nil {
		if d.decs == nil {
			d.decs = map[*zevent.Dialect]zevent.Decoder{}
		}
		dec = dl.NewDecoder(dialects.DecodeOptions())
		d.decs[dl] = dec
	}
	evs, err := dec.Decode(d.buf[:0], []byte(c.obj.Raw), c.num)
	if err != nil && !bad {
		// The schema found nothing wrong: what the decoder says is about
		// the stream (a repeated line), not the line's form.
		v.diag(c.num, jsonl.SevWarning, "", err.Error())
	}
	if r := d.place(v, c.num, evs); r != nil {
		v.diag(c.num, v.unfinished(), prefixOr(c.typ), "ends "+runName(r)+" cut short: no end of run")
	}
}

// dialectSchema checks the line against its dialect's schema and reports
// whether it found a problem.
func (v *Validator) dialectSchema(c *checked) bool {
	sch, err := dialectSchemaFor(c.dialect)
	if err != nil {
		v.diag(c.num, jsonl.SevError, "", err.Error())
		return true
	}
	if sch == nil {
		return false
	}
	dec := json.NewDecoder(strings.NewReader(c.obj.Raw))
	dec.UseNumber()
	var val any
	if err := dec.Decode(&val); err != nil { // the decoder checked the line
		v.diag(c.num, jsonl.SevError, "", "not valid JSON: "+err.Error())
		return true
	}
	errs := sch.validate(val, c.typ)
	if errs == nil {
		return false
	}
	for _, p := range schemaProblems(errs, c.typ, nil) {
		v.diag(c.num, jsonl.SevError, p.field, p.msg)
	}
	return true
}

// place puts the events of the line numbered line in their runs and
// applies the stream rules every dialect shares. It returns the run a
// decoder ended as cut short (StatusIncomplete), for the caller to say
// why.
func (d *dialectRules) place(v *Validator, line int, evs []zevent.Event) (cut *zevent.Run) {
	for i := range evs {
		ev := &evs[i]
		s := d.runs.Place(ev)
		if s.Closed != nil {
			v.dialectCut(line, s.Closed, ev)
		}
		if s.Start || d.calls == nil {
			d.calls = map[string]bool{}
		}
		if s.Run != nil && ev.Tool != nil && ev.Tool.ID != "" {
			switch ev.Kind {
			case zevent.ToolCall:
				d.calls[ev.Tool.ID] = true
			case zevent.ToolResult:
				if !d.calls[ev.Tool.ID] {
					v.diag(line, jsonl.SevError, prefixOr(ev.Type), "tool result "+protocol.Quote(ev.Tool.ID)+" answers no earlier tool call of this run")
				}
			}
		}
		if s.End {
			v.runs = append(v.runs, runRef{e: s.Run})
			v.report.Runs++
			if s.Run.Status == zevent.StatusIncomplete {
				cut = s.Run
			}
		}
	}
	clear(evs)
	d.buf = evs[:0]
	return cut
}

// leave ends the dialect path's part of the input before a line of a
// protocol (named name), numbered line: the run open there is cut.
func (v *Validator) leaveDialects(line int, name string) {
	d := &v.dl
	if d.last == nil {
		return
	}
	r := d.place(v, line, d.decs[d.last].End(d.buf[:0]))
	d.last = nil
	if open := d.runs.End(); open != nil {
		open.Cut, r = zevent.CutOtherDialect, open
		v.runs = append(v.runs, runRef{e: r})
		v.report.Runs++
	}
	if r != nil {
		v.diag(line, v.unfinished(), "", fmt.Sprintf("a line of %s starts a new run inside %s: no end of run", name, runName(r)))
	}
}

// endDialects applies the rules about the end of the input to the
// dialect path.
func (v *Validator) endDialects() {
	d := &v.dl
	var r *zevent.Run
	if d.last != nil {
		r = d.place(v, v.last, d.decs[d.last].End(d.buf[:0]))
	}
	if open := d.runs.End(); open != nil {
		r = open
		v.runs = append(v.runs, runRef{e: r})
		v.report.Runs++
	}
	if r != nil {
		v.diag(v.last, v.unfinished(), "", "the input ends inside "+runName(r)+": no end of run")
	}
}

// dialectCut reports a run of the dialect path cut short before the event
// ev, of the line numbered line.
func (v *Validator) dialectCut(line int, r *zevent.Run, ev *zevent.Event) {
	v.runs = append(v.runs, runRef{e: r})
	v.report.Runs++
	switch r.Cut {
	case zevent.CutRunStart:
		v.diag(line, jsonl.SevError, prefixOr(ev.Type), fmt.Sprintf("starts a run inside %s: no end of run", runName(r)))
	case zevent.CutRunID:
		v.diag(line, jsonl.SevError, prefixOr(ev.Type), fmt.Sprintf("belongs to run %s, inside %s: no end of run", protocol.Quote(ev.Run), runName(r)))
	case zevent.CutOtherDialect:
		v.diag(line, v.unfinished(), "", fmt.Sprintf("a line of %s starts a new run inside %s: no end of run", ev.Dialect, runName(r)))
	}
}

// runName names a run of the dialect path in a diagnostic.
func runName(r *zevent.Run) string {
	if r.ID == "" {
		return fmt.Sprintf("the run that began at line %d", r.FirstLine)
	}
	return fmt.Sprintf("run %s (line %d)", protocol.Quote(r.ID), r.FirstLine)
}

// saw records a protocol or dialect name for the report.
func (ls *lines) saw(name string) {
	if !slices.Contains(ls.protos, name) {
		ls.protos = append(ls.protos, name)
	}
}
