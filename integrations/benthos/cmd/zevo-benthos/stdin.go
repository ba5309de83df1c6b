package main

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/redpanda-data/benthos/v4/public/service"
	"github.com/redpanda-data/benthos/v4/public/service/codec"
	"github.com/zevo/zevo/integrations/benthos"
)

// stdin replaces Benthos' stdin input with one whose scanner is zevo_lines
// by default: lines of any length (Benthos' lines scanner stops at 64 KiB,
// and an agent's tool output is often longer), a byte order mark removed,
// and the end of the input marked, so that a run it leaves open is closed
// as zevo translate closes it. Its settings are those of Benthos' stdin.
// With another scanner (lines, as a Benthos user often writes it) the end
// is marked all the same, so a run cut off by the end is closed there too.
func init() {
	spec := service.NewConfigSpec().
		Categories("Local").
		Summary("Consumes data piped to stdin, cut into messages by the scanner: by default zevo_lines, lines as zevo reads them and the end of the input marked.").
		Fields(codec.DeprecatedCodecFields("zevo_lines")...).
		Field(service.NewAutoRetryNacksToggleField())
	err := service.RegisterBatchInput("stdin", spec,
		func(conf *service.ParsedConfig, mgr *service.Resources) (service.BatchInput, error) {
			c, err := codec.DeprecatedCodecFromParsed(conf)
			if err != nil {
				return nil, err
			}
			s, err := c.Create(io.NopCloser(os.Stdin), func(context.Context, error) error { return nil }, service.NewScannerSourceDetails())
			if err != nil {
				return nil, err
			}
			return service.AutoRetryNacksBatchedToggled(conf, &stdinInput{s: s})
		})
	if err != nil {
		panic(err)
	}
}

type stdinInput struct {
	s      codec.DeprecatedFallbackStream
	ended  bool // the last message read marks the end of the input
	failed bool // the scanner failed: it would fail again on every read
}

func (in *stdinInput) Connect(context.Context) error { return nil }

func (in *stdinInput) ReadBatch(ctx context.Context) (service.MessageBatch, service.AckFunc, error) {
	var batch service.MessageBatch
	var ack service.AckFunc
	err := io.EOF
	if !in.failed {
		batch, ack, err = in.s.NextBatch(ctx)
	}
	if errors.Is(err, io.EOF) {
		if !in.ended {
			in.ended = true
			return service.MessageBatch{benthos.EndMessage()}, func(context.Context, error) error { return nil }, nil
		}
		return nil, nil, service.ErrEndOfInput
	}
	if err != nil {
		// Benthos logs the error and reads again; a scanner's errors
		// (a line beyond lines' max_buffer_size: "token too long") stay,
		// so the input ends there, as zevo translate ends at a read error,
		// rather than repeating the error for ever.
		in.failed = true
		return nil, nil, err
	}
	in.ended = len(batch) > 0 && benthos.IsEnd(batch[len(batch)-1])
	return batch, ack, nil
}

func (in *stdinInput) Close(ctx context.Context) error { return in.s.Close(ctx) }
