package translate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/zevo/zevo/dialects"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
)

// The event path: every line is read through the dialects' decoders
// (dialects.NewInput, with the run rules of package event: between
// dialects, they decide), the user's mapping rules applied to its events
// (pathrules.go), and written by the target's encoder.

// eventPath is the state of the event path for the input being read.
type eventPath struct {
	in     *model.Input // nil before the input's first line, and after its end
	enc    dialects.Encoder
	encErr error // the target has no encoder (none: every target has one)
	// per line: what its events did
	mapped bool
	// the dialect and type of its first unmapped event (dialect "": none)
	unmappedDialect, unmappedType string
	unmappedNames                 map[[2]string]string // unmappedName's
	sessions                      int                  // session ids made, for their sequence number
	// rules are the mapping tables' rules the event path applies itself
	// (pathrules.go); nil when there are none.
	rules *pathRules
	// self is the target's dialect: its own lines are passed through
	// (passer), once a line (passedLine).
	self       string
	passedLine bool
	// per line: the rule its type was read under (a handler rule for
	// another type: pathRules.retype), whether a field rule wrote it, a
	// rule's diagnostic about it
	lineRule *mappings.Rule
	rendered bool
	ruleErr  *jsonl.Diagnostic
	// renameFrom and renameTo: while a handler rule's event is written,
	// the lines of type renameFrom are written as renameTo.
	renameFrom, renameTo string
	renameBuf            []byte
	other                model.Event // asOther's
	// startLater: the run the last line started is started by the next
	// event, that line being Zero's input kept in another stream (which
	// is in no run).
	startLater bool
	// evs and steps are the events of the line being read and their
	// places in the runs, held until its decoder has said whether it is
	// a bad line (eventLine): those decoded ahead, or what the decoder
	// gave here, in own and ownSteps.
	evs      []model.Event
	steps    []model.Step
	own      []model.Event
	ownSteps []model.Step
	// report is what the target's encoder found wrong with the line
	// (EncodeOptions.Report), its first problem; "" if none.
	report string
	// ahead is the input Stream decodes lines into (decodeAhead), on
	// either of its goroutines; in when every line decoded so far is
	// written. mu guards the input's use, and turn is when a batch's
	// turn to be decoded comes (decodeTurns).
	ahead    *model.Input
	aheadNew bool // ahead has decoded no line yet
	mu       sync.Mutex
	turn     sync.Cond
	// plain: no line is decoded ahead, and no output is respelled
	// (DecodeOptions.Spelled): the reference the tests hold decoding
	// ahead and respelling to.
	plain bool
}

// allEvents reports whether Stream's goroutines decode the lines ahead.
func (t *Translator) allEvents() bool {
	// A rule that retypes lines does so before they are decoded, on
	// this goroutine.
	r := t.ep.rules
	if r == nil {
		r = t.pathRules() // the encoder makes them on the first line
	}
	retypes := r != nil && r.retype != nil
	return !t.ep.plain && !retypes
}

// eventLine translates a line on the event path.
func (t *Translator) eventLine(p *prepared) error {
	if p.bad != nil && !p.framesRuns() {
		t.stats.Diagnosed++
		return p.bad
	}
	ep := &t.ep
	if ep.in == nil || p.input != nil {
		if ep.in = p.input; ep.in == nil {
			ep.mu.Lock()
			ep.in = t.newInput()
			ep.ahead = ep.in
			ep.mu.Unlock()
		}
	}
	if err := t.encoder(); err != nil {
		return err
	}
	ep.mapped, ep.unmappedDialect = false, ""
	ep.lineRule, ep.rendered, ep.ruleErr, ep.passedLine = nil, false, nil, false
	var werr error
	// The line's events are held until its decoder has said whether the
	// line is a bad one: none of a bad line's events is written.
	var derr error
	if p.decoded {
		ep.evs, ep.steps, derr = p.evs, p.steps, p.derr
	} else {
		// A copy: decoders may hold on to a line past it (a held init).
		line := []byte(p.ev.Raw)
		if ep.rules != nil && ep.rules.retype != nil {
			line = ep.rules.retypeLine(ep, line)
		}
		read := ep.in.LineOwned
		if ep.plain {
			read = ep.in.Line // the reference: as the other commands read
		}
		own, ownSteps := ep.own[:0], ep.ownSteps[:0]
		ep.mu.Lock()
		derr = read(line, p.num, func(ev *model.Event, st model.Step) {
			own, ownSteps = append(own, *ev), append(ownSteps, st)
		})
		ep.mu.Unlock()
		ep.own, ep.ownSteps = own, ownSteps
		ep.evs, ep.steps = own, ownSteps
	}
	if derr != nil && lenientErr(derr) {
		// The line is written all the same; the target's encoder
		// reports what it cannot write of it (Report).
		derr = nil
	}
	bad := derr != nil && !t.passedAsRead() && !t.unmappedLine()
	if p.bad != nil {
		// A line today's reading finds bad (an unknown schemaVersion)
		// that is still an object of its input: it takes its place in
		// the runs, its events not written.
		bad, derr = true, p.bad
	}
	ep.report = ""
	for i := range ep.evs {
		ev, st := &ep.evs[i], ep.steps[i]
		switch {
		case werr != nil:
		case bad && !st.Start && !st.End:
			// Not written; the run it closes, if any, is closed.
			werr = t.encode(nil, model.Step{Closed: st.Closed})
		case bad && st.Start && !st.End && ev.Kind != model.RunStart:
			// The run it starts is started, with none of its events.
			if enc, ok := ep.enc.(ownPasser); ok && ev.Dialect == ep.self {
				werr = enc.FrameOwn(ev, st)
			} else {
				werr = t.encodeEvent(framing(ev), st)
			}
		default:
			werr = t.encode(ev, st)
		}
	}
	clear(ep.own)
	ep.evs, ep.steps = nil, nil
	if werr != nil {
		return werr
	}
	if bad {
		t.stats.Diagnosed++
		if p.bad != nil {
			return p.bad
		}
		return p.ev.diag("%s", derr.Error())
	}
	if ep.report != "" {
		// A line written, with what the target could not write as
		// it is (its run renamed).
		t.stats.Diagnosed++
		return p.ev.diag("%s", ep.report)
	}
	if ep.ruleErr != nil {
		t.stats.Diagnosed++
		return ep.ruleErr
	}
	if p.warn != nil {
		// The line is written all the same (NaN read as null).
		t.stats.Diagnosed++
		return p.warn
	}
	switch {
	case ep.mapped || ep.unmappedDialect == "":
		t.stats.Mapped++
	case t.opt.Unmapped == Error:
		// Worded as for every line: the event's dialect, its type
		// (a Zero line is read as version 2, any version upgraded).
		t.stats.Diagnosed++
		from := ep.unmappedDialect
		if d, ok := dialects.ByName(from); ok {
			from = defaultForm(d).Name
		}
		return p.ev.diag("%s event %s has no %s counterpart (--unmapped error)", from, clip(strconv.Quote(ep.unmappedType)), t.opt.To)
	default:
		t.stats.Unmapped++
		t.countUnmapped(ep.unmappedName())
	}
	return nil
}

// lenientErr reports a decoder's *model.LenientError. (Apart from
// eventLine: the variable errors.As is given escapes, and would be
// allocated for every line, error or not.)
func lenientErr(err error) bool {
	var lenient *model.LenientError
	return errors.As(err, &lenient)
}

// unmappedName is the name an unmapped line of the last unmapped event's
// dialect and type is counted under ("evosci.subagent_text"): made once
// for each, not for each line, while there are few.
func (ep *eventPath) unmappedName() string {
	k := [2]string{ep.unmappedDialect, ep.unmappedType}
	if name, ok := ep.unmappedNames[k]; ok {
		return name
	}
	name := ep.unmappedDialect + "." + ep.unmappedType
	if ep.unmappedNames == nil {
		ep.unmappedNames = map[[2]string]string{}
	}
	if len(ep.unmappedNames) < maxUnmappedTypes {
		// Keys cloned: a type may be cut from a line's memory.
		ep.unmappedNames[[2]string{strings.Clone(k[0]), strings.Clone(k[1])}] = name
	}
	return name
}

// framesRuns reports whether p, a bad line, still takes its place in
// the runs (prepared.placed): its decoder reads it, for the runs it
// starts, cuts or ends, and none of its events is written.
func (p *prepared) framesRuns() bool { return p.placed && p.ev.Raw != "" }

// readLineAhead prepares l into p on Stream's reading goroutine for the
// event path, for decodeBatch to decode: the line is checked as the
// event path reads it (p.eline), and a line that reading shows to be one
// pre would take as it is (acceptsPlainly) is not prepared. l is a copy
// of the line (readAhead's lineCopies), never written again: decoders and
// encoders may hold on to its strings past it.
func (t *Translator) readLineAhead(p *prepared, pre *preparer, l *jsonl.Line) {
	p.decoded, p.input, p.derr, p.evs, p.steps = false, nil, nil, nil, nil
	p.ahead = false
	if jsonl.IsBlank(l.Bytes) {
		pre.prepare(*l, p)
		return
	}
	line := l.Bytes
	if p.eline == nil {
		p.eline = new(model.Line)
	}
	p.eline.ReadOwned(line)
	if p.eline.Check() && pre.acceptsPlainly(p.eline) {
		p.name, p.num, p.blank, p.placed = l.Name, l.Num, false, false
		p.warn, p.bad = nil, nil
		p.ev.name, p.ev.num = l.Name, l.Num // for eventLine's diagnostics
		p.ev.Raw = unsafe.String(unsafe.SliceData(line), len(line))
	} else {
		pre.prepare(*l, p)
		if p.blank || p.bad != nil && !p.framesRuns() {
			return // eventLine reports a bad line
		}
		if p.ev.Raw != string(line) {
			p.eline.ReadOwned([]byte(p.ev.Raw)) // the line repaired (NaN)
		}
	}
	p.ahead = true
}

// decodeAhead decodes p, a line readLineAhead read, into its events (in
// b's), for eventLine to write (decodeBatch, with ep.mu held).
func (t *Translator) decodeAhead(b *batch, p *prepared) {
	ep := &t.ep
	if ep.ahead == nil {
		ep.ahead, ep.aheadNew = t.newInput(), true
	}
	n := len(b.evs)
	b.evs, b.steps, p.derr = ep.ahead.AppendChecked(b.evs, b.steps, p.eline, p.num, &b.evText)
	// b.evs may grow for a later line: a slice of the array of the time
	// still holds these events, which nothing writes again.
	p.evs, p.steps = b.evs[n:len(b.evs):len(b.evs)], b.steps[n:len(b.steps):len(b.steps)]
	p.decoded = true
	if ep.aheadNew {
		p.input, ep.aheadNew = ep.ahead, false
	}
}

// newInput reads the event path's lines through every dialect, or with
// --from through its dialect alone.
func (t *Translator) newInput() *model.Input {
	if t.opt.From != Auto {
		for _, n := range t.opt.From.Names() {
			if d, ok := dialects.ByName(n); ok {
				return model.NewInput([]*model.Dialect{d}, d, t.decodeOptions())
			}
		}
	}
	return dialects.NewInput(t.decodeOptions())
}

// decodeOptions: the tools' effects are the dialects' own
// (dialects.Effects) with the mapping tables' sideEffects over them, so
// a table given with --mapping names the effect of any agent's tool. A
// sideEffect the model has no name for is left out (the tables' loader
// has said what they may hold).
func (t *Translator) decodeOptions() model.DecodeOptions {
	eff := dialects.Effects()
	for name, se := range t.tables.SideEffects() {
		eff.Set(name, model.Effect(se))
	}
	// A target that respells outputs is given their spelling, unless it
	// redacts them (which reads their text); the plain path unescapes
	// them, the reference the tests hold respelling to.
	d, ok := dialects.ByName(t.opt.To.Name)
	spelled := ok && d.Respells && t.opt.Redactor == nil && !t.ep.plain
	return model.DecodeOptions{Effects: eff, Spelled: spelled, Surrogates: true}
}

// encode writes one event of the event path: as a mapping rule of the
// tables says, else as the target's encoder writes it.
func (t *Translator) encode(ev *model.Event, st model.Step) error {
	ep := &t.ep
	if st.Closed != nil || ev == nil {
		ep.startLater = false
	} else if ep.startLater {
		st.Start, ep.startLater = true, false
	}
	if ev != nil && ev.Dialect == ep.self {
		switch enc := ep.enc.(type) {
		case passer:
			first := !ep.passedLine
			ep.passedLine, ep.mapped = true, true
			return enc.Pass(ev, st, first)
		case ownPasser:
			mapped, err := enc.PassOwn(ev, st)
			t.counted(ev, mapped)
			return err
		}
	}
	if ev != nil && ev.Dialect != ep.self {
		// An older version is upgraded whatever the target (Zero's 1):
		// what a target keeps of the line is the line as the current.
		ev = t.upgraded(ev)
	}
	if ev != nil && ev.Kind == model.Other && ev.Dialect != ep.self && len(ev.Type) > len(ep.self) &&
		ev.Type[len(ep.self)] == '.' && ev.Type[:len(ep.self)] == ep.self {
		// A line of the target's own that the other stream kept
		// (--unmapped keep): restored, in the run around it.
		typ := ev.Type[len(ep.self)+1:]
		switch enc := ep.enc.(type) {
		case restorer:
			ep.mapped = true
			return enc.Restore(ev, st, typ, "schemaVersion", "runId")
		case ownPasser:
			o := enc.Restored(ev, typ)
			if o.Kind == model.Prompt {
				// Its producer's input: kept as it keeps it, in no
				// run; the run it starts starts with the next event.
				ep.startLater = ep.startLater || st.Start
				st.Start = false
				return t.encodeEvent(&o, st)
			}
			mapped, err := enc.PassOwn(&o, st)
			t.counted(ev, mapped)
			return err
		}
	}
	if ev != nil && ep.rules != nil {
		if r := ep.rules.of(ep, ev); r != nil {
			return t.applyPathRule(ev, st, r)
		}
	}
	return t.encodeEvent(ev, st)
}

// passedAsRead reports whether the line being read is its target's own,
// passed through as it is read (EvoScientist's): it is written as read,
// with no diagnostic, whatever its fields hold, as the target's own
// readers read it.
func (t *Translator) passedAsRead() bool {
	ep := &t.ep
	if _, ok := ep.enc.(passer); !ok {
		return false
	}
	for i := range ep.evs {
		if ep.evs[i].Dialect != ep.self {
			return false
		}
	}
	return true
}

// unmappedLine reports whether the line being read is of a type the
// target has no counterpart for (pathRules.unmapped): unmapped, as
// today's translate reads it, and not a bad line whatever its fields.
func (t *Translator) unmappedLine() bool {
	ep := &t.ep
	if ep.rules == nil || ep.lineRule != nil {
		return false
	}
	for i := range ep.evs {
		if ev := &ep.evs[i]; ev.Dialect == ep.rules.from {
			return ep.rules.unmapped(ev)
		}
	}
	return false
}

// framing is the start of the run a bad line's event ev starts, and
// nothing of ev: no line of it to keep (Raw), no rule of its type.
func framing(ev *model.Event) *model.Event {
	return &model.Event{Kind: model.RunStart, Dialect: ev.Dialect, Type: ev.Type, Variant: ev.Variant,
		Line: ev.Line, Run: ev.Run, Sub: ev.Sub}
}

// restorer is an encoder that restores its own dialect's lines another
// stream kept.
type restorer interface {
	Restore(ev *model.Event, st model.Step, typ string, envelope ...string) error
}

// passer is an encoder that passes its own dialect's lines through.
type passer interface {
	Pass(ev *model.Event, st model.Step, first bool) error
}

// encodeEvent writes one event as the target's encoder writes it.
func (t *Translator) encodeEvent(ev *model.Event, st model.Step) error {
	ep := &t.ep
	mapped, err := ep.enc.Encode(ev, st)
	if err != nil || ev == nil {
		return err
	}
	t.counted(ev, mapped)
	return nil
}

// counted notes what the encoder did with an event of the line.
func (t *Translator) counted(ev *model.Event, mapped bool) {
	ep := &t.ep
	if mapped {
		ep.mapped = true
	} else if ep.unmappedDialect == "" {
		ep.unmappedDialect, ep.unmappedType = ev.Dialect, ev.Type
	}
}

// endEventPath ends the input: what its decoders hold, and the run it
// leaves open, cut by the end of the input.
func (t *Translator) endEventPath() error {
	ep := &t.ep
	ep.mu.Lock()
	defer ep.mu.Unlock()
	// Lines decoded ahead and not translated (Stream stopped early) go
	// with their input.
	ep.ahead, ep.aheadNew = nil, false
	if ep.in == nil {
		return nil
	}
	in := ep.in
	ep.in = nil
	var werr error
	in.End(func(ev *model.Event, st model.Step) {
		if werr == nil {
			werr = t.encode(ev, st)
		}
	})
	return werr
}

// encoder makes the target's encoder, once.
func (t *Translator) encoder() error {
	ep := &t.ep
	if ep.enc != nil || ep.encErr != nil {
		return ep.encErr
	}
	target, ok := dialects.ByName(t.opt.To.Name)
	if ok {
		opt := dialects.EncodeOptions{
			Version:      t.opt.To.Version,
			Redactor:     t.opt.Redactor,
			Keep:         t.opt.Unmapped == Keep,
			NewRunID:     t.newRunID,
			NewSessionID: t.newSessionID,
			Dropped:      t.dropped,
			SessionID:    t.opt.SessionID,
			Cwd:          t.opt.Cwd,
			Model:        t.opt.Model,
			Risk:         t.tables.RiskInto(target.Name),
			Plain:        t.opt.Plain,
			Report: func(msg string) {
				if ep.report == "" {
					ep.report = msg
				}
			},
		}
		ep.enc, ok = dialects.NewEncoder(target, opt, func(b []byte) error {
			t.stats.Written++
			if ep.renameFrom != "" {
				b = t.renamed(b)
			}
			return t.emit(b)
		})
		ep.rules = t.pathRules()
		ep.self = target.Name
	}
	if !ok {
		ep.encErr = fmt.Errorf("zevo cannot write %s from the events of other dialects", t.opt.To)
	}
	return ep.encErr
}

// newSessionID names a session zevo opens, in the runs' dialect's format
// (dialects.Runs), from the same clock as the run ids (the files' hash
// when translating files).
func (t *Translator) newSessionID() string {
	t.ep.sessions++
	return dialects.Runs.RunIDs.Session(t.opt.Now(), t.ep.sessions)
}

// StatedSession is the session id the event path's target last carried
// over from a source that stated one (the claude target), "" otherwise.
func (t *Translator) StatedSession() string {
	if s, ok := t.ep.enc.(interface{ StatedSession() string }); ok {
		return s.StatedSession()
	}
	return ""
}

// Interrupt ends the output of an interrupted translation as the target's
// producer ends an interrupted run (Zero: error "interrupted" and run_end
// "interrupted", exit code 130; EvoScientist: nothing).
func (t *Translator) Interrupt() error {
	if t.ep.in == nil {
		return nil
	}
	return t.ep.enc.Interrupt()
}

// dropped counts a field left out of the output.
func (t *Translator) dropped(path string) { t.countDropped(t.opt.To.Dialect.Name + "." + path) }

func (t *Translator) redacted(s string) string {
	if t.opt.Redactor == nil {
		return s
	}
	return t.opt.Redactor.String(s)
}
