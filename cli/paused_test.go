package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// TestEvoScientistDoneAfterAQuestionReadAlike: EvoScientist without its
// auto mode stops at a question (tool_call, ask_user or interrupt, done)
// and exits 0 with the question unanswered: the run ended interrupted
// (paused for an answer), in stats, view and otel alike. A done later in
// the run (the question answered) is a success, stats' "done".
func TestEvoScientistDoneAfterAQuestionReadAlike(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ lines, stats, view, otel string }{
		"ask_user": {`{"type": "tool_call", "name": "ask_user", "args": {}, "id": "c1"}
{"type": "ask_user", "interrupt_id": "i1", "questions": [{"question": "Which?", "type": "text"}], "tool_call_id": "c1"}
{"type": "done", "content": "", "response": ""}
`, "interrupted", "run ended: interrupted", "interrupted"},
		"interrupt": {`{"type": "tool_call", "name": "execute", "args": {"command": "rm x"}, "id": "c1"}
{"type": "interrupt", "interrupt_id": "i1", "action_requests": [{"name": "execute", "args": {"command": "rm x"}}], "review_configs": []}
{"type": "done", "content": "", "response": ""}
`, "interrupted", "run ended: interrupted", "interrupted"},
		"answered": {`{"type": "ask_user", "interrupt_id": "i1", "questions": [{"question": "Which?", "type": "text"}], "tool_call_id": "c1"}
{"type": "text", "content": "ok"}
{"type": "done", "content": "ok", "response": "ok"}
`, "done", "run done", "done"},
	} {
		file := filepath.Join(dir, name+".jsonl")
		if err := os.WriteFile(file, []byte(c.lines), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, rep, errs := statsJSONOf(t, file); len(rep.Files) != 1 || len(rep.Files[0].Runs) != 1 || rep.Files[0].Runs[0].Status != c.stats {
			t.Errorf("%s: stats %+v %s, want status %q", name, rep, errs, c.stats)
		}
		if _, out, errs := run(t, "", "view", "--color", "never", file); !strings.Contains(out, "── "+c.view+" ") {
			t.Errorf("%s: view %q %s, want %q", name, out, errs, c.view)
		}
		otelOut := filepath.Join(dir, name+".otel.json")
		if code, _, errs := run(t, "", "otel", "--output", otelOut, file); code != 0 {
			t.Fatalf("%s: otel exit %d: %s", name, code, errs)
		}
		b, err := os.ReadFile(otelOut)
		if err != nil {
			t.Fatal(err)
		}
		var status []string
		gjson.GetBytes(b, "resourceSpans.#.scopeSpans.#.spans.#.attributes.#(key==\"zevo.run.status\").value.stringValue").ForEach(func(_, v gjson.Result) bool {
			v.ForEach(func(_, v gjson.Result) bool {
				v.ForEach(func(_, v gjson.Result) bool { status = append(status, v.Str); return true })
				return true
			})
			return true
		})
		if len(status) != 1 || status[0] != c.otel {
			t.Errorf("%s: otel zevo.run.status %q, want %q", name, status, c.otel)
		}
	}
}
