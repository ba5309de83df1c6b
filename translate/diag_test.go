package translate

import (
	"strings"
	"testing"
)

// TestNonFiniteWarningWordedAsValidate: a bare NaN is reported in the
// words validate uses (a warning about the event), and the event is still
// translated.
func TestNonFiniteWarningWordedAsValidate(t *testing.T) {
	in := `{"type": "tool_call", "name": "ls", "args": {"n": NaN}, "id": "c1"}` + "\n"
	var out strings.Builder
	_, err := Translate(strings.NewReader(in), "f.jsonl", Options{To: Zero, RunID: "R"}, &out)
	want := "f.jsonl:1: warning: tool_call: bare NaN is not JSON (Python writes a non-finite float so); read as null"
	if err == nil || err.Error() != want {
		t.Errorf("diagnostic %v, want %s", err, want)
	}
	if !strings.Contains(out.String(), `"n":null`) {
		t.Errorf("the event was not translated with null: %s", out.String())
	}
}
