package translate

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestEventPathReportsLineProblemsAsToday: a line whose fields a decoder
// finds wrong is reported once, in the words and with the output of
// today's translate: a wrong-typed field's line written not at all, a
// Zero line without runId written in the run zevo names (reported, for a
// Zero target, as the run renamed), an EvoScientist line passed through
// as it is read, token counts below 0 or past int64 written as stated
// (to Zero, past int64 only with --unmapped keep, else reported).
func TestEventPathReportsLineProblemsAsToday(t *testing.T) {
	for _, in := range []string{
		`{"type": "tool_call", "name": "lookup", "args": {}, "id": "c1"}
{"type": "tool_result", "name": "lookup", "content": "x", "success": "true", "id": "c1"}
{"type": "done", "content": "x", "response": "x"}`,
		`{"type": "text", "content": 7}
{"type": "done", "content": "x", "response": "x"}`,
		`{"schemaVersion":2,"type":"run_start","runId":"r1"}
{"schemaVersion":2,"type":"tool_result","runId":"r1","callId":"c1","status":7}
{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}`,
		`{"schemaVersion":2,"type":"text","delta":"no runId"}
{"schemaVersion":2,"type":"run_end","status":"success","exitCode":0}`,
		`{"type": "usage_stats", "input_tokens": -5, "output_tokens": 1}
{"type": "done", "content": "x", "response": "x"}`,
		`{"schemaVersion":2,"type":"run_start","runId":"r1"}
{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":-3,"completionTokens":1,"totalTokens":0}
{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}`,
		`{"type": "text", "content": "x"}
{"type": "usage_stats", "input_tokens": 18446744073709551617, "output_tokens": 1}
{"type": "done", "content": "x", "response": "x"}`,
		`{"type": "text", "content": "x"}
{"type": "usage_stats", "input_tokens": 9223372036854775807, "output_tokens": 1}
{"type": "done", "content": "x", "response": "x"}`,
		`{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":18446744073709551617,"completionTokens":0,"totalTokens":0}`,
		`{"type": "text", "content": "x"}
{"type": "usage_stats", "input_tokens": 1.5, "output_tokens": 1}
{"type": "done", "content": "x", "response": "x"}`,
	} {
		for _, to := range []Format{Zero, Zero1, EvoSci} {
			for _, um := range []Unmapped{Drop, Keep} {
				opt := Options{To: to, RunID: "R", Unmapped: um}
				today, tdiags, _ := run(t, opt, []byte(in+"\n"))
				opt.Plain = true
				events, ediags, _ := run(t, opt, []byte(in+"\n"))
				for i, d := range tdiags {
					// Worded from the event, which names Zero's field
					// and not the source's.
					d = strings.Replace(d, "input_tokens 18446744073709551617 does not fit Zero's token counts", "18446744073709551617 does not fit Zero's promptTokens", 1)
					tdiags[i] = strings.Replace(d, "the sum of input_tokens and output_tokens 9223372036854775808 does not fit Zero's token counts", "9223372036854775808 does not fit Zero's totalTokens", 1)
				}
				if !bytes.Equal(today, events) || fmt.Sprint(tdiags) != fmt.Sprint(ediags) {
					t.Errorf("--to %s (unmapped %d) of\n%s\ntoday:\n%s%q\nevent path:\n%s%q", to, um, in, today, tdiags, events, ediags)
				}
			}
		}
	}
}
