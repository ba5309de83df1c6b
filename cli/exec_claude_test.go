package cli

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const sdkInit = `{"type":"control_request","request_id":"r1","request":{"subtype":"initialize","hooks":null}}`

func sdkUser(text string) string {
	b, _ := json.Marshal(map[string]any{"type": "user", "session_id": "", "parent_tool_use_id": nil,
		"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": text}}}})
	return string(b)
}

// claudeLines parses zevo's output, failing on any line that is not JSON.
func claudeLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var ms []map[string]any
	for i, l := range outLines(out) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("stdout line %d is not JSON: %v\n%s", i+1, err, out)
		}
		ms = append(ms, m)
	}
	return ms
}

// As the Claude Agent SDK drives Claude Code: the options it passes are
// accepted (those zevo cannot honour named once on stderr), initialize is
// answered, an unknown control request gets an error, and each user
// message is one AGENT run with its prompt and --model for {model}.
func TestExecClaudeSessionServesTheSDKProtocol(t *testing.T) {
	stdin := strings.Join([]string{sdkInit,
		`{"type":"control_request","request_id":"r2","request":{"subtype":"set_max_thinking_tokens"}}`,
		sdkUser("first prompt"), sdkUser("second prompt")}, "\n") + "\n"
	r := runExecCmd(t, stdin, "exec", "--to", "claude",
		"--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
		"--model", "m1", "--max-turns", "3", "--permission-mode", "default", "--setting-sources", "",
		"--", "AGENT", "success-zero", "{prompt}", "--model", "{model}")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if n := strings.Count(r.stderr, "ignoring Claude Code options"); n != 1 || !strings.Contains(r.stderr, "--max-turns --permission-mode --setting-sources") {
		t.Errorf("want one notice naming the ignored options, stderr:\n%s", r.stderr)
	}
	ms := claudeLines(t, r.stdout)
	var results, inits int
	var resps []map[string]any
	for _, m := range ms {
		switch m["type"] {
		case "control_response":
			resps = append(resps, m["response"].(map[string]any))
		case "result":
			results++
		case "system":
			inits++
		}
	}
	if len(resps) != 2 || resps[0]["subtype"] != "success" || resps[0]["request_id"] != "r1" ||
		resps[1]["subtype"] != "error" || resps[1]["request_id"] != "r2" || resps[1]["error"] == "" {
		t.Errorf("control responses %v", resps)
	}
	if body, ok := resps[0]["response"].(map[string]any); !ok || body["commands"] == nil || body["models"] == nil {
		t.Errorf("initialize response %v", resps[0])
	}
	if results != 2 || inits != 2 {
		t.Errorf("%d results, %d inits; want 2 runs\n%s", results, inits, r.stdout)
	}
	args, err := os.ReadFile(filepath.Join(r.dir, "args"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "second prompt\n--model\nm1\n"; string(args) != want {
		t.Errorf("last run's args %q, want %q", args, want)
	}
}

// A failed run arrives as an error result, and zevo exits as Claude Code
// does after it.
func TestExecClaudeSessionFailedRun(t *testing.T) {
	r := runExecCmd(t, sdkInit+"\n"+sdkUser("go")+"\n", "exec", "--to", "claude", "--input-format", "stream-json",
		"--", "AGENT", "error-zero", "{prompt}", "--model", "{model}")
	if r.code != ExitDiagnostics {
		t.Errorf("exit %d, want %d", r.code, ExitDiagnostics)
	}
	ms := claudeLines(t, r.stdout)
	last := ms[len(ms)-1]
	if last["type"] != "result" || last["is_error"] != true {
		t.Errorf("last line %v", last)
	}
	args, _ := os.ReadFile(filepath.Join(r.dir, "args"))
	if string(args) != "go\n" {
		t.Errorf("without --model, {model} goes with its option: args %q", args)
	}
}

// An interrupt request during a run is SIGINT to AGENT's group: the run
// ends with an error result, the request is answered, and the session
// reads on.
func TestExecClaudeSessionInterruptEndsTheAgent(t *testing.T) {
	cmd, dir := execCmd(t, "exec", "--to", "claude", "--input-format", "stream-json", "--", "AGENT", "sigint-zero", "{prompt}")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer killAfter(t, cmd)()
	io.WriteString(in, sdkInit+"\n"+sdkUser("go")+"\n")
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
			break
		}
		if i == 500 {
			t.Fatal("the agent never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	io.WriteString(in, `{"type":"control_request","request_id":"stop","request":{"subtype":"interrupt"}}`+"\n")
	in.Close()
	exitCodeOf(t, cmd.Wait())
	checkQuietStderr(t, stderr.String())
	var answered, errResult bool
	for _, m := range claudeLines(t, stdout.String()) {
		if r, ok := m["response"].(map[string]any); ok && r["request_id"] == "stop" && r["subtype"] == "success" {
			answered = true
		}
		if m["type"] == "result" && m["is_error"] == true {
			errResult = true
		}
	}
	if !answered || !errResult {
		t.Errorf("interrupt answered %v, error result %v\n%s", answered, errResult, stdout.String())
	}
	pid, _ := os.ReadFile(filepath.Join(dir, "pid"))
	if n, _ := strconv.Atoi(strings.TrimSpace(string(pid))); n <= 0 || syscall.Kill(n, 0) == nil {
		t.Errorf("the agent (pid %s) still runs", pid)
	}
}

// The SDK's --model and --resume reach AGENT through {model} and {resume}
// in ARGS; without them the placeholder goes with the option before it.
func TestClaudeSessionMapsModelAndResume(t *testing.T) {
	args := []string{"zevo", "exec", "--to", "claude", "--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
		"--model", "m1", "--resume", "zero_1", "--max-turns", "3", "--", "agent", "--model", "{model}", "--resume", "{resume}", "-p", "{prompt}"}
	out, ignored, _ := hostArgs(args)
	got := strings.Join(out, " ")
	for _, want := range []string{"--agent-model m1", "--agent-resume zero_1", "-- agent --model {model} --resume {resume} -p {prompt}"} {
		if !strings.Contains(got, want) {
			t.Errorf("args %q: no %q", got, want)
		}
	}
	if strings.Join(ignored, " ") != "--max-turns" {
		t.Errorf("ignored %q, want --max-turns", ignored)
	}
	agent := []string{"agent", "--model", "{model}", "--resume", "{resume}", "--session={resume}", "-p", "{prompt}"}
	if got := strings.Join(withOption(withOption(agent, "{model}", "m1"), "{resume}", "zero_1"), " "); got != "agent --model m1 --resume zero_1 --session=zero_1 -p {prompt}" {
		t.Errorf("with both: %q", got)
	}
	if got := strings.Join(withOption(withOption(agent, "{model}", ""), "{resume}", ""), " "); got != "agent -p {prompt}" {
		t.Errorf("with neither: %q", got)
	}
}

// A second message goes on with the session the first run's agent stated,
// where ARGS take {resume}; the first run, given no --resume, gets none.
func TestExecClaudeSessionResumesTheAgentsSession(t *testing.T) {
	stdin := strings.Join([]string{sdkInit, sdkUser("first prompt")}, "\n") + "\n"
	r := runExecCmd(t, stdin, "exec", "--to", "claude", "--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
		"--", "AGENT", "success-zero", "{prompt}", "--resume", "{resume}")
	args, err := os.ReadFile(filepath.Join(r.dir, "args"))
	if r.code != 0 || err != nil || string(args) != "first prompt\n" {
		t.Fatalf("one message: exit %d, args %q (%v)\n%s", r.code, args, err, r.stderr)
	}
	stdin = strings.Join([]string{sdkInit, sdkUser("first prompt"), sdkUser("second prompt")}, "\n") + "\n"
	r = runExecCmd(t, stdin, "exec", "--to", "claude", "--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
		"--", "AGENT", "success-zero", "{prompt}", "--resume", "{resume}")
	args, err = os.ReadFile(filepath.Join(r.dir, "args"))
	if want := "second prompt\n--resume\nzero_20260603100000_1780000000000000000_1\n"; r.code != 0 || err != nil || string(args) != want {
		t.Errorf("two messages: exit %d, last run's args %q, want %q (%v)\n%s", r.code, args, want, err, r.stderr)
	}
}
