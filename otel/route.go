package otel

import (
	"bytes"
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// onEventPath is the one place that decides how an input is read: the
// dialect of its first JSON object (dl) chooses. Zero and EvoScientist,
// the dialects with a protocol of their own in package protocol, keep the
// path of inspect.Summarizer, whose traces are the ones zevo has always
// exported (its differential tests and goldens pin them byte for byte);
// every other dialect is read through events (dialects.NewInput, the
// eventTracer). Zero and EvoScientist move to the event path once the
// event model closes the gaps the dialects' differential tests list
// (dialects/zero/agree_test.go), and this function goes.
func onEventPath(dl *event.Dialect) bool {
	_, err := protocol.Lookup(dl.Name)
	return err != nil
}

// route is how a Tracer reading with --as auto sends each line on.
type route struct {
	det   *event.Detector // nil: no routing (--as names the input's protocol or dialect)
	first *event.Dialect  // the dialect of the input's first JSON object
	ev    *eventTracer    // the event path, when the input is on it
}

// routeLine sends the line l of an input read with --as auto to the event
// path (its first JSON object being of a dialect on it), or reports it as
// not exported (a line of a dialect of the other path than the input's);
// it returns false for a line today's path reads. A line that is not a
// JSON object goes to the input's path, whose reader reports it.
func (t *Tracer) routeLine(l jsonl.Line) bool {
	b := bytes.TrimLeft(l.Bytes, " \t\r\n")
	if len(b) == 0 || b[0] != '{' || !gjson.ValidBytes(b) {
		return t.toEvents(l)
	}
	dl := t.det.Detect(b)
	if t.first == nil {
		t.first = dl
		if dl == nil {
			t.first = dialects.Fallback // as dialects.NewInput reads it
		}
		if onEventPath(t.first) {
			t.ev = newEventTracer(t.file, &t.opt, dialects.NewInput(event.DecodeOptions{}), t.emit)
		}
	}
	if dl != nil && onEventPath(dl) != (t.ev != nil) {
		if t.opt.Invalid != nil {
			t.opt.Invalid(l.Num, fmt.Errorf("a line of %s, in an input read as %s (the dialect of its first line)", dl.Name, t.first.Name))
		}
		return true
	}
	return t.toEvents(l)
}

// toEvents reads l on the event path, when the input is on it.
func (t *Tracer) toEvents(l jsonl.Line) bool {
	if t.ev == nil {
		return false
	}
	t.ev.Line(l)
	return true
}
