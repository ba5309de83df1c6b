package otel

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

var update = flag.Bool("update", false, "rewrite testdata/samples.golden")

// TestSamplesTraces holds the traces of every sample stream of testdata
// (translate, inspect, hostile and the golden inputs) to
// testdata/samples.golden: what each says, span by span, with its ids and
// times (traceFacts). Its Zero and EvoScientist traces are those zevo
// exported before it read them through events, but for these changes:
//   - fix: every tool span says its side effect, the producer's else the
//     effects table's, as for every other agent (before: only Zero's
//     stated one, and an invalid one as written rather than unknown);
//   - fix: a permission that states no reason of its own gives its
//     sandbox block's (Zero's block or violation), as view and stats do;
//   - rule of the model: a run that stops to wait for the user
//     (EvoScientist's done right after a question, Zero's
//     spec_review_required) is paused, its status neither Ok nor Error
//     (before: Ok).
//
// go test ./otel -run TestSamplesTraces -update rewrites it.
func TestSamplesTraces(t *testing.T) {
	golden, _ := filepath.Glob("../testdata/golden/*/*.jsonl")
	var b bytes.Buffer
	for _, f := range append(samples(t), golden...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, td, _ := export(t, f, data, Options{Clock: SyntheticClock})
		facts, ids, times := traceFacts(td)
		fmt.Fprintf(&b, "== %s\n%s\n-- ids\n%s-- times\n%s", strings.TrimPrefix(f, "../testdata/"), strings.Join(facts, "\n"), ids, times)
	}
	const file = "testdata/samples.golden"
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("the traces differ from %s (-update rewrites it) from its line %d:\ngot  %s\nwant %s", file, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("the traces differ from %s in length (%d lines, want %d)", file, len(gl), len(wl))
	}
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
