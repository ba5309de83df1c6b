package translate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
	"github.com/zevo/zevo/redact"
)

// The fuzz targets check what holds for any input: every output line is a
// JSON object of the target protocol, and every input line is accounted for.

var (
	zeroOutTypes = set("run_start", "reasoning", "text", "tool_call", "permission", "permission_request",
		"permission_decision", "tool_result", "checkpoint", "restore", "usage", "final", "warning", "error", "run_end")
	evoOutTypes = set("thinking", "text", "tool_call", "tool_result", "subagent_start", "subagent_tool_call",
		"subagent_tool_result", "subagent_text", "subagent_end", "tool_selection", "summarization_start",
		"summarization", "usage_stats", "interrupt", "ask_user", "error", "done")
)

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// required lists, per output type zevo writes from the other protocol, the
// fields the target's clients read, with their JSON types.
var required = map[Format]map[string][]string{
	EvoSci: {
		"thinking":    {"content", "string"},
		"text":        {"content", "string"},
		"tool_call":   {"name", "string", "args", "object", "id", "string"},
		"tool_result": {"name", "string", "content", "string", "success", "bool"},
		"usage_stats": {"input_tokens", "number", "output_tokens", "number"},
		"interrupt":   {"interrupt_id", "string", "action_requests", "array", "review_configs", "array"},
		"error":       {"message", "string"},
		"done":        {"content", "string", "response", "string"},
	},
	Zero: {
		"run_start":          {"runId", "string", "provider", "string"},
		"tool_call":          {"sideEffect", "string"},
		"tool_result":        {"status", "string", "truncated", "bool"},
		"usage":              {"promptTokens", "number", "completionTokens", "number", "totalTokens", "number"},
		"permission_request": {"permissionGranted", "bool", "risk", "object", "action", "string"},
		"error":              {"code", "string", "recoverable", "bool"},
		"run_end":            {"status", "string", "exitCode", "number"},
	},
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "bool"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "null"
}

// typeRE finds the types a stream may hold, even on lines that are not
// JSON (NaN is repaired) or hold duplicate keys.
var typeRE = regexp.MustCompile(`"type"\s*:\s*("(?:[^"\\\n]|\\.)*")`)

var fuzzTables = mappings.Default()

type fuzzRun struct {
	out   [][]byte
	diags []*jsonl.Diagnostic
	lines int
	stats Stats
}

// translateAll runs data through a Translator as the CLI does.
func translateAll(t *testing.T, data []byte, opt Options) fuzzRun {
	t.Helper()
	var r fuzzRun
	opt.Now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	opt.Rand = zeroReader{}
	if opt.Tables == nil {
		opt.Tables = fuzzTables // loading the tables would cost more than most inputs
	}
	tr := New(opt, func(b []byte) error {
		r.out = append(r.out, bytes.Clone(b))
		return nil
	})
	// The lines as jsonl.Reader yields them (FuzzReader checks that it
	// does), without its 256 KB buffer per run.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	parts := bytes.Split(data, []byte("\n"))
	if len(parts[len(parts)-1]) == 0 {
		parts = parts[:len(parts)-1]
	}
	// Each line is lent in one scratch buffer that is scribbled over once
	// the line is done, as jsonl.Reader reuses its buffer: state kept from
	// a line without copying it shows up as garbage.
	var scratch []byte
	for i, p := range parts {
		l := jsonl.Line{Name: "f", Num: i + 1, NoNewline: i == len(parts)-1 && !bytes.HasSuffix(data, []byte("\n"))}
		if !l.NoNewline {
			p = bytes.TrimSuffix(p, []byte("\r"))
		}
		scratch = append(scratch[:0], p...)
		l.Bytes = scratch
		r.lines++
		err := tr.Line(l)
		if d, ok := err.(*jsonl.Diagnostic); ok {
			if !strings.HasPrefix(d.Error(), l.Where()+": ") {
				t.Fatalf("diagnostic %q does not name %s", d.Error(), l.Where())
			}
			r.diags = append(r.diags, d)
		} else if err != nil {
			t.Fatalf("Line: %v", err)
		}
		for i := range scratch {
			scratch[i] = '#'
		}
	}
	if err := tr.End("f"); err != nil {
		t.Fatalf("End: %v", err)
	}
	r.stats = *tr.Stats()
	return r
}

// checkRun checks the invariants of one translation.
func checkRun(t *testing.T, data []byte, opt Options, r fuzzRun) {
	t.Helper()
	s := r.stats
	if s.Lines != r.lines {
		t.Fatalf("Stats.Lines = %d, read %d", s.Lines, r.lines)
	}
	if s.Lines != s.Blank+s.Mapped+s.Unmapped+s.Diagnosed {
		t.Fatalf("accounting: %d lines != %d blank + %d mapped + %d unmapped + %d diagnosed",
			s.Lines, s.Blank, s.Mapped, s.Unmapped, s.Diagnosed)
	}
	if s.Diagnosed != len(r.diags) {
		t.Fatalf("Stats.Diagnosed = %d, %d diagnostics returned", s.Diagnosed, len(r.diags))
	}
	if s.Written != len(r.out) {
		t.Fatalf("Stats.Written = %d, %d lines emitted", s.Written, len(r.out))
	}
	// The types the input holds may pass through (a Zero event read for Zero output).
	inTypes := map[string]bool{}
	for _, m := range typeRE.FindAllSubmatch(data, -1) {
		var typ string
		if json.Unmarshal(m[1], &typ) == nil {
			inTypes[typ] = true
			// Redaction applies to every string, the type too (as in Zero).
			var rd redact.Redactor
			inTypes[rd.String(typ)] = true
			for _, p := range []string{"zero.", "evosci."} {
				inTypes[rd.String(p+typ)] = true
			}
		}
	}
	target, own, other := evoOutTypes, "evosci.", "zero."
	if opt.To != EvoSci {
		target, own, other = zeroOutTypes, "zero.", "evosci."
	}
	for _, line := range r.out {
		if bytes.IndexByte(line, '\n') >= 0 {
			t.Fatalf("output line holds a newline: %q", line)
		}
		d := json.NewDecoder(bytes.NewReader(line))
		d.UseNumber()
		var ev map[string]any
		if err := d.Decode(&ev); err != nil {
			t.Fatalf("output %q is not a JSON object: %v", line, err)
		}
		if d.More() {
			t.Fatalf("output %q holds more than one value", line)
		}
		typ, ok := ev["type"].(string)
		if !ok {
			t.Fatalf("output %q has no string type", line)
		}
		switch {
		case target[typ] && !inTypes[typ]:
			to := opt.To
			if to == Zero1 {
				to = Zero
			}
			for i, spec := 0, required[to][typ]; i+1 < len(spec); i += 2 {
				if got := jsonKind(ev[spec[i]]); got != spec[i+1] {
					t.Fatalf("output %q: %s is %s, want %s", line, spec[i], got, spec[i+1])
				}
			}
		case target[typ], inTypes[typ]:
		case opt.Unmapped == Keep && strings.HasPrefix(typ, other):
		case strings.HasPrefix(typ, own) && inTypes[typ]:
		default:
			t.Fatalf("output %q: type %q is not of the target protocol", line, typ)
		}
		if opt.To == EvoSci {
			if _, ok := ev["schemaVersion"]; ok && !strings.HasPrefix(typ, "zero.") && !inTypes[typ] {
				t.Fatalf("EvoScientist output %q has a schemaVersion", line)
			}
			continue
		}
		want := "2"
		if opt.To == Zero1 {
			want = "1"
		}
		if sv, _ := ev["schemaVersion"].(json.Number); string(sv) != want {
			t.Fatalf("Zero output %q: schemaVersion %v, want %s", line, ev["schemaVersion"], want)
		}
		if opt.To == Zero1 && (typ == "reasoning" || ev["block"] != nil) && !inTypes[typ] {
			t.Fatalf("Zero v1 output %q has v2 content", line)
		}
	}
}

// checkFraming: EvoScientist input alone gives whole Zero runs.
func checkFraming(t *testing.T, data []byte, r fuzzRun) {
	if bytes.Contains(data, []byte("schemaVersion")) || bytes.Contains(data, []byte("zero.")) ||
		bytes.Contains(data, []byte(`\u`)) || bytes.Contains(data, []byte("run_")) || len(r.out) == 0 {
		return
	}
	open := false
	for _, line := range r.out {
		var ev struct{ Type string }
		json.Unmarshal(line, &ev)
		switch ev.Type {
		case "run_start":
			if open {
				t.Fatalf("run_start inside a run: %q", line)
			}
			open = true
		case "run_end":
			if !open {
				t.Fatalf("run_end outside a run: %q", line)
			}
			open = false
		default:
			if !open {
				t.Fatalf("event outside a run: %q", line)
			}
		}
	}
	if open {
		t.Fatal("the last run has no run_end")
	}
}

func seeds(f *testing.F) {
	for _, glob := range []string{"../testdata/translate/*", "../testdata/hostile/*"} {
		names, _ := filepath.Glob(glob)
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				f.Fatal(err)
			}
			if len(b) > 64<<10 {
				continue
			}
			for mode := uint8(0); mode < 4; mode++ {
				f.Add(b, mode)
			}
		}
	}
	for i := int64(0); i < 4; i++ {
		f.Add(genEvo(rand.New(rand.NewSource(i))), uint8(i))
		f.Add(genZero(rand.New(rand.NewSource(i))), uint8(i+4))
	}
}

// options decodes a fuzzed mode byte.
func options(to Format, mode uint8) Options {
	return Options{
		To:       to,
		Unmapped: Unmapped(mode % 3),
		Redact:   mode&4 != 0,
		RunID:    "run_fuzz",
		Cwd:      "/w",
	}
}

func FuzzToZero(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		to := Zero
		if mode&8 != 0 {
			to = Zero1
		}
		opt := options(to, mode)
		r := translateAll(t, data, opt)
		checkRun(t, data, opt, r)
		checkFraming(t, data, r)
	})
}

func FuzzToEvoSci(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		opt := options(EvoSci, mode)
		checkRun(t, data, opt, translateAll(t, data, opt))
	})
}

// FuzzUpgrade reads one Zero v1 event: written as v2 it has no v1 field
// left, and written back as v1 it is the input's value again.
func FuzzUpgrade(f *testing.F) {
	f.Add(`permission_request`, `{"action":"prompt","code":"policy_denied","reason":"no","recoverable":true}`, ``)
	f.Add(`permission_decision`, `{"code":"denied_permission"}`, `{"code":"network"}`)
	f.Add(`permission`, `"x"`, `null`)
	f.Add(`text`, ``, ``)
	f.Fuzz(func(t *testing.T, typ, violation, block string) {
		ev := map[string]json.RawMessage{}
		ev["schemaVersion"] = json.RawMessage("1")
		ev["runId"] = json.RawMessage(`"run_1"`)
		tb, _ := json.Marshal(typ)
		ev["type"] = tb
		if violation != "" {
			if !json.Valid([]byte(violation)) {
				return
			}
			ev["violation"] = json.RawMessage(violation)
		}
		if block != "" {
			if !json.Valid([]byte(block)) {
				return
			}
			ev["block"] = json.RawMessage(block)
		}
		line, err := json.Marshal(ev)
		if err != nil {
			return
		}
		line = append(line, '\n')
		opt := options(Zero, 1) // keep: every event comes back
		v2 := translateAll(t, line, opt)
		checkRun(t, line, opt, v2)
		if len(v2.diags) > 0 {
			return
		}
		if len(v2.out) != 3 { // the event, then the run it starts closed at the end
			t.Fatalf("%s: %d output lines, want 3", line, len(v2.out))
		}
		var got map[string]json.RawMessage
		json.Unmarshal(v2.out[0], &got)
		if _, ok := got["violation"]; ok {
			t.Fatalf("v2 output %s has violation", v2.out[0])
		}
		if violation != "" && block == "" && got["block"] == nil {
			t.Fatalf("v2 output %s lost the violation", v2.out[0])
		}
		if strings.Contains(string(got["block"]), `"policy_denied"`) && !strings.Contains(block, "policy_denied") &&
			json.Valid(got["block"]) && strings.Contains(violation, `"code":"policy_denied"`) {
			t.Fatalf("v2 output %s kept the v1 code", v2.out[0])
		}
		// back to v1
		opt1 := options(Zero1, 1)
		v1 := translateAll(t, append(v2.out[0], '\n'), opt1)
		checkRun(t, v2.out[0], opt1, v1)
		if len(v1.out) != 3 || len(v1.diags) != 0 {
			t.Fatalf("%s back to v1: %d lines, diagnostics %v", v2.out[0], len(v1.out), v1.diags)
		}
		var back map[string]json.RawMessage
		json.Unmarshal(v1.out[0], &back)
		if _, ok := back["block"]; ok {
			t.Fatalf("v1 output %s has block", v1.out[0])
		}
		if block == "" && violation != "" && !sameJSON(back["violation"], []byte(violation)) {
			t.Fatalf("v1 → v2 → v1 changed violation %s into %s", violation, back["violation"])
		}
	})
}

func sameJSON(a, b []byte) bool {
	var x, y any
	da := json.NewDecoder(bytes.NewReader(a))
	da.UseNumber()
	db := json.NewDecoder(bytes.NewReader(b))
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// FuzzRoundTrip: EvoScientist → Zero → EvoScientist gives back every mapped
// event with its values unchanged.
func FuzzRoundTrip(f *testing.F) {
	f.Add("hello <b>&</b> caf\u00e9 \U0001F600", `{"path": "a.txt"}`, "read_file", true, int64(12))
	f.Add("x\n... (truncated)", `{}`, "execute", false, int64(0))
	f.Add("sk-abcdefghijklmnopqrstuv", `{"token": "t", "n": 1e400}`, "", true, int64(1)<<62)
	f.Fuzz(func(t *testing.T, text, args, name string, ok bool, tokens int64) {
		// well-formed input only: args a JSON object in UTF-8 (zevo reports
		// invalid UTF-8; json.Valid does not look)
		if !json.Valid([]byte(args)) || !utf8.ValidString(args) || !strings.HasPrefix(strings.TrimSpace(args), "{") || text == "" {
			return
		}
		// On one line: a line break between its tokens would end the line.
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(args)); err != nil {
			t.Fatal(err)
		}
		args = compact.String()
		str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
		var b strings.Builder
		fmt.Fprintf(&b, `{"type": "thinking", "content": %s, "id": 0}`+"\n", str(text))
		fmt.Fprintf(&b, `{"type": "text", "content": %s}`+"\n", str(text))
		fmt.Fprintf(&b, `{"type": "tool_call", "name": %s, "args": %s, "id": "call_1"}`+"\n", str(name), args)
		fmt.Fprintf(&b, `{"type": "tool_result", "name": %s, "content": %s, "success": %v, "id": "call_1"}`+"\n", str(name), str(text), ok)
		fmt.Fprintf(&b, `{"type": "usage_stats", "input_tokens": %d, "output_tokens": 3}`+"\n", tokens)
		fmt.Fprintf(&b, `{"type": "done", "content": %s, "response": %s}`+"\n", str(text), str(text))
		in := []byte(b.String())
		toZero := Options{To: Zero, Unmapped: Keep, RunID: "run_rt", Cwd: "/w"}
		z := translateAll(t, in, toZero)
		checkRun(t, in, toZero, z)
		if len(z.diags) > 0 {
			t.Fatalf("diagnostics for well-formed input: %v", z.diags)
		}
		zs := append(bytes.Join(z.out, []byte("\n")), '\n')
		toEvo := Options{To: EvoSci, Unmapped: Drop}
		e := translateAll(t, zs, toEvo)
		checkRun(t, zs, toEvo, e)
		inLines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if len(e.out) != len(inLines) || len(e.diags) > 0 {
			t.Fatalf("round trip gave %d events (diagnostics %v) for %d:\n%s\n→\n%s", len(e.out), e.diags, len(inLines), in, zs)
		}
		for i, line := range inLines {
			if !sameJSON([]byte(line), e.out[i]) {
				t.Fatalf("round trip changed\n %s\ninto\n %s", line, e.out[i])
			}
		}
	})
}

// TestZeroOmittedFieldsToEvo: Zero lines whose fields are omitted (or
// null) are read as empty: no empty text or reasoning and no usage of 0
// and 0 tokens is written (such events say nothing), and those lines
// are counted unmapped, with the shortcuts and on the plain path.
// (Found by FuzzToEvoSci.)
func TestZeroOmittedFieldsToEvo(t *testing.T) {
	in := []byte(`{"runId":"r","schemaVersion":2,"type":"reasoning"}
{"runId":"r","schemaVersion":2,"type":"text","delta":null}
{"runId":"r","schemaVersion":2,"type":"usage"}
{"runId":"r","schemaVersion":2,"type":"tool_call"}
`)
	for _, plain := range []bool{false, true} {
		opt := Options{To: EvoSci, Plain: plain}
		r := translateAll(t, in, opt)
		checkRun(t, in, opt, r)
		want := []string{
			`{"type": "tool_call", "name": "", "args": {}, "id": ""}`,
			`{"type": "error", "message": "the input ended before the run finished"}`,
		}
		if fmt.Sprintf("%q", r.out) != fmt.Sprintf("%q", want) {
			t.Errorf("plain %v: output %q, want %q", plain, r.out, want)
		}
	}
}

// A stream of ever new unknown types, some of them huge: the summary names
// at most maxUnmappedTypes of them, each clipped, and counts every line.
func TestUnmappedTypesBounded(t *testing.T) {
	var b bytes.Buffer
	n := 3 * maxUnmappedTypes
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"type": "kind_%d_%s"}`+"\n", i, strings.Repeat("é", i))
	}
	opt := Options{To: Zero}
	r := translateAll(t, b.Bytes(), opt)
	checkRun(t, b.Bytes(), opt, r)
	if r.stats.Unmapped != n || len(r.stats.UnmappedTypes) > maxUnmappedTypes+1 {
		t.Fatalf("%d unmapped in %d names, want %d in at most %d", r.stats.Unmapped, len(r.stats.UnmappedTypes), n, maxUnmappedTypes+1)
	}
	total := 0
	for name, c := range r.stats.UnmappedTypes {
		if len(name) > 80 || !utf8.ValidString(name) {
			t.Errorf("summary name %q is not clipped cleanly", name)
		}
		total += c
	}
	if total != n || r.stats.UnmappedTypes[otherTypes] != n-maxUnmappedTypes {
		t.Errorf("the names count %d lines (%d as other), want %d (%d)", total, r.stats.UnmappedTypes[otherTypes], n, n-maxUnmappedTypes)
	}
	if sum := r.stats.Summary(Drop); len(sum) > 100*(maxUnmappedTypes+2) {
		t.Errorf("summary of %d bytes", len(sum))
	}
}

// A final with an empty text was kept as a view of the line's bytes, which
// the reader reuses: done then carried the next line's bytes and was not
// JSON. (Found by FuzzToEvoSci.)
func TestEmptyFinalTextSurvivesNextLine(t *testing.T) {
	in := `{"schemaVersion":2,"text":"","type":"final"}` + "\n" + `{"schemaVersion":2,"status":"success","type":"run_end","exitCode":0}`
	var out []string
	tr := New(Options{To: EvoSci}, func(b []byte) error { out = append(out, string(b)); return nil })
	lr := jsonl.NewReader(strings.NewReader(in), "f", nil)
	for {
		l, err := lr.Next()
		if err != nil {
			break
		}
		if err := tr.Line(l); err != nil {
			t.Fatal(err)
		}
	}
	if want := `{"type": "done", "content": "", "response": ""}`; len(out) != 1 || out[0] != want {
		t.Fatalf("output %q, want %q", out, want)
	}
}
