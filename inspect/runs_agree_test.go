package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/zevo/zevo/dialects/zero/zerotest"
	"strings"
	"testing"

	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/translate"
)

// mixedInputs are concatenated logs, mixed protocols and cut runs: the
// inputs where commands that cut runs each their own way disagreed.
var mixedInputs = map[string]string{
	"evosci then zero": `{"type": "text", "content": "a"}
{"type": "done", "content": "a", "response": "a"}
{"schemaVersion":2,"type":"run_start","runId":"z1"}
{"schemaVersion":2,"type":"text","runId":"z1","delta":"b"}
{"schemaVersion":2,"type":"run_end","runId":"z1","status":"success","exitCode":0}
`,
	"cut zero then evosci": `{"schemaVersion":2,"type":"run_start","runId":"z1"}
{"schemaVersion":2,"type":"text","runId":"z1","delta":"a"}
{"type": "text", "content": "b"}
{"type": "done", "content": "b", "response": "b"}
`,
	"cut evosci then zero": `{"type": "text", "content": "a"}
{"schemaVersion":2,"type":"run_start","runId":"z1"}
{"schemaVersion":2,"type":"run_end","runId":"z1","status":"error","exitCode":3}
`,
	"evosci text error done": `{"type": "text", "content": "a"}
{"type": "error", "message": "boom"}
{"type": "done", "content": "", "response": ""}
{"type": "text", "content": "next"}
`,
	"zero runs without run_end": `{"schemaVersion":2,"type":"run_start","runId":"z1"}
{"schemaVersion":2,"type":"text","runId":"z1","delta":"a"}
{"schemaVersion":2,"type":"text","runId":"z2","delta":"b"}
{"schemaVersion":2,"type":"run_start","runId":"z3"}
{"schemaVersion":2,"type":"error","runId":"z4","code":"usage_error","message":"m","recoverable":false}
{"schemaVersion":2,"type":"run_end","runId":"z4","status":"error","exitCode":2}
`,
	// A terminal event that cannot be translated (a field of the wrong
	// type) still ends its run.
	"evosci terminal events with a badly typed field": `{"type": "text", "content": "a"}
{"type": "done", "content": 5, "response": "a"}
{"type": "text", "content": "b"}
{"type": "error", "message": ["x"]}
{"type": "done", "content": "", "response": ""}
`,
	"zero run_end with a badly typed field": `{"schemaVersion":2,"type":"run_start","runId":"z1"}
{"schemaVersion":2,"type":"run_end","runId":"z1","status":"success","exitCode":"0"}
{"schemaVersion":2,"type":"run_start","runId":"z2"}
{"schemaVersion":2,"type":"text","runId":"z2","delta":"b"}
{"schemaVersion":2,"type":"run_end","runId":"z2","status":"error","exitCode":3,"recoverable":"no"}
{"schemaVersion":2,"type":"text","runId":"z3","delta":"c"}
`,
}

// trackerRuns is the run rules' answer: each run, ended or incomplete
// (runs of Zero input events left out).
func trackerRuns(t *testing.T, in string) []string {
	var tr zerotest.Tracker
	var dec jsonl.Decoder
	var o jsonl.LineObject
	var runs []*zerotest.Run
	for i, line := range strings.Split(strings.TrimSpace(in), "\n") {
		if err := dec.Decode([]byte(line), &o); err != nil {
			t.Fatal(err)
		}
		if s := tr.Event(zerotest.Detect(&o), &o, i+1); s.Start {
			runs = append(runs, s.Run)
		}
	}
	tr.End()
	var out []string
	for _, r := range runs {
		switch r.Status {
		case zerotest.StatusInput:
		case zerotest.StatusIncomplete:
			out = append(out, "incomplete")
		default:
			out = append(out, "ended")
		}
	}
	return out
}

// runClass is a run's status as ended or incomplete.
func runClass(status string) string {
	if status == "incomplete" {
		return status
	}
	return "ended"
}

// TestTranslateAgreesOnRuns checks, on each mixed input, that validate and
// stats find the runs the run rules find, and that translate's output,
// both ways, holds those runs: as many, the same ones cut short.
func TestTranslateAgreesOnRuns(t *testing.T) {
	for name, in := range mixedInputs {
		want := trackerRuns(t, in)
		_, rep := validateString(t, name, in, Auto)
		st, err := Summarize(strings.NewReader(in), name, Auto)
		if err != nil {
			t.Fatal(err)
		}
		var fromValidate, fromStats []string
		for _, r := range rep.RunList {
			fromValidate = append(fromValidate, runClass(r.Status))
		}
		for _, r := range st.Runs {
			fromStats = append(fromStats, runClass(r.Status))
		}
		if fmt.Sprint(fromValidate) != fmt.Sprint(want) || fmt.Sprint(fromStats) != fmt.Sprint(want) {
			t.Errorf("%s: validate %v, stats %v, the run rules %v", name, fromValidate, fromStats, want)
		}
		for _, to := range []translate.Format{toZero, toEvoSci} {
			var out bytes.Buffer
			// A bad line is reported and skipped; the runs stay.
			var d *jsonl.Diagnostic
			if _, err := translate.Translate(strings.NewReader(in), name, translate.Options{To: to, RunID: "R"}, &out); err != nil && !errors.As(err, &d) {
				t.Fatal(err)
			}
			got := outputRuns(t, out.Bytes(), to)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s --to %s: runs %v, the run rules say %v\n%s", name, to, got, want, out.String())
			}
		}
	}
}

// outputRuns reads the runs of translated output: Zero's run_end
// statuses, or EvoScientist's done and error ("incomplete" for zevo's own
// error about a run cut short; a done right after an error is part of
// that run, as the run rules read it; an EvoScientist run passed through that
// the input left open ends as its producer left it, with neither).
func outputRuns(t *testing.T, out []byte, to translate.Format) []string {
	var runs []string
	open, prev := false, ""
	lr := jsonl.NewReader(bytes.NewReader(out), "out", nil)
	for {
		l, err := lr.Next()
		if err != nil {
			break
		}
		var ev struct {
			Type, Status string
			Message      any // EvoScientist input passed through may hold any value
		}
		if err := json.Unmarshal(l.Bytes, &ev); err != nil {
			t.Fatal(err)
		}
		msg, _ := ev.Message.(string)
		n := len(runs)
		switch {
		case to == toZero && ev.Type == "run_end" && ev.Status == "incomplete":
			runs = append(runs, "incomplete")
		case to == toZero && ev.Type == "run_end":
			runs = append(runs, "ended")
		case to == toEvoSci && ev.Type == "done" && prev == "error":
			// the done EvoScientist may write after its error: same run
		case to == toEvoSci && ev.Type == "done":
			runs = append(runs, "ended")
		case to == toEvoSci && ev.Type == "error" && (strings.HasPrefix(msg, "the run was cut short") || strings.HasPrefix(msg, "the input ended")):
			runs = append(runs, "incomplete")
		case to == toEvoSci && ev.Type == "error":
			runs = append(runs, "ended")
		}
		open = len(runs) == n && !(ev.Type == "done" && prev == "error")
		prev = ev.Type
	}
	if open && to == toEvoSci {
		runs = append(runs, "incomplete")
	}
	return runs
}
