package translate

import (
	"bytes"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
)

// A table rule that renames one string field (and, for EvoScientist
// output, adds constants) writes every event of a run as the same bytes
// around that field's value: Zero's reasoning and text deltas, and
// EvoScientist's thinking and text, most lines of a stream. A template
// holds those bytes, made once by the out builder itself, so that such an
// event is written as prefix, value, suffix: what out would write,
// without building it field by field. The differential tests translate
// with templates and without (Options.Plain) and require the same output.

// template is the output of one rule around its field's value.
type template struct {
	ok             bool // the rule can be written so
	prefix, suffix []byte
	// run is the Zero run id as written in the template (Zero output):
	// another run needs another template.
	run  []byte
	rule *mappings.Rule
	// omitEmpty: the target leaves out an empty value (Zero's
	// omitempty), which the plain way then writes without the field.
	omitEmpty bool
}

// maxTemplates bounds the templates a translator keeps; rules are few.
const maxTemplates = 64

// simpleRule reports a rule that renames one top-level string field.
func simpleRule(rule *mappings.Rule) bool {
	f := rule.Fields
	return rule.Handler == "" && len(f) == 1 && !f[0].Path && f[0].Type == jsonl.KindString
}

// evoTemplate returns the template of rule writing EvoScientist events
// (of type rule.To), made on first use.
func (t *Translator) evoTemplate(rule *mappings.Rule) *template {
	if tp := t.lastTmpl; tp != nil && tp.rule == rule {
		return tp // the rule of the event before, as a rule
	}
	if tp, ok := t.tmpl[rule]; ok {
		t.lastTmpl = tp
		return tp
	}
	tp := &template{}
	if !t.opt.Plain && simpleRule(rule) {
		t.headEvo(rule.To)
		tp.prefix, tp.suffix, tp.ok = t.ob.around(rule.Fields[0].To, rule.Const)
	}
	t.keepTemplate(rule, tp)
	return tp
}

// zeroTemplate returns the template of rule writing Zero events of type
// to in the open run, made on first use in the run. Zero leaves out empty
// strings (omitempty): templated writes no event whose value is "".
func (t *Translator) zeroTemplate(rule *mappings.Rule, to string) *template {
	run := t.toZero.runIDOut
	if tp := t.lastTmpl; tp != nil && tp.rule == rule && bytes.Equal(tp.run, run) {
		return tp
	}
	if tp, ok := t.tmpl[rule]; ok && bytes.Equal(tp.run, run) {
		t.lastTmpl = tp
		return tp
	}
	tp := &template{run: bytes.Clone(run), omitEmpty: true}
	if !t.opt.Plain && simpleRule(rule) && len(rule.Const) == 0 {
		t.headZero(to)
		tp.prefix, tp.suffix, tp.ok = t.ob.around(rule.Fields[0].To, nil)
	}
	t.keepTemplate(rule, tp)
	return tp
}

func (t *Translator) keepTemplate(rule *mappings.Rule, tp *template) {
	tp.rule, t.lastTmpl = rule, tp
	if _, ok := t.tmpl[rule]; ok || len(t.tmpl) < maxTemplates {
		if t.tmpl == nil {
			t.tmpl = map[*mappings.Rule]*template{}
		}
		t.tmpl[rule] = tp
	}
}

// templated writes ev through tp, its field from in style st, when that
// field is a string (not empty, when the target omits empty values), as
// the rule's plain way would; done is false when it was not (the field is
// absent, empty or of another type, or its value cannot be rendered
// here): the caller writes ev the plain way, which also words any
// problem.
func (t *Translator) templated(ev *event, tp *template, from string, st jsonl.Style) (done bool, err error) {
	v := ev.Peek(from)
	if v.Type != gjson.String || tp.omitEmpty && v.Raw == `""` {
		return false, nil
	}
	line := append(t.line[:0], tp.prefix...)
	if r, ok := t.ob.renderedAhead(v.Raw); ok {
		line = append(line, r...)
	} else {
		// AppendValue only reads the value: no copy of it.
		var err error
		line, err = jsonl.AppendValue(line, unsafe.Slice(unsafe.StringData(v.Raw), len(v.Raw)), st, t.opt.Redactor)
		if err != nil {
			return false, nil // reported by the plain way
		}
	}
	t.line = append(line, tp.suffix...)
	t.stats.Written++
	return true, t.emit(t.line)
}

// around renders, in o's event begun by the caller, a field key whose
// value is left out and the constants after it, and returns the bytes of
// the event before and after that value. ok is false when the value
// would not be written as it is given: a key whose value redaction
// replaces, or that the target's shape does not hold as a string; or
// when a constant cannot be written, or would be held to the shape.
func (o *out) around(key string, consts []mappings.Const) (prefix, suffix []byte, ok bool) {
	ki := o.info(key)
	if ki.sensitive || o.shape != nil && (len(consts) > 0 || !ki.known || !ki.field.holds(gjson.Result{Type: gjson.String})) {
		return nil, nil, false
	}
	// A NUL byte stands for the value: out writes none of its own, as
	// it escapes control characters in keys and strings.
	o.refer(key, ki, "\x00")
	for _, c := range consts {
		o.raw(c.Key, c.Raw)
	}
	if o.err != nil {
		return nil, nil, false
	}
	b := o.appendTo(nil)
	i := bytes.IndexByte(b, 0)
	if i < 0 || bytes.Count(b, []byte{0}) != 1 {
		return nil, nil, false
	}
	return b[:i], b[i+1:], true
}
