package claude

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/zevo/zevo/event"
)

// host lets exec stand in for Claude Code under the Claude Agent SDK,
// which starts `claude --output-format stream-json --verbose
// --input-format stream-json …` and speaks to it in control requests and
// user messages (docs/exec.md, "Behind the Claude Agent SDK").
var host = &event.Host{
	Pass: map[string]string{"model": "agent-model", "resume": "agent-resume"},
	// stream-json, verbose: what exec --to claude writes.
	Same: map[string]bool{"output-format": true, "verbose": false},
	Read: hostRead,
}

// hostRead reads one of the SDK's lines: control requests are answered,
// a user message is a prompt.
func hostRead(line []byte) event.HostMessage {
	switch typ := gjson.GetBytes(line, "type").Str; typ {
	case "control_request":
		return control(gjson.GetBytes(line, "request_id"), gjson.GetBytes(line, "request.subtype").Str)
	case "user":
		p := userText(gjson.GetBytes(line, "message.content"))
		if p == "" {
			return event.HostMessage{Note: "a user message without text; ignored", Where: true}
		}
		return event.HostMessage{Prompt: p}
	case "control_response", "control_cancel_request", "keep_alive", "update_environment_variables":
		// Answers to requests zevo never makes, and notices.
		return event.HostMessage{}
	default:
		return event.HostMessage{Note: fmt.Sprintf("message type %q ignored", typ), Where: true}
	}
}

// control answers one control request: initialize with what Claude Code
// states of itself, interrupt by stopping the run (as a SIGINT to zevo:
// passed on to AGENT's process group, and the run ended as Claude Code
// ends an interrupted one); any other with an error.
func control(id gjson.Result, subtype string) event.HostMessage {
	var m event.HostMessage
	var resp map[string]any
	switch subtype {
	case "initialize":
		resp = map[string]any{
			"commands": []any{}, "agents": []any{}, "models": []any{},
			"output_style": "default", "available_output_styles": []string{"default"},
			"account": map[string]any{}, "pending_permission_requests": []any{},
		}
	case "interrupt":
		m.Interrupt = true
		resp = map[string]any{}
	}
	if id.Raw == "" {
		m.Note = "a control request without request_id; not answered"
		return m
	}
	var msg map[string]any
	if resp != nil {
		msg = map[string]any{"type": "control_response", "response": map[string]any{
			"subtype": "success", "request_id": json.RawMessage(id.Raw), "response": resp}}
	} else {
		msg = map[string]any{"type": "control_response", "response": map[string]any{
			"subtype": "error", "request_id": json.RawMessage(id.Raw),
			"error": fmt.Sprintf("zevo exec does not serve the control request %q", subtype)}}
	}
	m.Reply, _ = json.Marshal(msg)
	return m
}

// userText is the text of a user message's content: a string, or its
// text blocks joined.
func userText(content gjson.Result) string {
	if content.Type == gjson.String {
		return strings.TrimSpace(content.Str)
	}
	var parts []string
	for _, b := range content.Array() {
		if b.Get("type").Str == "text" {
			parts = append(parts, b.Get("text").Str)
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}
