package inspect

import (
	"github.com/zevo/zevo/dialects/evosci"
	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/dialects/zero/zerotest"
	"io"

	"github.com/zevo/zevo/dialects"
	evt "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// Short names for the tests.
var (
	Auto      *jsonl.Protocol // each line's own
	Zero      = zero.V2
	Zero1     = zero.V1
	ZeroInput = zero.Input
	EvoSci    = evosci.Protocol
)

type Protocol = *jsonl.Protocol

// NewSummarizer is stats' summarizer of the input named name: each line
// read as the dialect that claims it, or with as, every line as the
// dialect of that protocol.
func NewSummarizer(name string, as Protocol) *EventSummarizer {
	in := dialects.NewInput(evt.DecodeOptions{})
	if as != nil {
		d, ok := dialects.ByName(as.Name)
		if !ok {
			panic("no dialect for protocol " + as.Name)
		}
		in = evt.NewInput([]*evt.Dialect{d}, d, evt.DecodeOptions{})
	}
	return NewEventSummarizer(name, in)
}

// Summarize reads r to the end through NewSummarizer and returns its
// statistics.
func Summarize(r io.Reader, name string, as Protocol) (*FileStats, error) {
	s := NewSummarizer(name, as)
	lr := jsonl.NewReader(r, name, nil)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return s.End(), err
		}
		s.Line(l)
	}
	return s.End(), nil
}

// asOpt is ValidateOptions reading every line as p's dialect and
// checking it against p's schema (nil: each line's own).
func asOpt(p Protocol) ValidateOptions {
	if p == nil {
		return ValidateOptions{}
	}
	ds, err := LookupSchema(p.Name)
	if err != nil {
		panic(err)
	}
	return ValidateOptions{Dialect: ds.Dialect, Schema: ds.Schema}
}

// parseProtocol reads a protocol's name; "auto" is nil.
func parseProtocol(s string) (Protocol, error) {
	if s == "auto" {
		return nil, nil
	}
	return zerotest.Lookup(s)
}
