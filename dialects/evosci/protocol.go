package evosci

import "github.com/zevo/zevo/jsonl"

// Family is EvoScientist's protocol family (Zero's are 1 and 2).
const Family jsonl.Family = 3

// Protocol is EvoScientist's protocol, as translate reads it line by line
// (zerotest.Protocols).
var Protocol = &jsonl.Protocol{
	Name: Name, Aliases: []string{"evoscientist"}, Title: "EvoScientist events",
	Family: Family, Style: jsonl.PythonStyle, SchemaFile: "evosci.schema.json",
	Envelope: envelope, Events: events,
}

func opt(name string, k jsonl.Kind) jsonl.Field { return jsonl.Field{Name: name, Kind: k} }
func req(name string, k jsonl.Kind) jsonl.Field {
	return jsonl.Field{Name: name, Kind: k, Required: true}
}

// EvoScientist writes each event as a Python dict with every documented
// key; only keys that older releases lack are optional (tool_result.id,
// instance_id and tool_call_id of sub-agent events).
var envelope = []jsonl.Field{req("type", jsonl.KindString)}

var events = []jsonl.EventFields{
	{Type: "thinking", Fields: []jsonl.Field{req("content", jsonl.KindString), req("id", jsonl.KindInteger)}},
	{Type: "text", Fields: []jsonl.Field{req("content", jsonl.KindString)}},
	{Type: "tool_call", Fields: []jsonl.Field{req("name", jsonl.KindString), req("args", jsonl.KindObject), req("id", jsonl.KindString)}},
	{Type: "tool_result", Fields: []jsonl.Field{req("name", jsonl.KindString), req("content", jsonl.KindString), req("success", jsonl.KindBoolean), opt("id", jsonl.KindString)}},
	{Type: "subagent_start", Fields: []jsonl.Field{req("name", jsonl.KindString), req("description", jsonl.KindString), opt("instance_id", jsonl.KindString), opt("tool_call_id", jsonl.KindString)}},
	{Type: "subagent_tool_call", Fields: []jsonl.Field{req("subagent", jsonl.KindString), req("name", jsonl.KindString), req("args", jsonl.KindObject), req("id", jsonl.KindString), opt("instance_id", jsonl.KindString)}},
	{Type: "subagent_tool_result", Fields: []jsonl.Field{req("subagent", jsonl.KindString), req("name", jsonl.KindString), req("content", jsonl.KindString), req("success", jsonl.KindBoolean), req("id", jsonl.KindString), opt("instance_id", jsonl.KindString)}},
	{Type: "subagent_text", Fields: []jsonl.Field{req("subagent", jsonl.KindString), req("content", jsonl.KindString), opt("instance_id", jsonl.KindString)}},
	{Type: "subagent_end", Fields: []jsonl.Field{req("name", jsonl.KindString), opt("instance_id", jsonl.KindString)}},
	{Type: "tool_selection", Fields: []jsonl.Field{req("tools", jsonl.KindArray)}},
	{Type: "summarization_start", Fields: nil},
	{Type: "summarization", Fields: []jsonl.Field{req("content", jsonl.KindString)}},
	{Type: "usage_stats", Fields: []jsonl.Field{req("input_tokens", jsonl.KindInteger), req("output_tokens", jsonl.KindInteger)}},
	{Type: "interrupt", Fields: []jsonl.Field{req("interrupt_id", jsonl.KindString), req("action_requests", jsonl.KindArray), req("review_configs", jsonl.KindArray)}},
	{Type: "ask_user", Fields: []jsonl.Field{req("interrupt_id", jsonl.KindString), req("questions", jsonl.KindArray), req("tool_call_id", jsonl.KindString)}},
	{Type: "error", Fields: []jsonl.Field{req("message", jsonl.KindString)}},
	{Type: "done", Fields: []jsonl.Field{req("content", jsonl.KindString), req("response", jsonl.KindString)}},
	// Undocumented, EvoScientist 0.2.x.
	{Type: "panel_dispatch_start", Fields: []jsonl.Field{req("eval_id", jsonl.KindString), req("id", jsonl.KindString), opt("subagent_type", jsonl.KindString), opt("label", jsonl.KindString), opt("description", jsonl.KindString)}},
	{Type: "panel_dispatch_complete", Fields: []jsonl.Field{req("eval_id", jsonl.KindString), req("id", jsonl.KindString), opt("duration_ms", jsonl.KindNumber)}},
	{Type: "panel_dispatch_error", Fields: []jsonl.Field{req("eval_id", jsonl.KindString), req("id", jsonl.KindString), opt("duration_ms", jsonl.KindNumber), opt("error", jsonl.KindString)}},
}

// Layouts are the layouts in which EvoScientist (Python's json.dumps:
// ", " and ": ") writes its commonest events, the lines most of a stream
// is made of: thinking, text, tool calls and tool results.
var Layouts = []jsonl.TypeLayout{
	layout("thinking", jsonl.LayoutField{Key: "content"}, jsonl.LayoutField{Key: "id", Raw: "0"}),
	layout("text", jsonl.LayoutField{Key: "content"}),
	layout("tool_call", jsonl.LayoutField{Key: "name"}, jsonl.LayoutField{Key: "args", Raw: jsonl.AnyValue}, jsonl.LayoutField{Key: "id"}),
	layout("tool_result", jsonl.LayoutField{Key: "name"}, jsonl.LayoutField{Key: "content"}, jsonl.LayoutField{Key: "success", Raw: jsonl.AnyValue}, jsonl.LayoutField{Key: "id"}),
}

// layout is the layout of an EvoScientist event of type typ: type first,
// then fields.
func layout(typ string, fields ...jsonl.LayoutField) jsonl.TypeLayout {
	return jsonl.TypeLayout{Protocol: Protocol, Type: typ,
		Layout: jsonl.NewLayout(jsonl.PythonStyle, append([]jsonl.LayoutField{{Key: "type", Raw: `"` + typ + `"`}}, fields...)...)}
}
