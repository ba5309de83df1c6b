package claude

import (
	"strings"
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
	switch t := typ.Str; {
	case t == "stream_event" || t == "rate_limit_event" || t == "tool_progress" ||
		t == "auth_status" || t == "tool_use_summary" || strings.HasPrefix(t, "control_"):
		return event.Sure
	case t == "system" || t == "user" || t == "assistant" || t == "result":
		for _, p := range [...]string{"claude_code_version", "qwen_code_version", "uuid", "parent_tool_use_id",
			"total_cost_usd", "modelUsage", "message.id", "message.model", "tools", "mcp_servers"} {
			if r.Get(p).Exists() {
				return event.Sure
			}
		}
		return event.Maybe
	}
	return event.No
}

// Detect decides as the plain reading does on every JSON object line of
// testdata/ (every dialect's) and on lines with keys written twice,
// fields of other types and escaped keys.
func TestDetectAgreesWithFieldByFieldReading(t *testing.T) {
	for _, l := range eventtest.DetectCases(t, "../../testdata") {
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
