package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/otel"
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
codes) are redacted with Zero's rules (--redact-extra adds translate's
stronger patterns). Each run's cost, priced
as zevo stats prices it (--pricing, --model), is its zevo.cost.usd.

The streams carry no timestamps. A run starts at the time in its runId
(Zero's run_<UTC time>_<hex>) when it has one; every other time is when zevo
read the line (--clock read), or, with --clock synthetic, one millisecond
per line, which with ids derived from the input makes the output the same
on every run.

--endpoint sends each run as soon as it ends; --output writes one request
with every run at the end (or on Ctrl-C). Without either, OTLP/JSON goes to
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
			&ucli.DurationFlag{Name: "timeout", Value: 10 * time.Second, Usage: "give up on one OTLP/HTTP request after `DURATION`"},
			&ucli.StringFlag{Name: "clock", Value: "read", Usage: "span times: `CLOCK` is read (when each line was read) or synthetic (1 ms per line, deterministic)"},
			&ucli.StringFlag{Name: "model", Usage: "the `NAME` of the model of runs that name none (EvoScientist's), for gen_ai.request.model and the cost"},
			&ucli.StringFlag{Name: "pricing", Usage: "price models from `FILE` for zevo.cost.usd, as zevo stats --pricing does"},
			&ucli.StringFlag{Name: "provider", Usage: "the `NAME` of the provider of runs that name none, for gen_ai.provider.name (default: the agent, zero or evoscientist)"},
			&ucli.StringFlag{Name: "as", Value: "auto", Usage: "protocol: auto (each line its own), zero, zero@1, zero-input or evosci"},
			redactFlags()[1], // --redact-extra; a collector never gets secrets: no --no-redact
		},
		Action: func(c *ucli.Context) error { return runOtel(c, e) },
	}
}

func runOtel(c *ucli.Context, e *env) error {
	as, err := inspect.ParseProtocol(c.String("as"))
	if err != nil {
		return usageErr("--as: %v", err)
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
	opt := otel.Options{As: as, Model: c.String("model"), Provider: c.String("provider"), Version: Version, Pricing: &prices}
	switch c.String("clock") {
	case "read":
	case "synthetic":
		opt.Clock = otel.SyntheticClock
	default:
		return usageErr("--clock: %q is neither read nor synthetic", c.String("clock"))
	}
	header := http.Header{}
	for _, h := range c.StringSlice("header") {
		k, v, ok := strings.Cut(h, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return usageErr("--header: %q is not KEY=VALUE", h)
		}
		header.Add(strings.TrimSpace(k), v)
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
	client := &http.Client{Timeout: c.Duration("timeout")}
	bad := 0
	emit := func(file string) func(ptrace.Traces, *inspect.Run) {
		return func(td ptrace.Traces, r *inspect.Run) {
			if endpoint != "" {
				if err := otel.Send(context.Background(), client, endpoint, header, td); err != nil {
					e.warnf("%s:%d-%d: run %s not sent: %v", file, r.FirstLine, r.LastLine, inspect.Safe(r.ID), err)
					bad++
				}
			}
			if out != nil {
				batch.Add(td)
			}
		}
	}
	// A signal exports what was read: the open run (as cut short) and,
	// with --output, every run so far. Both run with e.mu held.
	var open *otel.Tracer
	written := false
	write := func() error {
		if out == nil || written {
			return nil
		}
		written = true
		return otel.WriteJSON(out, batch.Traces())
	}
	e.whenStopped(func() {
		if open != nil {
			open.End()
		}
		write()
	})
	failed, err := eachInput(e, c.Args().Slice(), func(name string, r io.Reader) error {
		fopt := opt
		fopt.Invalid = func(n int, err error) {
			e.warnf("%s:%d: %v (not exported)", name, n, err)
			bad++
		}
		tr := otel.New(name, fopt, emit(name))
		e.mu.Lock()
		open = tr
		e.mu.Unlock()
		lr := jsonl.NewReader(r, name, nil)
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
			e.mu.Unlock()
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		open = nil
		tr.End()
		return nil
	})
	if err != nil {
		return err
	}
	e.mu.Lock()
	err = write()
	e.mu.Unlock()
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if bad > 0 || failed > 0 {
		return silentExit(ExitDiagnostics)
	}
	return nil
}
