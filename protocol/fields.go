package protocol

import "github.com/zevo/zevo/jsonl"

// Field is one top-level field an event may carry.
type Field struct {
	Name string
	Kind jsonl.Kind
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

func opt(name string, k jsonl.Kind) Field { return Field{Name: name, Kind: k} }
func req(name string, k jsonl.Kind) Field { return Field{Name: name, Kind: k, Required: true} }

// Zero's output events come from one flat Go struct
// (internal/streamjson.Event): the envelope is always written, every
// other field only when not empty.
var zeroEnvelope = []Field{req("schemaVersion", jsonl.KindInteger), req("type", jsonl.KindString), req("runId", jsonl.KindString)}

var (
	zeroDelta = []Field{opt("delta", jsonl.KindString)}
	// zeroPermission are the fields of the three permission events; v1
	// carries violation where v2 carries block.
	zeroPermission = func(block string) []Field {
		return []Field{
			opt("sessionId", jsonl.KindString), opt("id", jsonl.KindString), opt("name", jsonl.KindString), opt("action", jsonl.KindString),
			opt("permission", jsonl.KindString), opt("permissionGranted", jsonl.KindBoolean), opt("permissionMode", jsonl.KindString),
			opt("autonomy", jsonl.KindString), opt("sideEffect", jsonl.KindString), opt("reason", jsonl.KindString),
			opt("decisionReason", jsonl.KindString), opt("risk", jsonl.KindObject), opt(block, jsonl.KindObject),
			opt("grantMatched", jsonl.KindBoolean), opt("grant", jsonl.KindObject),
		}
	}
	zeroCheckpoint = []Field{opt("checkpoint", jsonl.KindObject)}
)

func zeroEvents(version int) []Event {
	block := "block"
	if version == 1 {
		block = "violation"
	}
	perm := zeroPermission(block)
	events := []Event{
		{"run_start", []Field{opt("sessionId", jsonl.KindString), opt("cwd", jsonl.KindString), opt("provider", jsonl.KindString), opt("model", jsonl.KindString), opt("apiModel", jsonl.KindString)}},
		{"reasoning", zeroDelta},
		{"text", zeroDelta},
		{"tool_call", []Field{opt("id", jsonl.KindString), opt("name", jsonl.KindString), opt("args", jsonl.KindAny), opt("sideEffect", jsonl.KindString)}},
		{"permission", perm},
		{"permission_request", perm},
		{"permission_decision", perm},
		{"tool_result", []Field{
			opt("id", jsonl.KindString), opt("name", jsonl.KindString), opt("status", jsonl.KindString), opt("output", jsonl.KindString),
			opt("truncated", jsonl.KindBoolean), opt("redacted", jsonl.KindBoolean), opt("changedFiles", jsonl.KindArray),
			opt("meta", jsonl.KindObject), opt("display", jsonl.KindObject),
		}},
		{"checkpoint", zeroCheckpoint},
		{"restore", zeroCheckpoint},
		{"usage", []Field{opt("promptTokens", jsonl.KindInteger), opt("completionTokens", jsonl.KindInteger), opt("totalTokens", jsonl.KindInteger), opt("costUsd", jsonl.KindNumber)}},
		{"final", []Field{opt("text", jsonl.KindString), opt("meta", jsonl.KindObject)}},
		{"warning", []Field{opt("message", jsonl.KindString)}},
		{"error", []Field{opt("code", jsonl.KindString), opt("message", jsonl.KindString), opt("recoverable", jsonl.KindBoolean)}},
		{"run_end", []Field{opt("status", jsonl.KindString), opt("exitCode", jsonl.KindInteger)}},
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
var zeroInputEnvelope = []Field{req("schemaVersion", jsonl.KindInteger), req("type", jsonl.KindString)}

var zeroInputEvents = []Event{
	{"message", []Field{req("role", jsonl.KindString), opt("content", jsonl.KindString), opt("images", jsonl.KindArray)}},
	{"prompt", []Field{opt("content", jsonl.KindString)}},
}

// EvoScientist writes each event as a Python dict with every documented
// key; only keys that older releases lack are optional (tool_result.id,
// instance_id and tool_call_id of sub-agent events).
var evoEnvelope = []Field{req("type", jsonl.KindString)}

var evoEvents = []Event{
	{"thinking", []Field{req("content", jsonl.KindString), req("id", jsonl.KindInteger)}},
	{"text", []Field{req("content", jsonl.KindString)}},
	{"tool_call", []Field{req("name", jsonl.KindString), req("args", jsonl.KindObject), req("id", jsonl.KindString)}},
	{"tool_result", []Field{req("name", jsonl.KindString), req("content", jsonl.KindString), req("success", jsonl.KindBoolean), opt("id", jsonl.KindString)}},
	{"subagent_start", []Field{req("name", jsonl.KindString), req("description", jsonl.KindString), opt("instance_id", jsonl.KindString), opt("tool_call_id", jsonl.KindString)}},
	{"subagent_tool_call", []Field{req("subagent", jsonl.KindString), req("name", jsonl.KindString), req("args", jsonl.KindObject), req("id", jsonl.KindString), opt("instance_id", jsonl.KindString)}},
	{"subagent_tool_result", []Field{req("subagent", jsonl.KindString), req("name", jsonl.KindString), req("content", jsonl.KindString), req("success", jsonl.KindBoolean), req("id", jsonl.KindString), opt("instance_id", jsonl.KindString)}},
	{"subagent_text", []Field{req("subagent", jsonl.KindString), req("content", jsonl.KindString), opt("instance_id", jsonl.KindString)}},
	{"subagent_end", []Field{req("name", jsonl.KindString), opt("instance_id", jsonl.KindString)}},
	{"tool_selection", []Field{req("tools", jsonl.KindArray)}},
	{"summarization_start", nil},
	{"summarization", []Field{req("content", jsonl.KindString)}},
	{"usage_stats", []Field{req("input_tokens", jsonl.KindInteger), req("output_tokens", jsonl.KindInteger)}},
	{"interrupt", []Field{req("interrupt_id", jsonl.KindString), req("action_requests", jsonl.KindArray), req("review_configs", jsonl.KindArray)}},
	{"ask_user", []Field{req("interrupt_id", jsonl.KindString), req("questions", jsonl.KindArray), req("tool_call_id", jsonl.KindString)}},
	{"error", []Field{req("message", jsonl.KindString)}},
	{"done", []Field{req("content", jsonl.KindString), req("response", jsonl.KindString)}},
	// Undocumented, EvoScientist 0.2.x.
	{"panel_dispatch_start", []Field{req("eval_id", jsonl.KindString), req("id", jsonl.KindString), opt("subagent_type", jsonl.KindString), opt("label", jsonl.KindString), opt("description", jsonl.KindString)}},
	{"panel_dispatch_complete", []Field{req("eval_id", jsonl.KindString), req("id", jsonl.KindString), opt("duration_ms", jsonl.KindNumber)}},
	{"panel_dispatch_error", []Field{req("eval_id", jsonl.KindString), req("id", jsonl.KindString), opt("duration_ms", jsonl.KindNumber), opt("error", jsonl.KindString)}},
}

// ZeroFieldKind is the JSON type of a top-level field of any Zero event
// (output of either version, or input): Zero decodes every event into one
// struct, so a field has one type whatever the event. ok is false for a
// field Zero does not know.
func ZeroFieldKind(name string) (k jsonl.Kind, ok bool) {
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
	return jsonl.KindAny, false
}
