package protocol

import "github.com/zevo/zevo/jsonl"

// Kind is the JSON type of a field's value: jsonl's, named here for the
// field tables.
type Kind = jsonl.Kind

const (
	KindAny     = jsonl.KindAny
	KindString  = jsonl.KindString
	KindBoolean = jsonl.KindBoolean
	KindInteger = jsonl.KindInteger
	KindNumber  = jsonl.KindNumber
	KindObject  = jsonl.KindObject
	KindArray   = jsonl.KindArray
)

// Field is one top-level field an event may carry.
type Field struct {
	Name string
	Kind Kind
	// Required: the producer always writes it. Zero writes every field
	// but schemaVersion, type and runId with omitempty, so no other Zero
	// field is required.
	Required bool
}

// Event is the field table of one event type (the envelope's fields
// apart).
type Event struct {
	Type   string
	Fields []Field
}

// Field returns the named field of e, or false.
func (e *Event) Field(name string) (Field, bool) {
	for _, f := range e.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

func opt(name string, k Kind) Field { return Field{Name: name, Kind: k} }
func req(name string, k Kind) Field { return Field{Name: name, Kind: k, Required: true} }

// Zero's output events come from one flat Go struct
// (internal/streamjson.Event): the envelope is always written, every
// other field only when not empty.
var zeroEnvelope = []Field{req("schemaVersion", KindInteger), req("type", KindString), req("runId", KindString)}

var (
	zeroDelta = []Field{opt("delta", KindString)}
	// zeroPermission are the fields of the three permission events; v1
	// carries violation where v2 carries block.
	zeroPermission = func(block string) []Field {
		return []Field{
			opt("sessionId", KindString), opt("id", KindString), opt("name", KindString), opt("action", KindString),
			opt("permission", KindString), opt("permissionGranted", KindBoolean), opt("permissionMode", KindString),
			opt("autonomy", KindString), opt("sideEffect", KindString), opt("reason", KindString),
			opt("decisionReason", KindString), opt("risk", KindObject), opt(block, KindObject),
			opt("grantMatched", KindBoolean), opt("grant", KindObject),
		}
	}
	zeroCheckpoint = []Field{opt("checkpoint", KindObject)}
)

func zeroEvents(version int) []Event {
	block := "block"
	if version == 1 {
		block = "violation"
	}
	perm := zeroPermission(block)
	events := []Event{
		{"run_start", []Field{opt("sessionId", KindString), opt("cwd", KindString), opt("provider", KindString), opt("model", KindString), opt("apiModel", KindString)}},
		{"reasoning", zeroDelta},
		{"text", zeroDelta},
		{"tool_call", []Field{opt("id", KindString), opt("name", KindString), opt("args", KindAny), opt("sideEffect", KindString)}},
		{"permission", perm},
		{"permission_request", perm},
		{"permission_decision", perm},
		{"tool_result", []Field{
			opt("id", KindString), opt("name", KindString), opt("status", KindString), opt("output", KindString),
			opt("truncated", KindBoolean), opt("redacted", KindBoolean), opt("changedFiles", KindArray),
			opt("meta", KindObject), opt("display", KindObject),
		}},
		{"checkpoint", zeroCheckpoint},
		{"restore", zeroCheckpoint},
		{"usage", []Field{opt("promptTokens", KindInteger), opt("completionTokens", KindInteger), opt("totalTokens", KindInteger), opt("costUsd", KindNumber)}},
		{"final", []Field{opt("text", KindString), opt("meta", KindObject)}},
		{"warning", []Field{opt("message", KindString)}},
		{"error", []Field{opt("code", KindString), opt("message", KindString), opt("recoverable", KindBoolean)}},
		{"run_end", []Field{opt("status", KindString), opt("exitCode", KindInteger)}},
	}
	if version == 1 { // reasoning came with version 2
		events = append(events[:1], events[2:]...)
	}
	return events
}

var (
	zeroV2Events = zeroEvents(2)
	zeroV1Events = zeroEvents(1)
)

// Zero's input events (internal/streamjson.InputEvent): content is
// written always, but Zero accepts an event without it when it has images.
var zeroInputEnvelope = []Field{req("schemaVersion", KindInteger), req("type", KindString)}

var zeroInputEvents = []Event{
	{"message", []Field{req("role", KindString), opt("content", KindString), opt("images", KindArray)}},
	{"prompt", []Field{opt("content", KindString)}},
}

// EvoScientist writes each event as a Python dict with every documented
// key; only keys that older releases lack are optional (tool_result.id,
// instance_id and tool_call_id of sub-agent events).
var evoEnvelope = []Field{req("type", KindString)}

var evoEvents = []Event{
	{"thinking", []Field{req("content", KindString), req("id", KindInteger)}},
	{"text", []Field{req("content", KindString)}},
	{"tool_call", []Field{req("name", KindString), req("args", KindObject), req("id", KindString)}},
	{"tool_result", []Field{req("name", KindString), req("content", KindString), req("success", KindBoolean), opt("id", KindString)}},
	{"subagent_start", []Field{req("name", KindString), req("description", KindString), opt("instance_id", KindString), opt("tool_call_id", KindString)}},
	{"subagent_tool_call", []Field{req("subagent", KindString), req("name", KindString), req("args", KindObject), req("id", KindString), opt("instance_id", KindString)}},
	{"subagent_tool_result", []Field{req("subagent", KindString), req("name", KindString), req("content", KindString), req("success", KindBoolean), req("id", KindString), opt("instance_id", KindString)}},
	{"subagent_text", []Field{req("subagent", KindString), req("content", KindString), opt("instance_id", KindString)}},
	{"subagent_end", []Field{req("name", KindString), opt("instance_id", KindString)}},
	{"tool_selection", []Field{req("tools", KindArray)}},
	{"summarization_start", nil},
	{"summarization", []Field{req("content", KindString)}},
	{"usage_stats", []Field{req("input_tokens", KindInteger), req("output_tokens", KindInteger)}},
	{"interrupt", []Field{req("interrupt_id", KindString), req("action_requests", KindArray), req("review_configs", KindArray)}},
	{"ask_user", []Field{req("interrupt_id", KindString), req("questions", KindArray), req("tool_call_id", KindString)}},
	{"error", []Field{req("message", KindString)}},
	{"done", []Field{req("content", KindString), req("response", KindString)}},
	// Undocumented, EvoScientist 0.2.x.
	{"panel_dispatch_start", []Field{req("eval_id", KindString), req("id", KindString), opt("subagent_type", KindString), opt("label", KindString), opt("description", KindString)}},
	{"panel_dispatch_complete", []Field{req("eval_id", KindString), req("id", KindString), opt("duration_ms", KindNumber)}},
	{"panel_dispatch_error", []Field{req("eval_id", KindString), req("id", KindString), opt("duration_ms", KindNumber), opt("error", KindString)}},
}

// ZeroFieldKind is the JSON type of a top-level field of any Zero event
// (output of either version, or input): Zero decodes every event into one
// struct, so a field has one type whatever the event. ok is false for a
// field Zero does not know.
func ZeroFieldKind(name string) (k Kind, ok bool) {
	for _, p := range []*Protocol{ZeroV2, ZeroV1, ZeroInput} {
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
	return KindAny, false
}
