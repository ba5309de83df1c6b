package otel

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
)

// The gaps that keep Zero and EvoScientist input on today's path
// (onEventPath): on every Zero and EvoScientist sample of testdata, the
// traces the event path (eventTracer) makes are today's, but for what
// otelGaps lists, by attribute (or "time", "span id"), each with what the
// event model lacks for it. Zero and EvoScientist move to the event path
// once the list is empty, or every entry on it is a fix.

// otelGaps: attribute (or aspect) → why the event path differs.
var otelGaps = map[string]string{
	"zevo.tool.side_effect":  "fix: every tool span says its side effect, the producer's else the effects table's, as for every other agent (today only Zero's stated one, and an invalid one as written rather than unknown)",
	"span status":            "rule of the model: a run that stops to wait for the user (EvoScientist's done right after a question, Zero's spec_review_required) is paused, neither Ok nor Error (today Ok)",
	"zevo.permission.reason": "fix: a permission that states no reason of its own gives its sandbox block's (Zero's block or violation), as view and stats read it",
	"gen_ai.tool.call.id":    "rule of the decoders: a key written twice in a line is read at its first (hostile/dup-keys.jsonl), as every command reads it now",
}

// traceFacts are what a batch of traces says, span by span, without the
// ids and times that differ by construction: one line per attribute, per
// span event's name and per attribute of a span event (apart from its
// name, so that an event named otherwise shows once), and the ids and
// times apart.
func traceFacts(td ptrace.Traces) (facts []string, ids, times string) {
	var idb, tb strings.Builder
	for i := 0; i < td.ResourceSpans().Len(); i++ {
		rs := td.ResourceSpans().At(i)
		rs.Resource().Attributes().Range(func(k string, v pcommon.Value) bool {
			facts = append(facts, fmt.Sprintf("run %d resource %s=%s", i, k, v.AsString()))
			return true
		})
		ss := rs.ScopeSpans().At(0).Spans()
		for j := 0; j < ss.Len(); j++ {
			s := ss.At(j)
			at := fmt.Sprintf("run %d span %d %s", i, j, s.Name())
			fmt.Fprintf(&idb, "%s %s %s %s\n", at, s.TraceID(), s.SpanID(), s.ParentSpanID())
			fmt.Fprintf(&tb, "%s %d %d\n", at, s.StartTimestamp(), s.EndTimestamp())
			facts = append(facts, fmt.Sprintf("%s status %v %s", at, s.Status().Code(), s.Status().Message()))
			s.Attributes().Range(func(k string, v pcommon.Value) bool {
				facts = append(facts, fmt.Sprintf("%s %s=%s", at, k, v.AsString()))
				return true
			})
			for e := 0; e < s.Events().Len(); e++ {
				ev := s.Events().At(e)
				fmt.Fprintf(&tb, "%s event %d %d\n", at, e, ev.Timestamp())
				facts = append(facts, fmt.Sprintf("%s event %d %s", at, e, ev.Name()))
				ev.Attributes().Range(func(k string, v pcommon.Value) bool {
					facts = append(facts, fmt.Sprintf("%s event %d %s=%s", at, e, k, v.AsString()))
					return true
				})
			}
		}
	}
	sort.Strings(facts)
	return facts, idb.String(), tb.String()
}

// exportEvents traces data through the event path alone.
func exportEvents(t *testing.T, name string, data []byte, opt Options) ptrace.Traces {
	t.Helper()
	b := NewBatch()
	et := newEventTracer(name, &opt, dialects.NewInput(event.DecodeOptions{}), func(td ptrace.Traces, _ *inspect.Run) { b.Add(td) })
	lr := jsonl.NewReader(bytes.NewReader(data), name, nil)
	for {
		l, err := lr.Next()
		if err != nil {
			break
		}
		et.Line(l)
	}
	et.End()
	return b.Traces()
}

// gapsOf names what a fact is of: its attribute, a span event's name, or
// a span's status.
func gapsOf(fact string) []string {
	_, rest, _ := strings.Cut(fact, " span ")
	if rest == "" {
		_, rest, _ = strings.Cut(fact, " resource ")
		k, _, _ := strings.Cut(rest, "=")
		return []string{k}
	}
	f := strings.Fields(rest)
	// f: index, span name words..., then an attribute, "status", or "event".
	for i, w := range f {
		switch {
		case w == "event" && strings.Contains(f[i+2], "="):
			k, _, _ := strings.Cut(f[i+2], "=")
			return []string{k}
		case w == "event":
			return []string{"event " + f[i+2]}
		case w == "status":
			return []string{"span status"}
		case strings.Contains(w, "="):
			k, _, _ := strings.Cut(w, "=")
			return []string{k}
		}
	}
	return []string{f[1]} // a span of its own: its name
}

func TestEventTracesGapsForZeroAndEvoSci(t *testing.T) {
	used := map[string]bool{}
	golden, _ := filepath.Glob("../testdata/golden/*/*.jsonl")
	for _, f := range append(samples(t), golden...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, today, _ := export(t, f, data, Options{Clock: SyntheticClock})
		tf, tIDs, tTimes := traceFacts(today)
		ef, eIDs, eTimes := traceFacts(exportEvents(t, f, data, Options{Clock: SyntheticClock}))
		name := strings.TrimPrefix(f, "../testdata/")
		gap := func(what string, gs ...string) {
			for _, g := range gs {
				if otelGaps[g] != "" {
					used[g] = true
					return
				}
			}
			t.Errorf("%s: %s", name, what)
		}
		if tIDs != eIDs {
			gap("span ids differ", "span id")
		}
		if tTimes != eTimes {
			gap("times differ", "time")
		}
		in := map[string]int{}
		for _, x := range tf {
			in[x]++
		}
		for _, x := range ef {
			in[x]--
		}
		for x, n := range in {
			switch {
			case n > 0:
				gap("today only: "+x, gapsOf(x)...)
			case n < 0:
				gap("events only: "+x, gapsOf(x)...)
			}
		}
	}
	for g, why := range otelGaps {
		if !used[g] {
			t.Errorf("%s agrees now on every sample; remove it from otelGaps (%s)", g, why)
		}
	}
}
