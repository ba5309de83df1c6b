package benthos

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/redpanda-data/benthos/v4/public/service"
	"github.com/zevo/zevo/internal/input"
	"github.com/zevo/zevo/jsonl"
)

// endMeta marks a message that ends its key's stream: zevo_translate
// closes the key as zevo closes a stream at the end of its input. The
// zevo_lines scanner writes one after the last line of each input.
const endMeta = "zevo_end"

// EndMessage is the empty message that marks the end of an input.
func EndMessage() *service.Message {
	m := service.NewMessage(nil)
	m.MetaSet(endMeta, "true")
	return m
}

// IsEnd reports whether m marks the end of an input.
func IsEnd(m *service.Message) bool {
	_, ok := m.MetaGet(endMeta)
	return ok
}

func linesSpec() *service.ConfigSpec {
	return service.NewConfigSpec().
		Summary("Reads lines as zevo reads them, and marks the end of each input for zevo_translate.").
		Description(`Each line is a message: a UTF-8 byte order mark at the start and the CR
of a CRLF line end are removed, and a line may be of any length. After the
last line comes an empty message with the metadata zevo_end set to "true",
with which zevo_translate closes the key's stream (a run still open ends as
incomplete), as zevo translate does at the end of each file. Input
compressed with gzip or zstd is decompressed, told by its first bytes
whatever its name, as zevo reads it.`)
}

type linesCreator struct{}

func (linesCreator) Create(r io.ReadCloser, ack service.AckFunc, d *service.ScannerSourceDetails) (service.BatchScanner, error) {
	return service.AutoAggregateBatchScannerAcks(&lines{rc: r, name: d.Name()}, ack), nil
}

func (linesCreator) Close(context.Context) error { return nil }

// lines is one input read by zevo_lines.
type lines struct {
	rc    io.ReadCloser
	name  string
	r     *jsonl.Reader // made by the first NextBatch
	ended bool          // the end message is written
}

func (l *lines) NextBatch(context.Context) (service.MessageBatch, error) {
	if l.ended {
		return nil, io.EOF
	}
	if l.r == nil {
		// zevo's own opener tells compressed input by its first bytes,
		// which it reads here, not in Create: a live input may not have
		// them yet.
		r, err := input.Decompress(l.rc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", l.name, err)
		}
		l.rc, l.r = r, jsonl.NewReader(r, l.name, nil)
	}
	line, err := l.r.Next()
	if err == io.EOF {
		l.ended = true
		return service.MessageBatch{EndMessage()}, nil
	}
	if err != nil {
		return nil, err
	}
	return service.MessageBatch{service.NewMessage(bytes.Clone(line.Bytes))}, nil
}

func (l *lines) Close(context.Context) error { return l.rc.Close() }
