package cursor

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
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
	lines := detectCases(t)
	for _, l := range lines {
		want := detectByField(l)
		if got := Detect(l); got != want {
			t.Errorf("%s: %v, the plain reading %v", l, got, want)
		}
		el := event.ReadLine(l)
		if got := Dialect.DetectLine(&el); got != want {
			t.Errorf("%s: typed %v, the plain reading %v", l, got, want)
		}
	}
}

// detectCases is every JSON object line of testdata/, and edge cases.
func detectCases(t *testing.T) [][]byte {
	files, err := filepath.Glob("../../testdata/*/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../../testdata/*/*/*.jsonl")
	var lines [][]byte
	for _, f := range append(files, more...) {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			if gjson.ValidBytes(sc.Bytes()) && gjson.ParseBytes(sc.Bytes()).IsObject() {
				lines = append(lines, append([]byte(nil), sc.Bytes()...))
			}
		}
		fh.Close()
	}
	if len(lines) < 500 {
		t.Fatalf("only %d lines", len(lines))
	}
	for _, l := range []string{
		`{"type":"result","type":1}`,
		`{"type":1,"type":"result"}`,
		`{"type":"assistant","message":{"content":[]},"message":{"id":"m"}}`,
		`{"type":"assistant","message":{"id":"m"},"message":{}}`,
		`{"type":"assistant","message":"id"}`,
		`{"type":"assistant","message":["id"]}`,
		`{"type":"result","usage":{"inputTokens":1},"usage":{}}`,
		`{"type":"result","usage":{},"usage":{"inputTokens":1}}`,
		`{"type":"result","usage":5}`,
		`{"ty\u0070e":"tool_call","call_id":"c"}`,
		`{"type":"tool_call","call_id":"c","uuid":null}`,
		`{"type":"x","session_id":1,"timestamp_ms":null}`,
		`{"type":"x","session_id":1}`,
		`{"type":"thinking","subtype":"delta"}`,
		`{"type":"thinking"}`,
		`{"tools":[],"type":"system"}`,
		`{"a":{"type":"system","uuid":"u"},"type":"user"}`,
		`["type","result"]`,
		`[{"type":"result"}]`,
		`"type"`,
		`{"a":1,"type":"rate_limit_event"}`,
		`{"type":"x","session_id":"s","call_id":"c","tools":[]}`,
		`{"type":"x","call_id":"c","session_id":"s"}`,
		`{"type":"thinking","sess\u0069on_id":"s"}`,
		`{"type":"tool_call","call\u005fid":"c"}`,
		`{"type":"tool_call","c\u0061ll_id":"c"}`,
		`{"type":"x","session\u005fid":"s","timestamp_ms":1}`,
		`{"type":"x","session_id":"s","timestamp\u005Fms":1}`,
		`{"type":"text","schem\u0061Version":2}`,
		`{"type":"text","sessionI\u0044":"s"}`,
		`{"type":"text","sessionID":"s"}`,
		`{}`,
	} {
		lines = append(lines, []byte(l))
	}
	return lines
}
