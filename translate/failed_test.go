package translate

import (
	"bytes"
	"testing"
)

// A run that failed before it began comes out in the target's dialect and
// version, redacted as the target's output is, under --run-id.
func TestFailedWritesTheTargetsFailedRun(t *testing.T) {
	for _, c := range []struct {
		to   Format
		want string
	}{
		{Zero, `{"code":"agent_not_found","message":"no [REDACTED] here","recoverable":false,"runId":"r","schemaVersion":2,"type":"error"}
{"exitCode":127,"runId":"r","schemaVersion":2,"status":"error","type":"run_end"}
`},
		{Zero1, `{"code":"agent_not_found","message":"no [REDACTED] here","recoverable":false,"runId":"r","schemaVersion":1,"type":"error"}
{"exitCode":127,"runId":"r","schemaVersion":1,"status":"error","type":"run_end"}
`},
		{EvoSci, `{"type": "error", "message": "no sk-abcdefghijklmnopqrstuvwx here"}
`},
	} {
		var buf bytes.Buffer
		tr := New(Options{To: c.to, RunID: "r", Redact: RedactsByDefault(c.to), Now: fixedNow, Rand: zeroReader{}}, func(b []byte) error {
			buf.Write(b)
			buf.WriteByte('\n')
			return nil
		})
		if err := tr.Failed("agent_not_found", "no sk-abcdefghijklmnopqrstuvwx here", "error", 127); err != nil {
			t.Fatal(err)
		}
		if err := tr.End("zevo"); err != nil {
			t.Fatal(err)
		}
		if got := buf.String(); got != c.want {
			t.Errorf("--to %s:\n%s\nwant:\n%s", c.to.Name, got, c.want)
		}
	}
}
