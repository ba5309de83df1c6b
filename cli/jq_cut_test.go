package cli

import (
	"fmt"
	"strings"
	"testing"
)

// TestJQCutLineKeepsNextRun: a Zero log whose line is cut where a value is
// expected, the next run starting on the line after: zevo jq finds both
// runs, as translate does, and names the cut line.
func TestJQCutLineKeepsNextRun(t *testing.T) {
	const run1 = `{"cwd":"/repo","provider":"openai","runId":"run_20260603100000_abc123","schemaVersion":2,"type":"run_start"}` + "\n"
	const run2 = `{"cwd":"/repo","provider":"openai","runId":"run_20260603101000_aaa111","schemaVersion":2,"type":"run_start"}` + "\n" +
		`{"delta":"hi","runId":"run_20260603101000_aaa111","schemaVersion":2,"type":"text"}` + "\n"
	for _, cut := range []string{
		`{"args":`,                       // after a colon
		`{"args":{"paths":["a",`,         // after a comma
		`{"args":{"paths":[`,             // after a bracket
		`{"args":{`,                      // after a brace
		`{"args":{"path":"READ`,          // inside a string
		`{"args":{"path":"README.md"},"`, // inside a key
	} {
		in := run1 + cut + "\n" + run2
		for _, tail := range []string{"", run2} {
			code, out, errs := run(t, in+tail, "jq", "-r", `select(.type=="run_start") | .runId`)
			want := "run_20260603100000_abc123\nrun_20260603101000_aaa111\n"
			if tail != "" {
				want += "run_20260603101000_aaa111\n"
			}
			wantErr := fmt.Sprintf("<stdin>:2: not valid JSON at byte %d: the line ends inside a value", len(cut)+1)
			if out != want || !strings.Contains(errs, wantErr) || strings.Count(errs, "\n") != 1 || code != ExitJQError {
				t.Errorf("cut %q: exit %d, out %q, stderr %q; want %d, %q and %q", cut, code, out, errs, ExitJQError, want, wantErr)
			}
		}
	}
}
