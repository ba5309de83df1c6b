package zero

import (
	"encoding/hex"
	"io"
	"time"

	"github.com/zevo/zevo/jsonl"
)

// Zero's protocol families: its output events (any schema version) and
// its input events (message, prompt).
const (
	Family      jsonl.Family = 1
	InputFamily jsonl.Family = 2
)

// Zero's protocols, as translate reads them line by line (Protocols).
var (
	V2 = &jsonl.Protocol{
		Name: "zero@2", Aliases: []string{"zero"}, Title: "Zero output events, schema version 2",
		Family: Family, Version: 2, Style: jsonl.GoStyle, SchemaFile: "zero-v2.schema.json",
		Strict:   true,
		Envelope: envelope, Events: v2Events,
	}
	V1 = &jsonl.Protocol{
		Name: "zero@1", Title: "Zero output events, schema version 1",
		Family: Family, Version: 1, Style: jsonl.GoStyle, SchemaFile: "zero-v1.schema.json",
		Strict:   true,
		Envelope: envelope, Events: v1Events,
	}
	Input = &jsonl.Protocol{
		Name: "zero-input", Title: "Zero input events (message, prompt)",
		Family: InputFamily, Version: 2, Style: jsonl.GoStyle, SchemaFile: "zero-input.schema.json",
		Strict:   true,
		Envelope: inputEnvelope, Events: inputEvents,
	}
)

func opt(name string, k jsonl.Kind) jsonl.Field { return jsonl.Field{Name: name, Kind: k} }
func req(name string, k jsonl.Kind) jsonl.Field {
	return jsonl.Field{Name: name, Kind: k, Required: true}
}

// Zero's output events come from one flat Go struct
// (internal/streamjson.Event): the envelope is always written, every
// other field only when not empty, so no other field is required.
var envelope = []jsonl.Field{req("schemaVersion", jsonl.KindInteger), req("type", jsonl.KindString), req("runId", jsonl.KindString)}

var (
	deltaFields = []jsonl.Field{opt("delta", jsonl.KindString)}
	// permissionFields are the fields of the three permission events; v1
	// carries violation where v2 carries block.
	permissionFields = func(block string) []jsonl.Field {
		return []jsonl.Field{
			opt("sessionId", jsonl.KindString), opt("id", jsonl.KindString), opt("name", jsonl.KindString), opt("action", jsonl.KindString),
			opt("permission", jsonl.KindString), opt("permissionGranted", jsonl.KindBoolean), opt("permissionMode", jsonl.KindString),
			opt("autonomy", jsonl.KindString), opt("sideEffect", jsonl.KindString), opt("reason", jsonl.KindString),
			opt("decisionReason", jsonl.KindString), opt("risk", jsonl.KindObject), opt(block, jsonl.KindObject),
			opt("grantMatched", jsonl.KindBoolean), opt("grant", jsonl.KindObject),
		}
	}
	checkpointFields = []jsonl.Field{opt("checkpoint", jsonl.KindObject)}
)

func outputEvents(version int) []jsonl.EventFields {
	block := "block"
	if version == 1 {
		block = "violation"
	}
	perm := permissionFields(block)
	events := []jsonl.EventFields{
		{Type: "run_start", Fields: []jsonl.Field{opt("sessionId", jsonl.KindString), opt("cwd", jsonl.KindString), opt("provider", jsonl.KindString), opt("model", jsonl.KindString), opt("apiModel", jsonl.KindString)}},
		{Type: "reasoning", Fields: deltaFields},
		{Type: "text", Fields: deltaFields},
		{Type: "tool_call", Fields: []jsonl.Field{opt("id", jsonl.KindString), opt("name", jsonl.KindString), opt("args", jsonl.KindAny), opt("sideEffect", jsonl.KindString)}},
		{Type: "permission", Fields: perm},
		{Type: "permission_request", Fields: perm},
		{Type: "permission_decision", Fields: perm},
		{Type: "tool_result", Fields: []jsonl.Field{
			opt("id", jsonl.KindString), opt("name", jsonl.KindString), opt("status", jsonl.KindString), opt("output", jsonl.KindString),
			opt("truncated", jsonl.KindBoolean), opt("redacted", jsonl.KindBoolean), opt("changedFiles", jsonl.KindArray),
			opt("meta", jsonl.KindObject), opt("display", jsonl.KindObject),
		}},
		{Type: "checkpoint", Fields: checkpointFields},
		{Type: "restore", Fields: checkpointFields},
		{Type: "usage", Fields: []jsonl.Field{opt("promptTokens", jsonl.KindInteger), opt("completionTokens", jsonl.KindInteger), opt("totalTokens", jsonl.KindInteger), opt("costUsd", jsonl.KindNumber)}},
		{Type: "final", Fields: []jsonl.Field{opt("text", jsonl.KindString), opt("meta", jsonl.KindObject)}},
		{Type: "warning", Fields: []jsonl.Field{opt("message", jsonl.KindString)}},
		{Type: "error", Fields: []jsonl.Field{opt("code", jsonl.KindString), opt("message", jsonl.KindString), opt("recoverable", jsonl.KindBoolean)}},
		{Type: "run_end", Fields: []jsonl.Field{opt("status", jsonl.KindString), opt("exitCode", jsonl.KindInteger)}},
	}
	if version == 1 { // reasoning came with version 2
		events = append(events[:1], events[2:]...)
	}
	return events
}

var (
	v2Events = outputEvents(2)
	v1Events = outputEvents(1)
)

// Zero's input events (internal/streamjson.InputEvent): content is
// written always, but Zero accepts an event without it when it has images.
var inputEnvelope = []jsonl.Field{req("schemaVersion", jsonl.KindInteger), req("type", jsonl.KindString)}

var inputEvents = []jsonl.EventFields{
	{Type: "message", Fields: []jsonl.Field{req("role", jsonl.KindString), opt("content", jsonl.KindString), opt("images", jsonl.KindArray)}},
	{Type: "prompt", Fields: []jsonl.Field{opt("content", jsonl.KindString)}},
}

// FieldKind is the JSON type of a top-level field of any Zero event
// (output of either version, or input): Zero decodes every event into one
// struct, so a field has one type whatever the event. ok is false for a
// field Zero does not know.
func FieldKind(name string) (k jsonl.Kind, ok bool) {
	for _, p := range []*jsonl.Protocol{V2, V1, Input} {
		for _, f := range p.Envelope {
			if f.Name == name {
				return f.Kind, true
			}
		}
		for i := range p.Events {
			if f, ok := p.Events[i].Field(name); ok {
				return f.Kind, true
			}
		}
	}
	return jsonl.KindAny, false
}

// IDPattern is what a Zero runId matches (Zero refuses to write an
// event whose runId does not); the schemas say the same.
const IDPattern = `^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`

// IsID reports whether s matches IDPattern.
func IsID(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != ':' && c != '-') {
			return false
		}
	}
	return true
}

// runIDTime is the layout of the time in a runId Zero makes,
// run_<YYYYMMDDHHMMSS UTC>_<6 hex digits>.
const runIDTime = "20060102150405"

// NewRunID is a new runId in Zero's format, for time at, its 6 hex
// digits read from random.
func NewRunID(at time.Time, random io.Reader) string {
	var r [3]byte
	_, _ = io.ReadFull(random, r[:])
	return "run_" + at.UTC().Format(runIDTime) + "_" + hex.EncodeToString(r[:])
}

// RunIDTime reads the time in a runId of Zero's format.
func RunIDTime(id string) (time.Time, bool) {
	if len(id) != 4+len(runIDTime)+1+6 || id[:4] != "run_" || id[18] != '_' {
		return time.Time{}, false
	}
	at, err := time.Parse(runIDTime, id[4:18])
	return at, err == nil
}

// Layouts are the layouts in which Zero (schema version 2: sorted keys,
// no spaces) writes its commonest events, the lines most of a stream is
// made of: reasoning and text deltas, tool calls, tool results and usage
// without their optional fields.
var Layouts = []jsonl.TypeLayout{
	layout("reasoning", []jsonl.LayoutField{{Key: "delta"}}, nil),
	layout("text", []jsonl.LayoutField{{Key: "delta"}}, nil),
	layout("tool_call", []jsonl.LayoutField{{Key: "args", Raw: jsonl.AnyValue}, {Key: "id"}, {Key: "name"}}, []jsonl.LayoutField{{Key: "sideEffect"}}),
	// truncated is always there; false but for a cut output
	layout("tool_result", []jsonl.LayoutField{{Key: "id"}, {Key: "name"}, {Key: "output"}}, []jsonl.LayoutField{{Key: "status"}, {Key: "truncated", Raw: "false"}}),
	layout("usage", []jsonl.LayoutField{{Key: "completionTokens", Raw: jsonl.AnyValue}, {Key: "promptTokens", Raw: jsonl.AnyValue}}, []jsonl.LayoutField{{Key: "totalTokens", Raw: jsonl.AnyValue}}),
}

// layout is the layout of a Zero event of type typ: the fields before
// runId and schemaVersion, and those between them and type.
func layout(typ string, before, after []jsonl.LayoutField) jsonl.TypeLayout {
	fields := append(before, jsonl.LayoutField{Key: "runId"}, jsonl.LayoutField{Key: "schemaVersion", Raw: "2"})
	fields = append(append(fields, after...), jsonl.LayoutField{Key: "type", Raw: `"` + typ + `"`})
	return jsonl.TypeLayout{Protocol: V2, Type: typ, Layout: jsonl.NewLayout(jsonl.GoStyle, fields...)}
}
