package zero_test

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/redact"
)

// textStream is a stream of mostly text and reasoning events with the
// strings that test redaction and escaping, over runs that change, start
// with an event Zero drops (its run_start written late) or are cut, with
// sub-agents' texts and empty ones among them.
func textStream(seed int64) []event.Event {
	r := rand.New(rand.NewSource(seed))
	texts := []string{"", "plain words", "x", "a\"b\\c\n\t\u2028\u2029<&>", "caf\xe9 \xff", "😀\x00\x1f\x7f",
		"key sk-ant-api03-" + strings.Repeat("Z", 40), "Bearer abcdefghijklmnop123", "password=hunter2hunter2",
		"AKIAABCDEFGHIJKLMNOP", strings.Repeat("long text that is past the memo ", 3), strings.Repeat("é", 25)}
	runs := []string{"r1", "run_20250101000000_abcdef", "sk-ABCDEFGHIJKLMNOPQRSTUV12", "r\"2\u2028", ""}
	var evs []event.Event
	run := runs[0]
	for i := 0; i < 3000; i++ {
		ev := event.Event{Dialect: "test", Type: "t", Run: run}
		switch n := r.Intn(40); {
		case n == 0:
			run = runs[r.Intn(len(runs))]
			ev.Run = run
			ev.Kind = event.SubStart // dropped: the run's start written late
		case n == 1:
			ev.Kind, ev.Status = event.RunEnd, event.StatusSuccess
		case n == 2:
			ev.Kind, ev.Tool = event.ToolCall, &event.Tool{ID: "c1", Name: "read_file", Args: []byte(`{"path":"sk-ABCDEFGHIJKLMNOPQRSTUV12"}`)}
		case n == 3:
			ev.Kind, ev.Text = event.Final, texts[r.Intn(len(texts))]
		case n == 4:
			ev.Kind, ev.Text, ev.Sub = event.Text, "a sub-agent's", "s1"
		case n == 5:
			run = runs[r.Intn(len(runs))]
			ev.Run, ev.Kind = run, event.RunStart
		default:
			ev.Kind = event.Text
			if r.Intn(3) > 0 {
				ev.Kind = event.Reasoning
			}
			ev.Text = texts[r.Intn(len(texts))] + texts[r.Intn(len(texts))]
		}
		evs = append(evs, ev)
	}
	return evs
}

// encodeLines is what an Encoder writes of evs, placed in their runs;
// plain: member by member (no text line from its rendered tail).
func encodeLines(t *testing.T, opt zero.EncodeOptions, evs []event.Event, plain bool) string {
	t.Helper()
	n := 0
	opt.NewRunID = func() string { n++; return "run_" + strings.Repeat("x", n%3) }
	opt.NewSessionID = func() string { return "zero_s" }
	var out bytes.Buffer
	opt.Plain = plain
	enc := zero.NewEncoder(opt, func(b []byte) error {
		out.Write(b)
		return out.WriteByte('\n')
	})
	var runs event.Runs
	for i := range evs {
		ev := evs[i]
		ev.Line = i + 1
		if _, err := enc.Encode(&ev, runs.Place(&ev)); err != nil {
			t.Fatal(err)
		}
	}
	if r := runs.End(); r != nil {
		if _, err := enc.Encode(nil, event.Step{Closed: r}); err != nil {
			t.Fatal(err)
		}
	}
	return out.String()
}

// TestTextLinesAreThePlainOnes holds the text and reasoning lines written
// from a run's rendered tail to those built member by member, for every
// redactor, both versions, with and without Keep.
func TestTextLinesAreThePlainOnes(t *testing.T) {
	texts := 0
	for seed := int64(1); seed <= 4; seed++ {
		evs := textStream(seed)
		for _, r := range []*redact.Redactor{nil, {}, redact.WithExtra()} {
			for _, version := range []int{1, 2} {
				for _, keep := range []bool{false, true} {
					opt := zero.EncodeOptions{Version: version, Redactor: r, Keep: keep, Cwd: "/w"}
					got, want := encodeLines(t, opt, evs, false), encodeLines(t, opt, evs, true)
					if got != want {
						gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
						for i := range min(len(gl), len(wl)) {
							if gl[i] != wl[i] {
								t.Fatalf("seed %d, redactor %v, version %d, keep %v: line %d\n got %s\nwant %s", seed, r != nil, version, keep, i+1, gl[i], wl[i])
							}
						}
						t.Fatalf("seed %d: %d lines, want %d", seed, len(gl), len(wl))
					}
					texts += strings.Count(got, `"type":"text"`) + strings.Count(got, `"type":"reasoning"`)
				}
			}
		}
	}
	if texts < 1000 {
		t.Fatalf("only %d text lines written: the streams test little", texts)
	}
}
