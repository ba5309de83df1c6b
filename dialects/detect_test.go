package dialects

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects/codex"
	"github.com/zevo/zevo/dialects/opencode"
	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/event"
)

// Zero's, Codex's and OpenCode's Detect decide as the plain reading of their
// fields does (event.Lacks only spares the lookup) on every JSON object
// line of testdata/ and on escaped keys.
func TestDetectAgreesWithFieldByFieldReading(t *testing.T) {
	zeroByField := func(l []byte) event.Certainty {
		if gjson.GetBytes(l, "schemaVersion").Exists() {
			return event.Sure
		}
		return event.No
	}
	opencodeByField := func(l []byte) event.Certainty {
		t := gjson.GetBytes(l, "type")
		if t.Type != gjson.String {
			return event.No
		}
		switch t.Str {
		case "step_start", "step_finish", "tool_use":
			return event.Sure
		case "text", "reasoning", "error", "done":
			if gjson.GetBytes(l, "sessionID").Type == gjson.String {
				return event.Sure
			}
		}
		return event.No
	}
	codexByField := func(l []byte) event.Certainty {
		t := gjson.GetBytes(l, "type")
		if t.Type != gjson.String {
			return event.No
		}
		switch {
		case strings.HasPrefix(t.Str, "thread.") || strings.HasPrefix(t.Str, "turn.") || strings.HasPrefix(t.Str, "item."):
			return event.Sure
		case t.Str == "error":
			if gjson.GetBytes(l, "message").Type == gjson.String && len(gjson.ParseBytes(l).Map()) == 2 {
				return event.Maybe
			}
		case t.Str == "request_user_input":
			return event.Maybe
		}
		return event.No
	}
	for _, l := range detectCases(t) {
		el := event.ReadLine(l)
		if got, want := codex.Dialect.DetectLine(&el), codexByField(l); got != want || codex.Dialect.Detect(l) != want {
			t.Errorf("codex %s: %v, the plain reading %v", l, got, want)
		}
		if got, want := zero.Detect(l), zeroByField(l); got != want || zero.Dialect.DetectLine(&el) != want {
			t.Errorf("zero %s: %v, the plain reading %v", l, got, want)
		}
		if got, want := opencode.Dialect.Detect(l), opencodeByField(l); got != want {
			t.Errorf("opencode %s: %v, the plain reading %v", l, got, want)
		}
		if got, want := opencode.Dialect.DetectLine(&el), opencodeByField(l); got != want {
			t.Errorf("opencode %s: typed %v, the plain reading %v", l, got, want)
		}
	}
}

// detectCases is every JSON object line of testdata/, and edge cases.
func detectCases(t *testing.T) [][]byte {
	files, err := filepath.Glob("../testdata/*/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../testdata/*/*/*.jsonl")
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
