package inspect

import (
	"bytes"
	"encoding/json"
	"github.com/zevo/zevo/dialects/zero/zerotest"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	gen "github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/jsonl"
)

// differ validates input both ways, each line checked as its own
// dialect's and as every one of Zero's and EvoScientist's schemas, and
// fails on any difference in diagnostics or report. It returns how many
// lines the fast path accepted.
func differ(t testing.TB, name string, input []byte) int {
	t.Helper()
	fast := 0
	for _, as := range append([]*jsonl.Protocol{nil}, zerotest.Protocols...) {
		opt := asOpt(as)
		var got, want []jsonl.Diagnostic
		gotRep, gotErr := validate(bytes.NewReader(input), name, opt, func(d jsonl.Diagnostic) { got = append(got, d) }, false)
		wantRep, wantErr := validate(bytes.NewReader(input), name, opt, func(d jsonl.Diagnostic) { want = append(want, d) }, true)
		if !slices.Equal(got, want) || (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%s as %v: the fast path gives\n%v\nthe general validator\n%v", name, as, got, want)
		}
		g, _ := json.Marshal(gotRep)
		w, _ := json.Marshal(wantRep)
		if !bytes.Equal(g, w) {
			t.Fatalf("%s as %v: reports differ:\n%s\n%s", name, as, g, w)
		}
		fast += fastAccepted(t, input, opt)
	}
	return fast
}

// fastAccepted counts the lines of input the fast path decides alone.
func fastAccepted(t testing.TB, input []byte, opt ValidateOptions) int {
	v, err := NewValidator("x", opt, func(jsonl.Diagnostic) {})
	if err != nil {
		t.Fatal(err)
	}
	lr := jsonl.NewReader(bytes.NewReader(input), "x", nil)
	for {
		l, err := lr.Next()
		if err != nil {
			return v.fastLines
		}
		v.Line(l)
	}
}

// Every JSONL file the project ships (goldens' inputs and outputs,
// hostile inputs, samples) and generated corpora of both protocols:
// the fast path changes no diagnostic.
func TestFastSchemaSameDiagnostics(t *testing.T) {
	var files []string
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) < 50 {
		t.Fatalf("%d files under testdata: %v", len(files), err)
	}
	fast := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fast += differ(t, f, b)
	}
	for _, p := range []gen.Protocol{gen.EvoSci, gen.Zero} {
		var b bytes.Buffer
		if _, err := gen.Write(&b, gen.Options{Protocol: p, Size: 200 << 10, Seed: 7}); err != nil {
			t.Fatal(err)
		}
		n := differ(t, "generated-"+p.Name, b.Bytes())
		if n == 0 {
			t.Errorf("generated %s: the fast path accepted no line", p.Name)
		}
		fast += n
	}
	if fast < 1000 {
		t.Errorf("the fast path accepted only %d lines: the test would not see it", fast)
	}
}

// mutants are values put in place of each member of known-good lines:
// every kind, the bounds, escapes, and nesting the fast path leaves alone.
var mutants = []string{
	`""`, `"x"`, `"\u00e9"`, `"\ud800"`, `"a\nb"`, `"ok"`, `"error"`, `"prompt"`, `"allow"`, `"low"`,
	`0`, `-0`, `1`, `2`, `-1`, `2.0`, `1.5`, `-1.5`, `1e3`, `9223372036854775807`, `9223372036854775808`,
	`-9223372036854775809`, `true`, `false`, `null`, `[]`, `["a"]`, `[1]`, `{}`, `{"a":"b"}`, `{"a":1}`,
	`{"level":"low"}`, `{"level":"x"}`, `{"a":"b","a":"c"}`, `{"\u0061":"b"}`, `[{"name":"x"}]`,
	`{"sequence":1,"files":["a"]}`, `"\u2192 x"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\n"`, `"0"`, `-0.0`, `0e1`,
}

var fullLines = []string{
	`{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":12,"completionTokens":8,"totalTokens":20,"costUsd":0.0012}`,
	`{"schemaVersion":2,"type":"permission_request","runId":"r1","sessionId":"s","id":"p1","name":"bash","action":"prompt","permission":"prompt","permissionGranted":false,"permissionMode":"ask","autonomy":"a","sideEffect":"shell","reason":"r","decisionReason":"d","risk":{"level":"high","categories":["shell"],"reason":"r"},"block":{"code":"denied","action":"deny","risk":{"level":"low"},"reason":"r","recoverable":true},"grantMatched":true,"grant":{"toolName":"bash","scope":"s","scopeKind":"dir","decision":"allow","approvedAt":"t","session":true}}`,
	`{"schemaVersion":2,"type":"tool_result","runId":"r1","id":"c1","name":"n","status":"ok","output":"o","truncated":false,"redacted":true,"changedFiles":["a"],"meta":{"k":"v"},"display":{"summary":"s"}}`,
	`{"schemaVersion":2,"type":"checkpoint","runId":"r1","checkpoint":{"sequence":1,"tool":"t","files":["a"],"filesRestored":1,"filesDeleted":0,"skipped":[]}}`,
	`{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}`,
	`{"type":"usage_stats","input_tokens":5,"output_tokens":0}`,
	`{"type":"text","content":"\u2192"}`,
	`{"type":"interrupt","interrupt_id":"i","action_requests":[{"name":"x","args":{},"description":"d"}],"review_configs":[]}`,
	`{"type":"ask_user","interrupt_id":"i","questions":[{"question":"q","type":"text"}],"tool_call_id":"c"}`,
	`{"type":"panel_dispatch_complete","eval_id":"e","id":"i","duration_ms":1.5}`,
}

// Each member of a sample of every event type of each protocol, replaced by
// each mutant: the fast path changes no diagnostic.
func TestFastSchemaMutants(t *testing.T) {
	var samples [][]byte
	seen := map[string]bool{}
	var dec jsonl.Decoder
	var o jsonl.LineObject
	add := func(b []byte) {
		for _, l := range bytes.Split(b, []byte("\n")) {
			if jsonl.IsBlank(l) || dec.Decode(bytes.Clone(l), &o) != nil {
				continue
			}
			key := zerotest.Detect(&o).Name + " " + o.Str("type")
			if !seen[key] {
				seen[key] = true
				samples = append(samples, bytes.Clone(l))
			}
		}
	}
	// Lines with every optional field, first so that they are the samples.
	add([]byte(strings.Join(fullLines, "\n")))
	files, _ := filepath.Glob("../testdata/golden/*/*.jsonl")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		add(b)
	}
	for _, p := range []gen.Protocol{gen.EvoSci, gen.Zero} {
		var b bytes.Buffer
		if _, err := gen.Write(&b, gen.Options{Protocol: p, Size: 100 << 10, Seed: 3}); err != nil {
			t.Fatal(err)
		}
		add(b.Bytes())
	}
	if len(samples) < 40 {
		t.Fatalf("only %d sample lines", len(samples))
	}
	var input bytes.Buffer
	for _, l := range samples {
		if err := dec.Decode(l, &o); err != nil {
			t.Fatal(err)
		}
		for _, m := range o.Members() {
			for _, v := range mutants {
				input.WriteString(strings.Replace(o.Raw, m.Raw(), v, 1))
				input.WriteByte('\n')
			}
		}
	}
	if n := differ(t, "mutants", input.Bytes()); n < 100 {
		t.Errorf("the fast path accepted only %d mutant lines", n)
	}
}

// FuzzFastSchema: on any input, the fast path changes no diagnostic.
func FuzzFastSchema(f *testing.F) {
	for _, s := range []string{
		`{"schemaVersion":2,"type":"tool_call","runId":"r1","id":"c","name":"n","args":{},"sideEffect":"read"}`,
		`{"schemaVersion":2,"type":"permission_request","runId":"r1","action":"prompt","risk":{"level":"low","categories":["a"]}}`,
		`{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":1,"costUsd":0.5}`,
		`{"type":"usage_stats","input_tokens":1,"output_tokens":0}`,
		`{"type":"tool_result","name":"n","content":"c","success":true,"id":"x"}`,
		`{"type":"interrupt","interrupt_id":"i","action_requests":[{"name":"x"}],"review_configs":[]}`,
		`{"schemaVersion":2,"type":"message","role":"user","content":" "}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		differ(t, "fuzz", []byte(s))
	})
}

// check tries each line on the fast path of the schema the line before
// it was held to (on Stream's reading goroutine, ahead): read line by
// line, every plain line of a generated corpus but the first is decided
// so (the differential tests above hold those answers to the general
// validator's).
func TestFastPathDecidedInCheck(t *testing.T) {
	for _, p := range []gen.Protocol{gen.Zero, gen.EvoSci} {
		var buf bytes.Buffer
		if _, err := gen.Write(&buf, gen.Options{Protocol: p, Size: 256 << 10, Seed: 3}); err != nil {
			t.Fatal(err)
		}
		v, err := NewValidator("x", ValidateOptions{}, func(jsonl.Diagnostic) {})
		if err != nil {
			t.Fatal(err)
		}
		lr := jsonl.NewReader(bytes.NewReader(buf.Bytes()), "x", nil)
		for {
			l, err := lr.Next()
			if err != nil {
				break
			}
			v.Line(l)
		}
		if v.fastLines < 100 || v.aheadLines < v.fastLines-1 {
			t.Errorf("%v: %d of the %d lines the fast path accepted decided in check", p, v.aheadLines, v.fastLines)
		}
	}
}

// leastRunes never counts more characters than a string's text has, so
// that minLength accepts no string too short; every kind of escape,
// surrogate pairs and lone surrogates among them.
func TestLeastRunesIsALowerBound(t *testing.T) {
	parts := []string{`a`, `é`, `→`, `😀`, `\n`, `\"`, `\\`, `\/`, `\u0041`, `\u00e9`, `\u2192`, `\ud83d\ude00`, `\ud83d`, `\ude00`, `\u0000`}
	r := rand.New(rand.NewSource(1))
	exact := 0
	for range 5000 {
		var b strings.Builder
		for range r.Intn(6) {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		body := b.String()
		var s string
		if err := json.Unmarshal([]byte(`"`+body+`"`), &s); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		got, want := leastRunes(body), utf8.RuneCountInString(s)
		if got > want {
			t.Fatalf("leastRunes(%s) = %d, more than the %d characters of %q", body, got, want, s)
		}
		if got == want {
			exact++
		}
	}
	if exact < 1000 {
		t.Errorf("leastRunes was exact only %d times of 5000: a bound that low decides nothing", exact)
	}
}
