package dialects

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects/codex"
	"github.com/zevo/zevo/dialects/opencode"
	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/event/eventtest"
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
	for _, l := range eventtest.DetectCases(t, "../testdata") {
		el := event.ReadLine(l)
		if got, want := codex.Dialect.DetectLine(&el), codexByField(l); got != want || codex.Dialect.Detect(l) != want {
			t.Errorf("codex %s: %v, the plain reading %v", l, got, want)
		}
		if got, want := zero.Dialect.Detect(l), zeroByField(l); got != want || zero.Dialect.DetectLine(&el) != want {
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

// TestUnclaimedLineAfterZeroIsNotZeros: Zero writes schemaVersion on
// every line, so a line no dialect claims is not Zero's even after its
// lines: it goes to the fallback (EvoScientist), whose line cuts the Zero
// run, as translate reads it; every command counts the same three runs.
func TestUnclaimedLineAfterZeroIsNotZeros(t *testing.T) {
	in := NewInput(event.DecodeOptions{})
	var dialectOf []string
	for i, l := range []string{
		`{"schemaVersion":2,"type":"run_start","runId":"r1"}`,
		`{"type":"t1","content":"x"}`,
		`{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}`,
	} {
		err := in.Line([]byte(l), i+1, func(*event.Event, event.Step) {})
		if err != nil {
			t.Errorf("line %d: %v", i+1, err)
		}
		dialectOf = append(dialectOf, in.Dialect().Name)
	}
	if got := strings.Join(dialectOf, " "); got != "zero evosci zero" || in.Runs() != 3 {
		t.Errorf("dialects %s, %d runs; want zero evosci zero, 3 runs", got, in.Runs())
	}
}
