package translate

import (
	"sync"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
)

// prepared is a line validated and split, ready for apply.
type prepared struct {
	// later: the line (in line) is left for the translating goroutine
	// to prepare (preparer.here).
	later     bool
	line      jsonl.Line
	name      string
	num       int
	ev        event
	warn, bad *jsonl.Diagnostic
	blank     bool
	// placed: a bad line that is still a JSON object of the input's
	// dialect, so it takes its place in the runs, as every command
	// reads them (ev.kind is set).
	placed bool
	// decoded: the line was decoded ahead for the event path
	// (decodeAhead), into evs and derr; input is the event path's input
	// when the line started it.
	decoded bool
	// ahead: the line, read and checked in eline (readLineAhead), is
	// left for decodeBatch to decode.
	ahead bool
	eline *model.Line // made for the event path's lines alone
	evs   []model.Event
	steps []model.Step
	derr  error
	input *model.Input
}

// preparer does the part of translation that needs no state of the run:
// validation, splitting, classification and the v1 upgrade. It may run on
// its own goroutine, ahead of the Translator.
type preparer struct {
	from   Format
	tables *mappings.Set
	plain  bool       // Options.Plain: no line decoded by its layout
	srcs   *sourceSet // sources()
	dec    jsonl.Decoder
	// level and slot: see here and balance; fixedLevel, when not -1, is
	// the level balance keeps (tests), whatever the goroutines' waits say.
	level, slot, fixedLevel int
}

func (p *preparer) prepare(l jsonl.Line, out *prepared) {
	out.warn, out.bad = nil, nil
	out.name, out.num = l.Name, l.Num
	out.blank = jsonl.IsBlank(l.Bytes)
	out.placed = false
	if !out.blank {
		_, out.warn, out.bad = p.decode(l, &out.ev)
		out.placed = out.bad != nil && out.ev.kind != nil
	}
}

// shareLevels is the resolution of the share of lines that Stream's
// reading goroutine prepares, which it adjusts batch by batch (balance).
const shareLevels = 8

// streamPreparer is the preparer of Stream's reading goroutine.
func (t *Translator) streamPreparer() preparer {
	return preparer{from: t.opt.From, tables: t.tables, plain: t.opt.Plain, srcs: sources(), level: shareLevels, fixedLevel: t.fixedLevel}
}

// here reports whether the reading goroutine prepares the next line
// itself, or leaves it to the translating one (prepared.later): slot goes
// round the shareLevels lines.
func (p *preparer) here() bool {
	p.slot = (p.slot + 1) % shareLevels
	return p.slot < p.level
}

// balance sets how much the reading goroutine does for the next batch.
// level counts eighths of the lines, the share it prepares (the
// translating goroutine prepares the rest). More when the reading goroutine found
// every batch full (the translating one is behind), less when the
// translating goroutine waited for the batch coming back (this one is
// behind). Only the time taken changes; the output does not.
func (p *preparer) balance(readerWaited, translatorWaited bool) {
	switch {
	case p.fixedLevel >= 0:
		p.level = p.fixedLevel
	case readerWaited:
		p.level = min(p.level+1, shareLevels)
	case translatorWaited:
		p.level = max(p.level-1, 0)
	}
}

// decode validates a line and splits its top-level fields. warn is a
// diagnostic for a line that is still translated (NaN replaced by null).
func (p *preparer) decode(l jsonl.Line, ev *event) (_ *event, warn, bad *jsonl.Diagnostic) {
	ev.name, ev.num, ev.prefix, ev.kind, ev.typ = l.Name, l.Num, false, nil, ""
	ev.rawTyp, ev.layout = "", 0
	k, e := -1, (*jsonl.LineError)(nil)
	if p.plain {
		e = p.dec.Decode(l.Bytes, &ev.LineObject)
	} else {
		// The lines the producers write most, split by their layout.
		k, e = p.dec.DecodeLayouts(l.Bytes, &ev.LineObject, p.srcs.layouts)
	}
	if e != nil {
		return nil, nil, ev.problem(e.Error())
	}
	if k >= 0 {
		// A line in its producer's layout, of the input's protocol,
		// whose varying values are strings: what the checks below find
		// of such a line, every time (the differential tests). Other
		// lines in a layout go through them.
		z, kind := &p.srcs.layouts[k], p.srcs.layoutOf[k]
		if (p.from == Auto || p.from.Dialect == kind) && z.Layout.Strings() {
			ev.typ, ev.rawTyp, ev.kind, ev.layout = z.Type, z.Type, kind, k+1
			return ev, nil, nil
		}
	}
	if len(ev.NonFinite) > 0 {
		warn = ev.problem(jsonl.NonFiniteMessage(ev.NonFinite[0]))
	}
	typ := ev.Get("type")
	ev.kind = p.srcs.of(&ev.LineObject)
	if typ.Type != gjson.String {
		return nil, nil, ev.problem(`no string "type" field`)
	}
	ev.typ, ev.rawTyp = typ.Str, typ.Str
	if d := p.srcs.kept(ev.typ); d != nil {
		// A kept event of a source (--unmapped keep).
		ev.kind, ev.typ, ev.prefix = d, ev.typ[len(d.Name)+1:], true
	}
	if p.from != Auto && !ev.prefix && ev.kind != p.from.Dialect {
		ev.kind = nil // not of the input's dialect: no place in its runs
		return nil, nil, ev.problem(p.from.Dialect.Foreign)
	}
	if pr := ev.kind.Prepare; pr != nil {
		if d := checkFields(ev, pr.Kinds); d != nil {
			return nil, nil, d
		}
		if msg := pr.Version(ev.Peek(pr.VersionKey)); msg != "" {
			return nil, nil, ev.problem(msg)
		}
	}
	if warn != nil {
		// Worded as validate words it: a warning about the event.
		warn.Severity, warn.Field = jsonl.SevWarning, ev.rawTyp
	}
	return ev, warn, nil
}

// sourceSet is the dialects translate reads with --from
// (Dialect.Source), in the registry's order, as the preparer asks of
// them for every line.
type sourceSet struct {
	list     []*model.Dialect
	prefixes []string // each one's name and "."
	// marked are the sources whose lines their version field marks
	// (Marked, Prepare.VersionKey); other is the first other source.
	marked []*model.Dialect
	other  *model.Dialect
	// layouts are the sources' Layouts, layoutOf the source of each.
	layouts  []jsonl.TypeLayout
	layoutOf []*model.Dialect
}

// sources is the sourceSet of the registry, made once.
var sources = sync.OnceValue(func() *sourceSet {
	s := &sourceSet{}
	for _, d := range dialects.All {
		if !d.Source {
			continue
		}
		s.list = append(s.list, d)
		s.prefixes = append(s.prefixes, d.Name+".")
		for _, z := range d.Layouts {
			s.layouts, s.layoutOf = append(s.layouts, z), append(s.layoutOf, d)
		}
		switch {
		case d.Marked && d.Prepare != nil:
			s.marked = append(s.marked, d)
		case s.other == nil:
			s.other = d
		}
	}
	return s
})

// kept is the source whose kept event (--unmapped keep) a line of type
// typ is, its type prefixed by the source's name; nil for another.
func (s *sourceSet) kept(typ string) *model.Dialect {
	for i, pre := range s.prefixes {
		// The dot first: most types have none there.
		if len(typ) >= len(pre) && typ[len(pre)-1] == '.' && typ[:len(pre)] == pre {
			return s.list[i]
		}
	}
	return nil
}

// of is the source a line of members o is of: a marked source whose
// version field it has, else the other.
func (s *sourceSet) of(o *jsonl.LineObject) *model.Dialect {
	for _, d := range s.marked {
		if o.Has(d.Prepare.VersionKey) {
			return d
		}
	}
	return s.other
}

// checkFields checks the JSON kinds of the fields the line's producer
// knows (Prepare.Kinds), so that no target gets a field its readers
// would refuse.
func checkFields(ev *event, kinds *model.FieldKinds) *jsonl.Diagnostic {
	for _, m := range ev.Members() {
		k := kinds.Kind(m.Key)
		if k == jsonl.KindAny || plainlyOfKind(m, k) {
			continue
		}
		if d := typeErr(ev, m.Key, m.Value(), k); d != nil {
			return d
		}
	}
	return nil
}

// acceptsPlainly reports a line l (the event path's reading of it) that
// decode takes as it is, with no diagnostic and no repair: one good JSON
// object, each key once, a plain string type that is no kept event of a
// source, and of a source that checks nothing before decoding, or whose
// Prepare finds it Plain with every field of its kind. False whenever in
// doubt: decode then decides (TestAcceptsPlainlyOnlyWhatDecodeTakes).
func (p *preparer) acceptsPlainly(l *model.Line) bool {
	if p.from != Auto || !l.Check() || l.Dup() {
		return false
	}
	fs, ok := l.Fields()
	if !ok {
		return false
	}
	typ, ok := l.Type()
	if !ok || p.srcs.kept(typ) != nil {
		return false
	}
	// The source: a marked one whose version field the line has (as
	// sourceSet.of tells it), else the other.
	var pr *model.Prepare
	if p.srcs.other != nil {
		pr = p.srcs.other.Prepare
	}
	var sv []byte
	for _, d := range p.srcs.marked {
		key := d.Prepare.VersionKey
		for i := range fs {
			if string(fs[i].Key) == key {
				pr, sv = d.Prepare, fs[i].Value
				break
			}
		}
		if sv != nil {
			break
		}
	}
	if pr == nil {
		return true
	}
	if !pr.Plain(typ, sv) {
		return false
	}
	for i := range fs {
		k := pr.Kinds.Kind(unsafe.String(unsafe.SliceData(fs[i].Key), len(fs[i].Key)))
		if k != jsonl.KindAny && !valueOfKind(fs[i].Value, k) {
			return false
		}
	}
	return true
}

// valueOfKind reports a valid JSON value that typeErr takes as of kind
// k (null is of every kind).
func valueOfKind(v []byte, k jsonl.Kind) bool {
	switch c := v[0]; {
	case c == 'n':
		return true
	case k == jsonl.KindString:
		return c == '"'
	case k == jsonl.KindBoolean:
		return c == 't' || c == 'f'
	case k == jsonl.KindObject:
		return c == '{'
	case k == jsonl.KindArray:
		return c == '['
	case k == jsonl.KindNumber:
		return c == '-' || c >= '0' && c <= '9'
	case k == jsonl.KindInteger:
		return (c == '-' || c >= '0' && c <= '9') && integral(v)
	}
	return false
}

// integral reports a JSON number written without a fraction or an
// exponent. (A loop: bytes.IndexAny cost a line of Zero's several times
// what its few digits do.)
func integral(num []byte) bool {
	for _, c := range num {
		if c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

// plainlyOfKind reports the common cases of a value of kind k, decided
// from its type alone: typeErr decides the others.
func plainlyOfKind(m jsonl.LineMember, k jsonl.Kind) bool {
	t := m.Type()
	switch k {
	case jsonl.KindString:
		return t == gjson.String
	case jsonl.KindBoolean:
		return t == gjson.True || t == gjson.False
	case jsonl.KindObject:
		return t == gjson.JSON && m.Raw()[0] == '{'
	case jsonl.KindArray:
		return t == gjson.JSON && m.Raw()[0] == '['
	}
	return t == gjson.Null
}
