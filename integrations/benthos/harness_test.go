package benthos

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/redpanda-data/benthos/v4/public/components/pure"
	"github.com/redpanda-data/benthos/v4/public/service"
	"github.com/zevo/zevo/cli"
	"github.com/zevo/zevo/jsonl"
	"gopkg.in/yaml.v3"
)

// clock is the processor's clock in tests: it moves only when told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// useClock makes the processors read a clock the test moves.
func useClock(t *testing.T) *clock {
	c := &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	now = c.now
	t.Cleanup(func() { now = time.Now })
	return c
}

// metrics records what the processors count, as a metrics exporter.
type metrics struct {
	mu     sync.Mutex
	counts map[string]int64 // name, or name{label values}
}

func (m *metrics) get(name string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.counts[name]
}

// wantMetric checks the value of a metric (name{label values}).
func (p *pipe) wantMetric(name string, want int64) {
	p.t.Helper()
	if got := p.metrics.get(name); got != want {
		p.t.Errorf("%s = %d, want %d", name, got, want)
	}
}

type metricsCounter struct {
	m    *metrics
	name string
}

func (c metricsCounter) Incr(n int64) {
	c.m.mu.Lock()
	c.m.counts[c.name] += n
	c.m.mu.Unlock()
}
func (c metricsCounter) Timing(n int64) {}
func (c metricsCounter) Set(n int64) {
	c.m.mu.Lock()
	c.m.counts[c.name] = n
	c.m.mu.Unlock()
}

// name is a metric's name with the values of its own labels: Benthos'
// label and path (where the processor is) are left out.
func (m *metrics) name(name string, keys, values []string) string {
	var own []string
	for i, k := range keys {
		if k != "label" && k != "path" {
			own = append(own, values[i])
		}
	}
	if len(own) == 0 {
		return name
	}
	return name + "{" + strings.Join(own, ",") + "}"
}

func (m *metrics) NewCounterCtor(name string, keys ...string) service.MetricsExporterCounterCtor {
	return func(labels ...string) service.MetricsExporterCounter {
		return metricsCounter{m, m.name(name, keys, labels)}
	}
}
func (m *metrics) NewTimerCtor(name string, keys ...string) service.MetricsExporterTimerCtor {
	return func(labels ...string) service.MetricsExporterTimer {
		return metricsCounter{m, m.name(name, keys, labels)}
	}
}
func (m *metrics) NewGaugeCtor(name string, keys ...string) service.MetricsExporterGaugeCtor {
	return func(labels ...string) service.MetricsExporterGauge {
		return metricsCounter{m, m.name(name, keys, labels)}
	}
}
func (m *metrics) Close(context.Context) error { return nil }

// pipe is a running stream: messages go in with send, and every message
// that reaches the output is in out, in order.
type pipe struct {
	t       *testing.T
	send    service.MessageHandlerFunc
	stream  *service.Stream
	done    chan error
	metrics *metrics
	mu      sync.Mutex
	out     []*service.Message
}

// startPipe runs processors (YAML list items) between a producer and a
// consumer of the test, on one pipeline thread.
func startPipe(t *testing.T, processors ...string) *pipe {
	t.Helper()
	return startPipeWith(t, "", processors...)
}

// startPipeWith is startPipe with another input (YAML) next to the
// producer, when input is not "".
func startPipeWith(t *testing.T, input string, processors ...string) *pipe {
	t.Helper()
	p := &pipe{t: t, done: make(chan error, 1), metrics: &metrics{counts: map[string]int64{}}}
	env := service.NewEnvironment()
	err := env.RegisterMetricsExporter("zevo_test", service.NewConfigSpec(),
		func(*service.ParsedConfig, *service.Logger) (service.MetricsExporter, error) { return p.metrics, nil })
	if err != nil {
		t.Fatal(err)
	}
	sb := env.NewStreamBuilder()
	sb.SetThreads(1)
	if err := sb.SetLoggerYAML("level: none"); err != nil {
		t.Fatal(err)
	}
	if err := sb.SetMetricsYAML("zevo_test: {}"); err != nil {
		t.Fatal(err)
	}
	for _, proc := range processors {
		if err := sb.AddProcessorYAML(proc); err != nil {
			t.Fatalf("processor config: %v\n%s", err, proc)
		}
	}
	if p.send, err = sb.AddProducerFunc(); err != nil {
		t.Fatal(err)
	}
	if input != "" {
		if err := sb.AddInputYAML(input); err != nil {
			t.Fatal(err)
		}
	}
	err = sb.AddBatchConsumerFunc(func(_ context.Context, b service.MessageBatch) error {
		p.mu.Lock()
		p.out = append(p.out, b...)
		p.mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.stream, err = sb.Build(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.stream.Run(context.Background()) }()
	t.Cleanup(p.stop)
	return p
}

// stop ends the stream, once.
func (p *pipe) stop() {
	if p.stream == nil {
		return
	}
	if err := p.stream.StopWithin(10 * time.Second); err != nil {
		p.t.Errorf("stopping the stream: %v", err)
	}
	if err := <-p.done; err != nil && !errors.Is(err, context.Canceled) {
		p.t.Errorf("stream: %v", err)
	}
	p.stream = nil
}

// line sends one message with the metadata given as name, value pairs.
func (p *pipe) line(body string, meta ...string) {
	p.t.Helper()
	m := service.NewMessage([]byte(body))
	for i := 0; i+1 < len(meta); i += 2 {
		m.MetaSet(meta[i], meta[i+1])
	}
	if err := p.send(context.Background(), m); err != nil {
		p.t.Fatalf("send %q: %v", body, err)
	}
}

// taken returns the messages output since the last call.
func (p *pipe) taken() []*service.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.out
	p.out = nil
	return out
}

// bodies are the texts of the messages without an error, one per line.
func bodies(t *testing.T, ms []*service.Message) string {
	t.Helper()
	var b strings.Builder
	for _, m := range ms {
		if m.GetError() != nil {
			continue
		}
		body, err := m.AsBytes()
		if err != nil {
			t.Fatal(err)
		}
		b.Write(body)
		b.WriteByte('\n')
	}
	return b.String()
}

// errorsOf are the errors on messages, one per line.
func errorsOf(ms []*service.Message) string {
	var b strings.Builder
	for _, m := range ms {
		if err := m.GetError(); err != nil {
			b.WriteString(err.Error())
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// fileLines are the lines of a file as zevo reads them (byte order mark
// and CR removed).
func fileLines(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := jsonl.NewReader(f, path, nil)
	var lines []string
	for {
		l, err := r.Next()
		if err == io.EOF {
			return lines
		}
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(l.Bytes))
	}
}

// zevo runs the zevo command line in-process.
func zevo(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cli.Run(append([]string{"zevo"}, args...), strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// buildErr is the error of one processor's config (YAML): from Benthos'
// linter, or from making the processor, or nil.
func buildErr(t *testing.T, processor string) error {
	t.Helper()
	if err := service.NewStreamBuilder().AddProcessorYAML(processor); err != nil {
		return err
	}
	var node map[string]yaml.Node
	if err := yaml.Unmarshal([]byte(processor), &node); err != nil {
		t.Fatal(err)
	}
	for name, n := range node {
		b, err := yaml.Marshal(&n)
		if err != nil {
			t.Fatal(err)
		}
		switch name {
		case "zevo_translate":
			conf, err := translateSpec().ParseYAML(string(b), nil)
			if err == nil {
				_, err = newTranslateProc(conf, service.MockResources())
			}
			return err
		case "zevo_jq":
			conf, err := jqSpec().ParseYAML(string(b), nil)
			if err == nil {
				_, err = newJQProc(conf, service.MockResources())
			}
			return err
		}
	}
	return nil
}
