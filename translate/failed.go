package translate

import (
	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/jsonl"
)

// Failed writes a run that ended before any event of its own: an error
// (code, msg, not recoverable) and the end of the run (status, exitCode),
// as the runs' dialect (dialects.Runs) writes a run that failed before it
// began, read as the lines of a new run (its id --run-id, else a new
// one) so that they come out in the target's dialect, version and
// redaction. The lines are named "zevo" in messages.
func (t *Translator) Failed(code, msg, status string, exitCode int) error {
	id := t.opt.RunID
	if id == "" {
		id = dialects.Runs.RunIDs.New(t.opt.Now(), t.opt.Rand)
	}
	for i, line := range dialects.Runs.Failed(id, code, msg, status, exitCode) {
		if err := t.Line(jsonl.Line{Name: "zevo", Num: i + 1, Bytes: line}); err != nil {
			return err
		}
	}
	return nil
}
