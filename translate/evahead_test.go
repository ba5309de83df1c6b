package translate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/bench/corpus"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// aheadWay is how evOutput translates on the event path.
type aheadWay int

const (
	aheadPlain  aheadWay = iota // Line, one goroutine, the lines copied as the Input reads them: the reference
	aheadStream                 // Stream, its reading goroutine decoding every line ahead
	aheadRagged                 // the same, the input read in ragged chunks
)

// evOutput sends every line of input the event path, the way way says,
// and returns the output and the diagnostics.
func evOutput(t testing.TB, opt Options, input []byte, way aheadWay) (string, []string) {
	t.Helper()
	opt.Now, opt.Rand = fixedNow, zeroReader{}
	var out bytes.Buffer
	tr := New(opt, func(b []byte) error {
		out.Write(b)
		out.WriteByte('\n')
		return nil
	})
	var diags []string
	switch way {
	case aheadPlain:
		tr.ep.plain = true
		diags = feedLines(t, tr, input, "in", nil, nil)
	default:
		var r io.Reader = bytes.NewReader(input)
		if way == aheadRagged {
			r = &raggedReader{b: input, r: rand.New(rand.NewSource(int64(len(input))))}
		}
		if !tr.allEvents() {
			t.Fatal("Stream would not decode the lines ahead")
		}
		err := tr.Stream(r, "in", nil, func() error { return nil }, func(d *jsonl.Diagnostic) error {
			diags = append(diags, d.Error())
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.End("in"); err != nil {
		t.Fatal(err)
	}
	return out.String(), diags
}

// aheadOptions are the targets and options the event path's output is
// compared under.
func aheadOptions(t testing.TB) []Options {
	claude, err := ParseTarget("claude")
	if err != nil {
		t.Fatal(err)
	}
	return []Options{
		{To: EvoSci}, {To: EvoSci, Redact: true}, {To: EvoSci, Unmapped: Keep},
		{To: Zero}, {To: Zero, Redact: true, Cwd: "/work"}, {To: Zero1, Redact: true}, {To: Zero, Unmapped: Keep},
		{To: claude},
	}
}

// sameAsPlain reports where input translates otherwise on the event path
// decoded ahead than plainly.
func sameAsPlain(t *testing.T, name string, input []byte, opts []Options) {
	t.Helper()
	for _, opt := range opts {
		opt.RunID = "R"
		want, wantDiags := evOutput(t, opt, input, aheadPlain)
		for _, way := range []aheadWay{aheadStream, aheadRagged} {
			got, diags := evOutput(t, opt, input, way)
			if got != want {
				t.Errorf("%s --to %s (redact %v, unmapped %v), way %d: output differs from the plain event path's at byte %d\ngot:  %.300q\nwant: %.300q",
					name, opt.To, opt.Redact, opt.Unmapped, way, diffAt(got, want), got[min(diffAt(got, want), len(got)):], want[min(diffAt(got, want), len(want)):])
			}
			if strings.Join(diags, "\n") != strings.Join(wantDiags, "\n") {
				t.Errorf("%s --to %s, way %d: diagnostics\n%s\nwant\n%s", name, opt.To, way, strings.Join(diags, "\n"), strings.Join(wantDiags, "\n"))
			}
		}
	}
}

func diffAt(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestEventPathDecodedAheadWritesAsPlain holds Stream's decoding ahead
// (its reading goroutine decodes each line of the event path, the
// translating one writes the events) to the plain event path, byte for
// byte: generated corpora of both dialects, every target and option.
func TestEventPathDecodedAheadWritesAsPlain(t *testing.T) {
	size := 160 << 10 // more than a batch
	if testing.Short() {
		size = 48 << 10
	}
	for _, p := range []corpus.Protocol{corpus.Zero, corpus.EvoSci} {
		for seed := uint64(1); seed <= 3; seed++ {
			var buf bytes.Buffer
			if _, err := corpus.Write(&buf, corpus.Options{Protocol: p, Size: int64(size), Seed: seed}); err != nil {
				t.Fatal(err)
			}
			sameAsPlain(t, fmt.Sprintf("%v corpus seed %d", p, seed), buf.Bytes(), aheadOptions(t))
		}
	}
}

// TestEventPathDecodedAheadWritesTestdataAsPlain is
// TestEventPathDecodedAheadWritesAsPlain on every JSONL file of
// testdata: captures, hostile and broken streams, several dialects.
func TestEventPathDecodedAheadWritesTestdataAsPlain(t *testing.T) {
	n := 0
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		opts := aheadOptions(t)
		if testing.Short() {
			opts = []Options{{To: EvoSci, Redact: true}, {To: Zero1, Redact: true}, opts[len(opts)-1]}
		}
		sameAsPlain(t, path, data, opts)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Fatalf("only %d files", n)
	}
}

// TestEventPathDecodedAheadHostileLines is the same on lines made to
// break a reader: cut, nested, escaped, duplicated keys, wrong types,
// mixed dialects, each alone and all in one input.
func TestEventPathDecodedAheadHostileLines(t *testing.T) {
	lines := []string{
		`{"schemaVersion":2,"type":"run_start","runId":"r1","sessionId":"s","cwd":"/w","model":"m"}`,
		`{"schemaVersion":2,"type":"text","runId":"r1","delta":"caf\u00e9 \ud83d\ude00 \u2028 <&>"}`,
		`{"schemaVersion":2,"type":"text","runId":"r1","delta":"a","delta":"b"}`,
		`{"schemaVersion":2,"type":"tool_call","runId":"r1","id":"c1","name":"bash","args":{"cmd":"ls","api_key":"sk-abcdefghijklmnopqrstuvwx"}}`,
		`{"schemaVersion":2,"type":"tool_result","runId":"r1","id":"c1","name":"bash","status":"ok","output":"x\ty\u0000\"","truncated":"no"}`,
		`{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":1e400,"completionTokens":-1}`,
		`{"schemaVersion":2,"type":"usage","runId":"r1","promptTokens":NaN}`,
		`{"schemaVersion":2,"type":"run_end","runId":"r2","status":"success","exitCode":0}`,
		`{"type":"thinking","content":"hm"}`,
		`{"type":"text","content":"hi \udc00"}`,
		`{"type":"tool_call","id":"t","name":"read_file","args":{"path":"/etc/passwd"}}`,
		`{"type":"tool_result","id":"t","name":"read_file","content":"` + strings.Repeat("z", 200000) + `","success":true}`,
		`{"type":"done","response":"ok","token_usage":{"prompt":1}}`,
		`{"type":"system","subtype":"init","session_id":"cs","model":"claude"}`,
		`{"type":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
		`{"type":"text","content":"cut`,
		`not json`,
		"{\"type\":\"text\",\"content\":\"\xff\"}",
		`{"t\u0079pe":"text","content":"escaped key"}`,
		`[]`,
		``,
		`   `,
		`{}`,
		`{"schemaVersion":1,"type":"message","runId":"r3","text":"v1"}`,
		`{"schemaVersion":3,"type":"text","runId":"r3"}`,
		`{"schemaVersion":"2","type":"text","runId":"r3"}`,
		// secrets an escape splits
		`{"type":"text","content":"key sk-\u0061bcdefghijklmnopqrstuvwxyz0123 and \u0073k-abcdefghijklmnopqrstu"}`,
		`{"schemaVersion":2,"type":"text","runId":"r1","delta":"ghp_\u0041BCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij Bearer abc\u002edef"}`,
		// lines about as long as the longest copied side by side with
		// others (lineCopies), and a block's worth of them
		`{"type":"text","content":"` + strings.Repeat("y\n", (lineBlock/4-28)/3) + `"}`,
		`{"type":"text","content":"` + strings.Repeat("w", lineBlock/4-28) + `"}`,
		`{"type":"text","content":"` + strings.Repeat("v", lineBlock/4-27) + `"}`,
		`{"type":"text","content":"` + strings.Repeat("\u00e9", lineBlock/6) + `"}`,
	}
	opts := aheadOptions(t)
	for _, l := range lines {
		sameAsPlain(t, clip(l), []byte(l+"\n"), []Options{{To: EvoSci, Redact: true}, {To: Zero, Redact: true}, opts[len(opts)-1]})
	}
	all := strings.Join(lines, "\n")
	sameAsPlain(t, "all", []byte(all), opts)
	// Repeated and shuffled, so that batches end anywhere.
	r := rand.New(rand.NewSource(7))
	var b strings.Builder
	for range 1500 {
		l := lines[r.Intn(len(lines))]
		if len(l) > batchBytes {
			continue // one is enough, in all
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	sameAsPlain(t, "shuffled", []byte(b.String()), opts)
}

// TestEventPathDecodedAheadStopsWithStream: a Stream that stops early
// (an error from the diagnostics' callback) leaves no line decoded
// ahead to the next input, whose output is what a fresh translator
// writes of it.
func TestEventPathDecodedAheadStopsWithStream(t *testing.T) {
	var buf bytes.Buffer
	if _, err := corpus.Write(&buf, corpus.Options{Protocol: corpus.Zero, Size: 400 << 10, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	bad := append([]byte("not json\n"), buf.Bytes()...)
	opt := Options{To: EvoSci, RunID: "R", Now: fixedNow, Rand: zeroReader{}}
	var out bytes.Buffer
	tr := New(opt, func(b []byte) error {
		out.Write(b)
		return out.WriteByte('\n')
	})
	stop := errors.New("stop")
	err := tr.Stream(bytes.NewReader(bad), "bad", nil, func() error { return nil }, func(*jsonl.Diagnostic) error { return stop })
	if !errors.Is(err, stop) {
		t.Fatalf("Stream: %v, want the diagnostics' error", err)
	}
	if err := tr.End("bad"); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := tr.Stream(bytes.NewReader(buf.Bytes()), "good", nil, func() error { return nil }, func(d *jsonl.Diagnostic) error { return d }); err != nil {
		t.Fatal(err)
	}
	if err := tr.End("good"); err != nil {
		t.Fatal(err)
	}
	want, _ := evOutput(t, opt, buf.Bytes(), aheadPlain)
	if out.String() != want {
		t.Errorf("after a stopped Stream, the next input writes otherwise than alone (from byte %d)", diffAt(out.String(), want))
	}
}

// hostileVariants are lines made from line by the edits that break a
// reader: cut, a byte changed, tokens no producer writes, keys twice.
func hostileVariants(r *rand.Rand, line string) []string {
	out := []string{line}
	if len(line) > 2 {
		i := r.Intn(len(line))
		out = append(out, line[:i], line[:i]+line[i+1:])
		for _, c := range []string{`"`, `\`, `\u0000`, "\x00", "\xff", `NaN`, `1e400`, `-0`, `{`, `]`, `,`, `null`, `"schemaVersion":1,`, `"schemaVersion":"2",`, `"type":"zero.text",`, `"runId":5,`, `"output":7,`, `"truncated":"x",`, `"exitCode":1.5,`, `"type":1,`, `"t\u0079pe":"x",`} {
			j := r.Intn(len(line))
			out = append(out, line[:j]+c+line[j:])
			if k := strings.IndexByte(line, '{'); k >= 0 {
				out = append(out, line[:k+1]+c+line[k+1:])
			}
		}
	}
	return out
}

// TestAcceptsPlainlyOnlyWhatDecodeTakes: every line acceptsPlainly takes
// (so that Stream's reading goroutine, decoding ahead, does not prepare
// it), decode takes too, as it is, with no diagnostic: on corpus lines,
// testdata's, and hostile variants of both.
func TestAcceptsPlainlyOnlyWhatDecodeTakes(t *testing.T) {
	var lines []string
	for _, p := range []corpus.Protocol{corpus.Zero, corpus.EvoSci} {
		var buf bytes.Buffer
		if _, err := corpus.Write(&buf, corpus.Options{Protocol: p, Size: 32 << 10, Seed: 5}); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(buf.String(), "\n")...)
	}
	files, _ := filepath.Glob("../testdata/*/*.jsonl")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(data), "\n")...)
	}
	tr := New(Options{To: EvoSci}, nil)
	var in model.Line
	pre := tr.streamPreparer()
	r := rand.New(rand.NewSource(1))
	taken, n := 0, 0
	for _, base := range lines {
		for _, line := range hostileVariants(r, base) {
			n++
			b := []byte(line)
			if in.ReadOwned(b); !in.Check() || !pre.acceptsPlainly(&in) {
				continue
			}
			taken++
			var p prepared
			pre.prepare(jsonl.Line{Name: "in", Num: 1, Bytes: b}, &p)
			if p.blank || p.bad != nil || p.warn != nil || p.ev.Raw != line {
				t.Errorf("taken plainly, but prepared with bad %v, warn %v, blank %v: %.200q", p.bad, p.warn, p.blank, line)
			}
		}
	}
	if taken < n/10 || taken == n {
		t.Errorf("%d lines of %d taken plainly", taken, n)
	}
	// With --from, every line is the preparer's.
	pre.from = Zero
	if in.ReadOwned([]byte(lines[0])); in.Check() && pre.acceptsPlainly(&in) {
		t.Errorf("with --from, a line taken plainly")
	}
}

// FuzzAcceptsPlainly is TestAcceptsPlainlyOnlyWhatDecodeTakes on any
// line.
func FuzzAcceptsPlainly(f *testing.F) {
	for _, l := range []string{
		`{"schemaVersion":2,"type":"tool_result","runId":"r","id":"c","name":"bash","status":"ok","output":"x","truncated":false}`,
		`{"type":"tool_result","name":"bash","content":"x","success":true,"id":"c"}`,
		`{"schemaVersion":2,"type":"usage","runId":"r","promptTokens":1,"completionTokens":2}`,
	} {
		f.Add(l)
	}
	tr := New(Options{To: EvoSci}, nil)
	var in model.Line
	pre := tr.streamPreparer()
	f.Fuzz(func(t *testing.T, line string) {
		b := []byte(line)
		if in.ReadOwned(b); !in.Check() || !pre.acceptsPlainly(&in) {
			return
		}
		var p prepared
		pre.prepare(jsonl.Line{Name: "in", Num: 1, Bytes: b}, &p)
		if p.blank || p.bad != nil || p.warn != nil || p.ev.Raw != line {
			t.Errorf("taken plainly, but prepared with bad %v, warn %v, blank %v: %q", p.bad, p.warn, p.blank, line)
		}
	})
}

// TestEventPathRespellsAsPlain: Zero's tool outputs written in Python's
// spelling from their own (DecodeOptions.Spelled), held to the plain
// path that unescapes them, on outputs of every escape and of text in
// and out of ASCII.
func TestEventPathRespellsAsPlain(t *testing.T) {
	outputs := []string{`plain`, `a\nb\t\"c\"\\`, `\u003cdiv\u003e \u0026amp;`, `\u003C\/x\u003E`, `é \u00e9 \u2028`,
		`\ud83d\ude00 😀 \ud83d lone`, `\u0000\u001f\u007f`, strings.Repeat(`日本 \u672c\n`, 20)}
	var in strings.Builder
	in.WriteString(`{"schemaVersion":2,"type":"run_start","runId":"r1","sessionId":"s","cwd":"/w","model":"m"}` + "\n")
	for i, o := range outputs {
		fmt.Fprintf(&in, `{"schemaVersion":2,"type":"tool_call","runId":"r1","id":"c%d","name":"read_file","args":{}}`+"\n", i)
		fmt.Fprintf(&in, `{"schemaVersion":2,"type":"tool_result","runId":"r1","id":"c%d","name":"read_file","status":"ok","output":"%s"}`+"\n", i, o)
		fmt.Fprintf(&in, `{"schemaVersion":2,"type":"tool_result","runId":"r1","id":"c%d","output":"%s","output":"again %s"}`+"\n", i, o, o)
	}
	in.WriteString(`{"schemaVersion":2,"type":"run_end","runId":"r1","status":"success","exitCode":0}` + "\n")
	sameAsPlain(t, "outputs", []byte(in.String()), []Options{{To: EvoSci}, {To: EvoSci, Unmapped: Keep}, {To: EvoSci, Redact: true}})
	got, _ := evOutput(t, Options{To: EvoSci, RunID: "R"}, []byte(in.String()), aheadStream)
	if !strings.Contains(got, `"content": "<div> &amp;"`) || !strings.Contains(got, `\u65e5\u672c \u672c\n`) {
		t.Errorf("the outputs are not in Python's spelling:\n%s", got)
	}
}
