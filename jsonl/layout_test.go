package jsonl_test

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects/zero/zerotest"
	. "github.com/zevo/zevo/jsonl"
)

// layoutAgrees checks one line: when a layout takes it, Decode splits it
// into the same members, and no other layout takes it.
func layoutAgrees(t *testing.T, b []byte) (taken bool) {
	t.Helper()
	var d Decoder
	for i, z := range zerotest.PairLayouts {
		var lo LineObject
		if !z.Layout.Decode(b, &lo) {
			continue
		}
		if taken {
			t.Fatalf("%q: taken by two layouts", b)
		}
		taken = true
		var do LineObject
		if err := d.Decode(b, &do); err != nil {
			t.Fatalf("layout %d takes %q, which Decode refuses: %v", i, b, err)
		}
		if do.Dup != "" || len(do.NonFinite) > 0 || lo.Dup != "" || len(lo.NonFinite) > 0 || lo.Raw != do.Raw {
			t.Fatalf("%q: Dup %q/%q, NonFinite %v/%v", b, lo.Dup, do.Dup, lo.NonFinite, do.NonFinite)
		}
		lm, dm := lo.Members(), do.Members()
		if len(lm) != len(dm) {
			t.Fatalf("%q: %d members by layout, %d by Decode", b, len(lm), len(dm))
		}
		for j := range lm {
			l, m := lm[j], dm[j]
			if l.Key != m.Key || StateOf(l) != StateOf(m) {
				t.Fatalf("%q: member %d by layout %+v, by Decode %+v", b, j, l, m)
			}
			if k := z.Layout.Index(l.Key); k != j || lo.StrAt(j) != do.Str(l.Key) {
				t.Fatalf("%q: %q is member %d, Index says %d; StrAt %q, Str %q", b, l.Key, j, k, lo.StrAt(j), do.Str(l.Key))
			}
		}
		for _, k := range []string{"delta", "runId", "schemaVersion", "type", "x", "id", "name", "output", "status", "truncated", "content", "args", "success", "promptTokens", "completionTokens", "totalTokens", "sideEffect"} {
			if lv, dv := lo.Get(k), do.Get(k); lv.Raw != dv.Raw || lv.Str != dv.Str || lv.Type != dv.Type || lv.Num != dv.Num {
				t.Fatalf("%q: Get(%q) by layout %+v, by Decode %+v", b, k, lv, dv)
			}
		}
		if zerotest.Detect(&lo) != z.Protocol || lo.Str("type") != z.Type {
			t.Fatalf("%q: detected %v, type %q; layout of %s %q", b, zerotest.Detect(&lo).Name, lo.Str("type"), z.Protocol.Name, z.Type)
		}
	}
	return taken
}

// TestLayoutAsDecode holds the layouts to Decode: on Zero's deltas with
// strings of every kind, and on each of them changed at every byte (each
// byte replaced, removed, doubled), a line a layout takes is one Decode
// accepts and splits into the same members. And it takes every delta
// written in its layout that Decode accepts, and the producers' own lines.
func TestLayoutAsDecode(t *testing.T) {
	strs := []string{``, `a`, `\n`, `\"`, `\\`, `\u003c`, `\u00e9`, `\ud83d\ude00`, `é`, `中`, `😀`, `\/`, `\u0000`,
		`","runId":"x`, `\",\"runId\":\"x`, `}`, `"`, `\`, `\u12`, `\uzzzz`, "\x01", "\xff", "\xc3", "\xed\xa0\x80",
		`x\\`, `\\\"`, strings.Repeat("long text ", 40), strings.Repeat(`\u003c`, 20)}
	r := rand.New(rand.NewSource(1))
	var d Decoder
	taken := 0
	for i := range 900 {
		delta := strs[i%len(strs)]
		if i >= len(strs) {
			delta = strs[r.Intn(len(strs))] + strs[r.Intn(len(strs))] + strs[r.Intn(len(strs))]
		}
		run := []string{"run_20260101000000_abcdef", `run_2026\u0030101000000_abcdef`, "", "é"}[r.Intn(4)]
		// Zero's delta, or EvoScientist's thinking or text: so many
		// members when the strings hold no separators of their own.
		line, members := []byte(`{"delta":"`+delta+`","runId":"`+run+`","schemaVersion":2,"type":"`+[]string{"reasoning", "text"}[r.Intn(2)]+`"}`), 4
		args := []string{`{}`, `{"path":"` + delta + `"}`, `[1,{"a":null}]`, `"` + delta + `"`, `12`, `-1.5e3`, `true`, `null`, `{"a":`, `01`, `NaN`, `{"a":1}}`}[r.Intn(12)]
		switch i % 9 {
		case 5:
			line, members = []byte(`{"args":`+args+`,"id":"`+delta+`","name":"n","runId":"`+run+`","schemaVersion":2,"sideEffect":"read","type":"tool_call"}`), 7
		case 6:
			line, members = []byte(`{"completionTokens":`+args+`,"promptTokens":3,"runId":"`+run+`","schemaVersion":2,"totalTokens":`+args+`,"type":"usage"}`), 6
		case 7:
			line, members = []byte(`{"type": "tool_call", "name": "`+delta+`", "args": `+args+`, "id": "c1"}`), 4
		case 8:
			line, members = []byte(`{"type": "tool_result", "name": "n", "content": "`+delta+`", "success": `+args+`, "id": "c1"}`), 5
		case 4:
			line, members = []byte(`{"id":"`+delta+`","name":"n","output":"`+delta+`","runId":"`+run+`","schemaVersion":2,"status":"ok","truncated":false,"type":"tool_result"}`), 8
		case 1:
			line, members = []byte(`{"type": "thinking", "content": "`+delta+`", "id": 0}`), 3
		case 3:
			line, members = []byte(`{"type": "text", "content": "`+delta+`"}`), 2
		}
		var o LineObject
		if ok := layoutAgrees(t, line); ok != (d.Decode(line, &o) == nil && o.Dup == "" && len(o.NonFinite) == 0 && o.Len() == members) {
			t.Fatalf("%q: taken by a layout %v, accepted by Decode %v", line, ok, !ok)
		} else if ok {
			taken++
		}
		if i%8 != 0 {
			continue
		}
		for j := range line {
			for _, c := range []byte{'"', '\\', '}', ',', ' ', 'x', '2', 0x80} {
				m := bytes.Clone(line)
				m[j] = c
				layoutAgrees(t, m)
			}
			layoutAgrees(t, append(bytes.Clone(line[:j]), line[j+1:]...))
			layoutAgrees(t, append(bytes.Clone(line[:j+1]), line[j:]...))
		}
	}
	if taken < 250 {
		t.Fatalf("the layouts took %d of 900 lines", taken)
	}
	// Zero's own serialization of its deltas, from the shipped samples.
	for _, l := range []string{
		`{"delta":"Let me look at the tests.","runId":"run_20260101000000_abcdef","schemaVersion":2,"type":"reasoning"}`,
		`{"delta":"Done \u003cok\u003e","runId":"run_20260101000000_abcdef","schemaVersion":2,"type":"text"}`,
		`{"type": "thinking", "content": "na\u00efve \"quoted\"", "id": 0}`,
		`{"id":"call_1","name":"read_file","output":"a\nb","runId":"run_20260101000000_abcdef","schemaVersion":2,"status":"ok","truncated":false,"type":"tool_result"}`,
		`{"type": "text", "content": "x > y\n\n"}`,
	} {
		if !layoutAgrees(t, []byte(l)) {
			t.Errorf("no layout takes %s", l)
		}
	}
	for _, l := range []string{
		`{"delta":"x","runId":"r","schemaVersion":2,"type":"text"} `,
		` {"delta":"x","runId":"r","schemaVersion":2,"type":"text"}`,
		`{"delta":"x","runId":"r","schemaVersion":1,"type":"text"}`,
		`{"delta":"x","runId":"r","schemaVersion":2,"type":"text","x":1}`,
		`{"delta":5,"runId":"r","schemaVersion":2,"type":"text"}`,
		`{"runId":"r","delta":"x","schemaVersion":2,"type":"text"}`,
		`{"delta":"x","runId":"r","schemaVersion":2,"type":"text"}{"delta":"x","runId":"r","schemaVersion":2,"type":"text"}`,
		`{"type": "thinking", "content": "x", "id": 1}`,
		`{"id":"c","name":"n","output":"o","runId":"r","schemaVersion":2,"status":"ok","truncated":true,"type":"tool_result"}`,
		`{"id":"c","name":"n","output":"o","runId":"r","schemaVersion":2,"status":"ok","truncated":false,"type":"tool_result","x":1}`,
		`{"type":"text","content":"x"}`,
		`{"type": "text", "content": "x", "id": 0}`,
		`{"type": "text", "content": "x"}{"type": "text", "content": "x"}`,
		`{"type": "tool_call", "name": "x", "args":  {}, "id": "c1"}`,
		`{"type": "tool_call", "name": "x", "args": {} , "id": "c1"}`,
		`{"args": {},"id":"c","name":"n","runId":"r","schemaVersion":2,"sideEffect":"read","type":"tool_call"}`,
	} {
		if layoutAgrees(t, []byte(l)) {
			t.Errorf("a layout takes %s", l)
		}
	}
}

// A layout with no varying string takes its line and nothing longer.
func TestLayoutOfFixedValues(t *testing.T) {
	l := NewLayout(PythonStyle, LayoutField{Key: "type", Raw: `"done"`}, LayoutField{Key: "n", Raw: "1"})
	var o LineObject
	if !l.Decode([]byte(`{"type": "done", "n": 1}`), &o) || o.Str("type") != "done" || o.Get("n").Num != 1 {
		t.Fatalf("not taken: %+v", o.Members())
	}
	for _, s := range []string{`{"type": "done", "n": 1}{"type": "done", "n": 1}`, `{"type": "done", "n": 1}}`, `{"type":"done","n":1}`} {
		if l.Decode([]byte(s), &o) {
			t.Errorf("taken: %s", s)
		}
	}
}

func FuzzLayoutAsDecode(f *testing.F) {
	f.Add([]byte(`{"delta":"a\u003cb","runId":"run_20260101000000_abcdef","schemaVersion":2,"type":"text"}`))
	f.Add([]byte(`{"delta":"é\"","runId":"r","schemaVersion":2,"type":"reasoning"}`))
	f.Add([]byte(`{"delta":"x","runId":"r","schemaVersion":2,"type":"text"}x`))
	f.Add([]byte(`{"type": "thinking", "content": "\u00e9", "id": 0}`))
	f.Add([]byte(`{"type": "text", "content": "a\\"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		layoutAgrees(t, b)
	})
}
