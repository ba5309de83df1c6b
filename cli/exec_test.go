package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/dialects/zero/zerotest"
	"github.com/zevo/zevo/supervise"
)

// These tests run the built zevo exec on testdata/agents/agent, a stand-in
// agent that replays recorded streams and fails in the ways agents fail.

func agentPath(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../testdata/agents/agent")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type execResult struct {
	code           int
	stdout, stderr string
	dir            string // the agent's AGENT_DIR
}

// runExec runs zevo with args ("AGENT" stands for the stand-in agent) and
// stdin, and waits for it.
func runExecCmd(t *testing.T, stdin string, args ...string) execResult {
	t.Helper()
	cmd, dir := execCmd(t, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer killAfter(t, cmd)()
	code := exitCodeOf(t, cmd.Wait())
	checkQuietStderr(t, stderr.String())
	return execResult{code, stdout.String(), stderr.String(), dir}
}

func execCmd(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	bin := zevoBinary(t)
	agent := agentPath(t)
	a := append([]string{}, args...)
	for i := range a {
		if a[i] == "AGENT" {
			a[i] = agent
		}
	}
	dir := t.TempDir()
	cmd := exec.Command(bin, a...)
	cmd.Env = append(os.Environ(), "AGENT_DIR="+dir, "AGENT_GATE="+filepath.Join(dir, "gate"))
	// The agent shares zevo's standard error: if zevo is killed and the
	// agent lives on, Wait must still return, and the test fail.
	cmd.WaitDelay = 10 * time.Second
	return cmd, dir
}

func outLines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// checkZeroOutput checks Zero output as its clients would: zevo validate
// accepts it, Zero's decoder reads every line, and it ends with a run_end
// whose exitCode is want.
func checkZeroOutput(t *testing.T, out string, want int) []*zerotest.Event {
	t.Helper()
	validate := exec.Command(zevoBinary(t), "validate", "--as", "zero")
	validate.Stdin = strings.NewReader(out)
	if msg, err := validate.CombinedOutput(); err != nil {
		t.Errorf("zevo validate: %v\n%s\n%s", err, msg, out)
	}
	var evs []*zerotest.Event
	for i, l := range outLines(out) {
		ev, err := zerotest.Decode([]byte(l))
		if err != nil {
			t.Fatalf("line %d rejected by Zero's decoder: %v\n%s", i+1, err, l)
		}
		evs = append(evs, ev)
	}
	last := evs[len(evs)-1]
	if last.Type != "run_end" || last.ExitCode == nil || *last.ExitCode != want {
		t.Fatalf("last event %+v, want run_end with exitCode %d\n%s", last, want, out)
	}
	return evs
}

func lastEvo(t *testing.T, out string) map[string]any {
	t.Helper()
	ls := outLines(out)
	var m map[string]any
	if err := json.Unmarshal([]byte(ls[len(ls)-1]), &m); err != nil {
		t.Fatalf("last line: %v\n%s", err, out)
	}
	return m
}

// The exit status is the run's: with --to zero the exitCode of the
// run_end written, with --to evosci what EvoScientist's CLI returns.
func TestExecOutcomes(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		last   string // --to zero: run_end status; --to evosci: last type
		stderr []string
	}{
		{"evosci success", []string{"--to", "zero", "--", "AGENT", "success-evosci"}, 0, "success", nil},
		{"evosci error", []string{"--to", "zero", "--", "AGENT", "error-evosci"}, 1, "error", nil},
		{"evosci exits mid-run", []string{"--to", "zero", "--", "AGENT", "cut"}, 4, "incomplete", nil},
		{"evosci killed mid-run", []string{"--to", "zero", "--", "AGENT", "kill"}, 4, "incomplete", []string{"zevo: agent was killed by signal 9 (killed)"}},
		{"evosci crashes mid-line", []string{"--to", "zero", "--", "AGENT", "crash"}, 4, "incomplete", []string{"<agent stdout>:6: not valid JSON"}},
		{"log lines on stdout", []string{"--to", "zero", "--", "AGENT", "noise"}, 0, "success", []string{
			"<agent stdout>:1: not valid JSON", "<agent stdout>:4: not valid JSON",
			"<agent stdout>:15: not valid JSON", "warning: slow provider\n"}},
		{"no event, status 3", []string{"--to", "zero", "--", "AGENT", "silent", "3"}, 3, "error", nil},
		{"no event, status 0", []string{"--to", "zero", "--", "AGENT", "silent", "0"}, 4, "incomplete", nil},
		{"zero success to zero@1", []string{"--to", "zero@1", "--", "AGENT", "success-evosci"}, 0, "success", nil},
		{"zero error passes through", []string{"--to", "zero", "--", "AGENT", "error-zero"}, 3, "error", nil},
		{"zero success", []string{"--to", "evosci", "--", "AGENT", "success-zero"}, 0, "done", nil},
		{"zero error", []string{"--to", "evosci", "--", "AGENT", "error-zero"}, 1, "error", nil},
		{"evosci to evosci", []string{"--to", "evosci", "--", "AGENT", "success-evosci"}, 0, "done", nil},
		{"no event, status 0, to evosci", []string{"--to", "evosci", "--", "AGENT", "silent", "0"}, 1, "error", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runExecCmd(t, "", append([]string{"exec"}, c.args...)...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, c.code, r.stdout, r.stderr)
			}
			for _, s := range c.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
			if c.args[1] == "evosci" {
				if typ := lastEvo(t, r.stdout)["type"]; typ != c.last {
					t.Fatalf("last event %v, want %s\n%s", typ, c.last, r.stdout)
				}
				return
			}
			if c.args[1] == "zero@1" {
				if !strings.Contains(outLines(r.stdout)[0], `"schemaVersion":1`) {
					t.Fatalf("not v1:\n%s", r.stdout)
				}
				return
			}
			evs := checkZeroOutput(t, r.stdout, c.code)
			if st := evs[len(evs)-1].Status; st != c.last {
				t.Fatalf("run_end status %q, want %q", st, c.last)
			}
		})
	}
}

// AGENT cannot be started: a message naming it, exit 127, and on stdout a
// Zero error and run_end, so that a client sees why.
func TestExecNoAgent(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\necho hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badInterp := filepath.Join(dir, "bad-interpreter")
	if err := os.WriteFile(badInterp, []byte("#!/no/such/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		agent, code, msg string
	}{
		{"no-such-agent-anywhere", "agent_not_found", `cannot run "no-such-agent-anywhere": no such program in $PATH`},
		{filepath.Join(dir, "missing"), "agent_not_found", `: no such file`},
		{badInterp, "agent_not_found", `its interpreter (the #! line) was not found`},
		{plain, "agent_not_executable", `: permission denied`},
		{dir, "agent_not_executable", `: permission denied`},
	} {
		t.Run(filepath.Base(c.agent), func(t *testing.T) {
			r := runExecCmd(t, "", "exec", "--to", "zero", "--prompt", "hi", "--", c.agent, "{prompt}")
			if r.code != ExitNoAgent || !strings.Contains(r.stderr, c.msg) || !strings.HasPrefix(r.stderr, "zevo: cannot run ") {
				t.Fatalf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, ExitNoAgent, c.msg)
			}
			evs := checkZeroOutput(t, r.stdout, ExitNoAgent)
			if len(evs) != 2 || evs[0].Type != "error" || evs[0].Code != c.code || !strings.Contains(evs[0].Message, c.msg) {
				t.Fatalf("events %+v", evs)
			}
			r = runExecCmd(t, "", "exec", "--to", "evosci", "--", c.agent)
			if r.code != ExitNoAgent || lastEvo(t, r.stdout)["type"] != "error" {
				t.Fatalf("--to evosci: exit %d, stdout %q", r.code, r.stdout)
			}
		})
	}
}

// The prompt: from Zero's input events, text, or --prompt; into ARGS as
// one argument each time {prompt} appears, or on AGENT's standard input.
func TestExecPrompt(t *testing.T) {
	events := `{"schemaVersion":2,"type":"prompt","content":"  fix the tests  "}` + "\n\n" +
		"  \r\n" +
		`{"schemaVersion":2,"type":"message","role":"user","content":"then run them; rm -rf / $(x) 'q' \"d\""}` + "\n"
	want := "fix the tests\n\nthen run them; rm -rf / $(x) 'q' \"d\""
	t.Run("stream-json into ARGS", func(t *testing.T) {
		r := runExecCmd(t, events, "exec", "--to", "zero", "--input-format", "stream-json", "--", "AGENT", "success-evosci", "-p", "{prompt}", "--x={prompt}!", "{prompt")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		args, _ := os.ReadFile(filepath.Join(r.dir, "args"))
		if got := string(args); got != "-p\n"+want+"\n--x="+want+"!\n{prompt\n" {
			t.Fatalf("args:\n%s", got)
		}
	})
	t.Run("stream-json on stdin", func(t *testing.T) {
		r := runExecCmd(t, events, "exec", "--to", "zero", "--input-format", "stream-json", "--", "AGENT", "stdin")
		got, _ := os.ReadFile(filepath.Join(r.dir, "stdin"))
		if r.code != 0 || string(got) != want {
			t.Fatalf("exit %d, agent read %q", r.code, got)
		}
	})
	t.Run("text", func(t *testing.T) {
		r := runExecCmd(t, "\n  all of it\n\nis the prompt\n", "exec", "--to", "zero", "--input-format", "text", "--", "AGENT", "stdin")
		got, _ := os.ReadFile(filepath.Join(r.dir, "stdin"))
		if r.code != 0 || string(got) != "all of it\n\nis the prompt" {
			t.Fatalf("exit %d, agent read %q", r.code, got)
		}
	})
	t.Run("--prompt", func(t *testing.T) {
		r := runExecCmd(t, "not read", "exec", "--to", "zero", "--prompt", "a b", "--", "AGENT", "stdin")
		got, _ := os.ReadFile(filepath.Join(r.dir, "stdin"))
		if r.code != 0 || string(got) != "a b" {
			t.Fatalf("exit %d, agent read %q", r.code, got)
		}
	})
	t.Run("AGENT does not read the prompt", func(t *testing.T) {
		r := runExecCmd(t, strings.Repeat("x", 3<<20), "exec", "--to", "zero", "--input-format", "text", "--", "AGENT", "success-evosci")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	})
	t.Run("a prompt too long for ARGS", func(t *testing.T) {
		r := runExecCmd(t, strings.Repeat("x", 8<<20), "exec", "--to", "zero", "--input-format", "text", "--", "AGENT", "success-evosci", "{prompt}")
		if r.code != ExitNoAgent || !strings.Contains(r.stderr, "argument list too long") {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if evs := checkZeroOutput(t, r.stdout, ExitNoAgent); evs[0].Code != "agent_start_failed" {
			t.Fatalf("error code %q", evs[0].Code)
		}
	})
	t.Run("no prompt option: AGENT reads zevo's stdin", func(t *testing.T) {
		r := runExecCmd(t, "as it is\n", "exec", "--to", "zero", "--", "AGENT", "stdin")
		got, _ := os.ReadFile(filepath.Join(r.dir, "stdin"))
		if r.code != 0 || string(got) != "as it is\n" {
			t.Fatalf("exit %d, agent read %q", r.code, got)
		}
	})
}

// Input zero exec refuses is refused with Zero's message: on stdout as
// Zero writes a usage error (error usage_error, run_end exitCode 2), on
// stderr naming the line, exit 2; AGENT is not started.
func TestExecBadInput(t *testing.T) {
	for _, c := range []struct{ in, msg, stderr string }{
		{`{"schemaVersion":2,"type":"prompt","content":"x","cwd":"/"}`, "Invalid stream-json input at line 1: unknown field cwd", "<stdin>:1: unknown field cwd"},
		{"{\"schemaVersion\":2,\"type\":\"prompt\",\"content\":\"x\"}\n{\"schemaVersion\":2,\"type\":\"prompt\",\"role\":\"user\",\"content\":\"x\"}", "Invalid stream-json input at line 2: unknown field role", "<stdin>:2:"},
		{`{"schemaVersion":2,"type":"tool","content":"x"}`, "Invalid stream-json input at line 1: type must be prompt or message", ""},
		{`{"schemaVersion":2,"type":"message","role":"assistant","content":"x"}`, "Invalid stream-json input at line 1: role must be user", ""},
		{`{"schemaVersion":1,"type":"prompt","content":"x"}`, "Invalid stream-json input at line 1: schemaVersion must be 2", ""},
		{`{"schemaVersion":2,"type":"prompt","content":" "}`, "Invalid stream-json input at line 1: content is required", ""},
		{`{"schemaVersion":"2","type":"prompt","content":"x"}`, "Invalid stream-json input at line 1: expected a JSON object.", ""},
		{"\n\n[1]", "Invalid stream-json input at line 3: expected a JSON object.", "<stdin>:3:"},
		// The client closed stdin in the middle of a line, or before any.
		{`{"schemaVersion":2,"type":"prompt","con`, "Invalid stream-json input at line 1: expected a JSON object.", ""},
		{"", "Stream-json input must include at least one prompt or user message event.", ""},
	} {
		t.Run(c.msg, func(t *testing.T) {
			r := runExecCmd(t, c.in, "exec", "--to", "zero", "--input-format", "stream-json", "--", "AGENT", "success-evosci", "{prompt}")
			if r.code != ExitUsage || !strings.Contains(r.stderr, c.stderr) {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			evs := checkZeroOutput(t, r.stdout, ExitUsage)
			if evs[0].Code != "usage_error" || evs[0].Message != c.msg {
				t.Fatalf("error event %+v, want message %q", evs[0], c.msg)
			}
			if _, err := os.Stat(filepath.Join(r.dir, "pid")); err == nil {
				t.Fatal("AGENT was started")
			}
		})
	}
	for _, args := range [][]string{
		{"exec", "--to", "zero"},
		{"exec", "--to", "zero", "--prompt", "x", "--input-format", "text", "--", "AGENT", "cut"},
		{"exec", "--to", "zero", "--input-format", "json", "--", "AGENT", "cut"},
		{"exec", "--to", "zero", "--grace", "-1s", "--", "AGENT", "cut"},
		{"exec", "--", "AGENT", "cut"},
	} {
		r := runExecCmd(t, "", args...)
		if r.code != ExitUsage || r.stdout != "" || !strings.HasPrefix(r.stderr, "zevo: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
	r := runExecCmd(t, "", "exec", "--to", "zero", "--", "AGENT", "cut", "{prompt}")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "there is no prompt") {
		t.Errorf("{prompt} without a prompt: exit %d, stderr %q", r.code, r.stderr)
	}
}

// Each event is written as soon as AGENT writes its line: the first ones
// come out while the agent waits (for a file the test creates only after
// reading them).
func TestExecLive(t *testing.T) {
	cmd, dir := execCmd(t, "exec", "--to", "zero", "--", "AGENT", "gate")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := startCmd(t, cmd)
	defer killAfter(t, cmd)()
	br := bufio.NewReader(out)
	var got bytes.Buffer
	for _, want := range []string{"run_start", "reasoning"} {
		l, err := br.ReadString('\n')
		if err != nil || !strings.Contains(l, `"type":"`+want+`"`) {
			t.Fatalf("while the agent waits: %q, %v; want %s", l, err, want)
		}
		got.WriteString(l)
	}
	if err := os.WriteFile(filepath.Join(dir, "gate"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(br)
	got.Write(rest)
	if code := exitCodeOf(t, cmd.Wait()); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	checkZeroOutput(t, got.String(), 0)
}

// A line of tens of MB goes through whole.
func TestExecHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("a 40 MB line")
	}
	const n = 40 << 20
	r := runExecCmd(t, "", "exec", "--to", "zero", "--", "AGENT", "huge", strconv.Itoa(n))
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	evs := checkZeroOutput(t, r.stdout, 0)
	found := false
	for _, ev := range evs {
		if ev.Type == "tool_result" && len(ev.Output) == n && strings.Trim(ev.Output, "a") == "" {
			found = true
		}
	}
	if !found {
		t.Fatal("no tool_result with the whole content")
	}
}

// signalExec starts zevo exec, waits until the agent has started its
// stream, sends sig to zevo, and returns the result and the agent's
// process group.
func signalExec(t *testing.T, sigs []syscall.Signal, args ...string) (execResult, int) {
	t.Helper()
	cmd, dir := execCmd(t, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer killAfter(t, cmd)()
	pgid := waitReady(t, dir)
	for i, s := range sigs {
		if i > 0 {
			// Signals sent at once may arrive as one: send the next one
			// once the agent has seen the last.
			waitFile(t, filepath.Join(dir, "signals"))
		}
		if err := cmd.Process.Signal(s); err != nil {
			t.Fatal(err)
		}
	}
	code := exitCodeOf(t, cmd.Wait())
	checkQuietStderr(t, stderr.String())
	return execResult{code, stdout.String(), stderr.String(), dir}, pgid
}

// waitFile waits until the agent has written the file (at most a minute:
// an agent that never does has failed).
func waitFile(t *testing.T, path string) {
	t.Helper()
	for i := 0; ; i++ {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if i > 6000 {
			t.Fatalf("the agent never wrote %s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitReady waits for the agent's "ready" file and returns its pid.
func waitReady(t *testing.T, dir string) int {
	t.Helper()
	waitFile(t, filepath.Join(dir, "ready"))
	return agentPid(t, dir)
}

// agentPid is the pid the agent noted in dir (its group's id).
func agentPid(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func checkGroupGone(t *testing.T, pgid int) {
	t.Helper()
	if supervise.Running(pgid) {
		t.Fatalf("a process of the agent's group %d is still running", pgid)
	}
}

// SIGINT and SIGTERM go to AGENT's process group; what does not end
// within --grace is killed; the run is closed as interrupted; nothing of
// the group is left.
func TestExecSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("signals and a grace period")
	}
	for _, c := range []struct {
		name string
		sigs []syscall.Signal
		args []string
		code int
	}{
		// EvoScientist exits 130 on SIGINT; its child ignores signals
		// and is killed after the grace period.
		{"evosci SIGINT", []syscall.Signal{syscall.SIGINT}, []string{"--to", "zero", "--grace", "300ms", "--", "AGENT", "sigint-evosci"}, 130},
		// Zero closes a run cancelled by SIGTERM with exit code 130 too.
		{"evosci SIGTERM", []syscall.Signal{syscall.SIGTERM}, []string{"--to", "zero", "--grace", "300ms", "--", "AGENT", "sigint-evosci"}, 130},
		{"stubborn SIGINT", []syscall.Signal{syscall.SIGINT}, []string{"--to", "zero", "--grace", "300ms", "--", "AGENT", "stubborn"}, 130},
		// A second signal does not wait for the grace period (an hour).
		{"stubborn twice", []syscall.Signal{syscall.SIGINT, syscall.SIGINT}, []string{"--to", "zero", "--grace", "1h", "--", "AGENT", "stubborn"}, 130},
		// Zero writes its own interrupted run_end, passed through.
		{"zero SIGINT", []syscall.Signal{syscall.SIGINT}, []string{"--to", "zero", "--", "AGENT", "sigint-zero"}, 130},
		// As EvoScientist's CLI: 130 for SIGINT, 143 (killed) for SIGTERM.
		{"to evosci SIGINT", []syscall.Signal{syscall.SIGINT}, []string{"--to", "evosci", "--", "AGENT", "sigint-zero"}, 130},
		{"to evosci SIGTERM", []syscall.Signal{syscall.SIGTERM}, []string{"--to", "evosci", "--", "AGENT", "sigint-zero"}, 143},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, pgid := signalExec(t, c.sigs, append([]string{"exec"}, c.args...)...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", r.code, c.code, r.stdout, r.stderr)
			}
			checkGroupGone(t, pgid)
			if c.args[1] == "evosci" {
				if m := lastEvo(t, r.stdout); m["type"] != "error" || m["message"] != "run cancelled by signal" {
					t.Fatalf("last event %v", m)
				}
				return
			}
			evs := checkZeroOutput(t, r.stdout, 130)
			if evs[len(evs)-2].Code != "interrupted" || evs[len(evs)-1].Status != "interrupted" {
				t.Fatalf("run not closed as interrupted:\n%s", r.stdout)
			}
			if strings.Count(r.stdout, `"type":"run_end"`) != 1 {
				t.Fatalf("not one run_end:\n%s", r.stdout)
			}
		})
	}
}

// The client closes zevo's output: AGENT is stopped, zevo ends quietly.
func TestExecClosedOutput(t *testing.T) {
	cmd, dir := execCmd(t, "exec", "--to", "zero", "--", "AGENT", "flood")
	pr, stderr := startToPipe(t, cmd)
	defer killAfter(t, cmd)()
	first, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.Contains(first, "run_start") {
		t.Fatalf("first line %q, %v", first, err)
	}
	pgid := waitReady(t, dir)
	pr.Close()
	code := exitCodeOf(t, cmd.Wait())
	if code != 0 || stderr.Len() != 0 {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, stderr.String())
	}
	checkGroupGone(t, pgid)
}

// The client closes zevo's output while zevo is writing an event of
// megabytes out, and the agent ignores SIGTERM: zevo asks the agent's
// group to end, kills it after --grace, and exits 0, quietly.
func TestExecClientClosesTheOutputMidEvent(t *testing.T) {
	cmd, dir := execCmd(t, "exec", "--to", "zero", "--grace", "100ms", "--", "AGENT", "stubborn", strconv.Itoa(2<<20))
	pr, stderr := startToPipe(t, cmd)
	defer killAfter(t, cmd)()
	first, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.Contains(first, "run_start") {
		t.Fatalf("first line %q, %v", first, err)
	}
	pgid := waitReady(t, dir) // the long event is read: zevo is writing it out
	pr.Close()
	checkStoppedQuietly(t, cmd, stderr, pgid, dir)
}

// The client closes zevo's output while the agent writes nothing (it
// waits, and ignores SIGTERM): zevo notices without writing, stops the
// agent's group, and exits 0, saying nothing.
func TestExecClientClosesTheOutputOfAQuietAgent(t *testing.T) {
	cmd, dir := execCmd(t, "exec", "--to", "zero", "--grace", "100ms", "--", "AGENT", "stubborn")
	pr, stderr := startToPipe(t, cmd)
	defer killAfter(t, cmd)()
	pgid := waitReady(t, dir)
	first, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.Contains(first, "run_start") {
		t.Fatalf("first line %q, %v", first, err)
	}
	pr.Close()
	checkStoppedQuietly(t, cmd, stderr, pgid, dir)
}

// The client reads the run's end and closes the output while the agent
// lingers: the agent's group is stopped, and the exit status is still
// the run's (3, as its run_end says).
func TestExecClientClosesTheOutputAfterTheRunEnded(t *testing.T) {
	cmd, dir := execCmd(t, "exec", "--to", "zero", "--grace", "100ms", "--", "AGENT", "linger")
	pr, stderr := startToPipe(t, cmd)
	defer killAfter(t, cmd)()
	br := bufio.NewReader(pr)
	for {
		l, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("no run_end: %v", err)
		}
		if strings.Contains(l, `"type":"run_end"`) {
			break
		}
	}
	pgid := waitReady(t, dir)
	pr.Close()
	code := exitCodeOf(t, cmd.Wait())
	if code != 3 || strings.Contains(stderr.String(), "zevo") {
		t.Fatalf("exit %d, stderr %q; want 3 and nothing from zevo", code, stderr.String())
	}
	checkGroupGone(t, pgid)
}

// AGENT starts with the default signal dispositions, not zevo's.
func TestExecDispositions(t *testing.T) {
	r := runExecCmd(t, "", "exec", "--to", "zero", "--", "AGENT", "dispositions")
	b, err := os.ReadFile(filepath.Join(r.dir, "sigign"))
	if err != nil {
		t.Skip("no /proc status here")
	}
	f := strings.Fields(string(b))
	mask, err := strconv.ParseUint(f[len(f)-1], 16, 64)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []syscall.Signal{syscall.SIGPIPE, syscall.SIGINT, syscall.SIGTERM} {
		if mask&(1<<(uint(s)-1)) != 0 {
			t.Errorf("the agent started with %v ignored", s)
		}
	}
}

// waitAgentGone waits until the agent of dir (its "pid" file) has exited
// and been reaped, at most a minute.
func waitAgentGone(t *testing.T, dir string) {
	t.Helper()
	var pid int
	for i := 0; ; i++ { // the agent may be writing the file
		b, _ := os.ReadFile(filepath.Join(dir, "pid"))
		var err error
		if pid, err = strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			break
		}
		if i > 6000 {
			t.Fatal("the agent never wrote its pid")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for i := 0; syscall.Kill(pid, 0) == nil; i++ {
		if i > 6000 {
			t.Fatal("the agent is still running after a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A client that reads slowly does not cost the agent's last events: the
// agent writes an event of megabytes (zevo blocks writing it out), then
// its terminal event, and exits 0 while the client pauses for longer than
// --grace after the agent's exit. Everything the agent wrote is read and
// translated: its run ends as it ended it, exit 0, and no word of an
// output held open.
func TestExecReadsToTheEndBehindASlowClient(t *testing.T) {
	const n = 4 << 20
	for _, to := range []string{"zero", "evosci"} {
		t.Run(to, func(t *testing.T) {
			cmd, dir := execCmd(t, "exec", "--to", to, "--grace", "0s", "--", "AGENT", "huge", strconv.Itoa(n))
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			stderr := startCmd(t, cmd)
			defer killAfter(t, cmd)()
			br := bufio.NewReader(out)
			first, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("first line %q, %v", first, err)
			}
			// The client pauses: the agent exits meanwhile, and the pause
			// goes on past --grace (0s) and the second zevo adds to it.
			waitAgentGone(t, dir)
			time.Sleep(1500 * time.Millisecond)
			rest, err := io.ReadAll(br)
			if err != nil {
				t.Fatal(err)
			}
			code := exitCodeOf(t, cmd.Wait())
			got := first + string(rest)
			if code != 0 || strings.Contains(stderr.String(), "held open") {
				t.Fatalf("exit %d, stderr:\n%s\nlast line: %.300s", code, stderr.String(), outLines(got)[len(outLines(got))-1])
			}
			if to == "evosci" {
				if typ := lastEvo(t, got)["type"]; typ != "done" {
					t.Fatalf("last event %v, want done", typ)
				}
				if !strings.Contains(got, strings.Repeat("a", n)) {
					t.Fatal("the long event is not whole")
				}
				return
			}
			found := false
			for _, ev := range checkZeroOutput(t, got, 0) {
				if ev.Type == "tool_result" && len(ev.Output) == n {
					found = true
				}
			}
			if !found {
				t.Fatal("no tool_result with the whole content")
			}
		})
	}
}

// killAfter bounds a test that runs zevo: after a minute zevo is
// killed (so a regression fails instead of hanging the suite); the
// function returned stops the timer.
func killAfter(t *testing.T, cmd *exec.Cmd) func() {
	t.Helper()
	timer := time.AfterFunc(time.Minute, func() {
		t.Errorf("zevo %v still running after a minute: killed", cmd.Args[1:])
		cmd.Process.Kill()
	})
	return func() { timer.Stop() }
}

// A process that escaped the agent's group (setsid) and holds its output
// open, silent or writing a line now and then, does not keep zevo
// waiting: once the group is gone and its output read, zevo stops
// reading a little after --grace, says so, and ends the run as the agent
// left it.
func TestExecOutputHeldOpenByAnEscapedProcess(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid here")
	}
	for _, mode := range []string{"silent", "talk"} {
		t.Run(mode, func(t *testing.T) {
			cmd, dir := execCmd(t, "exec", "--to", "zero", "--grace", "100ms", "--", "AGENT", "escape", mode)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer killAfter(t, cmd)()
			t.Cleanup(func() {
				if b, err := os.ReadFile(filepath.Join(dir, "escaped")); err == nil {
					if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
						syscall.Kill(pid, syscall.SIGKILL)
					}
				}
			})
			code := exitCodeOf(t, cmd.Wait())
			if code != 0 || !strings.Contains(stderr.String(), "zevo: agent exited but its output is still held open (by a process outside its process group); stopped reading\n") {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
			}
			checkZeroOutput(t, stdout.String(), 0)
		})
	}
}

// A signal to zevo while an escaped process holds the agent's output open
// (the grace period is an hour): zevo waits a second, not the grace
// period, says so, and keeps the run the agent ended (exit 0).
func TestExecSignalWhileOutputHeldOpen(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid here")
	}
	cmd, dir := execCmd(t, "exec", "--to", "zero", "--grace", "1h", "--", "AGENT", "escape")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer killAfter(t, cmd)()
	t.Cleanup(func() {
		if b, err := os.ReadFile(filepath.Join(dir, "escaped")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	waitAgentGone(t, dir)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code := exitCodeOf(t, cmd.Wait())
	if code != 0 || !strings.Contains(stderr.String(), "its output is still held open") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	checkZeroOutput(t, stdout.String(), 0)
}

// The agent's output is read as every command reads its input: gzip and
// zstd are decompressed (a wrapper may compress the agent's stream), and
// a cut compressed stream is reported, the events before the cut kept.
func TestExecReadsCompressedOutput(t *testing.T) {
	for _, format := range []string{"gzip", "zstd"} {
		t.Run(format, func(t *testing.T) {
			if _, err := exec.LookPath(format); err != nil {
				t.Skip("no " + format + " here")
			}
			plain := runExecCmd(t, "", "exec", "--to", "zero", "--run-id", "run_x", "--", "AGENT", "success-evosci")
			r := runExecCmd(t, "", "exec", "--to", "zero", "--run-id", "run_x", "--", "AGENT", "compressed", format)
			if r.code != 0 || r.stdout != plain.stdout || strings.Contains(r.stderr, "not valid JSON") {
				t.Fatalf("exit %d, stderr:\n%s\noutput:\n%s\nplain:\n%s", r.code, r.stderr, r.stdout, plain.stdout)
			}
			checkZeroOutput(t, r.stdout, 0)
			cut := runExecCmd(t, "", "exec", "--to", "zero", "--", "AGENT", "compressed", format, "300")
			if cut.code != zero.Dialect.Exits.Open || !strings.Contains(cut.stderr, "zevo: <agent stdout>: read error: "+format+" data is corrupt or cut short after ") {
				t.Fatalf("cut: exit %d, stderr:\n%s", cut.code, cut.stderr)
			}
			// (gzip hands on what it decoded; zstd, whole blocks: this
			// run is one.)
			if evs := checkZeroOutput(t, cut.stdout, zero.Dialect.Exits.Open); format == "gzip" && len(evs) < 4 {
				t.Fatalf("cut: the events before the cut are lost:\n%s", cut.stdout)
			}
		})
	}
}

// An agent that exits after half a line: the half line is reported,
// naming it; the events before it are all there; a last line without its
// line end is a whole line.
func TestExecHalfLineAtTheEnd(t *testing.T) {
	r := runExecCmd(t, "", "exec", "--to", "zero", "--", "AGENT", "half")
	if r.code != 0 || !strings.Contains(r.stderr, "<agent stdout>:13: not valid JSON") {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	checkZeroOutput(t, r.stdout, 0)
	r = runExecCmd(t, "", "exec", "--to", "evosci", "--", "AGENT", "unended")
	if r.code != 0 || strings.Contains(r.stderr, "not valid JSON") || lastEvo(t, r.stdout)["type"] != "done" {
		t.Fatalf("no line end: exit %d, stderr:\n%s\n%s", r.code, r.stderr, r.stdout)
	}
}

// SIGINT to zevo in the middle of the stream, behind a client that reads
// slowly: the signal goes to the agent's group, everything the agent
// wrote before and after it (its last text, its own interrupted run_end)
// is read and translated, once; exit 130, the group gone.
func TestExecSIGINTMidStreamTranslatesWhatWasRead(t *testing.T) {
	const n = 2 << 20
	for _, to := range []string{"zero", "evosci"} {
		t.Run(to, func(t *testing.T) {
			t.Parallel()
			// --grace 1s: time for the agent's trap to run (it is not
			// killed), and a pause of the client longer than it.
			cmd, dir := execCmd(t, "exec", "--to", to, "--grace", "1s", "--", "AGENT", "sigint-huge", strconv.Itoa(n))
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			stderr := startCmd(t, cmd)
			defer killAfter(t, cmd)()
			br := bufio.NewReader(out)
			first, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("first line %q, %v", first, err)
			}
			pgid := waitReady(t, dir)
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			waitAgentGone(t, dir)
			time.Sleep(2500 * time.Millisecond) // the client is slow
			rest, err := io.ReadAll(br)
			if err != nil {
				t.Fatal(err)
			}
			code := exitCodeOf(t, cmd.Wait())
			got := first + string(rest)
			checkGroupGone(t, pgid)
			if code != ExitInterrupt || !strings.Contains(got, "stopping") || !strings.Contains(got, strings.Repeat("a", n)) {
				t.Fatalf("exit %d, stderr:\n%s\nlast lines: %.300s", code, stderr.String(), got[max(0, len(got)-600):])
			}
			if to == "evosci" {
				if m := lastEvo(t, got); m["type"] != "error" || m["message"] != "run cancelled by signal" {
					t.Fatalf("last event %v", m)
				}
				return
			}
			evs := checkZeroOutput(t, got, ExitInterrupt)
			if evs[len(evs)-1].Status != "interrupted" || strings.Count(got, `"type":"run_end"`) != 1 {
				t.Fatalf("not one interrupted run_end:\n%.2000s", got[max(0, len(got)-2000):])
			}
		})
	}
}

// A client that stops reading (zevo is writing an event of megabytes
// out) and a signal: the agent is stopped, and zevo waits for the client;
// a second signal ends that wait: exit 130, the group gone.
func TestExecSecondSignalDoesNotWaitForAStuckClient(t *testing.T) {
	cmd, dir := execCmd(t, "exec", "--to", "zero", "--grace", "1s", "--", "AGENT", "sigint-huge", strconv.Itoa(2<<20))
	pr, stderr := startToPipe(t, cmd)
	defer killAfter(t, cmd)()
	defer pr.Close() // open, never read
	pgid := waitReady(t, dir)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	waitAgentGone(t, dir)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if code := exitCodeOf(t, cmd.Wait()); code != ExitInterrupt {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitInterrupt, stderr.String())
	}
	checkGroupGone(t, pgid)
}

// Standard output on a full disk: zevo says it cannot write its output,
// stops the agent's group and exits 1, whether the agent is still
// writing or has finished.
func TestExecFullDisk(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	for _, mode := range []string{"flood", "success-evosci"} {
		t.Run(mode, func(t *testing.T) {
			cmd, dir := execCmd(t, "exec", "--to", "zero", "--grace", "100ms", "--", "AGENT", mode)
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = full, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer killAfter(t, cmd)()
			code := exitCodeOf(t, cmd.Wait())
			if got := stderr.String(); code != ExitDiagnostics || !strings.HasPrefix(got, "zevo: writing output: ") ||
				!strings.Contains(got, "no space left on device") || strings.Count(got, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want 1 and one line saying the output could not be written", code, got)
			}
			b, err := os.ReadFile(filepath.Join(dir, "pid"))
			if err != nil {
				t.Fatal(err)
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			checkGroupGone(t, pid)
		})
	}
}

// startToPipe starts cmd with its standard output to a pipe, whose
// reading end it returns with cmd's standard error.
func startToPipe(t *testing.T, cmd *exec.Cmd) (*os.File, *bytes.Buffer) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = pw, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	return pr, stderr
}

// checkStoppedQuietly: zevo exited 0 and said nothing (the agent's shell
// may say its sleep was terminated, on its stderr), the agent's group is
// gone, and the agent got SIGTERM.
func checkStoppedQuietly(t *testing.T, cmd *exec.Cmd, stderr *bytes.Buffer, pgid int, dir string) {
	t.Helper()
	code := exitCodeOf(t, cmd.Wait())
	if code != 0 || strings.Contains(stderr.String(), "zevo") {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing from zevo", code, stderr.String())
	}
	checkGroupGone(t, pgid)
	if b, _ := os.ReadFile(filepath.Join(dir, "signals")); string(b) != "TERM\n" {
		t.Fatalf("the agent got %q, want TERM", b)
	}
}
