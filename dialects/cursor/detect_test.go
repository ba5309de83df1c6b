package cursor

import (
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/event/eventtest"
)

// detectByField is Detect as a plain reading, field by field: the
// reference the one-pass Detect must agree with.
func detectByField(line []byte) event.Certainty {
	r := gjson.ParseBytes(line)
	if !r.IsObject() {
		return event.No
	}
	typ := r.Get("type")
	if typ.Type != gjson.String {
		return event.No
	}
	for _, p := range [...]string{"claude_code_version", "qwen_code_version", "uuid", "parent_tool_use_id",
		"total_cost_usd", "modelUsage", "message.id", "message.model", "tools", "mcp_servers"} {
		if r.Get(p).Exists() {
			return event.No
		}
	}
	own := r.Get("model_call_id").Exists() || r.Get("call_id").Exists() || r.Get("timestamp_ms").Exists()
	switch typ.Str {
	case "thinking", "tool_call":
		if own || r.Get("subtype").Exists() || r.Get("session_id").Exists() {
			return event.Sure
		}
		return event.No
	case "system", "user", "assistant", "result":
		if own || r.Get("usage.inputTokens").Exists() {
			return event.Sure
		}
		return event.Maybe
	}
	if own && r.Get("session_id").Exists() {
		return event.Sure
	}
	return event.No
}

// Detect decides as the plain reading does on every JSON object line of
// testdata/ (every dialect's) and on lines with keys written twice,
// fields of other types and escaped keys.
func TestDetectAgreesWithFieldByFieldReading(t *testing.T) {
	lines := eventtest.DetectCases(t, "../../testdata")
	for _, l := range lines {
		want := detectByField(l)
		if got := Dialect.Detect(l); got != want {
			t.Errorf("%s: %v, the plain reading %v", l, got, want)
		}
		el := event.ReadLine(l)
		if got := Dialect.DetectLine(&el); got != want {
			t.Errorf("%s: typed %v, the plain reading %v", l, got, want)
		}
	}
}
