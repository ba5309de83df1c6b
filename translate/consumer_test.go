package translate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects/zero/zerotest"
)

var zeroTypes = map[string]bool{"run_start": true, "reasoning": true, "text": true, "tool_call": true, "permission": true,
	"permission_request": true, "permission_decision": true, "tool_result": true, "checkpoint": true, "restore": true,
	"usage": true, "final": true, "warning": true, "error": true, "run_end": true}

// evoFields are the fields of each EvoScientist event type.
var evoFields = map[string][]string{
	"thinking": {"content", "id"}, "text": {"content"}, "tool_call": {"name", "args", "id"},
	"tool_result": {"name", "content", "success", "id"}, "usage_stats": {"input_tokens", "output_tokens"},
	"interrupt": {"interrupt_id", "action_requests", "review_configs"}, "error": {"message"}, "done": {"content", "response"},
}

var evoDocumented = map[string]bool{"subagent_start": true, "subagent_tool_call": true, "subagent_tool_result": true,
	"subagent_text": true, "subagent_end": true, "tool_selection": true, "summarization_start": true, "summarization": true,
	"ask_user": true, "panel_dispatch_start": true, "panel_dispatch_complete": true, "panel_dispatch_error": true}

// TestTargetConsumers translates every sample and golden input with the
// default options and decodes each output line as the target's consumers
// do: Zero's event struct with unknown fields disallowed, and only
// documented EvoScientist types with all their fields.
func TestTargetConsumers(t *testing.T) {
	files, _ := filepath.Glob("../testdata/translate/*.jsonl")
	more, _ := filepath.Glob("../testdata/golden/*/input.jsonl")
	files = append(files, more...)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, to := range []Format{Zero, Zero1, EvoSci} {
			out, _, _ := run(t, Options{To: to, Redact: to != EvoSci}, data)
			for i, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if line == "" {
					continue
				}
				if to == EvoSci {
					checkEvo(t, f, i, line)
					continue
				}
				var head struct{ Type string }
				if json.Unmarshal([]byte(line), &head) == nil && !zeroTypes[head.Type] {
					// Zero input events and a fork's own types pass through
					// Zero → Zero unchanged; only the source can have them.
					if !bytes.Contains(data, []byte(`"type":"`+head.Type+`"`)) {
						t.Errorf("%s --to %s, line %d: type %q not in the input", f, to, i+1, head.Type)
					}
					continue
				}
				decode := zerotest.Decode
				if to == Zero1 {
					decode = zerotest.DecodeV1
				}
				ev, err := decode([]byte(line))
				if err != nil {
					t.Errorf("%s --to %s, output line %d rejected by Zero's decoder: %v\n%s", f, to, i+1, err, line)
					continue
				}
				want := 2
				if to == Zero1 {
					want = 1
				}
				if ev.SchemaVersion != want {
					t.Errorf("%s --to %s, line %d: schemaVersion %d, type %q\n%s", f, to, i+1, ev.SchemaVersion, ev.Type, line)
				}
				if !zeroIDPattern(ev.RunID) {
					t.Errorf("%s --to %s, line %d: runId %q does not match Zero's pattern", f, to, i+1, ev.RunID)
				}
			}
		}
	}
}

func zeroIDPattern(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i, c := range s {
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || !strings.ContainsRune("._:-", c)) {
			return false
		}
	}
	return true
}

func checkEvo(t *testing.T, f string, i int, line string) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Errorf("%s --to evosci, line %d: %v", f, i+1, err)
		return
	}
	typ, _ := m["type"].(string)
	fields, ok := evoFields[typ]
	if !ok && evoDocumented[typ] {
		return // passed through from EvoScientist input
	}
	if !ok {
		t.Errorf("%s --to evosci, line %d: type %q is not an EvoScientist event zevo writes by default\n%s", f, i+1, typ, line)
		return
	}
	for _, k := range fields {
		// (EvoScientist 0.1.x results without id get one: passFill.)
		if _, ok := m[k]; !ok {
			t.Errorf("%s --to evosci, line %d: %s without %s\n%s", f, i+1, typ, k, line)
		}
	}
	if len(m) > len(fields)+1 {
		t.Errorf("%s --to evosci, line %d: fields beyond %v\n%s", f, i+1, fields, line)
	}
}
