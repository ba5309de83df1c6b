package benthos

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redpanda-data/benthos/v4/public/service"
)

// samples are the shipped streams the command line is tested on.
func samples(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"translate", "inspect", "hostile"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "testdata", dir, "*.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d sample files", len(files))
	}
	return files
}

// byMeta groups messages by the value of a metadata key.
func byMeta(ms []*service.Message, key string) map[string][]*service.Message {
	g := map[string][]*service.Message{}
	for _, m := range ms {
		v, _ := m.MetaGet(key)
		g[v] = append(g[v], m)
	}
	return g
}

// diagnostics are the FILE:LINE lines of zevo's stderr, without its
// summaries.
func diagnostics(stderr string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if l != "" && !strings.HasPrefix(l, "zevo: ") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// Every sample, each a key of its own, translated by the processor gives
// what zevo translate gives: the same events, and an error on the message
// for each diagnostic, with the same text. Runs left open are closed by the
// idle timeout, as zevo closes them at the end of the file.
func TestTranslateSameAsCLI(t *testing.T) {
	files := samples(t)
	for _, to := range []string{"zero", "zero@1", "evosci"} {
		t.Run(to, func(t *testing.T) {
			clk := useClock(t)
			p := startPipe(t, fmt.Sprintf(`
zevo_translate:
  to: %s
  run_id: r1
  cwd: /w
  key: ${! meta("file") }
  idle_timeout: 1h
`, to))
			for _, f := range files {
				for _, l := range fileLines(t, f) {
					p.line(l, "file", f)
				}
			}
			clk.advance(2 * time.Hour)
			p.line("") // closes every key
			got := byMeta(p.taken(), "file")
			for _, f := range files {
				want, stderr, _ := zevo(t, "", "translate", "--to", to, "--run-id", "r1", "--cwd", "/w", f)
				if g := bodies(t, got[f]); g != want {
					t.Errorf("%s: events differ from zevo translate\n got:\n%s\nwant:\n%s", f, g, want)
				}
				if g, w := errorsOf(got[f]), diagnostics(stderr); g != w {
					t.Errorf("%s: errors differ from zevo translate's diagnostics\n got:\n%s\nwant:\n%s", f, g, w)
				}
				delete(got, f)
			}
			if len(got) > 0 {
				t.Errorf("messages of no file: %v", got)
			}
		})
	}
}

// Two streams interleaved message by message give two runs, each what
// zevo translate gives for its stream alone.
func TestTranslateInterleavedKeys(t *testing.T) {
	clk := useClock(t)
	a := fileLines(t, "../../testdata/translate/basic.evosci.jsonl")
	b := fileLines(t, "../../testdata/inspect/seed.evosci.jsonl")
	p := startPipe(t, `
zevo_translate:
  to: zero
  key: ${! meta("session") }
  run_id: run-${! meta("session") }
  session_id: ${! meta("session") }
  cwd: /w
  idle_timeout: 1h
`)
	for i := 0; i < max(len(a), len(b)); i++ {
		if i < len(a) {
			p.line(a[i], "session", "A")
		}
		if i < len(b) {
			p.line(b[i], "session", "B")
		}
	}
	clk.advance(time.Hour)
	p.line("")
	got := byMeta(p.taken(), "session")
	for key, lines := range map[string][]string{"A": a, "B": b} {
		want, _, _ := zevo(t, strings.Join(lines, "\n")+"\n", "translate", "--to", "zero", "--run-id", "run-"+key, "--session-id", key, "--cwd", "/w")
		if g := bodies(t, got[key]); g != want {
			t.Errorf("key %s:\n got:\n%s\nwant:\n%s", key, g, want)
		}
		if !strings.Contains(want, `"runId":"run-`+key+`"`) || !strings.Contains(want, `"sessionId":"`+key+`"`) {
			t.Errorf("key %s: the expected output lacks its run or session id:\n%s", key, want)
		}
	}
	if len(got) != 2 {
		t.Errorf("got keys %v, want A and B", len(got))
	}
}

// A key with no message for idle_timeout is closed as the end of its
// input would close it (the run ends as incomplete), before the events of
// the message that finds it idle, and with its own metadata.
func TestTranslateIdleKey(t *testing.T) {
	clk := useClock(t)
	run := fileLines(t, "../../testdata/inspect/seed.evosci.jsonl")
	partial := run[:len(run)-2]
	p := startPipe(t, `
zevo_translate:
  to: zero
  key: ${! meta("session") }
  run_id: ${! meta("session") }
  cwd: /w
  idle_timeout: 1h
`)
	for _, l := range partial {
		p.line(l, "session", "A")
	}
	before := bodies(t, p.taken())
	if strings.Contains(before, "run_end") {
		t.Fatalf("a run_end before the key is idle:\n%s", before)
	}
	clk.advance(30 * time.Minute)
	p.line(run[0], "session", "B")
	if out := bodies(t, p.taken()); strings.Contains(out, `"runId":"A"`) {
		t.Fatalf("key A closed after 30 minutes of a 1h timeout:\n%s", out)
	}
	clk.advance(31 * time.Minute) // A idle for 61 minutes, B for 31
	p.line(run[1], "session", "B")
	out := p.taken()
	want, _, _ := zevo(t, strings.Join(partial, "\n")+"\n", "translate", "--to", "zero", "--run-id", "A", "--cwd", "/w")
	if !strings.Contains(want, `"status":"incomplete"`) {
		t.Fatalf("the partial run is not incomplete for zevo translate:\n%s", want)
	}
	wantTail := want[len(before):]
	var closing []*service.Message
	for len(out) > 0 {
		if k, _ := out[0].MetaGet("session"); k != "A" {
			break
		}
		closing, out = append(closing, out[0]), out[1:]
	}
	if g := bodies(t, closing); g != wantTail {
		t.Errorf("closing events of the idle key:\n got:\n%s\nwant:\n%s", g, wantTail)
	}
	if len(out) == 0 {
		t.Fatal("no event for B's message after A's closing")
	}
	for _, m := range out {
		if k, _ := m.MetaGet("session"); k != "B" {
			t.Errorf("after A's closing, an event of key %q", k)
		}
	}
	p.wantMetric("zevo_translate_ends{idle}", 1)
	p.wantMetric("zevo_translate_open_keys", 1)
}

// Beyond max_keys the least recently active key is closed; a closed key
// that comes back starts afresh.
func TestTranslateMaxKeys(t *testing.T) {
	useClock(t)
	run := fileLines(t, "../../testdata/inspect/seed.evosci.jsonl")
	p := startPipe(t, `
zevo_translate:
  to: zero
  key: ${! meta("session") }
  run_id: ${! meta("session") }
  cwd: /w
  max_keys: 2
`)
	p.line(run[0], "session", "A")
	p.line(run[0], "session", "B")
	p.line(run[1], "session", "A") // B is now the least recently active
	p.taken()
	p.line(run[0], "session", "C")
	out := p.taken()
	want, _, _ := zevo(t, run[0]+"\n", "translate", "--to", "zero", "--run-id", "B", "--cwd", "/w")
	closingB := want[strings.Index(want, `{"code":"incomplete"`):]
	if len(out) < 2 {
		t.Fatalf("got %d messages, want B's closing and C's events", len(out))
	}
	if g := bodies(t, out[:2]); g != closingB {
		t.Errorf("B's closing:\n got:\n%s\nwant:\n%s", g, closingB)
	}
	for i, m := range out {
		k, _ := m.MetaGet("session")
		if (i < 2 && k != "B") || (i >= 2 && k != "C") {
			t.Errorf("message %d has key %q", i, k)
		}
	}
	p.wantMetric("zevo_translate_ends{evicted}", 1)
	// B again: A is evicted, and B opens a new run.
	p.line(run[1], "session", "B")
	out = p.taken()
	g := bodies(t, out)
	if !strings.HasPrefix(g, `{"code":"incomplete","message":"the input ended before the run finished","recoverable":false,"runId":"A"`) {
		t.Errorf("A is not closed first:\n%s", g)
	}
	b := bodies(t, byMeta(out, "session")["B"])
	if first, _, _ := strings.Cut(b, "\n"); !strings.Contains(first, `"runId":"B"`) || !strings.Contains(first, `"type":"run_start"`) {
		t.Errorf("B does not start a new run:\n%s", b)
	}
	p.wantMetric("zevo_translate_open_keys", 2)
}

// A bad message goes on with its error, to be caught; the stream goes on.
func TestTranslateBadMessageCaught(t *testing.T) {
	p := startPipe(t, `
zevo_translate:
  to: zero
  run_id: r
  cwd: /w
`, `
catch:
  - mapping: 'root = {"dead": content().string(), "error": error()}'
`)
	lines := []string{
		`{"type": "text", "content": "one"}`,
		`{"type": "text", "content": `,
		`{"type": "usage_stats", "input_tokens": "many", "output_tokens": 1}`,
		`{"type": "done", "content": "two", "response": "two"}`,
	}
	for _, l := range lines {
		p.line(l)
	}
	out := p.taken()
	want, stderr, code := zevo(t, strings.Join(lines, "\n")+"\n", "translate", "--to", "zero", "--run-id", "r", "--cwd", "/w")
	if code != 1 {
		t.Fatalf("zevo translate exit code %d, want 1", code)
	}
	var events, dead strings.Builder
	for _, m := range out {
		if m.GetError() != nil {
			t.Errorf("an error left after catch: %v", m.GetError())
		}
		s, _ := m.AsStructured()
		if d, ok := s.(map[string]any); ok && d["dead"] != nil {
			fmt.Fprintf(&dead, "%s: %s\n", d["dead"], d["error"])
			continue
		}
		b, _ := m.AsBytes()
		events.Write(b)
		events.WriteByte('\n')
	}
	if events.String() != want {
		t.Errorf("events:\n got:\n%s\nwant:\n%s", events.String(), want)
	}
	var wantDead strings.Builder
	for _, d := range strings.Split(strings.TrimSpace(diagnostics(stderr)), "\n") {
		// zevo names standard input <stdin>; the processor, the message.
		where, msg, _ := strings.Cut(d, ": ")
		num := where[strings.LastIndexByte(where, ':')+1:]
		var n int
		fmt.Sscan(num, &n)
		fmt.Fprintf(&wantDead, "%s: message:%s: %s\n", lines[n-1], num, msg)
	}
	if dead.String() != wantDead.String() {
		t.Errorf("caught messages:\n got:\n%s\nwant:\n%s", dead.String(), wantDead.String())
	}
	p.wantMetric("zevo_translate_diagnosed", 2)
}

// A key that cannot be evaluated is an error on the message too.
func TestTranslateBadKey(t *testing.T) {
	p := startPipe(t, `
zevo_translate:
  to: zero
  key: ${! json("session") }
`)
	p.line(`not json`)
	out := p.taken()
	if len(out) != 1 || out[0].GetError() == nil || !strings.HasPrefix(out[0].GetError().Error(), "key: ") {
		t.Fatalf("want the message with a key error, got %d messages: %s", len(out), errorsOf(out))
	}
	if b, _ := out[0].AsBytes(); string(b) != "not json" {
		t.Errorf("the failed message is %q, want the input", b)
	}
}

// The metrics count every message: translated, unmapped, diagnosed, and
// the events written.
func TestTranslateMetrics(t *testing.T) {
	p := startPipe(t, `
zevo_translate:
  to: zero
  run_id: r
`)
	for _, l := range []string{
		`{"type": "text", "content": "a"}`,
		`{"type": "subagent_text", "content": "b"}`,
		`{"type": "subagent_text", "content": "c"}`,
		`[1]`,
		`{"type": "done", "content": "d", "response": "d"}`,
	} {
		p.line(l)
	}
	out := p.taken()
	for name, want := range map[string]int64{
		"zevo_translate_translated": 2,
		"zevo_translate_unmapped":   2,
		"zevo_translate_diagnosed":  1,
		"zevo_translate_events":     int64(len(out) - 1), // all but the failed message
	} {
		p.wantMetric(name, want)
	}
	if len(out) != 5 { // run_start, text, final, run_end, the failed [1]
		t.Errorf("got %d messages:\n%s", len(out), bodies(t, out))
	}
}

// Bad settings stop the stream from being built, with a clear message.
func TestTranslateConfigErrors(t *testing.T) {
	for _, c := range []struct{ conf, want string }{
		{"to: zero@3", "zero@3"},
		{"to: zero\nrun_id: 'bad id'", `run_id "bad id": Zero run ids match`},
		{"to: zero\nunmapped: lose", "lose"},
		{"to: zero\nmappings: [/nonexistent/table.json]", "mappings: open /nonexistent/table.json"},
		{"to: zero\nredact: false\nredact_extra: true", "contradict"},
		{"to: zero\nidle_timeout: soon", "idle_timeout"},
		{"to: zero\nmax_keys: 0", "max_keys: 0"},
	} {
		err := buildErr(t, "zevo_translate:\n  "+strings.ReplaceAll(c.conf, "\n", "\n  "))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one with %q", c.conf, err, c.want)
		}
	}
}

// Each setting does what the command line's flag of the same meaning does.
func TestTranslateSettingsAsCLI(t *testing.T) {
	g := "../../testdata/golden/"
	for _, c := range []struct {
		input, conf string
		args        []string
	}{
		{g + "evosci-redaction/input.jsonl", "to: zero", nil},
		{g + "evosci-redaction/input.jsonl", "to: zero\nredact: false", []string{"--no-redact"}},
		{g + "evosci-redaction/input.jsonl", "to: zero\nredact_extra: true", []string{"--redact-extra"}},
		{g + "zero-all-types/input.jsonl", "to: evosci\nredact: true", []string{"--redact"}},
		{g + "zero-all-types/input.jsonl", "to: evosci", nil},
		{g + "evosci-all-types/input.jsonl", "to: zero\nunmapped: keep", []string{"--unmapped", "keep"}},
		{g + "zero-all-types/input.jsonl", "to: evosci\nunmapped: keep", []string{"--unmapped", "keep"}},
		{g + "evosci-all-types/input.jsonl", "to: zero\nunmapped: error", []string{"--unmapped", "error"}},
		{g + "evosci-all-types/input.jsonl", "to: zero@1", nil},
		{g + "user-mapping-evosci/input.jsonl", "to: zero\nmappings: [../../mappings/examples/evosci-panels.json]", []string{"--mapping", "../../mappings/examples/evosci-panels.json"}},
		{g + "user-mapping-zero/input.jsonl", "to: evosci\nmappings: [../../mappings/examples/zero-fork-plan.json]", []string{"--mapping", "../../mappings/examples/zero-fork-plan.json"}},
		{"../../testdata/translate/basic.evosci.jsonl", "to: zero\nsession_id: s-1\nmodel: m-2", []string{"--session-id", "s-1", "--model", "m-2"}},
		{"../../testdata/translate/basic.zero.jsonl", "to: zero\nfrom: evosci", []string{"--from", "evosci"}},
		{"../../testdata/translate/basic.evosci.jsonl", "to: zero\nfrom: evosci", []string{"--from", "evosci"}},
	} {
		t.Run(c.conf, func(t *testing.T) {
			p := startPipe(t, "zevo_translate:\n  run_id: R\n  cwd: /repo\n  key: ${! meta(\"file\") }\n  "+strings.ReplaceAll(c.conf, "\n", "\n  "))
			for _, l := range fileLines(t, c.input) {
				p.line(l, "file", c.input)
			}
			p.line("", "file", c.input, endMeta, "true")
			out := p.taken()
			args := append([]string{"translate", "--run-id", "R", "--cwd", "/repo", "--to", strings.TrimPrefix(strings.Split(c.conf, "\n")[0], "to: ")}, c.args...)
			want, stderr, _ := zevo(t, "", append(args, c.input)...)
			if want == "" && diagnostics(stderr) == "" {
				t.Fatalf("zevo %v wrote nothing:\n%s", args, stderr)
			}
			if g := bodies(t, out); g != want {
				t.Errorf("events:\n got:\n%s\nwant:\n%s", g, want)
			}
			if g, w := errorsOf(out), diagnostics(stderr); g != w {
				t.Errorf("errors:\n got:\n%s\nwant:\n%s", g, w)
			}
		})
	}
}

// Empty messages from a generate input tick the idle timeout when no
// other message comes: the idle key is closed without one.
func TestTranslateTicks(t *testing.T) {
	clk := useClock(t)
	run := fileLines(t, "../../testdata/inspect/seed.evosci.jsonl")
	p := startPipeWith(t, "generate:\n  interval: 5ms\n  mapping: root = \"\"\n", `
zevo_translate:
  to: zero
  run_id: A
  cwd: /w
  idle_timeout: 1h
`)
	p.line(run[0])
	clk.advance(2 * time.Hour)
	var out strings.Builder
	for range 2000 { // at most 10 s
		out.WriteString(bodies(t, p.taken()))
		if strings.Contains(out.String(), `"type":"run_end"`) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	want, _, _ := zevo(t, run[0]+"\n", "translate", "--to", "zero", "--run-id", "A", "--cwd", "/w")
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

// Process called while another call runs (several pipeline threads) warns,
// once, that order is at risk, and still translates.
func TestTranslateWarnsOfThreads(t *testing.T) {
	var logs strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(b []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(b)
	}), nil))
	conf, err := translateSpec().ParseYAML("to: zero\nrun_id: r\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newTranslateProc(conf, service.MockResources(service.MockResourcesOptUseLogger(service.NewLoggerFromSlog(logger))))
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock() // a call in progress
	done := make(chan service.MessageBatch)
	for range 2 {
		go func() {
			b, _ := p.Process(context.Background(), service.NewMessage([]byte(`{"type": "text", "content": "x"}`)))
			done <- b
		}()
	}
	for {
		mu.Lock()
		warned := strings.Contains(logs.String(), "several threads")
		mu.Unlock()
		if warned {
			break
		}
		time.Sleep(time.Millisecond)
	}
	p.mu.Unlock()
	if n := len(<-done) + len(<-done); n != 3 { // run_start and two texts
		t.Errorf("%d events, want 3", n)
	}
	if n := strings.Count(logs.String(), "several threads"); n != 1 {
		t.Errorf("warned %d times, want once:\n%s", n, logs.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }
