package evosci_test

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/dialects/evosci"
	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/event"
)

// encodeBoth writes evs with the encoder as it runs and with the plain
// one (every line through its object) and fails where they differ.
func encodeBoth(t *testing.T, opt evosci.EncodeOptions, evs []event.Event) int {
	t.Helper()
	var got, want []string
	enc := evosci.NewEncoder(opt, func(b []byte) error { got = append(got, string(b)); return nil })
	plain := opt
	plain.Plain = true
	ref := evosci.NewEncoder(plain, func(b []byte) error { want = append(want, string(b)); return nil })
	var runs event.Runs
	for i := range evs {
		st := runs.Place(&evs[i])
		m1, err1 := enc.Encode(&evs[i], st)
		m2, err2 := ref.Encode(&evs[i], st)
		if m1 != m2 || (err1 == nil) != (err2 == nil) {
			t.Fatalf("event %d (%v): mapped %v, error %v; plain: %v, %v", i, evs[i].Kind, m1, err1, m2, err2)
		}
	}
	if r := runs.End(); r != nil {
		enc.Encode(nil, event.Step{Closed: r})
		ref.Encode(nil, event.Step{Closed: r})
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, plain %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("line %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
	return len(got)
}

// The lines written straight (no redaction) are those the object
// writes: on the edges of each event written so, and on a Zero corpus
// decoded as a translation decodes it (outputs kept as spelled).
func TestDirectLinesAreTheObjects(t *testing.T) {
	tool := func(id, name, out, spelled string, failed bool) *event.Tool {
		return &event.Tool{ID: id, Name: name, Output: out, OutputJSON: spelled, Failed: failed}
	}
	edges := []event.Event{
		{Kind: event.RunStart},
		{Kind: event.Text, Text: "a \"quoted\" <b>&</b>\n\tnaïve — 😀 \x7f \u2028"},
		{Kind: event.Text, Text: "\xed\xa0\x80 lone surrogate, \xff bad byte"},
		{Kind: event.Reasoning, Text: "think\u0000\u001f"},
		{Kind: event.Text, Text: ""}, {Kind: event.Reasoning, Text: ""},
		{Kind: event.Text, Text: "sub", Sub: "agent"},
		{Kind: event.ToolCall, Tool: &event.Tool{ID: "c1", Name: "read", Args: []byte(`{"path":"x"}`)}},
		{Kind: event.ToolResult, Tool: tool("c1", "", "out\nput", "", false)},
		{Kind: event.ToolResult, Tool: tool("c2", "nämé\"", "", `a\u003cb\u003e\n\u00e9 \ud83d\ude00 \ud800`, true)},
		{Kind: event.ToolResult, Tool: tool("", "", "", "", false)},
		{Kind: event.ToolResult, Tool: tool("c3", "x", strings.Repeat("long output é\n", 500), "", true)},
		{Kind: event.RunEnd, Status: event.StatusSuccess},
		{Kind: event.RunStart}, {Kind: event.Text, Text: "x"}, {Kind: event.RunEnd, Status: event.StatusSuccess},
	}
	for i := range edges {
		edges[i].Dialect, edges[i].Line = "zero", i+1
	}
	for _, opt := range []evosci.EncodeOptions{{}, {Keep: true}} {
		encodeBoth(t, opt, append([]event.Event(nil), edges...))
	}

	var in bytes.Buffer
	if _, err := corpus.Write(&in, corpus.Options{Protocol: corpus.Zero, Size: 2 << 20, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	dec := zero.Dialect.NewDecoder(event.DecodeOptions{Spelled: true, Surrogates: true})
	var evs []event.Event
	sc := bufio.NewScanner(&in)
	sc.Buffer(nil, 1<<26)
	for n := 1; sc.Scan(); n++ {
		evs, _ = dec.Decode(evs, bytes.Clone(sc.Bytes()), n)
	}
	evs = dec.End(evs)
	kinds := map[event.Kind]int{}
	for _, ev := range evs {
		kinds[ev.Kind]++
	}
	for _, k := range []event.Kind{event.Text, event.Reasoning, event.ToolResult} {
		if kinds[k] < 100 {
			t.Fatalf("the corpus has %d events of kind %v", kinds[k], k)
		}
	}
	for _, opt := range []evosci.EncodeOptions{{}, {Keep: true}} {
		if n := encodeBoth(t, opt, evs); n < len(evs)/2 {
			t.Fatalf("%d lines for %d events", n, len(evs))
		}
	}
}
