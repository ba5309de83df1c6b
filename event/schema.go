package event

import (
	"encoding/json"
	"sync"
)

// Schema is one JSON Schema (draft 2020-12) of a dialect's lines, from
// the producer's own types, embedded from the dialect's folder: zevo
// schema prints it and validate checks the lines it is for against it.
type Schema struct {
	// Name is the schema's as zevo schema and validate --as take it, and
	// the Variant of the events of the lines it is for (a dialect's one
	// schema is named after the dialect).
	Name    string
	Aliases []string
	File    string // its file in the dialect's folder
	Title   string // as zevo schema lists it; "" is the schema's own title
	Text    []byte
	Words   SchemaWords
}

// SchemaWords are how validate words some of what a schema finds, in the
// producer's own terms. The zero value words them plainly.
type SchemaWords struct {
	// Types names the producer's events where a line's type is none the
	// schema knows (unknown TYPES event type "x").
	Types string
	// AnyOf is the whole problem of a line that matches none of a choice
	// of forms ("needs non-blank content or at least one image").
	AnyOf string
	// Unknown follows "unknown field NAME" for a field a type's
	// definition does not allow, when not "is not part of a TYPE event".
	Unknown string
	// UnknownTypeFields: a field of a line of a type the schema does not
	// define is an "unknown field" too (the producer's one struct for
	// every event refuses it whatever the type).
	UnknownTypeFields bool
	// Maximum follows the problem of a number above its maximum (how the
	// producer reads it).
	Maximum string
	// Not is the problem of a field (TYPE.path) in a form the schema
	// excludes.
	Not map[string]string
}

// Names lists s's name and aliases.
func (s *Schema) Names() []string { return append([]string{s.Name}, s.Aliases...) }

// ShownTitle is Title, else the schema's own title.
func (s *Schema) ShownTitle() string {
	if s.Title != "" {
		return s.Title
	}
	var head struct{ Title string }
	_ = json.Unmarshal(s.Text, &head) // a shipped file; the tests compile it
	return head.Title
}

// SchemaList is the dialect's schemas: Versions, else its one Schema
// (named after it, its file NAME.schema.json), else none. The same
// values each call, so that a caller may keep what it made of each (a
// compiled schema) by its pointer.
func (d *Dialect) SchemaList() []*Schema {
	if d.Versions != nil {
		return d.Versions
	}
	if d.Schema == nil {
		return nil
	}
	if l, ok := oneSchema.Load(d); ok {
		return l.([]*Schema)
	}
	l, _ := oneSchema.LoadOrStore(d, []*Schema{{Name: d.Name, Aliases: d.Aliases, File: d.Name + ".schema.json", Text: d.Schema}})
	return l.([]*Schema)
}

// oneSchema holds SchemaList's answer for each dialect with one Schema.
var oneSchema sync.Map // *Dialect → []*Schema
