package cli

import (
	"bufio"
	"errors"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tidwall/gjson"
	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/supervise"
	"github.com/zevo/zevo/translate"
)

// hostArgs readies the arguments of `zevo exec --to NAME --input-format
// stream-json` for a dialect with a Host, where zevo stands in for its
// producer and the producer's client passes the producer's options:
// exec's own options stay, those the Host passes take exec's names
// (Claude Code's --model becomes --agent-model, for {model} in ARGS), those
// that ask for what exec writes anyway go, and the rest are taken out and
// returned, to be named once, with the dialect. Other command lines are
// returned as they are.
func hostArgs(args []string) ([]string, []string, *event.Dialect) {
	if len(args) < 2 || args[1] != "exec" {
		return args, nil, nil
	}
	end := len(args)
	for i, a := range args {
		if a == "--" {
			end = i
			break
		}
	}
	opts := args[2:end]
	d := hostOf(opts)
	if d == nil || !hasOption(opts, "input-format", "stream-json") {
		return args, nil, nil
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
		as, pass := d.Host.Pass[name]
		takesValue, same := d.Host.Same[name]
		switch {
		case pass:
			if m, ok := next(); ok {
				out = append(out, "--"+as, m)
			}
		case same:
			if takesValue {
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
	return append(out, args[end:]...), ignored, d
}

// hostOf is the dialect opts name with --to when it has a Host, else nil.
func hostOf(opts []string) *event.Dialect {
	for i, a := range opts {
		name, ok := strings.CutPrefix(a, "--to=")
		if !ok && a == "--to" && i+1 < len(opts) {
			name, ok = opts[i+1], true
		}
		if !ok {
			continue
		}
		if d, found := dialects.ByName(name); found && d.Host != nil {
			return d
		}
	}
	return nil
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

// hostSession is zevo standing in for a dialect's producer under a client
// of its stream-json input (Claude Code under the Claude Agent SDK): what
// the client asks of the producer is answered as the dialect's Host says,
// each prompt is one AGENT run.
type hostSession struct {
	e    *env
	host *event.Host
	w    *jsonl.Writer
	mu   sync.Mutex // guards running
	run  bool       // an AGENT run is going on
}

// runHostSession reads the client's messages until its input ends, and
// exits as the last run asks (0 when there was none).
func runHostSession(c *ucli.Context, e *env, host *event.Host, opt translate.Options, args []string, grace time.Duration) error {
	s := &hostSession{e: e, host: host, w: jsonl.NewWriter(e.stdout)}
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
		sigc, release := e.catchSignals()
		if stdin != nil {
			proc, err = supervise.Start(argv, stdin, e.stderr)
		} else {
			proc, err = supervise.Start(argv, nil, e.stderr)
		}
		if err != nil {
			release()
			return x.fail(startCode(err), err.Error(), ExitNoAgent, false)
		}
		s.setRunning(true)
		err = x.supervise(proc, sigc, grace, jq)
		s.setRunning(false)
		release()
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

func (s *hostSession) setRunning(r bool) {
	s.mu.Lock()
	s.run = r
	s.mu.Unlock()
}

// read takes the client's lines from standard input: what the Host
// answers is written at once, prompts go to prompts, which is closed at
// the end of the input.
func (s *hostSession) read(prompts chan<- string) {
	defer close(prompts)
	s.e.caught()
	sc := bufio.NewScanner(s.e.stdin)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		if !gjson.ValidBytes(line) {
			s.e.diag(lineMsg(stdinName, n, "not a JSON message; ignored"))
			continue
		}
		m := s.host.Read(line)
		if m.Interrupt {
			s.mu.Lock()
			running := s.run
			s.mu.Unlock()
			if running {
				s.e.takeSignal(syscall.SIGINT)
			}
		}
		if m.Note != "" {
			if m.Where {
				m.Note = lineMsg(stdinName, n, m.Note)
			}
			s.e.diag(m.Note)
		}
		if m.Reply != nil {
			s.reply(m.Reply)
		}
		if m.Prompt != "" {
			prompts <- m.Prompt
		}
	}
	if err := sc.Err(); err != nil {
		s.e.warnf("reading standard input: %v", err)
	}
}

// reply writes one line to the client.
func (s *hostSession) reply(b []byte) {
	s.e.mu.Lock()
	defer s.e.mu.Unlock()
	if err := s.w.WriteLine(b); err == nil {
		s.w.Flush()
	}
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
