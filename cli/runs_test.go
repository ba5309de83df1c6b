package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const (
	agreeEvoRun  = `{"type": "text", "content": "hi"}` + "\n" + `{"type": "done", "content": "hi", "response": "hi"}` + "\n"
	agreeZeroRun = `{"cwd":"/r","provider":"p","runId":"r1","schemaVersion":2,"type":"run_start"}` + "\n" +
		`{"delta":"hi","runId":"r1","schemaVersion":2,"type":"text"}` + "\n" +
		`{"exitCode":0,"runId":"r1","schemaVersion":2,"status":"success","type":"run_end"}` + "\n"
	agreeZeroCut = `{"cwd":"/r","provider":"p","runId":"r2","schemaVersion":2,"type":"run_start"}` + "\n" +
		`{"delta":"hi","runId":"r2","schemaVersion":2,"type":"text"}` + "\n"
	agreeEvoErrDone = `{"type": "text", "content": "a"}` + "\n" + `{"type": "error", "message": "boom"}` + "\n" +
		`{"type": "done", "content": "a", "response": "a"}` + "\n"
)

// span is one run as a command reports it.
type span struct {
	First, Last int
	Status      string
}

var viewHeading = regexp.MustCompile(`(?m)^── run [^\n]*──$`)

var viewEnd = regexp.MustCompile(`(?m)^── (run done|run ended with an error|run ended: (\S+)|run incomplete)`)

// validate, stats and view agree on the runs of the same input: how many,
// where each begins and ends, how it ended.
func TestCommandsAgreeOnRuns(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name  string
		files []string
		want  [][]span // per file
	}{
		{"evosci log then zero log", []string{agreeEvoRun + agreeZeroRun},
			[][]span{{{1, 2, "done"}, {3, 5, "success"}}}},
		{"zero log then evosci log", []string{agreeZeroRun + agreeEvoRun},
			[][]span{{{1, 3, "success"}, {4, 5, "done"}}}},
		{"zero run cut off then evosci run", []string{agreeZeroCut + agreeEvoRun},
			[][]span{{{1, 2, "incomplete"}, {3, 4, "done"}}}},
		{"evosci cut off then zero run", []string{`{"type": "text", "content": "a"}` + "\n" + agreeZeroRun},
			[][]span{{{1, 1, "incomplete"}, {2, 4, "success"}}}},
		{"evosci text error done", []string{agreeEvoErrDone + agreeEvoRun},
			[][]span{{{1, 3, "error"}, {4, 5, "done"}}}},
		{"zero failure before run_start", []string{`{"code":"x","message":"m","recoverable":false,"runId":"r0","schemaVersion":2,"type":"error"}` + "\n" +
			`{"exitCode":2,"runId":"r0","schemaVersion":2,"status":"error","type":"run_end"}` + "\n" + agreeZeroRun},
			[][]span{{{1, 2, "error"}, {3, 5, "success"}}}},
		{"two files", []string{agreeZeroCut, agreeZeroRun + agreeEvoErrDone},
			[][]span{{{1, 2, "incomplete"}}, {{1, 3, "success"}, {4, 6, "error"}}}},
		{"bad and blank lines between", []string{agreeEvoRun + "not json\n\n" + agreeZeroRun},
			[][]span{{{1, 2, "done"}, {5, 7, "success"}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var paths []string
			for i, f := range c.files {
				paths = append(paths, write(fmt.Sprintf("%s-%d.jsonl", strings.ReplaceAll(c.name, " ", "-"), i), f))
			}
			want := fmt.Sprint(c.want)

			_, out, _ := run(t, "", append([]string{"validate", "--json"}, paths...)...)
			var vr struct {
				Files []struct {
					Runs    int `json:"runs"`
					RunList []struct {
						FirstLine, LastLine int
						Status              string
					} `json:"runList"`
				} `json:"files"`
			}
			if err := json.Unmarshal([]byte(out), &vr); err != nil {
				t.Fatalf("validate --json: %v\n%s", err, out)
			}
			var got [][]span
			for _, f := range vr.Files {
				var spans []span
				for _, r := range f.RunList {
					spans = append(spans, span{r.FirstLine, r.LastLine, r.Status})
				}
				if f.Runs != len(spans) {
					t.Errorf("validate: runs %d, runList %d", f.Runs, len(spans))
				}
				got = append(got, spans)
			}
			if fmt.Sprint(got) != want {
				t.Errorf("validate runs %v, want %v", got, want)
			}

			_, out, _ = run(t, "", append([]string{"stats", "--json"}, paths...)...)
			var sr struct {
				Files []struct {
					Runs []struct {
						FirstLine, LastLine int
						Status              string
					} `json:"runs"`
				} `json:"files"`
			}
			if err := json.Unmarshal([]byte(out), &sr); err != nil {
				t.Fatalf("stats --json: %v\n%s", err, out)
			}
			got = nil
			for _, f := range sr.Files {
				var spans []span
				for _, r := range f.Runs {
					spans = append(spans, span{r.FirstLine, r.LastLine, r.Status})
				}
				got = append(got, spans)
			}
			// stats reads events: its statuses are the model's, the same
			// for every dialect (EvoScientist's done is success).
			if w := strings.ReplaceAll(want, " done}", " success}"); fmt.Sprint(got) != w {
				t.Errorf("stats runs %v, want %v", got, w)
			}

			// view shows no line numbers: it agrees on the number of runs
			// (a heading and an ending each) and how each ended.
			var wantEnds, gotEnds []string
			for _, f := range c.want {
				for _, s := range f {
					wantEnds = append(wantEnds, s.Status)
				}
			}
			for _, p := range paths {
				_, out, _ = run(t, "", "view", p)
				if n, m := len(viewHeading.FindAllString(out, -1)), len(viewEnd.FindAllString(out, -1)); n != 2*m {
					t.Errorf("view: %d headings, %d endings:\n%s", n, m, out)
				}
				for _, m := range viewEnd.FindAllStringSubmatch(out, -1) {
					switch {
					case m[1] == "run done":
						gotEnds = append(gotEnds, "done")
					case m[1] == "run ended with an error":
						gotEnds = append(gotEnds, "error")
					case m[1] == "run incomplete":
						gotEnds = append(gotEnds, "incomplete")
					default:
						gotEnds = append(gotEnds, m[2])
					}
				}
			}
			if strings.Join(gotEnds, " ") != strings.Join(wantEnds, " ") {
				t.Errorf("view run endings %v, want %v", gotEnds, wantEnds)
			}
		})
	}
}

// The same bad line gets the same diagnostic, FILE:LINE: MESSAGE, from
// validate, view and translate.
func TestSameBadLineSameDiagnostic(t *testing.T) {
	for _, line := range []string{
		`{"type": "text", "content": "x"`,
		`{"type": "text",}`,
		"{\"type\": \"text\", \"content\": \"\xff\"}",
		`[1, 2]`,
		`{"a": 1} trailing`,
		"{\"a\": \"tab\there\"}",
		strings.Repeat("[", 10001),
	} {
		in := agreeEvoRun + line + "\n" + agreeEvoRun
		_, vout, _ := run(t, in, "validate")
		_, _, verr := run(t, in, "view")
		var vdiag, wdiag string
		for _, l := range strings.Split(vout, "\n") {
			if strings.HasPrefix(l, "<stdin>:3: ") {
				vdiag = strings.Replace(l, ": error: ", ": ", 1) // validate names the severity
			}
		}
		wdiag = strings.TrimPrefix(strings.TrimSpace(verr), "zevo: ")
		_, _, terr := run(t, in, "translate", "--to", "zero", "--run-id", "R")
		var tdiag string
		for _, l := range strings.Split(terr, "\n") {
			if l = strings.TrimPrefix(l, "zevo: "); strings.HasPrefix(l, "<stdin>:3: ") {
				tdiag = l
			}
		}
		if vdiag == "" || vdiag != wdiag || vdiag != tdiag {
			t.Errorf("%.40q: validate %q, view %q, translate %q", line, vdiag, wdiag, tdiag)
		}
	}
}
