package benthos

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redpanda-data/benthos/v4/public/service"
	"gopkg.in/yaml.v3"
)

// Every example passes Benthos' linter, except for the Kafka components,
// which Benthos' core does not have; the processors of every example are
// checked on their own too.
func TestExamplesLint(t *testing.T) {
	files, err := filepath.Glob("examples/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("examples: %v, want 3", files)
	}
	linter := service.GlobalEnvironment().FullConfigSchema("", "").NewStreamConfigLinter()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lints, err := linter.LintYAML(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, l := range lints {
			if filepath.Base(f) == "kafka.yaml" && strings.Contains(l.What, "unable to infer component type") && strings.Contains(l.What, "kafka_franz") {
				continue
			}
			t.Errorf("%s:%d:%d: %s", f, l.Line, l.Column, l.What)
		}
		procs := processorsOf(t, b)
		if len(procs) == 0 {
			t.Errorf("%s: no processors found", f)
		}
		for _, p := range procs {
			if err := buildErr(t, p); err != nil {
				t.Errorf("%s: processor %s: %v", f, p, err)
			}
		}
	}
}

// processorsOf returns, as YAML, the processors of the input and of the
// pipeline of a config.
func processorsOf(t *testing.T, conf []byte) []string {
	t.Helper()
	var c struct {
		Input    struct{ Processors []yaml.Node }
		Pipeline struct{ Processors []yaml.Node }
	}
	if err := yaml.Unmarshal(conf, &c); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range append(c.Input.Processors, c.Pipeline.Processors...) {
		b, err := yaml.Marshal(&n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// examples/files.yaml, run on copies of the samples, writes what zevo
// translate writes for each, and the lines with a diagnostic to the
// dead-letter file.
func TestExampleFiles(t *testing.T) {
	conf, err := os.ReadFile("examples/files.yaml")
	if err != nil {
		t.Fatal(err)
	}
	files := samples(t)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "logs", filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	sb := service.NewStreamBuilder()
	if err := sb.SetYAML(string(conf)); err != nil {
		t.Fatal(err)
	}
	runToEnd(t, sb)
	var wantDead []string
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		log := filepath.Join("logs", filepath.Base(f))
		want, stderr, _ := zevo(t, "", "translate", "--to", "zero", "--run-id", name, "--cwd", dir, log)
		got, err := os.ReadFile(filepath.Join("translated", name+".zero.jsonl"))
		if err != nil && want != "" {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if string(got) != want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", name, got, want)
		}
		for _, d := range strings.SplitAfter(diagnostics(stderr), "\n") {
			if d != "" {
				wantDead = append(wantDead, strings.TrimSuffix(d, "\n"))
			}
		}
	}
	dead, err := os.ReadFile(filepath.Join("translated", "dead-letter.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var gotDead []string
	for _, l := range strings.Split(strings.TrimSuffix(string(dead), "\n"), "\n") {
		var d struct{ Error, Path, Line string }
		if err := yaml.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("dead letter %q: %v", l, err)
		}
		if !strings.HasPrefix(d.Error, d.Path+":") {
			t.Errorf("dead letter %q: the error does not name its file", l)
		}
		gotDead = append(gotDead, d.Error)
	}
	if strings.Join(gotDead, "\n") != strings.Join(wantDead, "\n") {
		t.Errorf("dead letters:\n got:\n%s\nwant:\n%s", strings.Join(gotDead, "\n"), strings.Join(wantDead, "\n"))
	}
}

// zevo-benthos -c examples/stdin.yaml writes what zevo translate --to
// zero writes, for every sample, runs cut off at the end included.
func TestZevoBenthosStdin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds zevo-benthos")
	}
	bin := filepath.Join(t.TempDir(), "zevo-benthos")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/zevo-benthos").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	plainDefaults(t, bin)
	endDropped(t, bin)
	for _, f := range samples(t) {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-c", "examples/stdin.yaml")
		cmd.Stdin = bytes.NewReader(in)
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", f, err, stderr.String())
		}
		want, wantErr, _ := zevo(t, string(in), "translate", "--to", "zero", "--cwd", wd)
		if g, w := scrubRunIDs(out.String()), scrubRunIDs(want); g != w {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", f, g, w)
		}
		for _, d := range strings.Split(strings.TrimSpace(diagnostics(wantErr)), "\n") {
			if d == "" {
				continue
			}
			logged := strconv.Quote(strings.Replace(d, "<stdin>:", "message:", 1))
			if !strings.Contains(stderr.String(), `msg=`+logged) {
				t.Errorf("%s: stderr lacks %s:\n%s", f, logged, stderr.String())
			}
		}
	}
}

// runIDPattern matches the run ids zevo makes without --run-id.
var runIDPattern = regexp.MustCompile(`run_[0-9]{14}_[0-9a-f]{6}`)

// scrubRunIDs names the made-up run ids run-1, run-2, … in order of
// appearance, so that outputs compare while runs stay told apart.
func scrubRunIDs(s string) string {
	names := map[string]string{}
	return runIDPattern.ReplaceAllStringFunc(s, func(id string) string {
		if names[id] == "" {
			names[id] = fmt.Sprintf("run-%d", len(names)+1)
		}
		return names[id]
	})
}

// docs/scale.md names every example, and the files its zevo-benthos
// command reads are there.
func TestScaleDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/scale.md")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("examples/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile("(?m)^\\| `([a-z]+\\.yaml)` \\|").FindAllStringSubmatch(string(doc), -1)
	var got []string
	for _, m := range named {
		got = append(got, filepath.Join("examples", m[1]))
	}
	slices.Sort(got)
	if strings.Join(got, " ") != strings.Join(files, " ") {
		t.Errorf("docs/scale.md's table names %v, the examples are %v", got, files)
	}
	cmd := regexp.MustCompile(`(?m)^\./zevo-benthos -c (\S+) < (\S+)$`).FindStringSubmatch(string(doc))
	if cmd == nil {
		t.Fatal("docs/scale.md has no ./zevo-benthos -c CONFIG < FILE command")
	}
	for _, f := range cmd[1:] {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("docs/scale.md: %v", err)
		}
	}
}

// plainDefaults runs zevo-benthos on the plainest config: stdin, stdout,
// and zevo_translate with no pipeline threads set. zevo-benthos makes one
// thread the default, so the events come in order, and its stdin reads
// with zevo_lines by default, so lines of any length are read and a run
// left open at the end is closed: the events are those of zevo translate.
// Benthos' own lines scanner, as a Benthos user writes it (codec: lines,
// scanner: lines), gives the same events for input with no byte order
// mark: the end of stdin is marked whatever the scanner. (The scanner's
// lines stop at 64 KiB: see tooLong.)
func plainDefaults(t *testing.T, bin string) {
	dir := t.TempDir()
	confs := map[string]string{
		"plain":   "stdin: {}",
		"codec":   "stdin: { codec: lines }",
		"scanner": "stdin:\n    scanner:\n      lines: {}",
	}
	for name, in := range confs {
		confs[name] = filepath.Join(dir, name+".yaml")
		err := os.WriteFile(confs[name], []byte("input:\n  "+in+"\npipeline:\n  processors:\n    - zevo_translate:\n        to: zero\n        run_id: held-out\noutput:\n  stdout: {}\nhttp:\n  enabled: false\nlogger:\n  level: warn\n"), 0o644)
		if err != nil {
			t.Fatal(err)
		}
	}
	conf := confs["plain"]
	echo, err := exec.Command(bin, "-c", conf, "echo").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pipeline:\n  threads: 1\n", "\n  address: 127.0.0.1:4195\n"} {
		if !strings.Contains(string(echo), want) {
			t.Errorf("zevo-benthos's defaults lack %q:\n%s", want, echo)
		}
	}
	long := filepath.Join(dir, "long.evosci.jsonl")
	err = os.WriteFile(long, []byte(`{"type": "tool_call", "name": "read_file", "args": {"path": "a"}, "id": "c1"}
{"type": "tool_result", "name": "read_file", "content": "`+strings.Repeat("x", 1<<20)+`", "success": true, "id": "c1"}
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, f := range append(samples(t), long) {
		want, stderr, _ := zevo(t, "", "translate", "--to", "zero", "--run-id", "held-out", f)
		if diagnostics(stderr) != "" {
			continue // bad lines go on to stdout too with this config
		}
		for _, name := range []string{"plain", "codec", "scanner"} {
			if name != "plain" && strings.Contains(f, "bom") {
				continue // Benthos' lines keeps a byte order mark
			}
			if name != "plain" && f == long {
				tooLong(t, bin, confs[name], f)
				continue
			}
			cmd := exec.Command(bin, "-c", confs[name])
			in, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdin = in
			out, err := cmd.Output()
			in.Close()
			if err != nil {
				t.Fatalf("%s, %s: %v", f, name, err)
			}
			if string(out) != want {
				t.Errorf("%s, %s:\n got:\n%.3000s\nwant:\n%.3000s", f, name, out, want)
			}
		}
		ran++
	}
	if ran < 12 {
		t.Errorf("only %d samples without bad lines", ran)
	}
}

// endDropped: the mapping docs/scale.md gives to drop the end of stdin
// passes the lines through as they are, and nothing after them.
func endDropped(t *testing.T, bin string) {
	doc, err := os.ReadFile("../../docs/scale.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`(- mapping: '[^`]*zevo_end[^`]*')`").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/scale.md gives no mapping that drops the end of stdin")
	}
	conf := filepath.Join(t.TempDir(), "drop.yaml")
	body := "input:\n  stdin: { codec: lines }\npipeline:\n  processors:\n    " + string(m[1]) + "\noutput:\n  stdout: {}\nhttp:\n  enabled: false\nlogger:\n  level: warn\n"
	if err := os.WriteFile(conf, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	in := "{\"a\":1}\n{\"b\":2}\n"
	cmd := exec.Command(bin, "-c", conf)
	cmd.Stdin = strings.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || string(out) != in || stderr.Len() > 0 {
		t.Errorf("%s: %v: got %q, want %q\n%s", body, err, out, in, stderr.String())
	}
}

// tooLong: a line beyond the lines scanner's 64 KiB ends the input with
// the scanner's error logged (once, not for ever), and the open run is
// closed as at the end of the input.
func tooLong(t *testing.T, bin, conf, input string) {
	in, err := os.Open(input)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // bounds only a failure: it hung before
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-c", conf)
	cmd.Stdin = in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", input, err, stderr.String())
	}
	if n := strings.Count(stderr.String(), "token too long"); n != 1 {
		t.Errorf("%s: the scanner's error logged %d times, want once:\n%s", input, n, stderr.String())
	}
	if !strings.HasSuffix(string(out), `"status":"incomplete","type":"run_end"}`+"\n") {
		t.Errorf("%s: the run is not closed:\n%.3000s", input, out)
	}
}
