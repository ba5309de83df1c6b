package evosci

import (
	_ "embed"

	"github.com/zevo/zevo/event"
)

//go:embed evosci.schema.json
var schema []byte

// versions is EvoScientist's one schema, listed as its events are named.
var versions = []*event.Schema{{
	Name: Name, Aliases: []string{"evoscientist"}, File: "evosci.schema.json", Title: "EvoScientist events", Text: schema,
	Words: event.SchemaWords{Not: map[string]string{
		"usage_stats": "input_tokens and output_tokens are both 0 (EvoScientist never writes a 0/0 usage_stats)",
	}},
}}

// toZero is the mapping table from EvoScientist into Zero.
//
//go:embed to-zero.json
var toZero []byte
