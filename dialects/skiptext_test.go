package dialects

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/zevo/zevo/dialects/evosci"
	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/event"
)

// withoutTexts is out with the texts DecodeOptions.SkipText may leave
// out (and what they tell: a tool's output cut short) cleared.
func withoutTexts(out []decoded) []decoded {
	for i := range out {
		evs := append([]event.Event(nil), out[i].Events...)
		for j := range evs {
			evs[j].Text = ""
			if t := evs[j].Tool; t != nil {
				c := *t
				c.Output, c.Truncated = "", false
				evs[j].Tool = &c
			}
		}
		out[i].Events = evs
	}
	return out
}

// decodeSkipping is decodeEach with the decoder's own reading, skip
// given as SkipText.
func decodeSkipping(d *event.Dialect, lines [][]byte, skip bool) []decoded {
	dec := d.NewDecoder(event.DecodeOptions{Effects: effects(), SkipText: skip})
	var out []decoded
	for i, line := range lines {
		evs, err := dec.Decode(nil, line, i+1)
		o := decoded{Events: evs}
		if err != nil {
			o.Err = err.Error()
		}
		out = append(out, o)
	}
	return append(out, decoded{Events: dec.End(nil)})
}

// A decoder told to skip texts makes the same events but for texts, and
// the same diagnostics, word for word (a text field of the wrong type is
// still named): every line of testdata's streams and generated corpora
// of both dialects, with a text of each wrong type in each.
func TestSkipTextChangesNothingButTexts(t *testing.T) {
	inputs := streams(t)
	for _, p := range []*event.Dialect{zero.Dialect, evosci.Dialect} {
		var b bytes.Buffer
		if _, err := p.Corpus.Write(&b, 128<<10, 1); err != nil {
			t.Fatal(err)
		}
		inputs["generated "+p.Name] = bytes.Split(b.Bytes(), []byte("\n"))
	}
	inputs["texts of other types"] = bytes.Split([]byte(`{"schemaVersion":2,"type":"reasoning","runId":"r","delta":5}
{"schemaVersion":2,"type":"text","runId":"r","delta":{"a":"b\n"}}
{"schemaVersion":2,"type":"tool_result","runId":"r","id":"c","name":"n","status":"ok","output":[1]}
{"schemaVersion":2,"type":"final","runId":"r","text":true}
{"schemaVersion":2,"type":"final","runId":"r","text":null}
{"type": "thinking", "content": 7}
{"type": "text", "content": ["x"]}
{"type": "tool_result", "name": "n", "content": false, "success": true}
{"type": "subagent_text", "content": {"x": 1}}`), []byte("\n"))
	skipped := 0
	for name, lines := range inputs {
		for _, d := range All {
			all := decodeSkipping(d, lines, false)
			some := decodeSkipping(d, lines, true)
			for i := range some {
				for j := range some[i].Events {
					if j < len(all[i].Events) && some[i].Events[j].Text != all[i].Events[j].Text {
						skipped++
					}
				}
			}
			all, some = withoutTexts(all), withoutTexts(some)
			for i := range all {
				if !reflect.DeepEqual(some[i], all[i]) {
					t.Fatalf("%s line %d, %s: skipping texts\n%+v\nreading them\n%+v", name, i+1, d.Name, some[i], all[i])
				}
			}
		}
	}
	if skipped == 0 {
		t.Error("no text was skipped: the test compares nothing")
	}
}
