package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tidwall/gjson"
	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/supervise"
	"github.com/zevo/zevo/translate"
)

// claudeSessionArgs readies the arguments of `zevo exec --to claude
// --input-format stream-json`, where zevo stands in for Claude Code and its
// client passes Claude Code's options: exec's own options stay, --model
// becomes --agent-model (for {model} in ARGS) and --resume --agent-resume
// (for {resume}), the output options Claude
// Code needs are what exec writes anyway, and the rest are taken out and
// returned, to be named once. Other command lines are returned as they are.
func claudeSessionArgs(args []string) ([]string, []string) {
	if len(args) < 2 || args[1] != "exec" {
		return args, nil
	}
	end := len(args)
	for i, a := range args {
		if a == "--" {
			end = i
			break
		}
	}
	opts := args[2:end]
	if !hasOption(opts, "to", "claude") || !hasOption(opts, "input-format", "stream-json") {
		return args, nil
	}
	takes := map[string]bool{} // exec's options, and whether each takes a value
	for _, f := range execFlags() {
		v := true
		if dg, ok := f.(ucli.DocGenerationFlag); ok {
			v = dg.TakesValue()
		}
		for _, n := range f.Names() {
			takes[n] = v
		}
	}
	out := append([]string{}, args[:2]...)
	var ignored []string
	for i := 0; i < len(opts); i++ {
		a := opts[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
			continue
		}
		v, known := takes[name]
		// An option's value is the next argument, unless it is an option.
		next := func() (string, bool) {
			if hasValue {
				return value, true
			}
			if i+1 < len(opts) && !strings.HasPrefix(opts[i+1], "--") {
				i++
				return opts[i], true
			}
			return "", false
		}
		switch {
		case name == "model" || name == "resume":
			if m, ok := next(); ok {
				out = append(out, "--agent-"+name, m)
			}
		case name == "output-format" || name == "verbose":
			// stream-json, verbose: what exec --to claude writes.
			if name == "output-format" {
				next()
			}
		case known:
			out = append(out, a)
			if v && !hasValue && i+1 < len(opts) {
				i++
				out = append(out, opts[i])
			}
		default:
			next()
			ignored = append(ignored, "--"+name)
		}
	}
	return append(out, args[end:]...), ignored
}

// hasOption tells whether opts set --name to value.
func hasOption(opts []string, name, value string) bool {
	for i, a := range opts {
		if a == "--"+name+"="+value || (a == "--"+name && i+1 < len(opts) && opts[i+1] == value) {
			return true
		}
	}
	return false
}

// claudeSession is zevo standing in for Claude Code under a client of its
// stream-json input (the Claude Agent SDK): control requests are answered,
// each user message is the prompt of one AGENT run.
type claudeSession struct {
	e   *env
	w   *jsonl.Writer
	mu  sync.Mutex // guards running
	run bool       // an AGENT run is going on
}

// runClaudeSession reads the client's messages until its input ends, and
// exits as the last run asks (0 when there was none).
func runClaudeSession(c *ucli.Context, e *env, opt translate.Options, args []string, grace time.Duration) error {
	s := &claudeSession{e: e, w: jsonl.NewWriter(e.stdout)}
	prompts := make(chan string, 16)
	go s.read(prompts)
	code := ExitOK
	resume := c.String("agent-resume")
	for p := range prompts {
		argv := withOption(withOption(args, "{model}", c.String("agent-model")), "{resume}", resume)
		argv, inArgs := withPrompt(argv, &p)
		x, jq, err := newExecRun(c, e, opt, args[0], s.w)
		if err != nil {
			return err
		}
		var stdin *strings.Reader
		if !inArgs {
			stdin = strings.NewReader(p)
		}
		var proc *supervise.Process
		if stdin != nil {
			proc, err = supervise.Start(argv, stdin, e.stderr)
		} else {
			proc, err = supervise.Start(argv, nil, e.stderr)
		}
		if err != nil {
			var se *supervise.StartError
			code := "agent_start_failed"
			switch {
			case errors.As(err, &se) && se.NotFound:
				code = "agent_not_found"
			case errors.Is(err, fs.ErrPermission):
				code = "agent_not_executable"
			}
			return x.fail(code, err.Error(), ExitNoAgent, false)
		}
		s.setRunning(true)
		err = x.supervise(proc, grace, jq)
		s.setRunning(false)
		// The next message goes on with the session this run stated,
		// where ARGS take {resume}.
		if stated := x.tr.StatedSession(); stated != "" {
			resume = stated
		}
		var ee *exitError
		switch {
		case err == nil:
			code = ExitOK
		case errors.As(err, &ee) && ee.msg == "":
			code = ee.code
		default:
			return err
		}
		if x.gave {
			return err // nobody reads any more
		}
	}
	return silentExit(code)
}

func (s *claudeSession) setRunning(r bool) {
	s.mu.Lock()
	s.run = r
	s.mu.Unlock()
}

// read takes the client's lines from standard input: control requests are
// answered here, user messages go to prompts; prompts is closed at the end
// of the input.
func (s *claudeSession) read(prompts chan<- string) {
	defer close(prompts)
	sc := bufio.NewScanner(s.e.stdin)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		if !gjson.ValidBytes(line) {
			s.e.diag(fmt.Sprintf("%s:%d: not a JSON message; ignored", stdinName, n))
			continue
		}
		switch typ := gjson.GetBytes(line, "type").Str; typ {
		case "control_request":
			s.control(gjson.GetBytes(line, "request_id"), gjson.GetBytes(line, "request.subtype").Str)
		case "user":
			p := userText(gjson.GetBytes(line, "message.content"))
			if p == "" {
				s.e.diag(fmt.Sprintf("%s:%d: a user message without text; ignored", stdinName, n))
				continue
			}
			prompts <- p
		case "control_response", "control_cancel_request", "keep_alive", "update_environment_variables":
			// Answers to requests zevo never makes, and notices.
		default:
			s.e.diag(fmt.Sprintf("%s:%d: message type %q ignored", stdinName, n, typ))
		}
	}
	if err := sc.Err(); err != nil {
		s.e.warnf("reading standard input: %v", err)
	}
}

// control answers one control request.
func (s *claudeSession) control(id gjson.Result, subtype string) {
	var resp map[string]any
	switch subtype {
	case "initialize":
		resp = map[string]any{
			"commands": []any{}, "agents": []any{}, "models": []any{},
			"output_style": "default", "available_output_styles": []string{"default"},
			"account": map[string]any{}, "pending_permission_requests": []any{},
		}
	case "interrupt":
		s.mu.Lock()
		running := s.run
		s.mu.Unlock()
		if running {
			// As a SIGINT to zevo: passed on to AGENT's process group,
			// and the run ended as Claude Code ends an interrupted one.
			s.e.takeSignal(syscall.SIGINT)
		}
		resp = map[string]any{}
	}
	var msg map[string]any
	if resp != nil {
		msg = map[string]any{"type": "control_response", "response": map[string]any{
			"subtype": "success", "request_id": json.RawMessage(id.Raw), "response": resp}}
	} else {
		msg = map[string]any{"type": "control_response", "response": map[string]any{
			"subtype": "error", "request_id": json.RawMessage(id.Raw),
			"error": fmt.Sprintf("zevo exec does not serve the control request %q", subtype)}}
	}
	if id.Raw == "" {
		s.e.diag("a control request without request_id; not answered")
		return
	}
	b, _ := json.Marshal(msg)
	s.e.mu.Lock()
	defer s.e.mu.Unlock()
	if err := s.w.WriteLine(b); err == nil {
		s.w.Flush()
	}
}

// userText is the text of a user message's content: a string, or its
// text blocks joined.
func userText(content gjson.Result) string {
	if content.Type == gjson.String {
		return strings.TrimSpace(content.Str)
	}
	var parts []string
	for _, b := range content.Array() {
		if b.Get("type").Str == "text" {
			parts = append(parts, b.Get("text").Str)
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// withOption replaces every placeholder ({model}, {resume}) in argv[1:]
// by value; without a value, an argument that is the placeholder goes,
// with the option before it, and an argument holding it goes alone (AGENT
// then uses its own default: its default model, a new session).
func withOption(argv []string, placeholder, value string) []string {
	out := argv[:1:1]
	for _, a := range argv[1:] {
		switch {
		case !strings.Contains(a, placeholder):
			out = append(out, a)
		case value != "":
			out = append(out, strings.ReplaceAll(a, placeholder, value))
		case a == placeholder && len(out) > 1 && strings.HasPrefix(out[len(out)-1], "-"):
			out = out[:len(out)-1]
		}
	}
	return out
}
