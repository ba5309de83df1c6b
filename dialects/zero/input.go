package zero

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/zevo/zevo/event"
)

// inputError is input zero exec would refuse, in Zero's own words.
func inputError(line int, reason string) *event.InputError {
	msg := reason
	if line > 0 {
		msg = fmt.Sprintf("Invalid stream-json input at line %d: %s", line, reason)
	}
	return &event.InputError{Line: line, Reason: reason, Message: msg}
}

// Zero's wording (internal/streamjson of Zero 0.8.0).
const (
	notObject = "expected a JSON object."
	noPrompt  = "Stream-json input must include at least one prompt or user message event."
)

// inputEvent is Zero's InputEvent: the fields and the Go types its
// decoder uses.
type inputEvent struct {
	SchemaVersion int               `json:"schemaVersion"`
	Type          string            `json:"type"`
	Role          string            `json:"role,omitempty"`
	Content       string            `json:"content"`
	Images        []json.RawMessage `json:"images,omitempty"`
}

// Prompt reads Zero's stream-json input events (prompt, message) in data
// into one prompt, as zero exec does (the Dialect's Prompt): their contents, each
// trimmed, the blank ones left out, joined by a blank line. Lines are split
// on "\n" and trimmed; blank lines are skipped. A line is checked as zero
// exec checks it, in its order: a JSON object; no field beyond
// schemaVersion, type, content (and role, images for a message); the
// fields' JSON types; schemaVersion 2; content not blank; type prompt, or
// message with role user. Images cannot be passed on as a prompt, so an
// event that carries one is refused too.
func Prompt(data []byte) (string, error) {
	var parts []string
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(bytes.TrimSuffix(line, []byte("\r")))
		if len(line) == 0 {
			continue
		}
		ev, reason := parse(line)
		if reason != "" {
			return "", inputError(i+1, reason)
		}
		if c := strings.TrimSpace(ev.Content); c != "" {
			parts = append(parts, c)
		}
	}
	if len(parts) == 0 {
		return "", inputError(0, noPrompt)
	}
	return strings.Join(parts, "\n\n"), nil
}

func parse(line []byte) (*inputEvent, string) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return nil, notObject
	}
	if key := unknownField(line, raw); key != "" {
		return nil, "unknown field " + key
	}
	var ev inputEvent
	if err := json.Unmarshal(line, &ev); err != nil {
		return nil, notObject
	}
	if ev.SchemaVersion != 2 {
		return nil, "schemaVersion must be 2"
	}
	if strings.TrimSpace(ev.Content) == "" && len(ev.Images) == 0 {
		return nil, "content is required"
	}
	switch ev.Type {
	case "prompt":
	case "message":
		if ev.Role != "user" {
			return nil, "role must be user"
		}
	default:
		return nil, "type must be prompt or message"
	}
	if len(ev.Images) > 0 {
		return nil, "images cannot be passed on to the agent (zevo exec passes text only)"
	}
	return &ev, ""
}

// unknownField is the first field, in the line's order, that Zero does not
// accept; "" when there is none. (Zero names one of them, in no set order.)
func unknownField(line []byte, raw map[string]json.RawMessage) string {
	var typ string
	_ = json.Unmarshal(raw["type"], &typ)
	allowed := func(k string) bool {
		switch k {
		case "schemaVersion", "type", "content":
			return true
		case "role", "images":
			return typ == "message"
		}
		return false
	}
	first := ""
	for k := range raw {
		if !allowed(k) && (first == "" || keyPos(line, k) < keyPos(line, first)) {
			first = k
		}
	}
	return first
}

// keyPos is where key first appears as a member name in the object line.
func keyPos(line []byte, key string) int {
	d := json.NewDecoder(bytes.NewReader(line))
	if _, err := d.Token(); err != nil {
		return 0
	}
	for i := 0; d.More(); i++ {
		t, err := d.Token()
		if err != nil {
			return i
		}
		if s, ok := t.(string); ok && s == key {
			return i
		}
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return i
		}
	}
	return 1 << 30
}
