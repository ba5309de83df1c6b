package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// lineWait bounds the wait for an expected line: generous, since it only
// bounds a failure.
const lineWait = 20 * time.Second

// started is zevo running with its stdout read line by line.
type started struct {
	cmd    *exec.Cmd
	lines  chan string
	stderr *bytes.Buffer
}

func startZevo(t *testing.T, stdin io.Reader, args ...string) *started {
	t.Helper()
	cmd := exec.Command(zevoBinary(t), args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &started{cmd: cmd, lines: make(chan string, 100), stderr: new(bytes.Buffer)}
	cmd.Stdin, cmd.Stderr = stdin, s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(s.lines)
		r := bufio.NewReader(out)
		for {
			l, err := r.ReadString('\n')
			if l != "" {
				s.lines <- l
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return s
}

// expectLine waits for the next output line and checks that it holds want.
func (s *started) expectLine(t *testing.T, want string) string {
	t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			t.Fatalf("output ended; want a line with %q; stderr %s", want, s.stderr)
		}
		if !strings.Contains(l, want) {
			t.Fatalf("got line %q, want one with %q", l, want)
		}
		return l
	case <-time.After(lineWait):
		t.Fatalf("no line with %q within %v", want, lineWait)
	}
	return ""
}

// stop signals zevo and returns its exit code and the rest of its output.
func (s *started) stop(t *testing.T, sig os.Signal) (int, string) {
	t.Helper()
	s.cmd.Process.Signal(sig)
	var rest strings.Builder
	for l := range s.lines {
		rest.WriteString(l)
	}
	code := exitCodeOf(t, s.cmd.Wait())
	checkQuietStderr(t, s.stderr.String())
	return code, rest.String()
}

func appendFile(t *testing.T, name, s string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func evoText(s string) string { return `{"type": "text", "content": "` + s + `"}` + "\n" }

// TestFollowCommands: translate, jq and view --follow a log that grows,
// is truncated and is rotated while they run; each line comes out as soon
// as it is complete, and Ctrl-C ends them with 130.
func TestFollowCommands(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want func(word string) string // what the output line of a text event holds
	}{
		{[]string{"translate", "--to", "evosci", "--follow"}, func(w string) string { return `"content": "` + w + `"` }},
		{[]string{"translate", "-f", "--to", "zero"}, func(w string) string { return `"delta":"` + w + `"` }},
		{[]string{"jq", "--follow", "-r", ".content"}, func(w string) string { return w }},
		{[]string{"view", "-f"}, func(w string) string { return w }},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "agent.log")
			appendFile(t, log, evoText("first"))
			args := append(append([]string{}, tc.args...), log)
			z := startZevo(t, nil, args...)
			if args[0] == "translate" && args[2] == "--to" && args[3] == "zero" {
				z.expectLine(t, `"type":"run_start"`)
			}
			if args[0] == "view" {
				z.expectLine(t, "── run 1 ──")
				// view writes text as it streams: end each with a newline.
			}
			next := func(word string) {
				if args[0] == "view" {
					appendFile(t, log, evoText(word+`\n`))
				} else {
					appendFile(t, log, evoText(word))
				}
				z.expectLine(t, tc.want(word))
			}
			if args[0] == "view" {
				appendFile(t, log, evoText(`\n`))
				z.expectLine(t, "first")
			} else {
				z.expectLine(t, tc.want("first"))
			}
			next("second")
			// A line written in two parts comes out once it is whole.
			part := evoText("third")
			appendFile(t, log, part[:10])
			appendFile(t, log, part[10:])
			if args[0] == "view" {
				appendFile(t, log, evoText(`\n`))
			}
			z.expectLine(t, "third")
			// Truncated, then written from the start.
			if err := os.WriteFile(log, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			next("fourth")
			// Rotated: a new file under the name.
			if err := os.Rename(log, log+".1"); err != nil {
				t.Fatal(err)
			}
			next("fifth")
			code, rest := z.stop(t, os.Interrupt)
			if code != ExitInterrupt {
				t.Errorf("exit %d, want %d; stderr %s", code, ExitInterrupt, z.stderr)
			}
			if args[0] == "translate" && args[3] == "zero" && !strings.Contains(rest, `"status":"interrupted"`) {
				t.Errorf("the open run was not closed: %q", rest)
			}
		})
	}
}

// TestFollowGzip: a followed gzip log, and gzip from a pipe that stays
// open: each member's lines come out once the member is read, not when
// the next member's header arrives (gzip's own reader waits for it before
// handing on the end of a member). A member appended later (gzip -c >>)
// is read too.
func TestFollowGzip(t *testing.T) {
	member := func(s string) string {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.String()
	}
	log := filepath.Join(t.TempDir(), "agent.log.gz")
	appendFile(t, log, member(evoText("first")+evoText("second")))
	z := startZevo(t, nil, "jq", "--follow", "-r", ".content", log)
	z.expectLine(t, "first")
	z.expectLine(t, "second")
	appendFile(t, log, member(evoText("third")))
	z.expectLine(t, "third")
	if code, rest := z.stop(t, os.Interrupt); code != ExitInterrupt || rest != "" {
		t.Errorf("exit %d, rest %q; want %d", code, rest, ExitInterrupt)
	}

	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	z = startZevo(t, pr, "translate", "--to", "zero", "--run-id", "r")
	pr.Close()
	io.WriteString(pw, member(evoText("piped")))
	z.expectLine(t, `"type":"run_start"`)
	z.expectLine(t, `"delta":"piped"`)
	if code, rest := z.stop(t, os.Interrupt); code != ExitInterrupt || !strings.Contains(rest, `"status":"interrupted"`) {
		t.Errorf("exit %d, rest %q; want %d and the run closed", code, rest, ExitInterrupt)
	}
}

// TestViewInterruptEndsLine: text streamed without a newline, then Ctrl-C:
// the transcript still ends with a newline.
func TestViewInterruptEndsLine(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	z := startZevo(t, pr, "view")
	pr.Close()
	io.WriteString(pw, evoText(`thinking aloud\n`)+evoText("no newline yet"))
	z.expectLine(t, "── run 1 ──")
	z.expectLine(t, "thinking aloud")
	time.Sleep(500 * time.Millisecond) // the partial line is in the pipe by now, or soon
	code, rest := z.stop(t, os.Interrupt)
	if code != ExitInterrupt || rest != "no newline yet\n" {
		t.Errorf("exit %d, rest %q; want %d and the line ended", code, rest, ExitInterrupt)
	}
}

// TestStatsInterrupted: stats on a producer that does not end reports what
// it has read when interrupted, then exits 130 (SIGINT) or 143 (SIGTERM).
func TestStatsInterrupted(t *testing.T) {
	sample, err := os.ReadFile(sampleEvo)
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer pw.Close()
			z := startZevo(t, pr, "stats", "--totals", "--json")
			pr.Close()
			// The sample, then blank lines beyond any pipe buffer: when the
			// write returns, zevo has read the sample.
			if _, err := pw.Write(append(sample, bytes.Repeat([]byte("\n"), 1<<20)...)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond) // and counted it
			want := ExitInterrupt
			if sig == syscall.SIGTERM {
				want = ExitTerminate
			}
			code, out := z.stop(t, sig)
			if code != want || !strings.HasPrefix(out, `{"total":{"events":18,`) {
				t.Errorf("exit %d, want %d; output %q", code, want, out)
			}
		})
	}
}

// expectSome waits for an output line that holds want, past others.
func (s *started) expectSome(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(lineWait)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				t.Fatalf("output ended; want a line with %q; stderr %s", want, s.stderr)
			}
			if strings.Contains(l, want) {
				return
			}
		case <-deadline:
			t.Fatalf("no line with %q within %v; stderr %s", want, lineWait, s.stderr)
		}
	}
}

// zeroLine is a Zero event of run id, its other fields given.
func zeroLine(id, fields string) string {
	return `{` + fields + `,"runId":"run_202606031` + id + `","schemaVersion":2}` + "\n"
}

// followScenario is a change to a followed log: the old one's last line,
// cut, and what replaces the file.
type followScenario struct {
	half string
	next func(t *testing.T, log string)
	// startOnly: the new log has its run_start alone (for now)
	startOnly bool
}

// Two Zero runs: A in the old file, B in the new one.
var (
	followRunA = zeroLine("00000_aaa111", `"cwd":"/old","provider":"openai","type":"run_start"`) +
		zeroLine("00000_aaa111", `"delta":"a1\n","type":"text"`)
	followRunB = zeroLine("10000_bbb222", `"cwd":"/new","provider":"openai","type":"run_start"`) +
		zeroLine("10000_bbb222", `"delta":"b1\n","type":"text"`) +
		zeroLine("10000_bbb222", `"delta":"b2\n","type":"text"`)
)

// testFollowHalfLine runs translate, jq and view --follow on a Zero log
// that ends in half a line when sc replaces it. Each reports the half line
// alone, under its line number, and reads the new file from its
// beginning: its run_start and every event after it come out, nothing
// glued to the half line, nothing skipped.
func testFollowHalfLine(t *testing.T, sc followScenario) {
	for _, tc := range []struct {
		args []string
		// what shows run A's text, then run B's start and its texts
		a, b, b1, b2 string
	}{
		{[]string{"translate", "--to", "zero", "--follow"}, `"delta":"a1\n"`, `"cwd":"/new"`, `"delta":"b1\n"`, `"delta":"b2\n"`},
		{[]string{"translate", "--to", "evosci", "-f"}, `"content": "a1\n"`, `another run started`, `"content": "b1\n"`, `"content": "b2\n"`},
		{[]string{"jq", "--follow", "-c", "."}, `"delta":"a1\n"`, `"cwd":"/new"`, `"delta":"b1\n"`, `"delta":"b2\n"`},
		{[]string{"view", "-f"}, "a1", "/new ──", "b1", "b2"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "agent.log")
			appendFile(t, log, followRunA+sc.half)
			z := startZevo(t, nil, append(tc.args, log)...)
			z.expectSome(t, tc.a)
			sc.next(t, log)
			z.expectSome(t, tc.b)
			if !sc.startOnly {
				z.expectSome(t, tc.b1)
				z.expectSome(t, tc.b2)
			}
			bound := time.AfterFunc(lineWait, func() { z.cmd.Process.Kill() })
			defer bound.Stop()
			if code, _ := z.stop(t, os.Interrupt); code != ExitInterrupt {
				t.Errorf("exit %d, want %d", code, ExitInterrupt)
			}
			diag := fmt.Sprintf("agent.log:3: not valid JSON at byte %d: the line ends inside a value", len(sc.half)+1)
			if errs := z.stderr.String(); !strings.Contains(errs, diag) || strings.Count(errs, "not valid JSON") != 1 {
				t.Errorf("stderr %q, want the one diagnostic %q", errs, diag)
			}
		})
	}
}

// TestFollowRotationWithHalfLine: the log is renamed away and a new one
// written under its name.
func TestFollowRotationWithHalfLine(t *testing.T) {
	testFollowHalfLine(t, followScenario{half: `{"delta":"a2","runId":"run_2026060`, next: func(t *testing.T, log string) {
		if err := os.Rename(log, log+".1"); err != nil {
			t.Fatal(err)
		}
		appendFile(t, log, followRunB)
	}})
}

// TestFollowTruncationWithHalfLine: the log is truncated and written again
// (the half line ends after a colon, where zevo jq would join a value).
func TestFollowTruncationWithHalfLine(t *testing.T) {
	testFollowHalfLine(t, followScenario{half: `{"delta":`, next: func(t *testing.T, log string) {
		if err := os.WriteFile(log, []byte(followRunB), 0o644); err != nil {
			t.Fatal(err)
		}
	}})
}

// TestFollowRewriteLongerThanOld: the log is written again from its start
// with more than it had, over the old bytes in place: the follower never
// sees it shorter, and must not read on from the old offset.
func TestFollowRewriteLongerThanOld(t *testing.T) {
	half := `{"delta":"a2","runId":["run_2026060",`
	if len(followRunB) < len(followRunA)+len(half) {
		t.Fatal("the new log is not longer than the old one")
	}
	testFollowHalfLine(t, followScenario{half: half, next: func(t *testing.T, log string) {
		f, err := os.OpenFile(log, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteAt([]byte(followRunB), 0); err != nil {
			t.Fatal(err)
		}
	}})
}

// TestFollowNewRunStartAlone: the new log has nothing yet but its
// run_start, after a half line that ends where a value is expected (which
// zevo jq would join to the next line): the run_start comes out at once.
func TestFollowNewRunStartAlone(t *testing.T) {
	start, _, _ := strings.Cut(followRunB, "\n")
	testFollowHalfLine(t, followScenario{half: `{"delta":"a2","runId":[`, startOnly: true, next: func(t *testing.T, log string) {
		if err := os.WriteFile(log, []byte(start+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}})
}
