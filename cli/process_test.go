package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// These tests run the built zevo binary with real pipes, files and
// signals: what a shell does to it.

// The README's install line: no cgo, so that the binary is static and
// loads no C library; urfave/cli without its Markdown documentation code
// (zevo writes its man page itself). Both save start-up on every command
// (cli/startup_test.go).
const (
	installEnv  = "CGO_ENABLED=0"
	installTags = "urfave_cli_no_docs"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

func zevoBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the built binary: not with -short")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "zevo-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "zevo")
		// Built as the README's install line builds it
		// (TestReadmeInstallLine).
		cmd := exec.Command("go", "build", "-tags", installTags, "-o", binPath, "github.com/zevo/zevo/cmd/zevo")
		cmd.Env = append(os.Environ(), installEnv)
		out, err := cmd.CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// startCmd starts cmd, its standard error kept in the buffer returned.
func startCmd(t *testing.T, cmd *exec.Cmd) *bytes.Buffer {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &stderr
}

// startPiped starts cmd with pipes to its standard input (closed when the
// test ends) and from its standard output, and its standard error kept.
func startPiped(t *testing.T, cmd *exec.Cmd) (io.WriteCloser, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := startCmd(t, cmd)
	t.Cleanup(func() { stdin.Close() })
	return stdin, bufio.NewReader(stdout), stderr
}

// evoStream writes n EvoScientist events of one run (no done).
func evoStream(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"type": "text", "content": "line %d of a stream long enough to fill any pipe buffer"}`+"\n", i)
	}
	return b.Bytes()
}

func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func exitCodeOf(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			t.Fatalf("zevo was killed by %v", ws.Signal())
		}
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

func checkQuietStderr(t *testing.T, stderr string) {
	t.Helper()
	if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
		t.Fatalf("stderr shows a crash:\n%s", stderr)
	}
}

// A consumer that reads one line and closes the pipe (zevo … | head -1):
// zevo ends at once, quietly, with exit code 0.
func TestClosedPipe(t *testing.T) {
	bin := zevoBinary(t)
	in := writeTemp(t, "big.evosci.jsonl", evoStream(50_000)) // ~4 MB out: far beyond a pipe's buffer
	for _, args := range [][]string{
		{"translate", "--to", "zero", in},
		{"translate", "--to", "evosci", in},
		{"view", "--full", in},
	} {
		t.Run(strings.Join(args[:len(args)-1], " "), func(t *testing.T) {
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd := exec.Command(bin, args...)
			cmd.Stdout, cmd.Stderr = pw, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pw.Close()
			first, err := bufio.NewReader(pr).ReadString('\n')
			if err != nil || (args[0] == "translate" && !json.Valid([]byte(first))) {
				t.Fatalf("first line %q: %v", first, err)
			}
			pr.Close()
			code := exitCodeOf(t, cmd.Wait())
			checkQuietStderr(t, stderr.String())
			if code != ExitOK || stderr.Len() != 0 {
				t.Fatalf("exit code %d, stderr %q; want 0 and nothing", code, stderr.String())
			}
		})
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash for the pipeline form")
	}
	t.Run("bash pipefail head -1", func(t *testing.T) {
		cmd := exec.Command("bash", "-c", `set -o pipefail; "$0" translate --to zero "$1" | head -1`, bin, in)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		code := exitCodeOf(t, cmd.Run())
		checkQuietStderr(t, stderr.String())
		if code != 0 || stderr.Len() != 0 || strings.Count(stdout.String(), "\n") != 1 {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
		}
	})
}

// A full disk: an error message naming the failure, exit code 1.
func TestFullDisk(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	bin := zevoBinary(t)
	small := writeTemp(t, "small.evosci.jsonl", evoStream(3))
	big := writeTemp(t, "big.evosci.jsonl", evoStream(50_000))
	// Help and version output fails as loudly.
	for _, args := range [][]string{{"--help"}, {"stats", "--help"}, {"help", "view"}, {"--version"}, {"jq", "--help"}, {"man"}, {"completion", "bash"}} {
		cmd := exec.Command(bin, args...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		if code := exitCodeOf(t, cmd.Run()); code != ExitDiagnostics || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%v > /dev/full: exit %d, stderr %q", args, code, stderr.String())
		}
	}
	for _, in := range []string{small, big} {
		for _, to := range []string{"zero", "evosci"} {
			t.Run(filepath.Base(in)+" "+to, func(t *testing.T) {
				cmd := exec.Command(bin, "translate", "--to", to, in)
				var stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = full, &stderr
				code := exitCodeOf(t, cmd.Run())
				checkQuietStderr(t, stderr.String())
				if code != ExitDiagnostics {
					t.Errorf("exit code %d, want %d", code, ExitDiagnostics)
				}
				if got := stderr.String(); !strings.HasPrefix(got, "zevo: writing output: ") ||
					!strings.Contains(got, "no space left on device") || strings.Count(got, "\n") != 1 {
					t.Errorf("stderr %q, want one line saying the output could not be written", got)
				}
			})
		}
	}
}

// SIGINT and SIGTERM while zevo waits for a live producer: what was
// translated has been written, a Zero run is closed as Zero closes an
// interrupted one, and zevo exits 130 or 143.
func TestSignals(t *testing.T) {
	bin := zevoBinary(t)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
		to   string
		want []string // output types after the signal
	}{
		{syscall.SIGINT, ExitInterrupt, "zero", []string{"error", "run_end"}},
		{syscall.SIGTERM, ExitTerminate, "zero", []string{"error", "run_end"}},
		{syscall.SIGTERM, ExitTerminate, "evosci", nil},
	} {
		t.Run(fmt.Sprintf("%v to %s", c.sig, c.to), func(t *testing.T) {
			cmd := exec.Command(bin, "translate", "--to", c.to, "--run-id", "run_sig")
			stdin, out, stderr := startPiped(t, cmd)
			readType := func() (string, map[string]any) {
				l, err := out.ReadString('\n')
				if err != nil {
					t.Fatalf("reading output: %v (stderr %q)", err, stderr.String())
				}
				var ev map[string]any
				if err := json.Unmarshal([]byte(l), &ev); err != nil {
					t.Fatalf("output %q: %v", l, err)
				}
				typ, _ := ev["type"].(string)
				return typ, ev
			}
			// Feed events one by one and see each translated before the signal.
			var input []string
			var before []string
			if c.to == "zero" {
				input = []string{`{"type": "thinking", "content": "hm", "id": 0}`, `{"type": "text", "content": "hello"}`}
				before = []string{"run_start", "reasoning", "text"}
			} else {
				input = []string{`{"delta":"hm","runId":"r","schemaVersion":2,"type":"reasoning"}`, `{"delta":"hello","runId":"r","schemaVersion":2,"type":"text"}`}
				before = []string{"thinking", "text"}
			}
			got := 0
			for _, l := range input {
				io.WriteString(stdin, l+"\n")
				for got < len(before) {
					typ, _ := readType()
					if typ != before[got] {
						t.Fatalf("output %d is %s, want %s", got+1, typ, before[got])
					}
					got++
					if typ != "run_start" {
						break
					}
				}
			}
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			for _, want := range c.want {
				typ, ev := readType()
				if typ != want {
					t.Fatalf("after the signal: %s, want %s", typ, want)
				}
				if ev["runId"] != "run_sig" {
					t.Errorf("%s has runId %v", typ, ev["runId"])
				}
				switch typ {
				case "error":
					if ev["code"] != "interrupted" || ev["recoverable"] != false {
						t.Errorf("error event %v", ev)
					}
				case "run_end":
					if ev["status"] != "interrupted" || ev["exitCode"] != float64(130) {
						t.Errorf("run_end event %v", ev)
					}
				}
			}
			if rest, _ := io.ReadAll(out); len(rest) != 0 {
				t.Errorf("more output after the closing events: %q", rest)
			}
			code := exitCodeOf(t, cmd.Wait())
			checkQuietStderr(t, stderr.String())
			if code != c.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, c.code, stderr.String())
			}
		})
	}
}

// signalWriter records output and says when the first block arrived.
type signalWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	started chan struct{}
	once    sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	w.once.Do(func() { close(w.started) })
	return len(p), nil
}

// An interruption while zevo is busy (input never waits, output is
// buffered): the buffered events are flushed whole, the run is closed,
// and nothing is written after.
func TestStopWhileBusy(t *testing.T) {
	evs := stopWhenBusy(t, "translate", "--to", "zero", "--run-id", "run_busy")
	n := len(evs)
	if n < 3 || !strings.Contains(evs[n-2], `"code":"interrupted"`) || !strings.Contains(evs[n-1], `"status":"interrupted"`) {
		t.Fatalf("the output does not end with the interrupted run's close:\n%s\n%s", evs[max(0, n-2)], evs[n-1])
	}
}

// The same for zevo jq, on every core and on one (input, inputs): the
// results so far are written out whole.
func TestJQStopWhileBusy(t *testing.T) {
	for _, args := range [][]string{{"jq", "-c", "."}, {"jq", "-c", "-n", "inputs"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			for i, l := range stopWhenBusy(t, args...) {
				if !strings.Contains(l, `"content":"busy"`) {
					t.Fatalf("output line %d is %q", i+1, l)
				}
			}
		})
	}
}

// stopWhenBusy runs zevo ARGS on endless input, stops it with SIGTERM once
// its first block of output is out, and returns its output lines, each of
// them JSON: the output must end at the end of a line.
func stopWhenBusy(t *testing.T, args ...string) []string {
	t.Helper()
	w := &signalWriter{started: make(chan struct{})}
	stdin := repeatReader(`{"type": "text", "content": "busy"}` + "\n")
	e := newEnv(stdin, w, io.Discard)
	go e.run(append([]string{"zevo"}, args...))
	select {
	case <-w.started: // the first 256 KB block is out: zevo is in the middle of the stream
	case <-time.After(time.Minute):
		t.Fatal("no output from an endless input after a minute")
	}
	if code := e.stop(syscall.SIGTERM, nil); code != ExitTerminate {
		t.Fatalf("stop = %d, want %d", code, ExitTerminate)
	}
	if e.mu.TryLock() {
		t.Fatal("the output lock was released after stopping")
	}
	w.mu.Lock()
	out := w.buf.String()
	w.mu.Unlock()
	if !strings.HasSuffix(out, "\n") {
		t.Fatalf("output ends inside a line: %q", out[max(0, len(out)-100):])
	}
	evs := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, l := range evs {
		if !json.Valid([]byte(l)) {
			t.Fatalf("output line %d is not JSON: %q", i+1, l)
		}
	}
	return evs
}

// readBytes is what process pid has read so far (rchar in /proc/PID/io).
func readBytes(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		t.Skip("no /proc/PID/io here:", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "rchar: "); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	t.Skip("no rchar in /proc/PID/io")
	return 0
}

// An interrupted validate (tail -f run.jsonl | zevo validate, then Ctrl-C)
// reports what it read as if the input ended there: the diagnostics so far,
// the run left open, and with --json the whole report; exit 130.
func TestValidateInterrupted(t *testing.T) {
	bin := zevoBinary(t)
	const input = `{"cwd":"/w","model":"m","provider":"p","runId":"run_v","schemaVersion":2,"sessionId":"s","type":"run_start"}
{"id":"c9","name":"read_file","output":"x","runId":"run_v","schemaVersion":2,"status":"ok","type":"tool_result"}
{"delta":"still going","runId":"run_v","schemaVersion":2,"type":"text"}
`
	for _, asJSON := range []bool{false, true} {
		t.Run(fmt.Sprintf("json=%v", asJSON), func(t *testing.T) {
			args := []string{"validate"}
			if asJSON {
				args = append(args, "--json")
			}
			cmd := exec.Command(bin, args...)
			stdin, out, stderr := startPiped(t, cmd)
			// With --json nothing is written before the end: zevo has read
			// the input once the bytes it has read (at start up, then the
			// input) have grown by the input's size.
			base := 0
			if asJSON {
				for i, same := 0, 0; same < 5; i++ {
					if i == 1000 {
						t.Fatal("zevo keeps reading at start up")
					}
					time.Sleep(10 * time.Millisecond)
					if n := readBytes(t, cmd.Process.Pid); n == base {
						same++
					} else {
						base, same = n, 0
					}
				}
			}
			io.WriteString(stdin, input) // one write: under PIPE_BUF, read at once
			if !asJSON {
				// Text: the tool result's diagnostic, flushed as the input waits.
				l, err := out.ReadString('\n')
				if err != nil || !strings.HasPrefix(l, "<stdin>:2: error: ") {
					t.Fatalf("first output %q, %v (stderr %q)", l, err, stderr.String())
				}
			} else {
				for i := 0; readBytes(t, cmd.Process.Pid) < base+len(input); i++ {
					if i == 1000 {
						t.Fatal("zevo does not read its input")
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			rest, _ := io.ReadAll(out)
			if code := exitCodeOf(t, cmd.Wait()); code != ExitInterrupt {
				t.Errorf("exit %d, want %d (stderr %q)", code, ExitInterrupt, stderr.String())
			}
			checkQuietStderr(t, stderr.String())
			if !asJSON {
				if want := "<stdin>:3: error: the input ends inside run \"run_v\" (line 1): no run_end\n"; string(rest) != want {
					t.Errorf("after the signal %q, want %q", rest, want)
				}
				return
			}
			var rep validateReport
			if err := json.Unmarshal(rest, &rep); err != nil {
				t.Fatalf("report %q: %v", rest, err)
			}
			if len(rep.Files) != 1 || rep.Valid {
				t.Fatalf("report %+v", rep)
			}
			if f := rep.Files[0]; f.Lines < 3 {
				t.Logf("interrupted after %d lines were checked (the report holds them): %+v", f.Lines, f)
				return
			}
			if rep.Errors != 2 || len(rep.Diagnostics) != 2 || !strings.Contains(rep.Diagnostics[1].Message, "the input ends inside run") {
				t.Errorf("report %+v", rep)
			}
		})
	}
}

// A command reads no input before SIGINT and SIGTERM are caught
// (env.caught): Main catches them beside the command's start, and an
// interruption after the first byte read must flush what was done.
func TestReadsAfterSignalsCaught(t *testing.T) {
	for _, args := range [][]string{
		{"translate", "--to", "zero"},
		{"validate"},
		{"jq", "."},
		{"stats"},
	} {
		caught := make(chan struct{})
		in := &gateCheck{r: strings.NewReader(`{"type":"text","content":"hi"}` + "\n"), caught: caught}
		e := newEnv(in, io.Discard, io.Discard)
		e.signals = caught
		done := make(chan int)
		go func() { done <- e.run(append([]string{"zevo"}, args...)) }()
		// Time for a command that does not wait to read: a wait that is
		// missing shows as an early read; none can fail this test.
		time.Sleep(50 * time.Millisecond)
		close(caught)
		<-done
		if in.early {
			t.Errorf("%v read its input before the signals were caught", args)
		}
		if !in.read {
			t.Errorf("%v never read its input", args)
		}
	}
}

type gateCheck struct {
	r           io.Reader
	caught      chan struct{}
	read, early bool
}

func (g *gateCheck) Read(p []byte) (int, error) {
	select {
	case <-g.caught:
	default:
		g.early = true
	}
	g.read = true
	return g.r.Read(p)
}
