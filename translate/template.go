package translate

import (
	"bytes"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
	"github.com/zevo/zevo/redact"
)

// A table rule that renames one string field and adds constants (Zero's
// reasoning and text deltas: most lines of a stream) writes every event
// as the same bytes around that field's value. A template holds those
// bytes, made once by the out builder itself, so that such an event is
// written as prefix, value, suffix: what out would write, without
// building it field by field. TestTemplatesChangeNothing translates
// with and without templates and requires the same output.

// templates is on unless a test compares with the plain path.
var templates = true

// template is the output of one rule around its field's value.
type template struct {
	ok             bool // the rule can be written so
	prefix, suffix []byte
}

// maxTemplates bounds the templates a translator keeps; rules are few.
const maxTemplates = 64

// evoTemplate returns the template of rule writing EvoScientist events
// (of type rule.To), made on first use.
func (t *Translator) evoTemplate(rule *mappings.Rule) *template {
	if tp, ok := t.tmpl[rule]; ok {
		return tp
	}
	tp := &template{}
	if f := rule.Fields; templates && rule.Handler == "" && len(f) == 1 && !f[0].Path && f[0].Type == "string" {
		t.headEvo(rule.To)
		tp.prefix, tp.suffix, tp.ok = t.ob.around(f[0].To, rule.Const)
	}
	if len(t.tmpl) < maxTemplates {
		if t.tmpl == nil {
			t.tmpl = map[*mappings.Rule]*template{}
		}
		t.tmpl[rule] = tp
	}
	return tp
}

// templated writes ev through tp when its field is a string, as zeroRule
// would; done is false when it was not (the field is absent, or another
// type, or its value cannot be rendered here): the caller writes ev the
// plain way, which also words any problem.
func (t *Translator) templated(ev *event, tp *template, from string) (done bool, err error) {
	v, ascii := ev.PeekASCII(from)
	if v.Type != gjson.String {
		return false, nil
	}
	line := append(t.line[:0], tp.prefix...)
	line, ok := t.ob.appendValueOf(line, v.Raw, ascii, jsonl.PythonStyle, t.opt.Redactor)
	if !ok {
		return false, nil
	}
	t.line = append(line, tp.suffix...)
	t.stats.Written++
	return true, t.emit(t.line)
}

// around renders, in o's event begun by the caller, a field key whose
// value is left out and the constants after it, and returns the bytes of
// the event before and after that value. ok is false when the value
// would not be written as it is given (a key whose value redaction
// replaces) or when a constant cannot be written.
func (o *out) around(key string, consts []mappings.Const) (prefix, suffix []byte, ok bool) {
	ki := o.info(key)
	if ki.sensitive || o.shape != nil {
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

// appendValueOf appends the string value raw of the input as rawASCII
// writes it in style st through rd (ascii as for rawASCII), for a key
// that is not sensitive; ok is false when it cannot be rendered. Of o it
// uses only the values rendered ahead for the event.
func (o *out) appendValueOf(dst []byte, raw string, ascii bool, st jsonl.Style, rd *redact.Redactor) (_ []byte, ok bool) {
	if r, ok := o.renderedAhead(raw); ok {
		return append(dst, r...), true
	}
	b := unsafe.Slice(unsafe.StringData(raw), len(raw))
	if ascii && asciiFast && jsonl.UnchangedASCII(b, st, rd) {
		return append(dst, raw...), true
	}
	start := len(dst)
	dst, err := jsonl.AppendValue(dst, b, st, rd)
	if err != nil {
		return dst[:start], false
	}
	return dst, true
}
