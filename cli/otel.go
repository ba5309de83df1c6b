package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/otel"
	"github.com/zevo/zevo/redact"
)

func otelCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "otel",
		Usage:     "export runs as OpenTelemetry traces (OTLP/JSON or OTLP/HTTP)",
		ArgsUsage: "[FILE...]",
		Description: `Turns each run of each FILE (standard input when none is given, or for
"-") into one trace, following OpenTelemetry's GenAI semantic conventions:
an invoke_agent span per run (model, provider, session as
gen_ai.conversation.id, token sums as in zevo stats, the run's end as its
status), a child span "execute_tool NAME" per tool call (error status when
its result failed), permission requests and errors as span events. No
prompt, text, argument or tool output is exported; error messages,
permission reasons and every other text exported (models, tool names,
codes) are redacted (--redact-extra adds translate's
stronger patterns). Each run's cost, priced
as zevo stats prices it (--pricing, --model), is its zevo.cost.usd.

Each input is read as the dialect of its first JSON line (--as auto): any
agent's log zevo reads (docs/otel.md says what each becomes); a later line of the other kind is named and not
exported.

The streams carry no timestamps. A run starts at the time in its runId
(Zero's run_<UTC time>_<hex>) when it has one; every other time is when zevo
read the line (--clock read), or, with --clock synthetic, one millisecond
per line, which with ids derived from the input makes the output the same
on every run.

--endpoint sends each run as soon as it ends; an endpoint that fails a run
(unreachable, no answer within --timeout, an error after two retries) is
given up on: the later runs are named as not sent, and counted. --output
writes one request with every run at the end (or on Ctrl-C, first thing);
it may not be one of the inputs. Without either, OTLP/JSON goes to
standard output.

Examples:
   zevo otel --clock synthetic testdata/translate/basic.zero.jsonl
   zevo otel --output traces.json --model gpt-4.1 testdata/translate/basic.evosci.jsonl
   zevo otel --endpoint http://localhost:4318 logs/*.jsonl
   zero exec --output-format stream-json "fix the tests" | zevo otel --endpoint http://collector:4318/v1/traces`,
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write OTLP/JSON (one ExportTraceServiceRequest) to `FILE` (- for standard output)"},
			&ucli.StringFlag{Name: "endpoint", Usage: "send each run as OTLP/HTTP protobuf to `URL` (its /v1/traces when it has no path)"},
			&ucli.StringSliceFlag{Name: "header", Usage: "add `KEY=VALUE` to each OTLP/HTTP request (repeatable)"},
			&ucli.DurationFlag{Name: "timeout", Value: 10 * time.Second, Usage: "give up on sending one run (retries included), and on the endpoint, after `DURATION`"},
			&ucli.StringFlag{Name: "clock", Value: "read", Usage: "span times: `CLOCK` is read (when each line was read) or synthetic (1 ms per line, deterministic)"},
			&ucli.StringFlag{Name: "model", Usage: "the `NAME` of the model of runs whose stream names none, for gen_ai.request.model and the cost"},
			&ucli.StringFlag{Name: "pricing", Usage: "price models from `FILE` for zevo.cost.usd, as zevo stats --pricing does"},
			&ucli.StringFlag{Name: "provider", Usage: "the `NAME` of the provider of runs that name none, for gen_ai.provider.name (default: the agent's name)"},
			&ucli.StringFlag{Name: "as", Value: "auto", Usage: "dialect: auto (each line by its own) or the `NAME` of one to read every line as (" + inspect.DialectNames() + ")"},
			redactFlags()[1], // --redact-extra; a collector never gets secrets: no --no-redact
		},
		Action: func(c *ucli.Context) error { return runOtel(c, e) },
	}
}

func runOtel(c *ucli.Context, e *env) error {
	var dialect *event.Dialect
	if as := c.String("as"); as != "auto" {
		var ok bool
		if dialect, ok = dialects.ByName(as); !ok {
			return usageErr("--as: unknown dialect %q: want auto or one of %s", as, inspect.DialectNames())
		}
	}
	prices, err := pricingFromFlags(c)
	if err != nil {
		return err
	}
	// Every line is redacted before it is read, so that no model, tool
	// name, error code or type exported holds a secret.
	rd, err := redactorOf(c, e, true)
	if err != nil {
		return err
	}
	opt := otel.Options{Dialect: dialect, Model: c.String("model"), Provider: c.String("provider"), Version: Version, Pricing: &prices}
	switch c.String("clock") {
	case "read":
	case "synthetic":
		opt.Clock = otel.SyntheticClock
	default:
		return usageErr("--clock: %q is neither read nor synthetic", c.String("clock"))
	}
	var header otel.Header
	for _, h := range c.StringSlice("header") {
		k, v, ok := strings.Cut(h, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return usageErr("--header: %q is not KEY=VALUE", h)
		}
		header = append(header, otel.HeaderField{Name: strings.TrimSpace(k), Value: v})
	}
	endpoint := c.String("endpoint")
	if endpoint != "" {
		if endpoint, err = otel.TracesURL(endpoint); err != nil {
			return usageErr("--endpoint: %v", err)
		}
	}
	output := c.String("output")
	if output == "" && endpoint == "" {
		output = "-"
	}
	inputs := c.Args().Slice()
	if err := e.outputNotInput("--output", output, inputs); err != nil {
		return err
	}
	var out io.Writer
	switch output {
	case "":
	case "-":
		out = e.stdout
	default:
		f, err := os.Create(output)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}

	batch := otel.NewBatch()
	var sender *otel.Sender
	if endpoint != "" {
		sender = &otel.Sender{URL: endpoint, Header: header, UserAgent: "zevo/" + Version, Timeout: c.Duration("timeout")}
	}
	bad := 0
	// Runs to send wait in queue; the one under way is sending. Both are
	// changed with e.mu held, but runs are sent without it, so that a
	// signal never waits for the endpoint: it writes --output at once
	// and names the runs it could not send.
	type pendingRun struct {
		place string // file:lines: run ID, for messages
		body  []byte
		done  chan struct{} // closed once sent or failed (err)
		err   error
	}
	var queue []pendingRun
	var sending *pendingRun
	runs, unsent := 0, 0
	notSent := func(place string, err error) {
		e.warnf("%s not sent: %v", place, err)
		unsent++
	}
	emit := func(file string) func(*otel.Traces, *inspect.Run) {
		return func(td *otel.Traces, r *inspect.Run) {
			runs++
			if sender != nil {
				place := fmt.Sprintf("%s:%d-%d: run", file, r.FirstLine, r.LastLine)
				if r.ID != "" {
					place += " " + inspect.Safe(r.ID)
				}
				queue = append(queue, pendingRun{place: place, body: otel.Proto(td)})
			}
			if out != nil {
				batch.Add(td) // moves the spans: after Proto
			}
		}
	}
	send := func() {
		for sender != nil {
			e.mu.Lock()
			if len(queue) == 0 {
				e.mu.Unlock()
				return
			}
			p := queue[0]
			queue[0] = pendingRun{}
			queue = queue[1:]
			p.done = make(chan struct{})
			sending = &p
			e.mu.Unlock()
			p.err = sender.Send(context.Background(), p.body)
			close(p.done)
			e.mu.Lock() // after a signal, never: it tells of p itself
			sending = nil
			if p.err != nil {
				notSent(p.place, p.err)
			}
			e.mu.Unlock()
		}
	}
	// summary counts the runs not sent, after each was named.
	summary := func() {
		if unsent == 0 {
			return
		}
		msg := fmt.Sprintf("zevo: %d of %d runs not sent to %s", unsent, runs, redact.URL(endpoint))
		switch {
		case out == nil:
		case output == "-":
			msg += "; standard output has every run"
		default:
			msg += "; " + output + " has every run"
		}
		e.warnf("%s", msg)
	}
	// A signal exports what was read: the open run (as cut short) and,
	// with --output, every run so far, written first. The run being sent
	// and then those still to send have what is left of a second; a run
	// that does not make it (the endpoint hangs, or is down) is named as
	// not sent. This runs with e.mu held.
	var open *otel.Tracer
	var reading *jsonl.Reader // open's input, and its lines read into it
	readLines := 0
	written := false
	write := func() error {
		if out == nil || written {
			return nil
		}
		written = true
		return otel.WriteJSON(out, batch.Traces())
	}
	e.whenStopped(func() {
		deadline := time.Now().Add(stopGrace / 2)
		if open != nil {
			// The line the input stopped inside is reported as a file
			// ending there reports it.
			if l, ok := reading.Pending(); ok && l.Num == readLines+1 {
				l, _ = redactText(rd, l, nil)
				open.Line(l)
			}
			open.End()
		}
		if err := write(); err != nil {
			e.warnf("writing output: %v", err)
		}
		late := false
		if p := sending; p != nil {
			select {
			case <-p.done:
				if p.err != nil {
					notSent(p.place, p.err)
				}
			case <-time.After(time.Until(deadline)):
				notSent(p.place, errStopSending)
				late = true
			}
		}
		for _, p := range queue {
			err := errStopSending
			if !late { // a down sender fails at once (ErrGaveUp)
				ctx, cancel := context.WithDeadline(context.Background(), deadline)
				if err = sender.Send(ctx, p.body); ctx.Err() != nil {
					err = errStopSending
				}
				cancel()
			}
			if err != nil {
				notSent(p.place, err)
			}
		}
		queue = nil
		summary()
	})
	seen := map[string]int{}
	failed, err := eachInput(e, inputs, func(name string, r io.Reader) error {
		fopt := opt
		fopt.Repeat = seen[name]
		seen[name]++
		fopt.Invalid = func(n int, err error) {
			e.diag(lineMsg(name, n, err.Error()+" (not exported)"))
			bad++
		}
		tr := otel.New(name, fopt, emit(name))
		e.mu.Lock()
		open = tr
		e.mu.Unlock()
		lr := jsonl.NewReader(r, name, nil)
		e.mu.Lock()
		reading, readLines = lr, 0
		e.mu.Unlock()
		var redacted []byte
		for {
			l, err := lr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				e.warnf("%s: read error: %v", name, err)
				bad++
				break
			}
			l, redacted = redactText(rd, l, redacted)
			e.mu.Lock()
			tr.Line(l)
			readLines++
			e.mu.Unlock()
			send()
		}
		e.mu.Lock()
		open = nil
		tr.End()
		e.mu.Unlock()
		send()
		return nil
	})
	if err != nil {
		return err
	}
	e.mu.Lock()
	err = write()
	summary()
	e.mu.Unlock()
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if bad > 0 || failed > 0 || unsent > 0 {
		return silentExit(ExitDiagnostics)
	}
	return nil
}

// errStopSending is why a run is not sent when a signal stops zevo.
var errStopSending = errors.New("zevo was stopped before the endpoint took it")
