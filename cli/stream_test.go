package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// TestLive drives translate through pipes: one line in, its translation
// out, and only then the next line, as a live agent would.
func TestLive(t *testing.T) {
	for _, tc := range []struct {
		to    string
		lines []string
		want  [][]string // output types expected after each input line
	}{
		{"zero", []string{
			`{"type": "thinking", "content": "hm", "id": 0}`,
			`{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}`,
			`{"type": "tool_result", "name": "ls", "content": "a", "success": true, "id": "c1"}`,
			`{"type": "done", "content": "", "response": ""}`,
		}, [][]string{{"run_start", "reasoning"}, {"tool_call"}, {"tool_result"}, {"final", "run_end"}}},
		{"evosci", []string{
			`{"runId":"r","schemaVersion":2,"type":"run_start"}`,
			`{"delta":"hi","runId":"r","schemaVersion":2,"type":"text"}`,
			`{"args":{},"id":"c1","name":"ls","runId":"r","schemaVersion":2,"type":"tool_call"}`,
			`{"runId":"r","schemaVersion":2,"status":"success","type":"run_end","exitCode":0}`,
		}, [][]string{nil, {"text"}, {"tool_call"}, {"done"}}},
	} {
		t.Run(tc.to, func(t *testing.T) {
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan int, 1)
			go func() {
				done <- Run([]string{"zevo", "translate", "--to", tc.to, "--run-id", "r"}, inR, outW, io.Discard)
				outW.Close()
			}()
			lines := make(chan string)
			go func() {
				sc := bufio.NewReader(outR)
				for {
					l, err := sc.ReadString('\n')
					if err != nil {
						close(lines)
						return
					}
					lines <- l
				}
			}()
			for i, in := range tc.lines {
				if _, err := io.WriteString(inW, in+"\n"); err != nil {
					t.Fatal(err)
				}
				for _, want := range tc.want[i] {
					select {
					case l := <-lines:
						var ev struct{ Type string }
						if err := json.Unmarshal([]byte(l), &ev); err != nil || ev.Type != want {
							t.Fatalf("after line %d: got %q, want a %s event", i+1, l, want)
						}
					case <-time.After(20 * time.Second): // a hang guard, not a timing check
						t.Fatalf("after line %d: no %s event while zevo waits for more input: output is held back", i+1, want)
					}
				}
			}
			inW.Close()
			for range lines {
			}
			if code := <-done; code != 0 {
				t.Fatalf("exit code %d", code)
			}
		})
	}
}

// TestLongLine translates one line of 50 MB each way and checks the value
// came through whole.
func TestLongLine(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB line")
	}
	big := strings.Repeat("0123456789abcdef", 50<<20/16+1) + "é<>"
	in := `{"type": "tool_result", "name": "read_file", "content": "` + big + `", "success": true, "id": "c1"}` + "\n"
	var zero, stderr bytes.Buffer
	if code := Run([]string{"zevo", "translate", "--to", "zero", "--no-redact", "--run-id", "r"}, strings.NewReader(in), &zero, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var evo bytes.Buffer
	if code := Run([]string{"zevo", "translate", "--to", "evosci"}, bytes.NewReader(zero.Bytes()), &evo, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	found := false
	for _, l := range strings.Split(evo.String(), "\n") {
		var ev struct{ Type, Content string }
		if l == "" || json.Unmarshal([]byte(l), &ev) != nil {
			continue
		}
		if ev.Type == "tool_result" {
			found = true
			if ev.Content != big {
				t.Fatalf("content changed: %d bytes in, %d out", len(big), len(ev.Content))
			}
		}
	}
	if !found || len(big) < 50<<20 {
		t.Fatalf("no tool_result of %d bytes came back", len(big))
	}
}
