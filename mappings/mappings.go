// Package mappings holds zevo's translation tables as data: the embedded
// defaults and the loader for a user's own table that extends or overrides them.
package mappings

import (
	"embed"
	"fmt"
	"slices"
	"sort"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

//go:embed *.json
var files embed.FS

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
	// Builtin: the rule is one of the embedded tables' (Default), not
	// one a user's table added or put in its place.
	Builtin bool
}

// Table maps one protocol into the other.
type Table struct {
	From, To          string
	Events            map[string]*Rule
	SideEffects       map[string]string // EvoScientist tool name → Zero sideEffect
	DefaultSideEffect string
	Risk              map[string]string // sideEffect → risk level
}

// Versions holds the Zero v1 → v2 renames.
type Versions struct {
	Fields     map[string]string // v1 field → v2 field
	BlockCodes map[string]string // v1 block code → v2 code
	V2Only     map[string]bool   // event types v1 does not have
}

// Set is every table zevo uses.
type Set struct {
	EvosciToZero *Table
	ZeroToEvosci *Table
	Versions     *Versions
}

// Handlers lists the built-in handlers of a direction ("evosci->zero",
// "zero->evosci"), for checking the tables: the translator that runs them
// sets it. Nil accepts any name.
var Handlers func(direction string) []string

func knownHandler(dir, name string) bool {
	return Handlers == nil || slices.Contains(Handlers(dir), name)
}

// Default returns the embedded tables.
func Default() *Set {
	s := &Set{
		EvosciToZero: &Table{From: "evosci", To: "zero", Events: map[string]*Rule{}, SideEffects: map[string]string{}, Risk: map[string]string{}},
		ZeroToEvosci: &Table{From: "zero", To: "evosci", Events: map[string]*Rule{}, SideEffects: map[string]string{}, Risk: map[string]string{}},
		Versions:     &Versions{Fields: map[string]string{}, BlockCodes: map[string]string{}, V2Only: map[string]bool{}},
	}
	for _, name := range []string{"evosci-to-zero.json", "zero-to-evosci.json"} {
		data, err := files.ReadFile(name)
		if err != nil {
			panic(err) // embedded at build time
		}
		if err := s.Load(name, data); err != nil {
			panic(err) // tested: the shipped tables load
		}
	}
	for _, t := range []*Table{s.EvosciToZero, s.ZeroToEvosci} {
		for _, r := range t.Events {
			r.Builtin = true
		}
	}
	data, err := files.ReadFile("zero-versions.json")
	if err != nil {
		panic(err)
	}
	v := gjson.ParseBytes(data)
	v.Get("fields").ForEach(func(k, val gjson.Result) bool { s.Versions.Fields[k.Str] = val.Str; return true })
	v.Get("blockCodes").ForEach(func(k, val gjson.Result) bool { s.Versions.BlockCodes[k.Str] = val.Str; return true })
	v.Get("v2Only").ForEach(func(_, val gjson.Result) bool { s.Versions.V2Only[val.Str] = true; return true })
	return s
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
	dir := t.Get("from").String() + "->" + t.Get("to").String()
	var table *Table
	switch dir {
	case "evosci->zero":
		table = s.EvosciToZero
	case "zero->evosci":
		table = s.ZeroToEvosci
	default:
		return fmt.Errorf(`%s: "from" and "to" must be "evosci" and "zero", or "zero" and "evosci"`, name)
	}
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
		if rule.Handler != "" && !knownHandler(dir, rule.Handler) {
			return fail("events.%s: unknown handler %q (known: %s)", k.Str, rule.Handler, known(Handlers(dir)))
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
			f.Path = protocol.IsPath(f.From)
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

// SideEffect returns the Zero sideEffect of an EvoScientist tool name.
func (t *Table) SideEffect(tool string) string {
	if se, ok := t.SideEffects[tool]; ok {
		return se
	}
	return t.DefaultSideEffect
}
