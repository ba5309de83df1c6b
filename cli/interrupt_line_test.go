package cli

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A live input whose producer was stopped inside a line, then SIGINT: the
// bytes of that line were read, so they are accounted for as a plain file
// ending there accounts for them ("the line ends inside a value", named
// FILE:LINE), never dropped.

// cutInput is a run, a line with a problem (so that validate writes a
// diagnostic as soon as it has read it), and a line cut short.
const (
	cutWhole = `{"cwd":"/w","model":"m","provider":"p","runId":"run_v","schemaVersion":2,"sessionId":"s","type":"run_start"}
{"id":"c9","name":"read_file","output":"x","runId":"run_v","schemaVersion":2,"status":"ok","type":"tool_result"}
`
	cutHalf = `{"type":"te`
)

// interruptedInsideALine runs zevo args on a pipe that delivers cutWhole
// and cutHalf and stays open, sends SIGINT once zevo has read them, and
// returns what zevo wrote and its exit code.
func interruptedInsideALine(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(zevoBinary(t), args...)
	stdin, out, errBuf := startPiped(t, cmd)
	kill := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
	defer kill.Stop()
	var so syncBuf
	copied := make(chan struct{})
	go func() {
		io.Copy(&so, out)
		close(copied)
	}()
	base := quietReadBytes(t, cmd.Process.Pid)
	io.WriteString(stdin, cutWhole+cutHalf) // one write, under PIPE_BUF
	for i := 0; quietReadBytes(t, cmd.Process.Pid) < base+len(cutWhole+cutHalf); i++ {
		if i == 1000 {
			t.Fatal("zevo does not read its input")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// And has had a moment to handle what it read.
	quietReadBytes(t, cmd.Process.Pid)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-copied
	code = exitCodeOf(t, cmd.Wait())
	checkQuietStderr(t, errBuf.String())
	return so.String(), errBuf.String(), code
}

// quietReadBytes waits until what process pid has read stops growing (it
// has read what it reads at start up, or all that was written), and
// returns it.
func quietReadBytes(t *testing.T, pid int) int {
	t.Helper()
	n := readBytes(t, pid)
	for i, same := 0, 0; same < 5; i++ {
		if i == 1000 {
			t.Fatal("zevo keeps reading")
		}
		time.Sleep(10 * time.Millisecond)
		if m := readBytes(t, pid); m == n {
			same++
		} else {
			n, same = m, 0
		}
	}
	return n
}

// asStdin is zevo's output on the plain file holding the same bytes, the
// file named as standard input is.
func asStdin(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	p := writeTemp(t, "cut.jsonl", []byte(cutWhole+cutHalf))
	cmd := exec.Command(zevoBinary(t), append(args, p)...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	cmd.Run()
	return strings.ReplaceAll(o.String(), p, "<stdin>"), strings.ReplaceAll(e.String(), p, "<stdin>")
}

func TestValidateInterruptedInsideALineReportsIt(t *testing.T) {
	for _, args := range [][]string{{"validate"}, {"validate", "--json"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			want, _ := asStdin(t, args...)
			if !strings.Contains(want, "<stdin>:3: error: not valid JSON at byte 12: the line ends inside a value") &&
				!strings.Contains(want, `"line":3,"severity":"error","message":"not valid JSON at byte 12: the line ends inside a value"`) {
				t.Fatalf("the plain file's report does not name the cut line:\n%s", want)
			}
			got, stderr, code := interruptedInsideALine(t, args...)
			if code != ExitInterrupt {
				t.Errorf("exit %d, want %d (stderr %q)", code, ExitInterrupt, stderr)
			}
			got = strings.ReplaceAll(got, `\u003cstdin\u003e`, "<stdin>")
			if got != want {
				t.Errorf("interrupted inside line 3:\n%s\nthe plain file ending there:\n%s", got, want)
			}
		})
	}
}

func TestStatsInterruptedInsideALineReportsIt(t *testing.T) {
	for _, args := range [][]string{{"stats"}, {"stats", "--json"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			want, wantErr := asStdin(t, args...)
			const named = "<stdin>:3: not valid JSON at byte 12: the line ends inside a value (not counted)\n"
			if wantErr != named {
				t.Fatalf("the plain file's stderr %q, want %q", wantErr, named)
			}
			got, stderr, code := interruptedInsideALine(t, args...)
			if code != ExitInterrupt {
				t.Errorf("exit %d, want %d (stderr %q)", code, ExitInterrupt, stderr)
			}
			got = strings.ReplaceAll(got, `\u003cstdin\u003e`, "<stdin>")
			if got != want {
				t.Errorf("interrupted inside line 3:\n%s\nthe plain file ending there:\n%s", got, want)
			}
			if stderr != named {
				t.Errorf("stderr %q, want %q", stderr, named)
			}
		})
	}
}

// Every other command that reads lines names the line it was interrupted
// inside as it names the cut last line of a plain file: FILE:LINE and the
// same words, on stderr.
func TestInterruptedInsideALineIsNamedByEveryCommand(t *testing.T) {
	for _, args := range [][]string{
		{"translate", "--to", "zero", "--run-id", "run_cut"},
		{"translate", "--to", "evosci"},
		{"jq", "-c", "{type}"},
		{"view"},
		{"view", "--format", "markdown"},
		{"otel", "--clock", "synthetic"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, plainErr := asStdin(t, args...)
			var want string
			for _, l := range strings.SplitAfter(plainErr, "\n") {
				if strings.Contains(l, "<stdin>:3: not valid JSON at byte 12: the line ends inside a value") {
					want = l
				}
			}
			if want == "" {
				t.Fatalf("the plain file's stderr does not name the cut line:\n%s", plainErr)
			}
			_, stderr, code := interruptedInsideALine(t, args...)
			if code != ExitInterrupt {
				t.Errorf("exit %d, want %d (stderr %q)", code, ExitInterrupt, stderr)
			}
			if !strings.Contains(stderr, want) {
				t.Errorf("interrupted inside line 3, stderr %q; want %q in it, as for the plain file ending there", stderr, want)
			}
		})
	}
}
