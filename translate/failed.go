package translate

import (
	"encoding/json"
	"github.com/zevo/zevo/dialects/zero"

	"github.com/zevo/zevo/jsonl"
)

// Failed writes a run that ended before any event of its own: an error
// (code, msg, not recoverable) and the end of the run (status, exitCode),
// as Zero writes a run that failed before it began, read as the lines of
// a new Zero run (its runId --run-id, else a new one) so that they come
// out in the target's dialect, version and redaction. The lines are
// named "zevo" in messages.
func (t *Translator) Failed(code, msg, status string, exitCode int) error {
	id := t.opt.RunID
	if id == "" {
		id = zero.NewRunID(t.opt.Now(), t.opt.Rand)
	}
	type zeroEvent struct {
		SchemaVersion int    `json:"schemaVersion"`
		Type          string `json:"type"`
		RunID         string `json:"runId"`
		Code          string `json:"code,omitempty"`
		Message       string `json:"message,omitempty"`
		Recoverable   *bool  `json:"recoverable,omitempty"`
		Status        string `json:"status,omitempty"`
		ExitCode      *int   `json:"exitCode,omitempty"`
	}
	no := false
	for i, ev := range []zeroEvent{
		{SchemaVersion: 2, Type: "error", RunID: id, Code: code, Message: msg, Recoverable: &no},
		{SchemaVersion: 2, Type: "run_end", RunID: id, Status: status, ExitCode: &exitCode},
	} {
		line, _ := json.Marshal(ev)
		if err := t.Line(jsonl.Line{Name: "zevo", Num: i + 1, Bytes: line}); err != nil {
			return err
		}
	}
	return nil
}
