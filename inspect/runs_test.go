package inspect

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/translate"
)

// modelEnds is how each run of in that zevo view heads ends, as the
// event model cuts in into runs (docs/runs.md, event/runs.go): the
// producer's word, else done, error or the status; incomplete when cut.
// A run of prompts alone has no heading; one is headed once an event
// other than a prompt comes, or when it starts with one.
func modelEnds(in string) []string {
	var ends []string
	headed := map[*model.Run]bool{}
	word := func(ev *model.Event) string {
		switch {
		case ev.StatusStated && ev.StatusWord != "":
			return ev.StatusWord
		case ev.Status == model.StatusSuccess:
			return "done"
		case ev.Status == model.StatusError:
			return "error"
		}
		return string(ev.Status)
	}
	fn := func(ev *model.Event, st model.Step) {
		if st.Closed != nil && headed[st.Closed] {
			ends = append(ends, "incomplete")
		}
		if ev == nil || st.Run == nil {
			return
		}
		if ev.Aside && ev.Kind == model.Other && !st.Run.Open() {
			return // a late line of a run already closed
		}
		if st.Start && ev.Kind != model.Prompt || !st.Start && ev.Kind != model.Prompt && ev.Kind != model.RunEnd {
			headed[st.Run] = true
		}
		if st.End && headed[st.Run] {
			ends = append(ends, word(ev))
		}
	}
	input := dialects.NewInput(model.DecodeOptions{})
	for _, l := range strings.Split(in, "\n") {
		if strings.TrimSpace(l) == "" || !json.Valid([]byte(l)) {
			continue
		}
		input.Line([]byte(l), 0, fn)
	}
	input.End(fn)
	return ends
}

// Lines to build random streams from: runs of both protocols, stray ends,
// runId changes, input events, bad and blank lines.
var runPieces = []string{
	`{"cwd":"/r","runId":"r1","schemaVersion":2,"type":"run_start"}`,
	`{"delta":"a","runId":"r1","schemaVersion":2,"type":"text"}`,
	`{"delta":"b","runId":"r2","schemaVersion":1,"type":"text"}`,
	`{"exitCode":0,"runId":"r1","schemaVersion":2,"status":"success","type":"run_end"}`,
	`{"exitCode":1,"runId":"r2","schemaVersion":2,"status":"error","type":"run_end"}`,
	`{"code":"x","message":"m","runId":"r2","schemaVersion":2,"type":"error"}`,
	`{"type": "text", "content": "a"}`,
	`{"type": "done", "content": "a", "response": "a"}`,
	`{"type": "error", "message": "boom"}`,
	`{"schemaVersion":2,"type":"prompt","content":"hi"}`,
	`not json`,
	``,
	// lines reported as bad that still take their place in the runs
	`{"exitCode":"0","runId":"r1","schemaVersion":2,"status":"success","type":"run_end"}`,
	`{"delta":"c","runId":"r3","schemaVersion":3,"type":"text"}`,
	`{"delta":"no run id","schemaVersion":2,"type":"text"}`,
	`{"exitCode":0,"runId":"bad id!","schemaVersion":2,"status":"success","type":"run_end"}`,
	`{"type": "done", "content": 5, "response": "a"}`,
	`{"type": "error", "message": ["x"]}`,
	`{"content": "no type"}`,
	`{"schemaVersion":2,"runId":"r1"}`,
}

// On any stream, validate, stats, view and translate see the same runs:
// validate the very runs stats sees (the event model's), view as many
// runs (input runs have no heading) with the same endings, translate's
// Zero output as many runs, the same ones cut short (outputRuns).
// translate reads runs through the event model too, so every stream is
// held to it, Zero input events and lines without a runId or a type
// included. (EvoScientist output cannot tell a run of a lone
// successful run_end after a failed run from that failed run:
// TestTranslateAgreesOnRuns checks it on real shapes.)
func TestRunsAgreeOnRandomStreams(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	n := 3000
	if testing.Short() {
		n = 1000
	}
	for range n {
		var lines []string
		for range 1 + rng.IntN(12) {
			lines = append(lines, runPieces[rng.IntN(len(runPieces))])
		}
		in := strings.Join(lines, "\n") + "\n"
		_, rep := validateString(t, "x", in, Auto)
		var ends, translated []string
		for _, r := range rep.RunList {
			if r.Status != "input" {
				ends = append(ends, r.Status)
				translated = append(translated, cmp.Or(map[string]string{"incomplete": "incomplete"}[r.Status], "ended"))
			}
		}
		st, err := Summarize(strings.NewReader(in), "x", Auto)
		if err != nil {
			t.Fatal(err)
		}
		var fromValidate, fromStats []string
		for _, r := range rep.RunList {
			fromValidate = append(fromValidate, fmt.Sprintf("%s %q %d-%d %s %s", r.Protocol, r.ID, r.FirstLine, r.LastLine, r.Status, r.Cut))
		}
		for _, r := range st.Runs {
			fromStats = append(fromStats, fmt.Sprintf("%s %q %d-%d %s %s", r.Protocol, r.ID, r.FirstLine, r.LastLine, r.Status, r.Cut))
		}
		if strings.Join(fromValidate, "\n") != strings.Join(fromStats, "\n") {
			t.Fatalf("%s\nvalidate's runs:\n%s\nstats':\n%s", in, strings.Join(fromValidate, "\n"), strings.Join(fromStats, "\n"))
		}
		var zero bytes.Buffer
		translate.Translate(strings.NewReader(in), "x", translate.Options{To: toZero, RunID: "R"}, &zero)
		if got := outputRuns(t, zero.Bytes(), toZero); fmt.Sprint(got) != fmt.Sprint(translated) {
			t.Fatalf("%s\ntranslate --to zero: runs %v, validate %v\n%s", in, got, translated, zero.String())
		}
		out, _ := viewString(t, in, ViewOptions{})
		var viewEnds []string
		for _, l := range strings.Split(out, "\n") {
			switch {
			case strings.HasPrefix(l, "── run done"):
				viewEnds = append(viewEnds, "done")
			case strings.HasPrefix(l, "── run ended with an error"):
				viewEnds = append(viewEnds, "error")
			case strings.HasPrefix(l, "── run incomplete"):
				viewEnds = append(viewEnds, "incomplete")
			case strings.HasPrefix(l, "── run ended: "):
				viewEnds = append(viewEnds, strings.Fields(l)[3])
			}
		}
		if want := modelEnds(in); strings.Join(viewEnds, " ") != strings.Join(want, " ") {
			t.Fatalf("%s\nview ends %v, the model's %v\n%s", in, viewEnds, want, out)
		}
	}
}
