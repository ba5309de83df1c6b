package benthos

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/redpanda-data/benthos/v4/public/service"
	"github.com/zevo/zevo/filter"
	"github.com/zevo/zevo/jsonl"
)

func jqSpec() *service.ConfigSpec {
	return service.NewConfigSpec().
		Summary("Runs a jq expression on each message, with the engine of zevo jq.").
		Description(`Each result becomes a message (with the input's metadata); no result
filters the message out. A result that is the input itself (., select(...))
is the message's text byte for byte, and numbers are never rounded. A message
that is not JSON, or on which the expression raises an error, is passed on
with that error (after the results it gave before the error), for catch or a
dead-letter output. input and inputs find no more input: each message is
filtered on its own.`).
		Field(service.NewStringField("query").
			Description("The jq expression.").
			Examples(`select(.type == "tool_call")`, `{runId, type}`)).
		Field(service.NewBoolField("output_raw").
			Description("A string result becomes the message's text without quotes, as jq -r.").
			Default(false)).
		Example("Keep failed tool calls", "", `
pipeline:
  processors:
    - zevo_jq:
        query: 'select(.type == "tool_result" and .status == "error")'
`)
}

// jqProc is the zevo_jq processor. A Filter is not safe for concurrent
// use, so each pipeline thread takes one from the pool.
type jqProc struct {
	opt     filter.Options
	raw     bool
	pool    sync.Pool
	num     atomic.Int64 // messages so far, the "line" in messages
	log     *service.Logger
	results *service.MetricCounter
	errs    *service.MetricCounter
}

func newJQProc(conf *service.ParsedConfig, mgr *service.Resources) (*jqProc, error) {
	query, err := conf.FieldString("query")
	if err != nil {
		return nil, err
	}
	p := &jqProc{log: mgr.Logger()}
	if p.raw, err = conf.FieldBool("output_raw"); err != nil {
		return nil, err
	}
	p.opt = filter.Options{Expr: query, Workers: 1, Environ: os.Environ}
	f, err := filter.Compile(p.opt)
	if err != nil {
		return nil, err
	}
	p.pool.Put(f)
	p.results = mgr.Metrics().NewCounter("zevo_jq_results")
	p.errs = mgr.Metrics().NewCounter("zevo_jq_errors")
	return p, nil
}

// filter returns a compiled Filter for one message.
func (p *jqProc) filter() (*filter.Filter, error) {
	if f, ok := p.pool.Get().(*filter.Filter); ok {
		return f, nil
	}
	return filter.Compile(p.opt)
}

func (p *jqProc) Process(ctx context.Context, msg *service.Message) (service.MessageBatch, error) {
	b, err := msg.AsBytes()
	if err != nil {
		return nil, err
	}
	f, err := p.filter()
	if err != nil {
		return nil, err
	}
	var out, msgs bytes.Buffer
	before := f.Stats()
	stop, _ := f.Eval(oneLine(b), "message", int(p.num.Add(1)), &out, &msgs) // a bytes.Buffer does not fail
	after := f.Stats()
	if !stop {
		// After halt a Filter gives no more results: it is dropped.
		p.pool.Put(f)
	}
	var batch service.MessageBatch
	for line := range bytes.Lines(out.Bytes()) {
		line = line[:len(line)-1]
		if p.raw {
			if s, ok := jsonl.DecodeString(line); ok {
				line = []byte(s)
			}
		}
		m := msg.Copy()
		m.SetBytes(bytes.Clone(line))
		batch = append(batch, m)
	}
	p.results.Incr(int64(len(batch)))
	failedNow := after.Bad > before.Bad || after.Errors > before.Errors || (after.Halted && after.HaltCode != 0)
	text := strings.TrimRight(msgs.String(), "\n")
	switch {
	case failedNow:
		p.errs.Incr(1)
		if text == "" {
			text = "jq: halted with an error"
		}
		batch = append(batch, failed(msg, errors.New(text)))
	case text != "":
		p.log.Debugf("zevo_jq: %s", text) // debug, stderr
	}
	return batch, nil
}

// oneLine replaces line ends by spaces: outside strings, where JSON
// allows them, they are only white space, and results are separated by
// them.
func oneLine(b []byte) []byte {
	if bytes.IndexAny(b, "\r\n") < 0 {
		return b
	}
	b = bytes.Clone(b)
	for i, c := range b {
		if c == '\n' || c == '\r' {
			b[i] = ' '
		}
	}
	return b
}

func (p *jqProc) Close(ctx context.Context) error { return nil }
