package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/zevo/zevo/inspect"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/zevo/zevo/translate"
)

// The hostile-input suite runs every command line of hostileCommands on
// every input of hostileInputs and checks that zevo neither panics nor
// hangs, names each bad line as FILE:LINE, writes only JSON, and accounts
// for every line.

// Classes of bad lines: a command must name the lines of the classes it
// checks.
const (
	badJSON    = 1 << iota // not JSON text (every command that reads JSON)
	badEvent               // JSON, but not an event: no object, no string "type", unknown schemaVersion
	badEvo                 // an EvoScientist event whose mapped fields have the wrong JSON type
	badZero                // a Zero event whose fields have the wrong JSON type
	badZeroInt             // a token count beyond Zero's int: refused for a Zero target unless --unmapped keep
)

type hostileCommand struct {
	args    []string // after "zevo"; the input file follows
	checks  int      // the classes of bad lines it must name
	account bool     // translate: the accounting must add up and name exactly the bad lines
	jsonOut bool     // every output line is JSON
	diagOut bool     // its diagnostics are its output (stdout), not stderr
	codes   []int    // exit codes it may use besides 0 and 1
	// notBad lists, by input, bad lines this command accepts (an event it
	// does not translate, a value it shows as it is).
	notBad map[string][]int
}

const allBad = badJSON | badEvent | badEvo | badZero

// hostileCommands: one line per command line to try.
var hostileCommands = []hostileCommand{
	{args: []string{"translate", "--to", "zero"}, checks: allBad | badZeroInt, account: true, jsonOut: true},
	{args: []string{"translate", "--to", "zero@1", "--unmapped", "keep"}, checks: allBad, account: true, jsonOut: true,
		notBad: map[string][]int{"wrong-types.evosci.jsonl": {7}}}, // thinking: Zero v1 has no reasoning
	{args: []string{"translate", "--to", "evosci"}, checks: badJSON | badEvent | badZero, account: true, jsonOut: true},
	{args: []string{"translate", "--to", "evosci", "--unmapped", "keep", "--redact-extra"}, checks: badJSON | badEvent | badZero, account: true, jsonOut: true},
	{args: []string{"--to", "zero", "--no-redact", "--from", "auto"}, checks: allBad | badZeroInt, account: true, jsonOut: true},
	// validate reads numbers as JSON Schema does: 1e400 is an integer, 2.0 is 2
	{args: []string{"validate"}, checks: allBad, diagOut: true,
		notBad: map[string][]int{"numbers.evosci.jsonl": {4}, "schema-version.zero.jsonl": {3}}},
	// stats counts the lines that are not events in its summary, by number
	{args: []string{"stats"}},
	{args: []string{"stats", "--json", "--by", "model", "--model", "gpt-4.1"}},
	// otel exports the runs stats counts, as one OTLP/JSON line
	{args: []string{"otel", "--clock", "synthetic"}, jsonOut: true},
	// view shows what it can: an object without a type as it is, NaN as NaN
	{args: []string{"view"}, checks: badJSON, notBad: map[string][]int{"nan.evosci.jsonl": {1, 3}}},
	{args: []string{"view", "--format", "markdown"}, checks: badJSON, notBad: map[string][]int{"nan.evosci.jsonl": {1, 3}}},
	{args: []string{"view", "--format", "html"}, checks: badJSON, notBad: map[string][]int{"nan.evosci.jsonl": {1, 3}}},
	// zevo jq exits 5 for values that are not JSON, as jq 1.7 does
	{args: []string{"jq", "."}, checks: badJSON, jsonOut: true, notBad: jqAccepts, codes: []int{ExitJQError}},
	{args: []string{"jq", "-c", `objects | select(.type == "text") | {t: .type, c: .content}`}, checks: badJSON, jsonOut: true, notBad: jqAccepts, codes: []int{ExitJQError}},
	// .type on a line that is not an object: an error on that line (exit 5)
	{args: []string{"jq", ".type"}, checks: badJSON, jsonOut: true, notBad: jqAccepts, codes: []int{ExitJQError}},
	{args: []string{"translate", "--to", "zero", "--jq", "."}, checks: allBad | badZeroInt, account: true, jsonOut: true},
}

// jqAccepts: zevo jq reads several values on a line, Python's NaN and
// Infinity as jq's nan and infinite, and invalid UTF-8 as U+FFFD, as jq does.
var jqAccepts = map[string][]int{
	"invalid-json.jsonl": {9},
	"nan.evosci.jsonl":   {1, 3},
	"invalid-utf8.jsonl": {2, 3, 4, 5},
}

type hostileInput struct {
	name string
	data []byte           // the input, written to a file; or
	gen  func() io.Reader // a large input, fed on standard input
	bad  map[int]int      // line number → class
	big  bool             // skipped with -short
	rows int              // when not 0, only the first rows of hostileCommands run it
}

// lines splits data as zevo's reader does: at \n, without one CR before
// it, without a BOM at the start; a last line without \n counts.
func lines(data []byte) [][]byte {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	parts := bytes.Split(data, []byte("\n"))
	if len(parts[len(parts)-1]) == 0 {
		parts = parts[:len(parts)-1]
	}
	for i := range parts {
		parts[i] = bytes.TrimSuffix(parts[i], []byte("\r"))
	}
	return parts
}

func isBlank(b []byte) bool { return len(bytes.Trim(b, " \t\r\n")) == 0 }

// classify says, for generated inputs, what class a line is in.
func classify(l []byte) int {
	switch {
	case isBlank(l):
		return 0
	case !utf8.Valid(l) || !json.Valid(l):
		return badJSON
	}
	var ev map[string]any
	if json.Unmarshal(l, &ev) != nil {
		return badEvent
	}
	if _, ok := ev["type"].(string); !ok {
		return badEvent
	}
	return 0
}

func classifyAll(data []byte) map[int]int {
	bad := map[int]int{}
	for i, l := range lines(data) {
		if c := classify(l); c != 0 {
			bad[i+1] = c
		}
	}
	return bad
}

func lineSet(class int, nums ...int) map[int]int {
	m := map[int]int{}
	for _, n := range nums {
		m[n] = class
	}
	return m
}

func merge(a, b map[int]int) map[int]int {
	for l, c := range b {
		a[l] |= c
	}
	return a
}

func hostileInputs(t *testing.T) []hostileInput {
	file := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("../testdata/hostile", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	in := []hostileInput{
		{name: "invalid-json.jsonl", bad: lineSet(badJSON, 2, 3, 5, 6, 7, 8, 9)},
		{name: "truncated.evosci.jsonl", bad: lineSet(badJSON, 4)},
		{name: "nul.jsonl", bad: lineSet(badJSON, 2, 3, 4)},
		{name: "invalid-utf8.jsonl", bad: lineSet(badJSON, 2, 3, 4, 5)},
		{name: "lone-surrogate.jsonl"},
		{name: "numbers.evosci.jsonl", bad: merge(lineSet(badEvo, 4, 5), lineSet(badZeroInt, 2))},
		{name: "dup-keys.jsonl"},
		{name: "bom-crlf.jsonl"},
		{name: "not-objects.jsonl", bad: lineSet(badEvent, 1, 2, 3, 4, 5, 6, 7, 8, 9)},
		{name: "wrong-types.evosci.jsonl", bad: lineSet(badEvo, 1, 2, 3, 4, 5, 6, 7, 8)},
		{name: "wrong-types.zero.jsonl", bad: lineSet(badZero, 2, 3, 4, 5, 6, 7, 8, 9)},
		{name: "nan.evosci.jsonl", bad: lineSet(badJSON, 1, 3)},
		{name: "schema-version.zero.jsonl", bad: lineSet(badEvent, 1, 2, 3, 4, 7, 8)},
		{name: "empty.jsonl"},
		{name: "blank.jsonl"},
	}
	for i := range in {
		in[i].data = file(in[i].name)
	}

	// Nesting: 100 000 levels, as a value, inside args, and unclosed; and
	// 9 000 levels, which is allowed.
	var deep bytes.Buffer
	n := 100_000
	deep.WriteString(strings.Repeat("[", n) + strings.Repeat("]", n) + "\n")
	deep.WriteString(`{"type": "tool_call", "name": "x", "args": ` + strings.Repeat(`{"a": `, n) + "1" + strings.Repeat("}", n) + `, "id": "c1"}` + "\n")
	deep.WriteString(strings.Repeat("[", n) + "\n")
	deep.WriteString(`{"type": "tool_call", "name": "x", "args": ` + strings.Repeat(`{"a": `, 9000) + "1" + strings.Repeat("}", 9000) + `, "id": "c2"}` + "\n")
	deep.WriteString(`{"type": "done", "content": "", "response": ""}` + "\n")
	in = append(in, hostileInput{name: "deep.jsonl", data: deep.Bytes(), bad: lineSet(badJSON, 1, 2, 3)})

	// Not text at all: random bytes. (Compressed input is decompressed:
	// see input_test.go, which also has a gzip stream followed by random
	// bytes.)
	bin := make([]byte, 64<<10)
	rand.New(rand.NewSource(1)).Read(bin)
	in = append(in, hostileInput{name: "binary", data: bin, bad: classifyAll(bin)})

	// Ever new unknown types (unmapped, counted, named up to a bound).
	var types bytes.Buffer
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&types, `{"type": "made_up_%d", "content": "x"}`+"\n", i)
	}
	in = append(in, hostileInput{name: "many-types.jsonl", data: types.Bytes()})

	// A million keys on one line: finding each key by a scan would be
	// quadratic, hours for this line, which hostileTimeout catches.
	manyKeys := func(keys int) func() io.Reader {
		return func() io.Reader {
			var b bytes.Buffer
			for _, head := range []string{`{"type": "text", "content": "x"`, `{"schemaVersion": 2, "runId": "r", "type": "text", "delta": "x"`} {
				b.WriteString(head)
				for i := keys; i > 0; i-- {
					fmt.Fprintf(&b, `, "k%d": %d`, i, i)
				}
				b.WriteString("}\n")
			}
			return &b
		}
	}
	in = append(in,
		hostileInput{name: "many-keys-10k", gen: manyKeys(10_000)},
		hostileInput{name: "many-keys-1M", gen: manyKeys(1_000_000), big: true, rows: 3},
	)

	// A long line that is fine, and a long line that is not.
	longOK := func(size int) func() io.Reader {
		return func() io.Reader {
			return io.MultiReader(
				strings.NewReader(`{"type": "tool_result", "name": "read_file", "content": "`),
				io.LimitReader(repeatReader("0123456789abcdef\\n"), int64(size)),
				strings.NewReader(`", "success": true, "id": "c1"}`+"\n"+`{"type": "done", "content": "", "response": ""}`+"\n"))
		}
	}
	longBad := func(size int) func() io.Reader {
		return func() io.Reader { return io.LimitReader(repeatReader("["), int64(size)) }
	}
	in = append(in,
		hostileInput{name: "long-4MB", gen: longOK(4 << 20)},
		hostileInput{name: "long-bad-4MB", gen: longBad(4 << 20), bad: lineSet(badJSON, 1)},
		hostileInput{name: "long-100MB", gen: longOK(100 << 20), big: true},
		hostileInput{name: "long-bad-100MB", gen: longBad(100 << 20), bad: lineSet(badJSON, 1), big: true},
	)
	return in
}

// repeatReader yields s over and over.
type repeatReader string

func (r repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], r)
	}
	return n, nil
}

// hostileTimeout fails a case that does not end: zevo must never hang on
// its input. It is far above what any case needs.
const hostileTimeout = 3 * time.Minute

var whereRE = regexp.MustCompile(`^(?:zevo: )?(.*):(\d+): `)

func TestHostileInputs(t *testing.T) {
	dir := t.TempDir()
	for _, in := range hostileInputs(t) {
		if in.big && testing.Short() {
			continue
		}
		name := stdinName
		var nLines, nBlank int
		if in.gen == nil {
			name = filepath.Join(dir, in.name)
			if err := os.WriteFile(name, in.data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, l := range lines(in.data) {
				nLines++
				if isBlank(l) {
					nBlank++
				}
			}
		}
		for i, cmd := range hostileCommands {
			if in.rows != 0 && i >= in.rows {
				break
			}
			t.Run(in.name+"/"+strings.Join(cmd.args, " "), func(t *testing.T) {
				args := append([]string{"zevo"}, cmd.args...)
				var stdin io.Reader = strings.NewReader("")
				if in.gen != nil {
					stdin = in.gen()
				} else {
					args = append(args, name)
				}
				var stdout, stderr bytes.Buffer
				var stats *translate.Stats
				code := runBounded(t, args, stdin, &stdout, &stderr, func(s *translate.Stats) { stats = s })
				checkHostile(t, in, cmd, name, nLines, nBlank, code, stdout.Bytes(), stderr.String(), stats)
			})
		}
	}
}

// runBounded runs zevo and fails the test on a panic or when it does not
// end within hostileTimeout.
func runBounded(t *testing.T, args []string, stdin io.Reader, stdout, stderr io.Writer, account func(*translate.Stats)) int {
	t.Helper()
	done := make(chan int, 1)
	panicked := make(chan string, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				panicked <- fmt.Sprintf("%v\n%s", r, debug.Stack())
			}
		}()
		e := newEnv(stdin, stdout, stderr)
		e.account = account
		done <- e.run(args)
	}()
	select {
	case code := <-done:
		return code
	case p := <-panicked:
		t.Fatalf("zevo %s panicked: %s", strings.Join(args[1:], " "), p)
	case <-time.After(hostileTimeout):
		t.Fatalf("zevo %s did not end within %v", strings.Join(args[1:], " "), hostileTimeout)
	}
	return -1
}

func checkHostile(t *testing.T, in hostileInput, cmd hostileCommand, name string, nLines, nBlank, code int, stdout []byte, stderr string, st *translate.Stats) {
	t.Helper()
	want := map[int]bool{}
	for l, class := range in.bad {
		if class&cmd.checks != 0 {
			want[l] = true
		}
	}
	for _, l := range cmd.notBad[in.name] {
		delete(want, l)
	}
	// stderr: diagnostics naming FILE:LINE, and zevo's own lines.
	named := map[int]bool{}
	diags := stderr
	if cmd.diagOut {
		diags += string(stdout)
	}
	for _, l := range strings.Split(strings.TrimSuffix(diags, "\n"), "\n") {
		if l == "" {
			continue
		}
		if strings.Contains(l, "panic") || strings.Contains(l, "goroutine ") {
			t.Fatalf("stderr shows a crash: %s", stderr)
		}
		if m := whereRE.FindStringSubmatch(l); m != nil && m[1] == name {
			n, _ := strconv.Atoi(m[2])
			// (a warning about a whole file names its line 1, even when empty)
			if n < 1 || (in.gen == nil && n > nLines && !strings.Contains(l, ": warning: ")) {
				t.Errorf("diagnostic names line %d of %d: %s", n, nLines, l)
			}
			named[n] = true
			continue
		}
		if !strings.HasPrefix(l, "zevo: ") && !cmd.diagOut {
			t.Errorf("stderr line neither names a line of %s nor is zevo's: %q", name, l)
		}
	}
	for l := range want {
		if !named[l] {
			t.Errorf("line %d is bad (class %d) but no diagnostic names it; stderr:\n%s", l, in.bad[l], clipText(stderr))
		}
	}
	if cmd.account {
		for l := range named {
			if !want[l] {
				t.Errorf("line %d has a diagnostic but is not bad; stderr:\n%s", l, clipText(stderr))
			}
		}
	}
	switch {
	case slices.Contains(cmd.codes, code):
	case len(want) > 0 && code != ExitDiagnostics:
		t.Errorf("exit code %d with bad lines, want %d", code, ExitDiagnostics)
	case code != ExitOK && code != ExitDiagnostics:
		t.Errorf("exit code %d, want %d or %d; stderr:\n%s", code, ExitOK, ExitDiagnostics, clipText(stderr))
	case cmd.account && len(named) == 0 && code != ExitOK:
		t.Errorf("exit code %d without a diagnostic; stderr:\n%s", code, clipText(stderr))
	}
	// stdout: one JSON value per line.
	if cmd.jsonOut {
		for i, l := range bytes.Split(bytes.TrimSuffix(stdout, []byte("\n")), []byte("\n")) {
			if len(stdout) > 0 && !json.Valid(l) {
				t.Fatalf("output line %d is not JSON: %.200q", i+1, l)
			}
		}
		if len(stdout) > 0 && stdout[len(stdout)-1] != '\n' {
			t.Errorf("output does not end with a newline")
		}
	}
	if !cmd.account {
		return
	}
	// The accounting: every line read is blank, translated, unmapped or diagnosed.
	if st == nil {
		t.Fatal("no accounting reported")
	}
	if in.gen == nil && (st.Lines != nLines || st.Blank != nBlank) {
		t.Errorf("accounting counts %d lines, %d blank; the input has %d, %d blank", st.Lines, st.Blank, nLines, nBlank)
	}
	if st.Lines != st.Blank+st.Mapped+st.Unmapped+st.Diagnosed {
		t.Errorf("accounting does not add up: %d lines != %d blank + %d translated + %d unmapped + %d diagnosed",
			st.Lines, st.Blank, st.Mapped, st.Unmapped, st.Diagnosed)
	}
	if st.Diagnosed != len(named) {
		t.Errorf("%d lines diagnosed, %d named on stderr", st.Diagnosed, len(named))
	}
	if st.Diagnosed > 0 && !strings.Contains(stderr, fmt.Sprintf("zevo: %s read: %d translated, %d unmapped, %d with a diagnostic, %d blank\n",
		inspect.Plural(st.Lines, "line"), st.Mapped, st.Unmapped, st.Diagnosed, st.Blank)) {
		t.Errorf("stderr lacks the accounting line:\n%s", clipText(stderr))
	}
	if st.Unmapped > 0 && !strings.Contains(strings.Join(cmd.args, " "), "keep") &&
		!strings.Contains(stderr, fmt.Sprintf("zevo: %d unmapped event(s) dropped:", st.Unmapped)) {
		t.Errorf("%d unmapped lines but no summary on stderr:\n%s", st.Unmapped, clipText(stderr))
	}
}

func clipText(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}

// Inputs that cannot be read: a missing file and a directory are reported,
// and the files after them are still read.
func TestUnreadableInputs(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	if err := os.WriteFile(good, []byte(`{"type": "text", "content": "still here"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range hostileCommands {
		t.Run(strings.Join(cmd.args, " "), func(t *testing.T) {
			args := append([]string{"zevo"}, cmd.args...)
			args = append(args, filepath.Join(dir, "missing.jsonl"), dir, good)
			var stdout, stderr bytes.Buffer
			code := runBounded(t, args, strings.NewReader(""), &stdout, &stderr, nil)
			want := ExitDiagnostics
			if cmd.args[0] == "jq" {
				want = ExitJQSystem // jq's code for a file it cannot read
			}
			if code != want {
				t.Errorf("exit code %d, want %d", code, want)
			}
			if out := stdout.String(); !strings.Contains(out, "still here") && !strings.Contains(out, good) && out != "\"text\"\n" {
				t.Errorf("the readable file after the others was not read: %q", out)
			}
			for _, name := range []string{"missing.jsonl", dir} {
				if !strings.Contains(stderr.String(), name) {
					t.Errorf("stderr does not name %s:\n%s", name, stderr.String())
				}
			}
		})
	}
}

// What the accepted hostile inputs become: values copied exactly as written.
func TestHostileValuesKept(t *testing.T) {
	for _, c := range []struct {
		file string
		to   string
		want []string // in stdout
	}{
		{"numbers.evosci.jsonl", "zero", []string{
			`"args":{"big":123456789012345678901234567890,"inf":1e400,"negzero":-0,"tiny":1e-400,"neg":-18446744073709551617}`,
			`"promptTokens":-0`,
		}},
		{"numbers.evosci.jsonl", "zero --unmapped keep", []string{
			`"completionTokens":18446744073709551616,"promptTokens":18446744073709551616`,
			`"totalTokens":36893488147419103232`,
		}},
		{"numbers.evosci.jsonl", "evosci", []string{`"input_tokens": 18446744073709551616`}},
		{"lone-surrogate.jsonl", "zero", []string{`"delta":"\ud800"`, `"delta":"a\udc00b"`, `{"\ud800":"\udfff"}`, `"text":"\ud800"`}},
		{"lone-surrogate.jsonl", "evosci", []string{`"content": "\ud800"`}},
		{"dup-keys.jsonl", "zero", []string{`"delta":"b"`, `"type":"reasoning"`, `"args":{"x":1,"x":2},"id":"d"`}},
		{"bom-crlf.jsonl", "zero", []string{`"delta":"after a BOM"`, `"delta":"crlf"`}},
		{"nul.jsonl", "evosci", []string{`"content": "escaped \u0000 NUL"`}},
		{"nan.evosci.jsonl", "zero", []string{`"args":{"x":null,"y":null,"z":null,"s":"NaN"}`}},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"zevo", "translate", "--to"}, strings.Fields(c.to)...)
		args = append(args, "--run-id", "r", filepath.Join("../testdata/hostile", c.file))
		runBounded(t, args, strings.NewReader(""), &stdout, &stderr, nil)
		for _, w := range c.want {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("%s --to %s: output lacks %s:\n%s", c.file, c.to, w, stdout.String())
			}
		}
	}
}
