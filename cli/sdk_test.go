package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sdkVersion is the Claude Agent SDK the test drives zevo exec with.
const sdkVersion = "0.3.333"

// needTool finds a program the SDK test needs: outside CI its absence
// skips the test, in CI it fails it (.ci/run installs it).
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("%s not found: the Claude Agent SDK test needs Node and npm", name)
		}
		t.Fatalf("%s not found (CI installs nodejs and npm): %v", name, err)
	}
	return p
}

// docWrapper is the wrapper script of docs/exec.md, running bin for zevo
// and the stand-in agent in the mode of $AGENT_MODE for Zero.
func docWrapper(t *testing.T, bin string) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/exec.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```\n(#!/bin/sh\n.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/exec.md: no wrapper script (a block starting #!/bin/sh)")
	}
	script := string(m[1])
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	last := strings.TrimSpace(script[strings.LastIndex(strings.TrimSpace(script), "\n")+1:])
	if !strings.Contains(string(readme), "#!/bin/sh\n"+last+"\n") {
		t.Errorf("README.md's wrapper is not docs/exec.md's: %s", last)
	}
	for _, r := range [][2]string{
		{"exec zevo ", "exec " + bin + " "},
		{"zero exec --output-format stream-json", agentPath(t) + ` "$AGENT_MODE"`},
	} {
		if !strings.Contains(script, r[0]) {
			t.Fatalf("docs/exec.md's wrapper has no %q:\n%s", r[0], script)
		}
		script = strings.Replace(script, r[0], r[1], 1)
	}
	p := filepath.Join(t.TempDir(), "claude-zero")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// The Claude Agent SDK's query() drives zevo exec through the wrapper of
// docs/exec.md, over the stand-in agent replaying Zero's recorded runs.
func TestSDKQueryThroughExec(t *testing.T) {
	bin := zevoBinary(t)
	node := needTool(t, "node")
	npm := needTool(t, "npm")
	sdk := t.TempDir()
	// A registry that does not answer fails the test in minutes rather
	// than holding the whole suite until its timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, npm, "install", "--prefix", sdk, "--no-audit", "--no-fund", "--ignore-scripts",
		"--loglevel=error", "@anthropic-ai/claude-agent-sdk@"+sdkVersion)
	install.WaitDelay = 10 * time.Second
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	wrapper := docWrapper(t, bin)
	agentDir := t.TempDir()
	drive, _ := filepath.Abs("testdata/sdk/drive.mjs")
	cmd := exec.Command(node, drive, sdk, wrapper, agentDir)
	cmd.WaitDelay = 10 * time.Second // node killed, its children gone or not
	var stderr strings.Builder
	cmd.Stderr = &stderr
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
		}
	}()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\nstderr:\n%s\nstdout:\n%s", err, stderr.String(), out)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node's output: %v\n%s", err, out)
	}
	msgs := func(name string) []map[string]any {
		var ms []map[string]any
		if err := json.Unmarshal(got[name], &ms); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, m := range ms {
			// After an error result the SDK throws, naming it, as it
			// does over Claude Code: only that may be thrown.
			if th, ok := m["thrown"].(string); ok && (i == 0 || ms[i-1]["type"] != "result" || ms[i-1]["is_error"] != true || !strings.Contains(th, "error result")) {
				t.Errorf("%s: query() threw: %v\nstderr:\n%s", name, th, stderr.String())
			}
		}
		return ms
	}
	byType := func(ms []map[string]any, typ string) []map[string]any {
		var r []map[string]any
		for _, m := range ms {
			if m["type"] == typ {
				r = append(r, m)
			}
		}
		return r
	}

	// The same run as zevo exec writes it without the SDK.
	want := claudeLines(t, runExecCmd(t, "", "exec", "--to", "claude", "--prompt", "x", "--", "AGENT", "success-zero", "{prompt}").stdout)

	single := msgs("single")
	if inits := byType(single, "system"); len(inits) == 0 || inits[0]["subtype"] != "init" {
		t.Errorf("no system/init message: %v", single)
	}
	var texts, uses, results []string
	for _, m := range byType(single, "assistant") {
		for _, b := range m["message"].(map[string]any)["content"].([]any) {
			b := b.(map[string]any)
			switch b["type"] {
			case "text":
				texts = append(texts, b["text"].(string))
			case "tool_use":
				uses = append(uses, b["name"].(string))
			}
		}
	}
	for _, m := range byType(single, "user") {
		for _, b := range m["message"].(map[string]any)["content"].([]any) {
			if b := b.(map[string]any); b["type"] == "tool_result" {
				results = append(results, strconv.FormatBool(b["is_error"] == true))
			}
		}
	}
	if strings.Join(texts, "|") != "Looking <now> & |done." || strings.Join(uses, ",") != "read_file,write_file" || strings.Join(results, ",") != "false,true" {
		t.Errorf("texts %q, tool uses %q, tool results' is_error %q\n%v", texts, uses, results, single)
	}
	res := byType(single, "result")
	wantRes := byType(want, "result")
	if len(res) != 1 || len(wantRes) != 1 {
		t.Fatalf("%d results from the SDK, %d from zevo exec", len(res), len(wantRes))
	}
	for _, k := range []string{"subtype", "result", "is_error", "usage", "total_cost_usd", "num_turns"} {
		g, _ := json.Marshal(res[0][k])
		w, _ := json.Marshal(wantRes[0][k])
		if string(g) != string(w) {
			t.Errorf("result's %s: the SDK has %s, zevo exec wrote %s", k, g, w)
		}
	}

	// An EvoScientist run: its result as zevo exec writes it alone.
	evo := byType(msgs("evosci"), "result")
	wantEvo := byType(claudeLines(t, runExecCmd(t, "", "exec", "--to", "claude", "--prompt", "x", "--", "AGENT", "success-evosci", "{prompt}").stdout), "result")
	if len(evo) != 1 || len(wantEvo) != 1 {
		t.Fatalf("EvoScientist: %d results from the SDK, %d from zevo exec\n%s", len(evo), len(wantEvo), got["evosci"])
	}
	for _, k := range []string{"subtype", "result", "is_error", "usage", "num_turns"} {
		g, _ := json.Marshal(evo[0][k])
		w, _ := json.Marshal(wantEvo[0][k])
		if string(g) != string(w) || evo[0]["is_error"] != false {
			t.Errorf("EvoScientist result's %s: the SDK has %s, zevo exec wrote %s", k, g, w)
		}
	}
	if len(byType(msgs("evosci"), "assistant")) == 0 {
		t.Errorf("EvoScientist: no assistant message: %s", got["evosci"])
	}

	failed := byType(msgs("failed"), "result")
	if len(failed) != 1 || failed[0]["is_error"] != true || !strings.Contains(string(got["failed"]), "503 from provider") {
		t.Errorf("a failed run: %s", got["failed"])
	}

	if n := len(byType(msgs("two"), "result")); n != 2 {
		t.Errorf("two prompts on one query: %d results\n%s", n, got["two"])
	}
	var args string
	json.Unmarshal(got["twoArgs"], &args)
	if !strings.Contains(args, "second prompt") {
		t.Errorf("the second prompt did not reach the agent: its args %q", args)
	}

	ir := byType(msgs("interrupted"), "result")
	if len(ir) != 1 || ir[0]["is_error"] != true {
		t.Errorf("an interrupted run: %s", got["interrupted"])
	}
	pid, err := os.ReadFile(filepath.Join(agentDir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := strconv.Atoi(strings.TrimSpace(string(pid))); n <= 0 || syscall.Kill(n, 0) == nil {
		t.Errorf("the interrupted agent (pid %s) still runs", pid)
	}
}
