package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMatrix runs every command that reads input over every input kind
// and every fault, as docs/guarantees.md ("Every command × every input
// kind and fault") states them. For each cell it checks: the same events
// as the plain file read whole (the command's output on the plain file,
// normalized), an end within matrixBound, the documented exit code, and no
// planted secret in any output or message.
//
// A cell with a bug field is a known failure of issue 24: it is skipped
// unless ZEVO_MATRIX_ALL=1.

// matrixBound kills a cell's process that has not ended: far above what
// any cell needs, it only bounds a hang.
const matrixBound = 30 * time.Second

// The planted secrets: each holds "PLANTED", which no output or message
// may show.
const (
	plantedKey    = "sk-PLANTEDkey0000000000000"
	plantedBearer = "Bearer PLANTEDbearer000000000"
	plantedPass   = "PLANTEDpassword0"
)

// matrixZero is Zero stream-json: two runs of testdata/translate, then a
// run that carries the secrets in a tool call's password, in a tool's
// output and in an error message. Every run is closed.
func matrixZero(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../testdata/translate/basic.zero.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ls := strings.SplitAfter(string(b), "\n")
	r := `"runId":"run_20260603110000_5ec000","schemaVersion":2`
	return []byte(strings.Join(ls[:19], "") +
		`{"apiModel":"gpt-4.1","cwd":"/repo","model":"gpt-4.1","provider":"openai",` + r + `,"type":"run_start"}` + "\n" +
		`{"args":{"password":"` + plantedPass + `","command":"curl -H 'Authorization: ` + plantedBearer + `'"},"id":"call_9","name":"bash",` + r + `,"sideEffect":"shell","type":"tool_call"}` + "\n" +
		`{"id":"call_9","name":"bash","output":"OPENAI_API_KEY=` + plantedKey + `",` + r + `,"status":"ok","truncated":false,"type":"tool_result"}` + "\n" +
		`{"code":"provider_error","message":"401 for key ` + plantedKey + ` (Authorization: ` + plantedBearer + `)","recoverable":false,` + r + `,"type":"error"}` + "\n" +
		`{"exitCode":3,` + r + `,"status":"error","type":"run_end"}` + "\n")
}

// matrixEvo is EvoScientist stream-json: the first run of
// testdata/translate, then a run with the same secrets, ended by an error.
func matrixEvo(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../testdata/translate/basic.evosci.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ls := strings.SplitAfter(string(b), "\n")
	return []byte(strings.Join(ls[:12], "") +
		`{"type": "tool_call", "name": "bash", "args": {"password": "` + plantedPass + `", "command": "curl -H 'Authorization: ` + plantedBearer + `'"}, "id": "call_9"}` + "\n" +
		`{"type": "tool_result", "name": "bash", "content": "OPENAI_API_KEY=` + plantedKey + `", "success": true, "id": "call_9"}` + "\n" +
		`{"type": "text", "content": "the key is ` + plantedKey + `"}` + "\n" +
		`{"type": "error", "message": "401 for key ` + plantedKey + ` (Authorization: ` + plantedBearer + `)"}` + "\n")
}

// A matrix command: args before the input names; OUT stands for the path
// of an output file, read as the command's output.
type mxCommand struct {
	name   string
	args   []string
	follow string // its --follow flag, when it has one
}

var mxCommands = []mxCommand{
	{"translate --to zero", []string{"translate", "--to", "zero", "--run-id", "run_matrix", "--cwd", "/matrix"}, "--follow"},
	{"translate --to evosci", []string{"translate", "--to", "evosci", "--redact"}, "--follow"},
	{"jq", []string{"jq", "-c", "{type, runId, id}"}, "--follow"},
	{"validate", []string{"validate", "--json"}, ""},
	{"stats", []string{"stats", "--json"}, ""},
	{"view", []string{"view"}, "--follow"},
	{"view markdown", []string{"view", "--format", "markdown"}, ""},
	{"view html", []string{"view", "--format", "html"}, ""},
	{"otel", []string{"otel", "--clock", "synthetic", "--output", "OUT"}, ""},
}

// What differs between input kinds and is no event: the input's name
// (the matrix names every file matrixinput-KIND), and the span ids otel
// derives from it.
var (
	mxNameRE  = regexp.MustCompile(`matrixinput-[a-z0-9]+|/dev/fd/\d+|\\?<stdin\\?>|&lt;stdin&gt;|\\u003cstdin\\u003e`)
	mxIDRE    = regexp.MustCompile(`"(traceId|spanId|parentSpanId)":"[0-9a-f]*"`)
	mxLinesRE = regexp.MustCompile(`"lines":\d+`)
	mxRunRE   = regexp.MustCompile(`run_\d{14}_[0-9a-f]{6}`)
)

func mxNormalize(s string) string {
	s = mxNameRE.ReplaceAllString(s, "INPUT")
	return mxIDRE.ReplaceAllString(s, `"$1":"ID"`)
}

// mxResult is what one run of zevo gave.
type mxResult struct {
	code           int
	stdout, stderr string
	out            string // --output OUT's content
}

// mxRun is one run of zevo in dir: args ("OUT" stands for dir/out),
// with stdin and extra files; the process is killed, and the cell
// failed, after matrixBound.
type mxRun struct {
	dir    string
	args   []string
	stdin  io.Reader
	stdout io.Writer // default: kept
	extra  []*os.File
	env    []string
	// during, when set, runs once the process has started; it may signal it.
	during func(cmd *exec.Cmd)
}

func (r mxRun) run(t *testing.T) mxResult {
	t.Helper()
	out := filepath.Join(r.dir, "out")
	args := append([]string{}, r.args...)
	for i, a := range args {
		if a == "OUT" {
			args[i] = out
		}
	}
	cmd := exec.Command(zevoBinary(t), args...)
	cmd.Dir = r.dir
	cmd.Stdin = r.stdin
	cmd.ExtraFiles = r.extra
	cmd.Env = append(os.Environ(), r.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if r.stdout != nil {
		cmd.Stdout = r.stdout
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for _, f := range r.extra {
		f.Close()
	}
	hung := time.AfterFunc(matrixBound, func() { cmd.Process.Kill() })
	if r.during != nil {
		r.during(cmd)
	}
	err := cmd.Wait()
	if !hung.Stop() {
		t.Fatalf("zevo %s did not end within %v; stderr:\n%s", strings.Join(args, " "), matrixBound, clipText(stderr.String()))
	}
	res := mxResult{code: exitCodeOf(t, err), stdout: stdout.String(), stderr: stderr.String()}
	if b, err := os.ReadFile(out); err == nil {
		res.out = string(b)
	}
	checkQuietStderr(t, res.stderr)
	return res
}

// output is what the command wrote: the --output file when it has one.
func (r mxResult) output(c mxCommand) string {
	for _, a := range c.args {
		if a == "OUT" {
			return r.out
		}
	}
	return r.stdout
}

// checkSecrets fails the cell when a planted secret shows anywhere.
func (r mxResult) checkSecrets(t *testing.T) {
	t.Helper()
	for where, s := range map[string]string{"stdout": r.stdout, "stderr": r.stderr, "--output": r.out} {
		if i := strings.Index(s, "PLANTED"); i >= 0 {
			t.Errorf("a planted secret in %s: …%s…", where, s[max(0, i-60):min(len(s), i+40)])
		}
	}
}

func (r mxResult) checkCode(t *testing.T, want int) {
	t.Helper()
	if r.code != want {
		t.Errorf("exit %d, want %d; stderr:\n%s", r.code, want, clipText(r.stderr))
	}
}

// checkSame fails the cell unless got is want once normalized.
func checkSame(t *testing.T, what, got, want string) {
	t.Helper()
	got, want = mxNormalize(got), mxNormalize(want)
	if got == want {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("%s differs from the plain file's at line %d (%d lines, want %d):\ngot  %.300q\nwant %.300q", what, i+1, len(gl), len(wl), g, w)
			return
		}
	}
}

// skipKnown skips a cell of a known bug unless ZEVO_MATRIX_ALL=1.
func skipKnown(t *testing.T, bug string) {
	t.Helper()
	if bug != "" && os.Getenv("ZEVO_MATRIX_ALL") != "1" {
		t.Skipf("issue %s (known failure; ZEVO_MATRIX_ALL=1 runs it)", bug)
	}
}

// An input kind: how the corpus reaches the command.
type mxKind struct {
	name string
	// feed prepares the run: its extra arguments (the input's name), its
	// standard input and extra files.
	feed func(t *testing.T, dir string, data []byte, r *mxRun)
}

// mxKinds are the input kinds every command reads; the --follow ones
// are in TestMatrix below.
var mxKinds = []mxKind{
	{"plain file", func(t *testing.T, dir string, data []byte, r *mxRun) {
		r.args = append(r.args, writeIn(t, dir, "matrixinput-plain", data))
	}},
	{"gzip file", func(t *testing.T, dir string, data []byte, r *mxRun) {
		r.args = append(r.args, writeIn(t, dir, "matrixinput-gz", gzipBytes(t, data)))
	}},
	{"zstd file", func(t *testing.T, dir string, data []byte, r *mxRun) {
		r.args = append(r.args, writeIn(t, dir, "matrixinput-zst", zstdBytes(t, data)))
	}},
	{"stdin pipe", func(t *testing.T, dir string, data []byte, r *mxRun) {
		r.stdin = pipeOf(t, data)
	}},
	{"gzip stdin", func(t *testing.T, dir string, data []byte, r *mxRun) {
		r.stdin = pipeOf(t, gzipBytes(t, data))
	}},
	{"zstd stdin", func(t *testing.T, dir string, data []byte, r *mxRun) {
		r.stdin = pipeOf(t, zstdBytes(t, data))
	}},
	{"<(…) pipe", func(t *testing.T, dir string, data []byte, r *mxRun) {
		// As a shell's process substitution: a pipe the process inherits,
		// named /dev/fd/3.
		r.extra = append(r.extra, pipeOf(t, data))
		r.args = append(r.args, fmt.Sprintf("/dev/fd/%d", 2+len(r.extra)))
	}},
	{"named FIFO", func(t *testing.T, dir string, data []byte, r *mxRun) {
		r.args = append(r.args, fifoOf(t, dir, "matrixinput-fifo", data))
	}},
}

func writeIn(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// pipeOf returns the reading end of a pipe that gets data, then its end.
func pipeOf(t *testing.T, data []byte) *os.File {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		pw.Write(data)
		pw.Close()
	}()
	t.Cleanup(func() { pr.Close() })
	return pr
}

// fifoOf makes a named FIFO in dir that one writer fills with data and
// closes, once zevo opens it.
func fifoOf(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no named FIFO here:", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(data)
		f.Close()
	}()
	t.Cleanup(func() {
		// A writer still waiting for a reader (zevo never opened it) is
		// let go.
		if f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			<-done
			f.Close()
		}
	})
	return name
}

// matrixBugs are the cells that fail on the bugs, by
// "command/column" (column: an input kind or a fault), for either corpus.
// Once the bugs are fixed, this table is empty.
var matrixBugs = func() map[string]string {
	m := map[string]string{}
	return m
}()

func bugOf(cmd, column string) string { return matrixBugs[cmd+"/"+column] }

func TestMatrix(t *testing.T) {
	zevoBinary(t)
	corpora := []struct {
		name string
		data []byte
	}{{"zero", matrixZero(t)}, {"evosci", matrixEvo(t)}}

	// The reference: each command on the plain file read whole.
	ref := map[string]mxResult{}
	for _, cp := range corpora {
		for _, c := range mxCommands {
			dir := t.TempDir()
			r := mxRun{dir: dir, args: append([]string{}, c.args...)}
			r.args = append(r.args, writeIn(t, dir, "matrixinput-plain", cp.data))
			res := r.run(t)
			if res.code != ExitOK || res.output(c) == "" {
				t.Fatalf("%s on the plain %s corpus: exit %d, output %q, stderr:\n%s", c.name, cp.name, res.code, res.output(c), res.stderr)
			}
			ref[cp.name+"/"+c.name] = res
		}
	}

	for _, c := range mxCommands {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, cp := range corpora {
				want := ref[cp.name+"/"+c.name]
				for _, k := range mxKinds {
					t.Run(cp.name+"/"+k.name, func(t *testing.T) {
						skipKnown(t, bugOf(c.name, k.name))
						dir := t.TempDir()
						r := mxRun{dir: dir, args: append([]string{}, c.args...)}
						k.feed(t, dir, cp.data, &r)
						res := r.run(t)
						res.checkCode(t, ExitOK)
						res.checkSecrets(t)
						checkSame(t, "the output", res.output(c), want.output(c))
					})
				}
			}
			if c.follow != "" {
				matrixFollow(t, c, corpora[0].data)
			} else {
				matrixFollowRefused(t, c, corpora[0].data)
			}
			matrixFaults(t, c, corpora[0].data, ref["zero/"+c.name])
			matrixCutLine(t, c, corpora[0].data)
			if c.args[0] != "jq" { // jq writes what its filter selects, the type too
				for _, cp := range corpora {
					matrixUnknownType(t, c, cp.name, cp.data)
				}
			}
		})
	}
	t.Run("otel endpoint", func(t *testing.T) {
		t.Parallel()
		matrixEndpoint(t, corpora[0].data, ref["zero/otel"])
	})
	t.Run("exec", func(t *testing.T) {
		t.Parallel()
		matrixExec(t, corpora)
	})
}

// matrixFollow: --follow through growth, rotation with a half line,
// truncation and rewrite. Each scenario writes the corpus in two phases;
// the output, when zevo is interrupted, must be the command's output on
// the two phases' complete lines read whole as one plain file, and the
// exit code 130.
func matrixFollow(t *testing.T, c mxCommand, data []byte) {
	half := bytes.Index(data, []byte(`"type":"run_start"`)) + 5 // inside the first line
	// The end of the first run: the output of what comes before is
	// final (a plain file's end would close a run still open).
	cut := bytes.Index(data, []byte(`"type":"run_end"}`+"\n")) + len(`"type":"run_end"}`+"\n")
	for _, sc := range []struct {
		name string
		// steps write the log in phases; the output of the phases' text
		// (whole) is waited for before the next one.
		phases [][]byte
		// between phases: what happens to the log; nil: the second phase is
		// appended in pieces.
		change func(t *testing.T, log string, next []byte)
		// the half line the first phase ends with, not part of the events.
		halfLine []byte
	}{
		{name: "follow growth", phases: [][]byte{data[:cut], data[cut:]}},
		{name: "follow rotation with a half line", phases: [][]byte{data, data}, halfLine: data[:half],
			change: func(t *testing.T, log string, next []byte) {
				if err := os.Rename(log, log+".1"); err != nil {
					t.Fatal(err)
				}
				writeLog(t, log, next, 0)
			}},
		{name: "follow truncation", phases: [][]byte{data, data}, halfLine: data[:half],
			change: func(t *testing.T, log string, next []byte) {
				if err := os.Truncate(log, 0); err != nil {
					t.Fatal(err)
				}
				writeLog(t, log, next, 0)
			}},
		// The new log starts with another run: a file written again with
		// the very bytes read at its start (data, then more) holds what a
		// file that grew holds, and is read as one (internal/follow's
		// TestRewriteHoldingTheBytesReadReadsOn); which of the two a
		// follower sees would depend on whether it looked while the file
		// was empty.
		{name: "follow rewrite", phases: [][]byte{data, append(append([]byte{}, data[cut:]...), data...)},
			change: func(t *testing.T, log string, next []byte) {
				// Rewritten in place at once, longer than before (an
				// editor's save, a log reopened with O_TRUNC).
				if err := os.WriteFile(log, next, 0o644); err != nil {
					t.Fatal(err)
				}
			}},
	} {
		t.Run("zero/"+sc.name, func(t *testing.T) {
			skipKnown(t, bugOf(c.name, sc.name))
			dir := t.TempDir()
			// The reference: the phases' lines as one plain file.
			whole := bytes.Join(sc.phases, nil)
			ref := mxRun{dir: dir, args: append(append([]string{}, c.args...), writeIn(t, dir, "matrixinput-whole", whole))}.run(t)
			want := ref.output(c)
			log := filepath.Join(dir, "matrixinput-log")
			first := append(append([]byte{}, sc.phases[0]...), sc.halfLine...)
			// The first phase written in pieces: the growth is seen line by
			// line and inside lines.
			writeLog(t, log, first, 0)
			r := mxRun{dir: dir, args: append(append([]string{}, c.args...), c.follow, "matrixinput-log")}
			var so syncBuf
			r.stdout = &so
			firstWant := mxRun{dir: dir, args: append(append([]string{}, c.args...), writeIn(t, dir, "matrixinput-first", sc.phases[0]))}.run(t).output(c)
			r.during = func(cmd *exec.Cmd) {
				waitOutput(t, &so, firstWant, "the first phase")
				if sc.change != nil {
					sc.change(t, log, sc.phases[1])
				} else {
					writeLog(t, log, sc.phases[1], 7)
				}
				waitOutput(t, &so, want, "the second phase")
				cmd.Process.Signal(os.Interrupt)
			}
			res := r.run(t)
			res.stdout = so.String()
			res.checkCode(t, ExitInterrupt)
			res.checkSecrets(t)
			checkSame(t, "the output", res.stdout, want)
		})
	}
	// --follow with standard input: there is no file to follow; the input
	// is read to its end, as without --follow.
	t.Run("zero/follow stdin", func(t *testing.T) {
		skipKnown(t, bugOf(c.name, "follow stdin"))
		dir := t.TempDir()
		want := mxRun{dir: dir, args: append(append([]string{}, c.args...), writeIn(t, dir, "matrixinput-plain", data))}.run(t)
		r := mxRun{dir: dir, args: append(append([]string{}, c.args...), c.follow), stdin: pipeOf(t, data)}
		res := r.run(t)
		res.checkCode(t, ExitOK)
		res.checkSecrets(t)
		checkSame(t, "the output", res.output(c), want.output(c))
	})
}

// matrixCutLine: a line cut where a value is expected (after a colon),
// then a whole line (the next run's run_start). The cut line is named,
// and nothing of the whole line is lost: the output is the command's on
// the same file with a blank line in the cut one's place (its line
// numbers kept), but for the count of lines that are not JSON and
// validate's diagnostic.
func matrixCutLine(t *testing.T, c mxCommand, data []byte) {
	t.Run("zero/a cut line before a whole one", func(t *testing.T) {
		skipKnown(t, bugOf(c.name, "a cut line before a whole one"))
		at := bytes.Index(data, []byte(`{"apiModel":"gpt-4.1","cwd":"/repo","model":"gpt-4.1","provider":"openai","runId":"run_20260603100500_def456"`))
		const cut = `{"delta":"cut here","runId":"run_20260603100000_abc123","schemaVersion":2,"type":` + "\n"
		line := bytes.Count(data[:at], []byte("\n")) + 1
		dir := t.TempDir()
		blank := append(append(append([]byte{}, data[:at]...), '\n'), data[at:]...)
		with := append(append([]byte(nil), data[:at]...), append([]byte(cut), data[at:]...)...)
		ref := mxRun{dir: dir, args: append(append([]string{}, c.args...), writeIn(t, dir, "matrixinput-blank", blank))}.run(t).output(c)
		os.Remove(filepath.Join(dir, "out"))
		res := mxRun{dir: dir, args: append(append([]string{}, c.args...), writeIn(t, dir, "matrixinput-cut", with))}.run(t)
		want := ExitDiagnostics
		if c.args[0] == "jq" {
			want = ExitJQError // jq's code for a value that is not JSON
		}
		res.checkCode(t, want)
		res.checkSecrets(t)
		named, next := fmt.Sprintf("matrixinput-cut:%d: ", line), fmt.Sprintf("matrixinput-cut:%d:", line+1)
		if c.args[0] == "validate" {
			named, next = fmt.Sprintf(`"line":%d,`, line), fmt.Sprintf(`"line":%d,`, line+1)
		}
		if strings.Count(res.stderr+res.stdout, named) != 1 || strings.Contains(res.stderr+res.stdout, next) {
			t.Errorf("the cut line %d is not named once, alone:\nstderr: %s\nstdout: %.300s", line, res.stderr, res.stdout)
		}
		got := res.output(c)
		if c.args[0] == "validate" {
			// The diagnostic is validate's output: the rest compares.
			got = regexp.MustCompile(`"valid":false,"errors":1,(.*)"errors":1,(.*)"diagnostics":\[.*\]`).ReplaceAllString(got, `"valid":true,"errors":0,${1}"errors":0,${2}"diagnostics":[]`)
		}
		invalid := regexp.MustCompile(`"invalidLines":\d+`)
		checkSame(t, "the output", invalid.ReplaceAllString(got, `"invalidLines":N`), invalid.ReplaceAllString(ref, `"invalidLines":N`))
	})
}

// matrixUnknownType: an event of an unknown type whose type holds a
// secret: counted, shown or diagnosed as each command does with unknown
// types, the secret redacted wherever the type is named.
func matrixUnknownType(t *testing.T, c mxCommand, corpus string, data []byte) {
	t.Run(corpus+"/an unknown type holding a secret", func(t *testing.T) {
		skipKnown(t, bugOf(c.name, corpus+": an unknown type holding a secret"))
		ev := `{"type": "` + plantedBearer + `", "content": "x"}`
		if corpus == "zero" {
			ev = `{"runId":"run_20260603110000_5ec000","schemaVersion":2,"type":"` + plantedBearer + `"}`
		}
		dir := t.TempDir()
		in := append(append([]byte{}, data...), ev+"\n"...)
		res := mxRun{dir: dir, args: append(append([]string{}, c.args...), writeIn(t, dir, "matrixinput-plain", in))}.run(t)
		want := ExitOK
		if c.args[0] == "validate" && corpus == "zero" {
			want = ExitDiagnostics // Zero's event types are a closed set
		}
		res.checkCode(t, want)
		res.checkSecrets(t)
	})
}

// matrixFollowRefused: the commands without --follow (and view's other
// formats, which read their inputs to the end) refuse it with a message.
func matrixFollowRefused(t *testing.T, c mxCommand, data []byte) {
	t.Run("zero/follow refused", func(t *testing.T) {
		skipKnown(t, bugOf(c.name, "follow refused"))
		dir := t.TempDir()
		r := mxRun{dir: dir, args: append(append([]string{}, c.args...), "--follow", writeIn(t, dir, "matrixinput-plain", data))}
		res := r.run(t)
		res.checkCode(t, ExitUsage)
		if !strings.Contains(res.stderr, "follow") || res.output(c) != "" {
			t.Errorf("stderr %q, output %q; want a message about --follow and no output", res.stderr, res.output(c))
		}
	})
}

// writeLog appends data to log, in pieces of n bytes when n > 0 (with a
// pause between them, so that a reader sees the lines cut).
func writeLog(t *testing.T, log string, data []byte, pieces int) {
	t.Helper()
	if pieces <= 0 {
		appendFile(t, log, string(data))
		return
	}
	step := len(data)/pieces + 1
	for len(data) > 0 {
		n := min(step, len(data))
		appendFile(t, log, string(data[:n]))
		data = data[n:]
		time.Sleep(5 * time.Millisecond)
	}
}

// syncBuf is a buffer written by exec's copying goroutine and read by the
// test.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitOutput waits until the output, normalized, holds all of want but
// its last line (which a live reader may hold until the next event or the
// end); at most lineWait: an event that does not come out once its line is
// complete fails the cell.
func waitOutput(t *testing.T, s *syncBuf, want, what string) {
	t.Helper()
	want = mxNormalize(want)
	want = want[:strings.LastIndex(strings.TrimSuffix(want, "\n"), "\n")+1]
	for end := time.Now().Add(lineWait); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if len(mxNormalize(s.String())) >= len(want) {
			return
		}
	}
	t.Errorf("the output of %s did not come within %v", what, lineWait)
}

// matrixFaults: SIGINT mid-stream, a client that reads slowly, a closed
// pipe, a full disk, and for otel an output path that is also an input.
func matrixFaults(t *testing.T, c mxCommand, data []byte, want mxResult) {
	hasOut := c.args[len(c.args)-1] == "OUT"
	// A live producer (the pipe stays open). A command that writes as it
	// reads is signalled once the corpus's output is out; the others once
	// the blank lines after the corpus, beyond a pipe's buffer, are
	// written (zevo has read the corpus then) and a moment has passed.
	streams := c.args[0] == "translate" || c.args[0] == "jq" || c.name == "view"
	blank := bytes.Repeat([]byte("\n"), 256<<10)
	if streams {
		blank = nil
	}
	for _, v := range []struct {
		name string
		tail []byte // after the corpus
	}{
		{"SIGINT", append(blank, '\n')},
		// The producer was stopped inside a line: the lines before it
		// are out, the half line is what a plain file ending there gives.
		{"SIGINT after a half line", append(blank, `{"type":"te`...)},
	} {
		t.Run("zero/"+v.name, func(t *testing.T) {
			skipKnown(t, bugOf(c.name, v.name))
			dir := t.TempDir()
			// The reference: the same bytes as a plain file, read whole.
			input := append(append([]byte{}, data...), v.tail...)
			ref := mxRun{dir: dir, args: append(append([]string{}, c.args...), writeIn(t, dir, "matrixinput-plain", input))}.run(t).output(c)
			os.Remove(filepath.Join(dir, "out"))
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer pw.Close()
			r := mxRun{dir: dir, args: append([]string{}, c.args...), stdin: pr}
			var so syncBuf
			r.stdout = &so
			r.during = func(cmd *exec.Cmd) {
				pr.Close()
				pw.Write(input)
				if streams {
					waitOutput(t, &so, want.output(c), "the corpus")
				} else {
					time.Sleep(200 * time.Millisecond)
				}
				cmd.Process.Signal(os.Interrupt)
			}
			res := r.run(t)
			res.stdout = so.String()
			res.checkCode(t, ExitInterrupt)
			res.checkSecrets(t)
			// Blank lines count as lines, read or not yet: only the
			// events compare.
			checkSame(t, "the output", mxLinesRE.ReplaceAllString(res.output(c), `"lines":N`), mxLinesRE.ReplaceAllString(ref, `"lines":N`))
		})
	}
	// A big input: its output is far beyond a pipe's buffer.
	big := bytes.Repeat(data, 60)
	if !hasOut {
		t.Run("zero/slow client", func(t *testing.T) {
			skipKnown(t, bugOf(c.name, "slow client"))
			dir := t.TempDir()
			in := writeIn(t, dir, "matrixinput-big", big)
			ref := mxRun{dir: dir, args: append(append([]string{}, c.args...), in)}.run(t)
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			done := make(chan struct{})
			go func() {
				defer close(done)
				time.Sleep(300 * time.Millisecond)
				buf := make([]byte, 16<<10)
				for {
					n, err := pr.Read(buf)
					got.Write(buf[:n])
					if err != nil {
						return
					}
					time.Sleep(time.Millisecond)
				}
			}()
			r := mxRun{dir: dir, args: append(append([]string{}, c.args...), in), stdout: pw}
			res := r.run(t)
			pw.Close()
			<-done
			pr.Close()
			res.stdout = got.String()
			res.checkCode(t, ExitOK)
			res.checkSecrets(t)
			checkSame(t, "the output", res.stdout, ref.stdout)
		})
		t.Run("zero/closed pipe", func(t *testing.T) {
			skipKnown(t, bugOf(c.name, "closed pipe"))
			dir := t.TempDir()
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r := mxRun{dir: dir, args: append(append([]string{}, c.args...), writeIn(t, dir, "matrixinput-big", big)), stdout: pw}
			r.during = func(*exec.Cmd) {
				pw.Close()
				bufio.NewReader(pr).ReadString('\n')
				pr.Close()
			}
			res := r.run(t)
			res.checkCode(t, ExitOK)
			res.checkSecrets(t)
			if strings.Contains(res.stderr, "broken pipe") || strings.Contains(res.stderr, "writing output") {
				t.Errorf("stderr %q: a closed pipe is no error", res.stderr)
			}
		})
	}
	t.Run("zero/full disk", func(t *testing.T) {
		skipKnown(t, bugOf(c.name, "full disk"))
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Skip("no /dev/full here")
		}
		defer full.Close()
		dir := t.TempDir()
		args := append(append([]string{}, c.args...), writeIn(t, dir, "matrixinput-plain", data))
		r := mxRun{dir: dir, args: args, stdout: full}
		if hasOut {
			r.args[len(c.args)-1] = "/dev/full"
			r.stdout = nil
		}
		res := r.run(t)
		res.checkCode(t, ExitDiagnostics)
		res.checkSecrets(t)
		if !strings.Contains(res.stderr, "no space left on device") || !strings.HasPrefix(res.stderr, "zevo: ") {
			t.Errorf("stderr %q, want a message saying the output could not be written", res.stderr)
		}
	})
	if hasOut {
		// --output names an input: the input is not destroyed. zevo
		// refuses (exit 2, naming the file).
		t.Run("zero/output is an input", func(t *testing.T) {
			skipKnown(t, bugOf(c.name, "output is an input"))
			dir := t.TempDir()
			in := writeIn(t, dir, "out", data)
			res := mxRun{dir: dir, args: append(append([]string{}, c.args...), in)}.run(t)
			res.out = "" // the input itself, checked below to be untouched
			res.checkSecrets(t)
			after, err := os.ReadFile(filepath.Join(dir, in))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case res.code == ExitUsage && strings.Contains(res.stderr, "out"):
				if !bytes.Equal(after, data) {
					t.Errorf("refused, but the input was changed: %.200q", after)
				}
			default:
				t.Errorf("exit %d, stderr %q, the file now %.100q; want the input untouched and exit %d with a message naming it", res.code, res.stderr, after, ExitUsage)
			}
		})
	}
}

// matrixEndpoint: otel --endpoint to a failing and to a hanging endpoint,
// with --output FILE; every run is named as not sent, FILE holds every
// run, nothing hangs, and the endpoint's password is never shown.
func matrixEndpoint(t *testing.T, data []byte, want mxResult) {
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		http.Error(w, "overloaded", http.StatusServiceUnavailable)
	}))
	t.Cleanup(failing.Close) // after the parallel cells
	stop := make(chan struct{})
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hanging.Close)
	t.Cleanup(func() { close(stop) }) // runs first
	withPass := func(u string) string { return strings.Replace(u, "http://", "http://matrix:PLANTEDurlpass@", 1) }
	for _, c := range []struct {
		name   string
		url    string
		extra  []string
		sigint bool
		code   int
	}{
		{"failing endpoint", withPass(failing.URL), nil, false, ExitDiagnostics},
		{"hanging endpoint", withPass(hanging.URL), []string{"--timeout", "300ms"}, false, ExitDiagnostics},
		{"failing endpoint, SIGINT", withPass(failing.URL), nil, true, ExitInterrupt},
		{"hanging endpoint, SIGINT", withPass(hanging.URL), nil, true, ExitInterrupt},
	} {
		t.Run("zero/"+c.name, func(t *testing.T) {
			t.Parallel()
			skipKnown(t, bugOf("otel", c.name))
			dir := t.TempDir()
			args := append([]string{"otel", "--clock", "synthetic", "--output", "OUT", "--endpoint", c.url}, c.extra...)
			r := mxRun{dir: dir, args: args}
			if !c.sigint {
				r.args = append(r.args, writeIn(t, dir, "matrixinput-plain", data))
			} else {
				pr, pw, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				defer pw.Close()
				r.stdin = pr
				r.during = func(cmd *exec.Cmd) {
					pr.Close()
					pw.Write(append(append([]byte{}, data...), bytes.Repeat([]byte("\n"), 256<<10)...))
					time.Sleep(300 * time.Millisecond)
					cmd.Process.Signal(os.Interrupt)
				}
			}
			res := r.run(t)
			res.checkCode(t, c.code)
			res.checkSecrets(t)
			checkSame(t, "--output", res.out, want.out)
			// Every run not sent is named (by its id).
			for _, id := range []string{"run_20260603100000_abc123", "run_20260603100500_def456", "run_20260603110000_5ec000"} {
				if !strings.Contains(res.stderr, id) {
					t.Errorf("stderr does not name run %s as not sent:\n%s", id, clipText(res.stderr))
				}
			}
		})
	}
}

// matrixExec: exec's reading side. The agent's output is a pipe; what
// zevo writes is what translate writes for the same stream read from a
// file (run ids aside: exec's are Zero's own), whatever the client's pace.
func matrixExec(t *testing.T, corpora []struct {
	name string
	data []byte
}) {
	for _, cp := range corpora {
		// Either corpus's last run ends with an error: exit 1.
		flags := []string{"--to", "zero", "--cwd", "/matrix"}
		if cp.name == "zero" {
			flags = []string{"--to", "evosci", "--redact"}
		}
		t.Run(cp.name+"/agent pipe", func(t *testing.T) {
			skipKnown(t, bugOf("exec", "agent pipe"))
			dir := t.TempDir()
			in := writeIn(t, dir, "matrixinput-plain", cp.data)
			ref := mxRun{dir: dir, args: append(append([]string{"translate"}, flags...), in)}.run(t)
			res := mxRun{dir: dir, args: append(append([]string{"exec"}, flags...), "--", "cat", in)}.run(t)
			res.checkCode(t, ExitDiagnostics)
			res.checkSecrets(t)
			checkSame(t, "the output", mxRunRE.ReplaceAllString(res.stdout, "RUN"), mxRunRE.ReplaceAllString(ref.stdout, "RUN"))
		})
	}
	// The stand-in agent writes a 3 MB event, then its last ones, and
	// exits 0 while the client has not read yet: all is read.
	t.Run("evosci/slow client", func(t *testing.T) {
		skipKnown(t, bugOf("exec", "slow client"))
		cmd, _ := execCmd(t, "exec", "--to", "zero", "--grace", "100ms", "--", "AGENT", "huge", "3000000")
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = pw, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pw.Close()
		hung := time.AfterFunc(matrixBound, func() { cmd.Process.Kill() })
		time.Sleep(1500 * time.Millisecond) // past --grace and the wait for a held output
		out, _ := io.ReadAll(pr)
		pr.Close()
		err = cmd.Wait()
		if !hung.Stop() {
			t.Fatalf("zevo exec did not end within %v", matrixBound)
		}
		if code := exitCodeOf(t, err); code != ExitOK {
			t.Errorf("exit %d, want 0; stderr %q", code, stderr.String())
		}
		if !strings.Contains(string(out), `"status":"success"`) || strings.Contains(stderr.String(), "held open") {
			t.Errorf("the run did not end as the agent ended it; stderr %q, output ends %q", stderr.String(), out[max(0, len(out)-300):])
		}
	})
	t.Run("evosci/SIGINT", func(t *testing.T) {
		skipKnown(t, bugOf("exec", "SIGINT"))
		r, pgid := signalExec(t, []syscall.Signal{syscall.SIGINT}, "exec", "--to", "zero", "--grace", "300ms", "--", "AGENT", "sigint-evosci")
		if r.code != ExitInterrupt || !strings.Contains(r.stdout, `"status":"interrupted"`) {
			t.Errorf("exit %d, output %q", r.code, r.stdout)
		}
		checkGroupGone(t, pgid)
	})
	t.Run("evosci/closed pipe", func(t *testing.T) {
		skipKnown(t, bugOf("exec", "closed pipe"))
		TestExecClosedOutput(t)
	})
	t.Run("evosci/full disk", func(t *testing.T) {
		skipKnown(t, bugOf("exec", "full disk"))
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Skip("no /dev/full here")
		}
		defer full.Close()
		cmd, _ := execCmd(t, "exec", "--to", "zero", "--", "AGENT", "success-evosci")
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		code := exitCodeOf(t, cmd.Run())
		if code != ExitDiagnostics || !strings.Contains(stderr.String(), "no space left on device") || strings.Contains(stderr.String(), "PLANTED") {
			t.Errorf("exit %d, stderr %q; want %d and a message saying the output could not be written", code, stderr.String(), ExitDiagnostics)
		}
	})
}
