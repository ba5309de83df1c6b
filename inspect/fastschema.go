package inspect

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
	zevent "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// The fast path of validation. Decoding a line into Go values and running
// the general JSON Schema validator on it costs ten times what the rest of
// validate does; most lines are plainly valid. A shape is the subset of a
// shipped schema's keywords that can be decided on the decoder's raw
// values: a line the shape accepts is one the schema accepts, and a line
// it does not accept (or whose value it cannot judge: an escaped string
// under a pattern, a fraction under a maximum, a keyword it does not know)
// goes to the general validator, which words the diagnostics. So the
// verdicts and messages are the general validator's whatever the path.

// check reports whether v certainly satisfies one keyword. t is the
// line's object as read once when v is the whole line, nil below it.
type check func(v gjson.Result, top *top) bool

// shape is the checks of one schema, all of which must hold.
type shape []check

func (s shape) accepts(v gjson.Result, top *top) bool {
	for _, c := range s {
		if !c(v, top) {
			return false
		}
	}
	return true
}

// undecided is the check of what the fast path does not judge.
func undecided(gjson.Result, *top) bool { return false }

// shapeCompiler compiles the schema nodes of one document.
type shapeCompiler struct {
	doc  map[string]any
	refs map[string]*shape // by "#/$defs/NAME", filled once compiled
}

// fastSchema holds the shapes of one protocol's schema: its envelope and
// each event type's definition, as the general validator checks them.
type fastSchema struct {
	envelope shape
	byType   map[string]shape
}

// compileFast compiles the shapes of the schema document raw.
func compileFast(raw []byte) (*fastSchema, error) {
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	var doc map[string]any
	if err := d.Decode(&doc); err != nil {
		return nil, err
	}
	c := &shapeCompiler{doc: doc, refs: map[string]*shape{}}
	fs := &fastSchema{envelope: c.ref("#/$defs/envelope"), byType: map[string]shape{}}
	conds, _ := doc["allOf"].([]any)
	for _, cond := range conds {
		typ, ref := typeCondition(cond)
		if typ == "" {
			return nil, fmt.Errorf("allOf holds something other than a type condition")
		}
		fs.byType[typ] = c.ref(ref)
	}
	return fs, nil
}

// top is a line's object as event.Line read it, once: its members as
// written, and a lookup by key.
type top struct {
	line   *zevent.Line
	fields []jsonl.Member
}

// Has reports a member named key.
func (t *top) Has(key string) bool { return t.line.Has(key) }

// accepts reports whether the line l (checked: event.Line.Check), of
// type typ, certainly passes; t is the caller's room for l as the checks
// read it. A line whose members it cannot read as written (an escaped
// key) is left to the general validator.
func (fs *fastSchema) accepts(t *top, l *zevent.Line, typ string) bool {
	def, ok := fs.byType[typ]
	if !ok {
		return false
	}
	fields, ok := l.Fields()
	if !ok {
		return false
	}
	*t = top{line: l, fields: fields}
	whole := gjson.Result{Type: gjson.JSON, Raw: view(l.Bytes)}
	return fs.envelope.accepts(whole, t) && def.accepts(whole, t)
}

// view is b as a string, without a copy: the checks read the line's
// bytes while they stand, and keep no part of them (lastMatch copies
// what it keeps).
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// value is a member's value as the checks read it: its type and text
// (they judge a string by its text, plain).
func value(m *jsonl.Member) gjson.Result {
	raw := view(m.Value)
	v := gjson.Result{Raw: raw}
	switch raw[0] {
	case '"':
		v.Type = gjson.String
		if !m.Esc {
			v.Str = raw[1 : len(raw)-1]
		}
	case '{', '[':
		v.Type = gjson.JSON
	case 't':
		v.Type = gjson.True
	case 'f':
		v.Type = gjson.False
	case 'n':
		v.Type = gjson.Null
	default:
		v.Type = gjson.Number
	}
	return v
}

// ref compiles a local reference; a reference it cannot resolve is
// undecided.
func (c *shapeCompiler) ref(ref string) shape {
	if s, ok := c.refs[ref]; ok {
		// Compiled or being compiled: check through the pointer, so a
		// recursive schema terminates.
		return shape{func(v gjson.Result, top *top) bool { return s.accepts(v, top) }}
	}
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	defs, _ := c.doc["$defs"].(map[string]any)
	node, found := defs[name]
	if !ok || !found || strings.Contains(name, "/") {
		return shape{undecided}
	}
	s := new(shape)
	c.refs[ref] = s
	*s = c.compile(node)
	return *s
}

// compile turns one schema node into its checks.
func (c *shapeCompiler) compile(node any) shape {
	switch n := node.(type) {
	case bool:
		if n {
			return nil
		}
		return shape{undecided}
	case map[string]any:
		var s shape
		for kw, arg := range n {
			s = append(s, c.keyword(kw, arg, n))
		}
		return s
	}
	return shape{undecided}
}

// keyword compiles one keyword of node; parent gives its siblings.
func (c *shapeCompiler) keyword(kw string, arg any, parent map[string]any) check {
	switch kw {
	case "$schema", "$id", "title", "description", "$comment", "examples", "default":
		return func(gjson.Result, *top) bool { return true }
	case "$ref":
		ref, _ := arg.(string)
		s := c.ref(ref)
		return s.accepts
	case "type":
		return typeCheck(arg)
	case "const":
		return constCheck(arg)
	case "enum":
		return enumCheck(arg)
	case "minimum", "maximum":
		return boundCheck(kw == "minimum", arg)
	case "minLength":
		n, err := strconv.Atoi(fmt.Sprint(arg))
		if err != nil {
			return undecided
		}
		return func(v gjson.Result, _ *top) bool {
			if v.Type != gjson.String {
				return true
			}
			if s, ok := plain(v); ok {
				return utf8.RuneCountInString(s) >= n
			}
			// A string with escapes (Python's json.dumps writes every
			// character past ASCII as one) has at least as many characters as
			// leastRunes counts: no need to unescape it.
			return len(v.Raw) >= 2 && leastRunes(v.Raw[1:len(v.Raw)-1]) >= n
		}
	case "pattern":
		p, _ := arg.(string)
		re, err := regexp.Compile(p)
		if err != nil {
			return undecided
		}
		return onString(lastMatch(re))
	case "items":
		items := c.compile(arg)
		return func(v gjson.Result, _ *top) bool {
			if !v.IsArray() {
				return true
			}
			ok := true
			v.ForEach(func(_, e gjson.Result) bool {
				ok = items.accepts(e, nil)
				return ok
			})
			return ok
		}
	case "required":
		names, _ := arg.([]any)
		return func(v gjson.Result, top *top) bool {
			if top == nil && !v.IsObject() {
				return true
			}
			for _, n := range names {
				name, _ := n.(string)
				if top != nil {
					if !top.Has(name) {
						return false
					}
				} else if !v.Get(gjson.Escape(name)).Exists() {
					return false
				}
			}
			return true
		}
	case "properties", "additionalProperties":
		return c.members(kw, parent)
	case "not":
		return notConsts(arg)
	}
	return undecided
}

// leastRunes is a lower bound of the characters of body, the inside of a
// valid JSON string: a character written as itself is one, an escape at
// least half of one (a character past U+FFFF is two \u escapes).
func leastRunes(body string) int {
	runes, escapes := 0, 0
	for i := 0; i < len(body); {
		if body[i] != '\\' {
			_, size := utf8.DecodeRuneInString(body[i:])
			i += size
			runes++
			continue
		}
		escapes++
		if i+1 < len(body) && body[i+1] == 'u' {
			i += 6
		} else {
			i += 2
		}
	}
	return runes + (escapes+1)/2
}

// notConsts is the check of a "not" of properties that are each a
// const alone (a usage event's two counts not both 0): a line
// certainly passes when one of them is there with a value certainly not
// its const (another integer, or another JSON type than a number's). Any
// other "not" is undecided.
func notConsts(arg any) check {
	node, _ := arg.(map[string]any)
	props, _ := node["properties"].(map[string]any)
	if len(node) != 1 || len(props) == 0 {
		return undecided
	}
	want := map[string]json.Number{}
	for name, sub := range props {
		m, _ := sub.(map[string]any)
		n, ok := m["const"].(json.Number)
		if _, isInt := isInt(string(n)); len(m) != 1 || !ok || !isInt {
			return undecided
		}
		want[name] = n
	}
	return func(v gjson.Result, top *top) bool {
		if top == nil {
			return false
		}
		for i := range top.fields {
			m := &top.fields[i]
			w, ok := want[view(m.Key)]
			if !ok {
				continue
			}
			got := value(m)
			if got.Type != gjson.Number {
				return true
			}
			wn, _ := isInt(string(w))
			if n, ok := isInt(got.Raw); ok && n != wn {
				return true
			}
		}
		return false
	}
}

// members compiles properties and additionalProperties together (the
// second depends on the first); the check runs once, under "properties"
// when the node has it.
func (c *shapeCompiler) members(kw string, node map[string]any) check {
	_, hasProps := node["properties"]
	if kw == "additionalProperties" && hasProps {
		return func(gjson.Result, *top) bool { return true }
	}
	props := map[string]shape{}
	if m, ok := node["properties"].(map[string]any); ok {
		for name, sub := range m {
			props[name] = c.compile(sub)
		}
	} else if hasProps {
		return undecided
	}
	var extra shape
	add, hasAdd := node["additionalProperties"]
	if hasAdd {
		extra = c.compile(add)
	}
	member := func(key string, val gjson.Result) bool {
		if s, ok := props[key]; ok {
			return s.accepts(val, nil)
		}
		return !hasAdd || extra.accepts(val, nil)
	}
	return func(v gjson.Result, top *top) bool {
		if top != nil {
			for i := range top.fields {
				// Keys as written: no escapes (else no fields), valid UTF-8.
				m := &top.fields[i]
				if !member(view(m.Key), value(m)) {
					return false
				}
			}
			return true
		}
		if !v.IsObject() {
			return true
		}
		ok := true
		var seen []string
		v.ForEach(func(k, val gjson.Result) bool {
			// Escaped or repeated keys: the general validator decides.
			if strings.IndexByte(k.Raw, '\\') >= 0 || containsStr(seen, k.Str) {
				ok = false
				return false
			}
			seen = append(seen, k.Str)
			ok = member(k.Str, val)
			return ok
		})
		return ok
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// plain returns the content of a JSON string without escapes; ok is false
// for another value or a string with escapes.
func plain(v gjson.Result) (string, bool) {
	if v.Type != gjson.String || len(v.Raw) < 2 || strings.IndexByte(v.Raw, '\\') >= 0 {
		return "", false
	}
	return v.Raw[1 : len(v.Raw)-1], true
}

// lastMatch is re.MatchString remembering the last short string it
// matched: a run's id is matched on every line of the run, and
// matching it again was a fifth of validate's time. The compiled schema
// is shared, so the memory is an atomic pointer.
func lastMatch(re *regexp.Regexp) func(string) bool {
	var last atomic.Pointer[string]
	return func(s string) bool {
		if p := last.Load(); p != nil && *p == s {
			return true
		}
		if !re.MatchString(s) {
			return false
		}
		if len(s) <= 256 {
			c := strings.Clone(s)
			last.Store(&c)
		}
		return true
	}
}

// onString applies fn to strings; other values pass, escaped strings are
// undecided.
func onString(fn func(string) bool) check {
	return func(v gjson.Result, _ *top) bool {
		if v.Type != gjson.String {
			return true
		}
		s, ok := plain(v)
		return ok && fn(s)
	}
}

// isInt reports whether a number's text is an integer without fraction or
// exponent (what the fast path judges), and its value when it fits.
func isInt(raw string) (int64, bool) {
	if strings.ContainsAny(raw, ".eE") {
		return 0, false
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	return n, err == nil
}

func typeCheck(arg any) check {
	var kinds []jsonl.Kind
	add := func(name any) {
		s, _ := name.(string)
		if k, ok := jsonl.KindNamed(s); ok {
			kinds = append(kinds, k)
		}
	}
	switch a := arg.(type) {
	case string:
		add(a)
	case []any:
		for _, k := range a {
			add(k)
		}
	}
	return func(v gjson.Result, top *top) bool {
		for _, k := range kinds {
			switch k {
			case jsonl.KindObject:
				if top != nil || v.IsObject() {
					return true
				}
			case jsonl.KindArray:
				if v.IsArray() {
					return true
				}
			case jsonl.KindString:
				if v.Type == gjson.String {
					return true
				}
			case jsonl.KindBoolean:
				if v.Type == gjson.True || v.Type == gjson.False {
					return true
				}
			case jsonl.KindNull:
				if v.Type == gjson.Null {
					return true
				}
			case jsonl.KindNumber:
				if v.Type == gjson.Number {
					return true
				}
			case jsonl.KindInteger:
				if _, ok := isInt(v.Raw); ok && v.Type == gjson.Number {
					return true
				}
			}
		}
		return false
	}
}

// scalar reports whether v is certainly equal to the schema value want.
func scalar(v gjson.Result, want any) bool {
	switch w := want.(type) {
	case string:
		s, ok := plain(v)
		return ok && s == w
	case json.Number:
		wn, ok1 := isInt(string(w))
		n, ok2 := isInt(v.Raw)
		return v.Type == gjson.Number && ok1 && ok2 && n == wn
	case bool:
		return (w && v.Type == gjson.True) || (!w && v.Type == gjson.False)
	case nil:
		return v.Type == gjson.Null
	}
	return false
}

func constCheck(want any) check {
	return func(v gjson.Result, _ *top) bool { return scalar(v, want) }
}

func enumCheck(arg any) check {
	list, _ := arg.([]any)
	return func(v gjson.Result, _ *top) bool {
		for _, w := range list {
			if scalar(v, w) {
				return true
			}
		}
		return false
	}
}

// boundCheck compiles minimum (min) or maximum; it judges integers, and
// fractions only against a minimum of zero or less.
func boundCheck(min bool, arg any) check {
	num, _ := arg.(json.Number)
	bound, intBound := isInt(string(num))
	return func(v gjson.Result, _ *top) bool {
		if v.Type != gjson.Number {
			return true
		}
		if !intBound {
			return false
		}
		if n, ok := isInt(v.Raw); ok {
			if min {
				return n >= bound
			}
			return n <= bound
		}
		return min && bound <= 0 && v.Raw[0] != '-'
	}
}
