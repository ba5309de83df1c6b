package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
)

func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb strings.Builder
	code = Run(append([]string{"zevo"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

const (
	sampleZero = "../testdata/translate/basic.zero.jsonl"
	sampleEvo  = "../testdata/translate/basic.evosci.jsonl"
	sampleV1   = "../testdata/translate/v1.zero.jsonl"
	seedEvo    = "../testdata/inspect/seed.evosci.jsonl"
	seedZero   = "../testdata/inspect/seed.zero.jsonl"
)

func TestSchemaCommand(t *testing.T) {
	code, out, _ := run(t, "", "schema")
	schemas := inspect.Schemas()
	if code != 0 || strings.Count(out, "\n") != len(schemas) || !strings.Contains(out, "zero-input") || len(schemas) < 8 {
		t.Errorf("list: %d %q", code, out)
	}
	for _, ds := range schemas {
		if !strings.Contains(out, ds.Name) || !strings.Contains(out, ds.File) {
			t.Errorf("list: no %s", ds.Name)
		}
		// By its name or an alias, as shipped in its dialect's folder.
		for _, name := range ds.Names() {
			code, out, _ := run(t, "", "schema", name)
			disk, err := os.ReadFile("../dialects/" + ds.Dialect.Name + "/" + ds.File)
			var want bytes.Buffer
			if code != 0 || err != nil || json.Compact(&want, disk) != nil || want.String()+"\n" != out {
				t.Errorf("schema %s: exit %d, differs from dialects/%s/%s", name, code, ds.Dialect.Name, ds.File)
			}
			var doc map[string]any
			if json.Unmarshal([]byte(out), &doc) != nil || doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
				t.Errorf("schema %s: %.80q", name, out)
			}
		}
	}
	// A dialect's name gives its first schema.
	if _, out, _ := run(t, "", "schema", "evoscientist"); !strings.Contains(out, "EvoScientist") {
		t.Errorf("schema evoscientist: %.80q", out)
	}
	if code, _, errs := run(t, "", "schema", "nope"); code != ExitUsage || !strings.Contains(errs, `unknown schema "nope"`) {
		t.Errorf("unknown: %d %q", code, errs)
	}
}

func TestValidateCommand(t *testing.T) {
	if code, out, errs := run(t, "", "validate", seedZero, seedEvo, sampleV1); code != 0 || out != "" {
		t.Errorf("clean files: exit %d, %q %q", code, out, errs)
	}
	code, out, _ := run(t, "", "validate", sampleZero)
	if code != ExitDiagnostics || out != "../testdata/translate/basic.zero.jsonl:21: error: the input ends inside run \"run_20260603101000_aaa111\" (line 20): no run_end\n" {
		t.Errorf("sample: exit %d, %q", code, out)
	}
	// A warning alone does not fail.
	if code, out, _ := run(t, "", "validate", "--allow-unfinished", sampleEvo, sampleZero); code != 0 || strings.Count(out, ": warning: the input ends inside") != 2 {
		t.Errorf("warning: exit %d, %q", code, out)
	}
	// EvoScientist ends a cancelled run with neither done nor error: real
	// output, so a warning even without --allow-unfinished.
	if code, out, _ := run(t, "", "validate", sampleEvo); code != 0 || !strings.Contains(out, "basic.evosci.jsonl:18: warning: the input ends inside the run that began at line 17") {
		t.Errorf("cancelled EvoScientist run: exit %d, %q", code, out)
	}
	code, out, _ = run(t, `{"type": "text", "content": 5}`+"\n", "validate", "--json", "--as", "evosci")
	var rep struct {
		Valid       bool
		Errors      int
		Files       []struct{ File, Protocol string }
		Diagnostics []struct {
			File, Severity, Field, Message string
			Line                           int
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if code != ExitDiagnostics || rep.Valid || rep.Errors != 1 || len(rep.Files) != 1 || rep.Files[0].File != "<stdin>" || rep.Files[0].Protocol != "evosci" ||
		len(rep.Diagnostics) != 2 || rep.Diagnostics[0].Field != "text.content" || rep.Diagnostics[0].Line != 1 || rep.Diagnostics[0].Message != "want string, got number 5" {
		t.Errorf("json: exit %d, %+v", code, rep)
	}
	if code, _, errs := run(t, "", "validate", "--as", "yaml"); code != ExitUsage || !strings.Contains(errs, "--as") {
		t.Errorf("bad --as: %d %q", code, errs)
	}
	if code, _, errs := run(t, "", "validate", "no-such-file.jsonl"); code != ExitDiagnostics || !strings.Contains(errs, "no-such-file.jsonl") {
		t.Errorf("missing file: %d %q", code, errs)
	}
}

// Lines that are not JSON objects are named on stderr with their place,
// the first hundred of an input and a count of the rest, in the order of
// the inputs; the summary still counts them; the exit code is 1.
func TestStatsNamesBadLines(t *testing.T) {
	junk := filepath.Join(t.TempDir(), "junk.jsonl")
	var b strings.Builder
	b.WriteString(`{"type": "text", "content": "hi"}` + "\n")
	for range 150 {
		b.WriteString("[1]\n")
	}
	if err := os.WriteFile(junk, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "{\"type\": \"text\", \"content\": \"hi\"}\nnot json\n", "stats", "-", junk)
	if code != ExitDiagnostics {
		t.Errorf("exit %d, want %d", code, ExitDiagnostics)
	}
	lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	if len(lines) != 1+100+1 {
		t.Fatalf("%d lines of stderr:\n%s", len(lines), errs)
	}
	if want := "<stdin>:2: not valid JSON at byte 1: unexpected 'n' (not counted)"; lines[0] != want {
		t.Errorf("stderr line 1 %q, want %q", lines[0], want)
	}
	if want := junk + ":2: not a JSON object: an array (not counted)"; lines[1] != want {
		t.Errorf("stderr line 2 %q, want %q", lines[1], want)
	}
	if want := junk + ":101: not a JSON object: an array (not counted)"; lines[100] != want {
		t.Errorf("stderr line 101 %q, want %q", lines[100], want)
	}
	if want := "zevo: " + junk + ": 50 more lines not JSON objects (not counted)"; lines[101] != want {
		t.Errorf("last stderr line %q, want %q", lines[101], want)
	}
	if !strings.Contains(out, "150 lines not JSON objects (not counted)") || !strings.Contains(out, "1 line not JSON objects (not counted)") {
		t.Errorf("the summary does not count them:\n%s", out)
	}
}

// Files are read concurrently and reported in the order given.
func TestStatsCommandOrder(t *testing.T) {
	args := []string{"stats", "--json"}
	order := []string{sampleZero, seedEvo, sampleEvo, seedZero, sampleV1, sampleZero, "-", sampleEvo, "../testdata/inspect/edge.evosci.jsonl"}
	args = append(args, order...)
	code, out, errs := run(t, `{"type": "text", "content": "from stdin"}`+"\n", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Files []struct {
			File  string
			Total struct{ Events int }
		}
		Total struct {
			Events int
			Tokens struct{ Input json.Number }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != len(order) {
		t.Fatalf("%d files", len(rep.Files))
	}
	sum := 0
	for i, f := range rep.Files {
		want := order[i]
		if want == "-" {
			want = "<stdin>"
		}
		if f.File != want {
			t.Errorf("file %d is %s, want %s", i, f.File, want)
		}
		sum += f.Total.Events
	}
	if rep.Total.Events != sum || rep.Total.Tokens.Input.String() != "18446744073709569430" {
		t.Errorf("total %+v (events want %d)", rep.Total, sum)
	}
	code, out, _ = run(t, "", "stats", seedZero)
	if code != 0 || !strings.Contains(out, "run_20260603_abc123  1-10   success (0)  10      12         8    20     0.0001    1") {
		t.Errorf("table: %d\n%s", code, out)
	}
	if code, _, errs := run(t, "", "stats", seedZero, "no-such-file.jsonl"); code != ExitDiagnostics || !strings.Contains(errs, "no-such-file.jsonl") {
		t.Errorf("missing file: %d %q", code, errs)
	}
}

func TestUseColor(t *testing.T) {
	if c := func(when string, term bool, nc string) bool { b, _ := useColor(when, term, nc); return b }; !c("auto", true, "") || c("auto", true, "1") || c("auto", false, "") || c("auto", true, "0") ||
		!c("always", false, "1") || c("never", true, "") {
		t.Error("colour must be on only for a terminal without NO_COLOR")
	}
	code, out, _ := run(t, "", "view", sampleEvo)
	if code != 0 || strings.Contains(out, "\x1b") || !strings.Contains(out, "── run done · tokens: 6327 in · 389 out · 6716 total ──") {
		t.Errorf("view: %d\n%s", code, out)
	}
}

// Live input: each event is shown before the next one is written.
func TestViewLive(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int)
	go func() {
		code := Run([]string{"zevo", "view"}, inR, outW, io.Discard)
		outW.Close()
		done <- code
	}()
	out := bufio.NewReader(outR)
	expect := func(want string) {
		t.Helper()
		got, err := out.ReadString('\n')
		if err != nil || got != want {
			t.Fatalf("got %q (%v), want %q", got, err, want)
		}
	}
	io.WriteString(inW, `{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}`+"\n")
	expect("── run 1 ──\n")
	expect("▶ ls\n")
	io.WriteString(inW, `{"type": "tool_result", "name": "ls", "content": "a.txt", "success": true, "id": "c1"}`+"\n")
	expect("  ✓ ls ok\n")
	expect("    a.txt\n")
	io.WriteString(inW, `{"type": "done", "content": "", "response": ""}`+"\n")
	expect("── final answer ──\n")
	inW.Close()
	rest, _ := io.ReadAll(out)
	if string(rest) != "── run done · tokens: 0 in · 0 out · 0 total ──\n" {
		t.Errorf("rest %q", rest)
	}
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
}

// Live input: each diagnostic is written before the next line is read.
func TestValidateLive(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int)
	go func() {
		code := Run([]string{"zevo", "validate", "--as", "evosci"}, inR, outW, io.Discard)
		outW.Close()
		done <- code
	}()
	out := bufio.NewReader(outR)
	io.WriteString(inW, `{"type": "text", "content": ""}`+"\n")
	if got, err := out.ReadString('\n'); err != nil || got != "<stdin>:1: error: text.content: must not be empty\n" {
		t.Fatalf("got %q (%v)", got, err)
	}
	io.WriteString(inW, `{"type": "done", "content": 1, "response": ""}`+"\n")
	if got, err := out.ReadString('\n'); err != nil || got != "<stdin>:2: error: done.content: want string, got number 1\n" {
		t.Fatalf("got %q (%v)", got, err)
	}
	inW.Close()
	io.ReadAll(out)
	if code := <-done; code != ExitDiagnostics {
		t.Errorf("exit %d", code)
	}
}

// No progress bar unless standard error is a terminal.
func TestStatsProgressOnlyOnTerminal(t *testing.T) {
	var errb strings.Builder
	e := &env{stderr: &errb}
	if bar := statsProgress(e, []string{sampleZero}); bar != nil {
		t.Error("a progress bar on a non-terminal")
	}
}

// Standard input named twice is read once, then found empty.
func TestStatsStdinTwice(t *testing.T) {
	code, out, _ := run(t, `{"type": "text", "content": "a"}`+"\n", "stats", "--json", "-", "-")
	var rep struct {
		Files []struct{ Total struct{ Events int } }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || len(rep.Files) != 2 || rep.Files[0].Total.Events+rep.Files[1].Total.Events != 1 {
		t.Errorf("exit %d, %+v, %v", code, rep, err)
	}
}

// The secrets sample of docs/guarantees.md: Zero's rules take the sk- key
// and the Bearer token (translate to Zero, view), --redact-extra all four.
func TestSecretsSample(t *testing.T) {
	const f = "../testdata/inspect/secrets.evosci.jsonl"
	secrets := map[string]bool{ // secret: Zero's rules redact it
		"sk-EXAMPLEexample0000000000":               true,
		"EXAMPLEexample000000":                      true,
		"ghp_EXAMPLEexampleEXAMPLEexampleEXAMPLE00": false,
		"AKIAEXAMPLE000000000":                      false,
	}
	for _, args := range [][]string{
		{"translate", "--to", "zero", f},
		{"view", "--full", f},
		{"translate", "--to", "evosci", "--redact-extra", f},
	} {
		code, out, errs := run(t, "", args...)
		if code != 0 || !strings.Contains(out, "[REDACTED]") {
			t.Fatalf("%v: exit %d %s\n%s", args, code, errs, out)
		}
		extra := args[len(args)-2] == "--redact-extra"
		for s, zero := range secrets {
			if shown := strings.Contains(out, s); shown == (zero || extra) {
				t.Errorf("%v: %s shown: %v", args, s, shown)
			}
		}
	}
}

// validate --json over a real capture: the dialect is named in the report,
// its run ends as the producer ended it, and a cut copy is reported at its
// last line.
func TestValidateJSONDialectCapture(t *testing.T) {
	const capture = "../testdata/captures/claude/yoke-thinking-three-bash-calls-2.1.104.jsonl"
	code, out, errs := run(t, "", "validate", "--json", capture)
	var rep struct {
		Valid       bool
		Errors      int
		Files       []inspect.FileReport
		Diagnostics []jsonl.Diagnostic
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || errs != "" {
		t.Fatalf("exit %d, %v: %q %q", code, err, out, errs)
	}
	f := rep.Files[0]
	if !rep.Valid || len(rep.Diagnostics) != 0 || f.Protocol != "claude" || f.Lines != 12 || f.Events != 12 || f.Runs != 1 ||
		f.RunList[0].Status != "success" || f.RunList[0].FirstLine != 1 || f.RunList[0].LastLine != 12 {
		t.Errorf("%s", out)
	}
	b, err := os.ReadFile(capture)
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Join(strings.SplitAfter(string(b), "\n")[:11], "")
	code, out, _ = run(t, cut, "validate", "--json", "-")
	if code != ExitDiagnostics || json.Unmarshal([]byte(out), &rep) != nil || rep.Valid || rep.Errors != 1 ||
		rep.Diagnostics[0].Line != 11 || rep.Diagnostics[0].Message != `the input ends inside run "313ccbb6-6dd1-41d0-bbdc-106762a34a7d" (line 1): no end of run` ||
		rep.Files[0].RunList[0].Status != "incomplete" || rep.Files[0].RunList[0].Cut != "the input ended inside the run" {
		t.Errorf("cut: exit %d: %s", code, out)
	}
}
