// Package schemas ships zevo's JSON Schemas (draft 2020-12) for the Zero and
// EvoScientist stream-json events, embedded so the binary can print them.
package schemas

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed *.schema.json
var files embed.FS

// Schema names one shipped schema.
type Schema struct {
	Name  string // as zevo schema and zevo validate --as spell it
	File  string // file name in this directory
	Title string
}

// All lists the shipped schemas in a stable order.
var All = []Schema{
	{"zero", "zero-v2.schema.json", "Zero output events, schema version 2"},
	{"zero@1", "zero-v1.schema.json", "Zero output events, schema version 1"},
	{"zero-input", "zero-input.schema.json", "Zero input events (message, prompt)"},
	{"evosci", "evosci.schema.json", "EvoScientist events"},
}

// Lookup finds a schema by name; "zero@2" is "zero".
func Lookup(name string) (Schema, error) {
	if name == "zero@2" {
		name = "zero"
	}
	for _, s := range All {
		if s.Name == name {
			return s, nil
		}
	}
	names := make([]string, len(All))
	for i, s := range All {
		names[i] = s.Name
	}
	return Schema{}, fmt.Errorf("unknown schema %q (want %s)", name, strings.Join(names, ", "))
}

// Bytes returns the schema's JSON text.
func (s Schema) Bytes() []byte {
	b, err := files.ReadFile(s.File)
	if err != nil {
		panic("schemas: " + s.File + " is not embedded") // a build defect, not an input error
	}
	return b
}

// URL is the schema's $id, by which one schema may refer to another.
func (s Schema) URL() string { return "https://github.com/zevo/zevo/schemas/" + s.File }
