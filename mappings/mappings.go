// Package mappings holds zevo's translation tables as data: the tables
// the dialects ship (each in its folder, from it to another: the
// registry's Dialect.Tables) and the loader for a user's own table that
// extends or overrides them.
package mappings

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/jsonl"
)

// Field copies one source field into one target field.
type Field struct {
	To   string // target field name
	From string // source field path (gjson syntax: "a.b" for nesting)
	// Type, when not KindAny, is the JSON type the source value must
	// have (string, integer, number, boolean, object, array); another type
	// is a diagnostic.
	Type jsonl.Kind
	// Path: From is a path into nested values, not a top-level name.
	Path bool
}

// Const is a target field with a fixed JSON value.
type Const struct {
	Key string
	Raw string
}

// Rule says what one source event type becomes.
type Rule struct {
	To       string // target type
	Handler  string // built-in logic, for events that need more than renames
	Unmapped bool   // no counterpart: dropped, kept or an error per --unmapped
	Fields   []Field
	Const    []Const
	// Builtin: the rule is one of a shipped table's, not one a user's
	// table added or put in its place.
	Builtin bool
}

// Table maps one dialect into another.
type Table struct {
	From, To          string
	Events            map[string]*Rule
	SideEffects       map[string]string // source tool name → the target's sideEffect
	DefaultSideEffect string
	Risk              map[string]string // sideEffect → risk level
	// handlers are the built-in handlings of the direction: those the
	// shipped table's rules name, which a user's rule may name too.
	handlers []string
}

// Set is every table of one translation: the shipped ones, each read
// the first time it is asked for, and the user's loaded over them.
type Set struct {
	tables []*entry // one per shipped table, in the registry's order
}

type entry struct {
	from, to string
	data     []byte // the shipped table
	once     sync.Once
	t        *Table
	user     bool // a user's table was loaded over it (Load)
}

// Default returns the shipped tables, none of them read yet.
func Default() *Set {
	s := &Set{}
	for _, d := range dialects.All {
		for _, to := range sortedKeys(d.Tables) {
			s.tables = append(s.tables, &entry{from: d.Name, to: to, data: d.Tables[to]})
		}
	}
	return s
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Between is the table from one dialect into another (by their names),
// with the rules of the user's tables loaded over the shipped ones; nil
// when no dialect ships one.
func (s *Set) Between(from, to string) *Table {
	for _, e := range s.tables {
		if e.from == from && e.to == to {
			e.once.Do(e.read)
			return e.t
		}
	}
	return nil
}

// Into is the tables into the dialect named to, in the registry's order,
// with the rules of the user's tables loaded over the shipped ones.
func (s *Set) Into(to string) []*Table {
	var out []*Table
	for _, e := range s.tables {
		if e.to == to {
			e.once.Do(e.read)
			out = append(out, e.t)
		}
	}
	return out
}

// SideEffects is the target's sideEffect by source tool name of every
// table, in the registry's order (a later table's over an earlier's):
// a tool a table names keeps that effect whatever the translation, as
// each dialect's own tools keep theirs.
func (s *Set) SideEffects() map[string]string {
	out := map[string]string{}
	for _, e := range s.tables {
		if !e.user && !gjson.GetBytes(e.data, "sideEffects").Exists() {
			continue // none to read: the table is left unread
		}
		e.once.Do(e.read)
		for name, se := range e.t.SideEffects {
			out[name] = se
		}
	}
	return out
}

// RiskInto is the risk level by sideEffect of the tables into the dialect
// named to (nil when there are none), which the target writes on the
// permissions it asks; reading it reads those tables only.
func (s *Set) RiskInto(to string) map[string]string {
	var risk map[string]string
	for _, e := range s.tables {
		if e.to != to {
			continue
		}
		e.once.Do(e.read)
		if risk == nil && len(e.t.Risk) > 0 {
			risk = map[string]string{}
		}
		for se, level := range e.t.Risk {
			risk[se] = level
		}
	}
	return risk
}

// read parses the shipped table, once.
func (e *entry) read() {
	e.t = &Table{From: e.from, To: e.to, Events: map[string]*Rule{}, SideEffects: map[string]string{}, Risk: map[string]string{}}
	name := "dialects/" + e.from + "/to-" + e.to + ".json"
	if !gjson.ValidBytes(e.data) {
		panic(name + ": not valid JSON") // tested: the shipped tables load
	}
	if err := loadTable(e.t, name, gjson.ParseBytes(e.data)); err != nil {
		panic(err) // tested: the shipped tables load
	}
	for _, r := range e.t.Events {
		r.Builtin = true
		if r.Handler != "" && !slices.Contains(e.t.handlers, r.Handler) {
			e.t.handlers = append(e.t.handlers, r.Handler)
		}
	}
	slices.Sort(e.t.handlers)
}

// pairs is the message of a table whose "from" and "to" no dialect ships
// a table for.
func (s *Set) pairs() string {
	var ps []string
	for _, e := range s.tables {
		ps = append(ps, fmt.Sprintf("%q and %q", e.from, e.to))
	}
	sort.Strings(ps)
	switch len(ps) {
	case 0:
		return `no dialect has a table to extend`
	case 1:
		return `"from" and "to" must be ` + ps[0]
	}
	return `"from" and "to" must be ` + strings.Join(ps[:len(ps)-1], ", ") + ", or " + ps[len(ps)-1]
}

// Load merges a table file into the set: its rules add to or replace the
// rules of the same direction, event by event; its sideEffects and risk
// entries add to or replace those of the table. A file holds one table or
// a JSON array of tables.
func (s *Set) Load(name string, data []byte) error {
	if !gjson.ValidBytes(data) {
		return fmt.Errorf("%s: not valid JSON", name)
	}
	root := gjson.ParseBytes(data)
	if root.IsArray() {
		var err error
		root.ForEach(func(_, t gjson.Result) bool {
			err = s.loadTable(name, t)
			return err == nil
		})
		return err
	}
	return s.loadTable(name, root)
}

func (s *Set) loadTable(name string, t gjson.Result) error {
	if !t.IsObject() {
		return fmt.Errorf("%s: a table is a JSON object", name)
	}
	from, to := t.Get("from").String(), t.Get("to").String()
	table := s.Between(from, to)
	if table == nil {
		return fmt.Errorf("%s: %s", name, s.pairs())
	}
	for _, e := range s.tables {
		if e.from == from && e.to == to {
			e.user = true
		}
	}
	return loadTable(table, name, t)
}

// loadTable merges the table t, read from the file name, into table.
func loadTable(table *Table, name string, t gjson.Result) error {
	var err error
	fail := func(format string, a ...any) bool {
		err = fmt.Errorf("%s: "+format, append([]any{name}, a...)...)
		return false
	}
	t.Get("events").ForEach(func(k, r gjson.Result) bool {
		if !r.IsObject() {
			return fail("events.%s: a rule is a JSON object", k.Str)
		}
		rule := &Rule{To: r.Get("to").String(), Handler: r.Get("handler").String(), Unmapped: r.Get("unmapped").Bool()}
		// The shipped table (read while table.handlers is nil) names
		// the handlers there are.
		if rule.Handler != "" && table.handlers != nil && !slices.Contains(table.handlers, rule.Handler) {
			return fail("events.%s: unknown handler %q (known: %s)", k.Str, rule.Handler, known(table.handlers))
		}
		if !rule.Unmapped && rule.Handler == "" && rule.To == "" {
			return fail(`events.%s: a rule needs "to", "handler" or "unmapped": true`, k.Str)
		}
		r.Get("fields").ForEach(func(fk, fv gjson.Result) bool {
			f := Field{To: fk.Str}
			typ := ""
			switch {
			case fv.Type == gjson.String:
				f.From = fv.Str
			case fv.IsObject():
				f.From, typ = fv.Get("from").String(), fv.Get("type").String()
			default:
				return fail("events.%s.fields.%s: give a source field name or {\"from\": …, \"type\": …}", k.Str, fk.Str)
			}
			if f.From == "" {
				return fail("events.%s.fields.%s: empty source field", k.Str, fk.Str)
			}
			if typ != "" {
				var ok bool
				if f.Type, ok = jsonl.KindNamed(typ); !ok || f.Type == jsonl.KindNull {
					return fail("events.%s.fields.%s: unknown type %q", k.Str, fk.Str, typ)
				}
			}
			f.Path = jsonl.IsPath(f.From)
			rule.Fields = append(rule.Fields, f)
			return true
		})
		if err != nil {
			return false
		}
		r.Get("const").ForEach(func(ck, cv gjson.Result) bool {
			rule.Const = append(rule.Const, Const{Key: ck.Str, Raw: cv.Raw})
			return true
		})
		table.Events[k.Str] = rule
		return true
	})
	if err != nil {
		return err
	}
	t.Get("sideEffects").ForEach(func(k, v gjson.Result) bool { table.SideEffects[k.Str] = v.String(); return true })
	t.Get("risk").ForEach(func(k, v gjson.Result) bool { table.Risk[k.Str] = v.String(); return true })
	if d := t.Get("defaultSideEffect"); d.Exists() {
		table.DefaultSideEffect = d.String()
	}
	return nil
}

func known(names []string) string {
	names = slices.Clone(names)
	sort.Strings(names)
	return fmt.Sprint(names)
}

// SideEffect returns the target's sideEffect of a source tool name.
func (t *Table) SideEffect(tool string) string {
	if se, ok := t.SideEffects[tool]; ok {
		return se
	}
	return t.DefaultSideEffect
}
