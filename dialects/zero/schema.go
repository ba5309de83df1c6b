package zero

import (
	_ "embed"

	"github.com/zevo/zevo/event"
)

// Zero's lines follow three schemas: its output events' of schema
// version 2 and 1, and its stream-json input events'. A line's is the
// one its event's Variant names (Decoder sets it from schemaVersion and
// the type, as Zero's own reader tells them).
var (
	//go:embed zero-v2.schema.json
	schemaV2 []byte
	//go:embed zero-v1.schema.json
	schemaV1 []byte
	//go:embed zero-input.schema.json
	schemaInput []byte
)

// outputWords word what the output schemas find as Zero reads its lines:
// one flat Go struct for every event, of 64-bit ints.
var outputWords = event.SchemaWords{
	Types:             "Zero",
	UnknownTypeFields: true,
	Maximum:           " (Zero writes and reads it as a 64-bit int)",
	Not:               map[string]string{"permission.action": "this action belongs to permission_request or permission_decision, not permission"},
}

var versions = []*event.Schema{
	{Name: "zero@2", Aliases: []string{"zero"}, File: "zero-v2.schema.json", Title: "Zero output events, schema version 2", Text: schemaV2, Words: outputWords},
	{Name: "zero@1", File: "zero-v1.schema.json", Title: "Zero output events, schema version 1", Text: schemaV1, Words: outputWords},
	{Name: "zero-input", File: "zero-input.schema.json", Title: "Zero input events (message, prompt)", Text: schemaInput, Words: event.SchemaWords{
		Types:   "Zero input",
		AnyOf:   "needs non-blank content or at least one image",
		Unknown: ": Zero rejects input events with unknown fields",
	}},
}
