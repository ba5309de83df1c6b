package translate

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/redact"
)

// The fast paths of translation (decoded strings in reused memory, SWAR
// scans and the redaction sweep, lines split by their layout, events
// written through templates, lines prepared and values rendered ahead on
// another goroutine) must
// change no byte of any result. These tests translate hostile streams
// every way there is, and compare with the plain path (Options.Plain, on
// Line): Line; Stream, read whole or in ragged chunks that make the
// reading goroutine hand over half-full batches, with the lines prepared
// by either goroutine or shared, and their values rendered ahead; and the input cut into several files on
// one Translator, as zevo translate reads FILEs. Output, diagnostics and
// stats must be the same every way.

// hostileGen writes lines whose string values sit on the edges of the
// fast paths.
type hostileGen struct {
	r *rand.Rand
}

// hostileSecrets are secrets Zero's rules or the extra patterns find,
// some spelled with escapes.
var hostileSecrets = []string{
	"sk-ABCDEFGHIJKLMNOPQRSTUV12", "Bearer abcdefghijklmnop123", "api_key=zzzzzzzzzzzz", "API-KEY: qqqqqqqqqqqq1",
	"ghp_" + strings.Repeat("a", 36), "AKIAABCDEFGHIJKLMNOP", "eyJabcdefghij.eyJabcdefghij.sig", "xoxb-1234567890abc",
	"AIza" + strings.Repeat("B", 35), `-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY-----`,
	`-----BEGIN PRIVATE KEY-----\nMII`, `s\u006b-ABCDEFGHIJKLMNOPQRSTUV12`, `sk\u002dABCDEFGHIJKLMNOP`, `sk\u002DABCDEFGHIJKLMNOP`,
	`\u0042earer abcdefghijklmnop`, `be\u0061rer tokentokentoken`, `a\u0070i_key=hhhhhhhhhhh`, `\u0073k-ABCDEFGHIJKLMNOPQRST`,
	"password=hunter2hunter2", `sk\/-notone`, `\\u0073k-ABCDEFGHIJKLMNOPQRST`,
}

// hostileBits are escapes and characters every style writes its own way.
var hostileBits = []string{
	`\ud83d\ude00`, `\ud800`, `\udc00`, `\ud800x`, `\u0000`, `\u001f`, `\u007f`, `\u2028`, `\u2029`, `\/`, `\\`, `\"`,
	`\n`, `\t`, `\b`, `\f`, `\r`, `\u003c`, `\u003e`, `\u0026`, "<", ">", "&", "é", "中", "😀", "\x7f", "\u2028",
	`\u00e9`, `\uD83D\uDE00`, `\uDBFF\uDFFF`, `\ud83d\u0041`, `\u0041`, `\u005c`, `\u0022`, "'", `\u0027`, "~",
	"\n[truncated]", `\n... [truncated]`, `\u000a[output truncated]`,
}

// hostileBadUTF8 are byte sequences that are not UTF-8.
var hostileBadUTF8 = []string{"\xff", "\xc3", "\xed\xa0\x80", "\xe0\x80\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "\xf0\x9f\x98", "\xe2\x82"}

func (g *hostileGen) filler(n int) string {
	const abc = "abcdefghijklmnopqrstuvwxyz0123456789 _.,:"
	b := make([]byte, n)
	for i := range b {
		b[i] = abc[g.r.Intn(len(abc))]
	}
	return string(b)
}

func (g *hostileGen) pick(s []string) string { return s[g.r.Intn(len(s))] }

// body is the text of a JSON string, as written between its quotes.
func (g *hostileGen) body() string {
	lengths := []int{0, 1, 7, 8, 9, 15, 16, 17, 21, 22, 23, 24, 25, 26, 31, 32, 33}
	switch g.r.Intn(10) {
	case 0:
		return g.filler(lengths[g.r.Intn(len(lengths))])
	case 1, 2:
		// a secret at every offset from an 8-byte word, and at the end
		post := []string{"", "", "", " x", g.filler(5), g.filler(13)}[g.r.Intn(6)]
		return g.filler(g.r.Intn(26)) + g.pick(hostileSecrets) + post
	case 3:
		var b strings.Builder
		for range 1 + g.r.Intn(12) {
			if g.r.Intn(2) == 0 {
				b.WriteString(g.pick(hostileBits))
			} else {
				b.WriteString(g.filler(g.r.Intn(9)))
			}
		}
		return b.String()
	case 4:
		// a word's start as the last bytes of a short or longer value
		n := []int{23, 24, 25, 100}[g.r.Intn(4)]
		return g.filler(n-3) + g.pick([]string{"sk-", "api", "Bea", "bea", `\u0041`, `s\u006b`, "sk", "s"})
	case 5:
		return g.filler(g.r.Intn(40)) + g.pick(hostileBadUTF8) + g.filler(g.r.Intn(5))
	case 6:
		// longer than a batch, or a line holding many values
		if g.r.Intn(40) == 0 {
			return g.filler(150<<10) + g.pick(hostileSecrets)
		}
		return g.filler(g.r.Intn(3000)) + g.pick(hostileBits) + g.pick(hostileSecrets)
	}
	return g.filler(g.r.Intn(60))
}

func (g *hostileGen) str() string { return `"` + g.body() + `"` }

// hostileKeys are keys with escapes, bytes no style writes as they are,
// and sensitive names spelled with escapes.
var hostileKeys = []string{
	"content", "k", `na\u006de`, "ke<y>", "kéy", `k\"q`, "api_key", "Authorization", `x\u0041pi_key`, `\u0070assword`,
	"token", "plain_key", "a-b", `k\/x`, `kk\u0000`, `k\ud800`, "k\x7f", `\u0074ype`, "zz", "aa",
}

func (g *hostileGen) value(depth int) string {
	switch k := g.r.Intn(8); {
	case depth > 3 || k == 0:
		return g.pick([]string{"1", "true", "null", "1.5e300", "-0", "12345678901234567890123", "[]", "{}", "false"})
	case k < 4:
		return g.str()
	case k < 6:
		var parts []string
		for range g.r.Intn(3) {
			parts = append(parts, g.value(depth+1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return g.object(depth)
}

func (g *hostileGen) object(depth int) string {
	var parts []string
	for range g.r.Intn(4) {
		parts = append(parts, `"`+g.pick(hostileKeys)+`":`+g.value(depth+1))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

var (
	hostileIDs   = []string{`"c1"`, `"c2"`, `"sk-AAAAAAAAAAAAAAAAAAAAAAAA1"`, `"\u00631"`, `"c\u00e9"`, `""`, `"` + strings.Repeat("i", 40) + `"`, `"Bearer xxxxxxxxxxxxxxxx"`, `"c\u0032"`}
	hostileNames = []string{`"read_file"`, `"execute"`, `"r\u0065ad_file"`, `"wr\u00efte"`, `"sk-NAMEAAAAAAAAAAAAAAAAAAAA"`, `"write_todos"`}
)

func (g *hostileGen) evo() string {
	id, name := g.pick(hostileIDs), g.pick(hostileNames)
	switch g.r.Intn(13) {
	case 0:
		// Zero omits an empty delta
		return `{"type": "text", "content": ` + g.pick([]string{g.str(), g.str(), `""`}) + `}`
	case 1:
		return `{"type": "thinking", "content": ` + g.pick([]string{g.str(), g.str(), `""`}) + `, "id": 0}`
	case 2:
		return `{"type": "tool_call", "name": ` + name + `, "args": ` + g.object(0) + `, "id": ` + id + `}`
	case 3:
		return `{"type": "tool_result", "name": ` + name + `, "content": ` + g.str() + `, "success": ` + g.pick([]string{"true", "false"}) + `, "id": ` + id + `}`
	case 4:
		return `{"type": "done", "content": ` + g.str() + `, "response": ` + g.str() + `}`
	case 5:
		return `{"type": "error", "message": ` + g.str() + `}`
	case 6:
		return `{"type": "interrupt", "action_requests": [{"name": ` + name + `, "args": ` + g.object(0) + `, "description": ` + g.str() + `}], "review_configs": [], "interrupt_id": ` + id + `}`
	case 7:
		return `{"type": "usage_stats", "input_tokens": ` + g.pick([]string{"10", "1e30", "99999999999999999999"}) + `, "output_tokens": 5}`
	case 8:
		return `{"type": "subagent_text", "subagent": "s", "content": ` + g.str() + `, "instance_id": "i1"}`
	case 9:
		return `{"type": ` + g.pick([]string{`"weird_\u0074ype"`, `"auth_refresh"`, `"te\u0078t"`, `"evosci.te\u0078t"`, `"zero.n\u006fte"`}) + `, "content": ` + g.str() + `}`
	case 10:
		return `{"type": "text", "content": ` + g.str() + `, "` + g.pick(hostileKeys) + `": ` + g.value(0) + `}`
	case 11:
		return `{"type": "tool_call", "name": ` + name + `, "args": {"a": NaN}, "id": ` + id + `}`
	}
	return `{"type": "tool_call", "name": ` + name + `, "args": {"command": ` + g.str() + `}, "id": ` + id + `}`
}

func (g *hostileGen) zero(run string) string {
	h := `"schemaVersion":2,"runId":"` + run + `"`
	id, name := g.pick(hostileIDs), g.pick(hostileNames)
	switch g.r.Intn(18) {
	case 0:
		return `{` + h + `,"type":"run_start","sessionId":"zero_1"}`
	case 1:
		return `{"delta":` + g.str() + `,` + h + `,"type":"text"}`
	case 2:
		return `{"delta":` + g.str() + `,` + h + `,"type":"reasoning"}`
	case 3:
		return `{"args":` + g.object(0) + `,"id":` + id + `,"name":` + name + `,` + h + `,"sideEffect":"read","type":"tool_call"}`
	case 4:
		return `{"id":` + id + `,"name":` + name + `,"output":` + g.str() + `,` + h + `,"status":"ok","truncated":false,"type":"tool_result","meta":` + g.object(0) + `}`
	case 5:
		return `{"action":"prompt","id":` + id + `,"name":` + name + `,"permission":"prompt","permissionGranted":false,"reason":` + g.str() + `,"risk":{"level":"high","reason":` + g.str() + `},` + h + `,"type":"permission_request"}`
	case 6:
		return `{` + h + `,"text":` + g.str() + `,"type":"final"}`
	case 7:
		return `{"code":"provider_error","message":` + g.str() + `,"recoverable":false,` + h + `,"type":"error"}`
	case 8:
		return `{"exitCode":0,` + h + `,"status":` + g.pick([]string{`"success"`, `"s\u0075ccess"`, `"odd"`}) + `,"type":"run_end"}`
	case 9:
		return `{` + h + `,"type":"text","delta":` + g.str() + `,"` + g.pick(hostileKeys) + `":` + g.value(0) + `}`
	case 10:
		return `{"completionTokens":2,"promptTokens":1,` + h + `,"totalTokens":3,"type":"usage"}`
	case 11:
		return `{` + h + `,"type":` + g.pick([]string{`"checkpoint"`, `"n\u006fte"`, `"evosci.text"`}) + `,"x":` + g.str() + `}`
	case 15:
		// as Zero writes a tool call and usage (zerotest.PairLayouts)
		return `{"args":` + g.value(0) + `,"id":` + id + `,"name":` + name + `,"runId":"` + run + `","schemaVersion":2,"sideEffect":"read","type":"tool_call"}`
	case 16:
		return `{"completionTokens":` + g.pick([]string{"2", "-1", "1.5", `"x"`, "1e400", "null"}) + `,"promptTokens":1,"runId":"` + run + `","schemaVersion":2,"totalTokens":3,"type":"usage"}`
	case 14:
		// as Zero writes a tool result (zerotest.PairLayouts)
		return `{"id":` + id + `,"name":` + name + `,"output":` + g.str() + `,"runId":"` + run + `","schemaVersion":2,"status":` + g.pick([]string{`"ok"`, `"error"`, `""`}) + `,"truncated":false,"type":"tool_result"}`
	case 12, 13:
		// as Zero writes its deltas (zerotest.PairLayouts), and next to it
		return `{"delta":` + g.pick([]string{g.str(), g.str(), `""`}) + `,"runId":"` + run + `","schemaVersion":2,"type":` + g.pick([]string{`"text"`, `"reasoning"`, `"text" `, `"reasoning"}`, `"tex"`}) + `}`
	}
	return `{"schemaVersion":1,"runId":"` + run + `","type":"text","delta":` + g.str() + `}`
}

// stream is runs of both protocols, cut anywhere, with a bad line now and
// then.
func (g *hostileGen) stream(lines int) []byte {
	var b bytes.Buffer
	for lines > 0 {
		n := 1 + g.r.Intn(30)
		run := g.pick([]string{"run_20260101000000_abcdef", "r1", `run_20260101000000_abcde\u0066`, "run_20260101000000_00000" + fmt.Sprint(g.r.Intn(10))})
		evo := g.r.Intn(2) == 0
		// a run's end comes lines after what it repeats (Zero's final):
		// the translation keeps it across lines and batches
		final := g.r.Intn(n + 1)
		for i := range n {
			switch {
			case evo:
				b.WriteString(g.evo())
			case i == final:
				b.WriteString(`{` + `"schemaVersion":2,"runId":"` + run + `","text":` + g.str() + `,"type":"final"}`)
			case i == n-1 && g.r.Intn(3) > 0:
				b.WriteString(`{"exitCode":0,"schemaVersion":2,"runId":"` + run + `","status":"success","type":"run_end"}`)
			default:
				b.WriteString(g.zero(run))
			}
			b.WriteByte('\n')
			if g.r.Intn(60) == 0 {
				b.WriteString(g.pick([]string{"not json", "", "{\"type\": 5}", `{"type":"text","content":"cut`, "  "}) + "\n")
			}
		}
		lines -= n
	}
	return b.Bytes()
}

// raggedReader gives its input in chunks of sizes that vary from one
// byte to more than a batch, so that the reading goroutine hands over
// batches at any point, half full.
type raggedReader struct {
	b []byte
	r *rand.Rand
}

func (r *raggedReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(r.b), []int{1, 7, 100, 5000, 70000, 200000}[r.r.Intn(6)])
	copy(p, r.b[:n])
	r.b = r.b[n:]
	return n, nil
}

// translation is all a way of translating gives: the output, the
// diagnostics and the stats.
type translation struct {
	out   string
	diags []string
	stats string
}

// How translateFiles translates.
type way int

const (
	// lineIdeal is Line with memory never reused: each line a copy of its
	// own, each decoded string in fresh memory (Object.Keep), and every
	// shortcut taken for speed off (Options.Plain). The reference.
	lineIdeal way = iota
	// lineScribbled is Line with one buffer for every line, overwritten
	// once Line returns: what the translation kept of a line shows.
	lineScribbled
	// streamPlain is Stream, the reading goroutine preparing every line,
	// the translating one decoding them.
	streamPlain
	// streamRagged is streamPlain with the reading goroutine decoding
	// every line too (decodeTurns), the input read in ragged chunks.
	streamRagged
	// streamShared is Stream with the translating goroutine preparing
	// five lines of eight, the input read in ragged chunks.
	streamShared
	// streamTranslatorPrepares is Stream with the translating goroutine
	// preparing every line.
	streamTranslatorPrepares
	// streamAdaptive is Stream as it runs: a share of the lines prepared
	// by the reading goroutine that follows which goroutine waits, the
	// input read in ragged chunks.
	streamAdaptive
	// streamSwitching is Stream with the reading goroutine decoding
	// every other batch (decodeTurns), the input read in ragged chunks.
	streamSwitching
	// streamFile is Stream reading regular files, as zevo translate
	// FILE does: every stage on one goroutine (pipeline.Pipe.Inline),
	// whatever the file's size.
	streamFile
)

func (w way) String() string {
	return [...]string{"Line", "Line, its buffer overwritten", "Stream", "Stream decoding on the reading goroutine, ragged reads",
		"Stream, 5 lines of 8 prepared by the translating goroutine, ragged reads", "Stream, every line prepared by the translating goroutine",
		"Stream sharing the lines as the goroutines' waits say, ragged reads",
		"Stream decoding every other batch on the reading goroutine, ragged reads", "Stream on regular files, one goroutine"}[w]
}

// translateFiles translates each of files as zevo translate does FILEs,
// on one Translator, the way w says.
func translateFiles(t *testing.T, opt Options, files [][]byte, w way) translation {
	t.Helper()
	// The reference goes the plain way: every line decoded member by
	// member, every event built field by field.
	opt.Plain = w == lineIdeal
	opt.Now, opt.Rand = fixedNow, zeroReader{}
	var res translation
	var out strings.Builder
	tr := New(opt, func(l []byte) error { out.Write(l); out.WriteByte('\n'); return nil })
	tr.fixedLevel = map[way]int{streamPlain: shareLevels, streamRagged: shareLevels,
		streamShared: 3, streamTranslatorPrepares: 0, streamAdaptive: -1, streamSwitching: shareLevels, streamFile: -1}[w]
	switch w {
	case streamPlain, streamShared, streamTranslatorPrepares:
		tr.decodeOn = func(uint64) bool { return false }
	case streamRagged:
		tr.decodeOn = func(uint64) bool { return true }
	case streamSwitching:
		tr.decodeOn = func(seq uint64) bool { return seq%2 == 1 }
	}
	tr.cur.ev.Keep = w == lineIdeal
	diag := func(d *jsonl.Diagnostic) error { res.diags = append(res.diags, d.Error()); return nil }
	var scribbled []byte
	for i, f := range files {
		name := fmt.Sprintf("f%d", i)
		if w >= streamPlain {
			var r io.Reader = bytes.NewReader(f)
			if w >= streamRagged && w != streamTranslatorPrepares && w != streamFile {
				r = &raggedReader{f, rand.New(rand.NewSource(int64(i)))}
			}
			if w == streamFile {
				tr.oneBatch = math.MaxInt64
				r = regularFile(t, f)
			}
			if err := tr.Stream(r, name, nil, func() error { return nil }, diag); err != nil {
				t.Fatal(err)
			}
		} else {
			prep := func(l *jsonl.Line) { l.Bytes = bytes.Clone(l.Bytes) }
			if w == lineScribbled {
				prep = func(l *jsonl.Line) { scribbled = append(scribbled[:0], l.Bytes...); l.Bytes = scribbled }
			}
			res.diags = append(res.diags, feedLines(t, tr, f, name, prep, func() {
				for j := range scribbled {
					scribbled[j] = '#'
				}
			})...)
		}
		if err := tr.End(name); err != nil {
			t.Fatal(err)
		}
	}
	res.out = out.String()
	st := tr.Stats()
	res.stats = fmt.Sprintf("%+v %s %s", *st, st.Summary(opt.Unmapped), st.DroppedSummary())
	return res
}

func compareTranslations(t *testing.T, what string, got, want translation) {
	t.Helper()
	if got.out != want.out {
		t.Fatalf("%s: the output differs:\n%s", what, firstDiff([]byte(got.out), []byte(want.out)))
	}
	if g, w := strings.Join(got.diags, "\n"), strings.Join(want.diags, "\n"); g != w {
		t.Fatalf("%s: the diagnostics differ:\n%s", what, firstDiff([]byte(g), []byte(w)))
	}
	if got.stats != want.stats {
		t.Fatalf("%s: the stats differ:\n got %s\nwant %s", what, got.stats, want.stats)
	}
}

// hostileOptions are the option sets of zevo translate's flags.
var hostileOptions = []Options{
	{To: Zero, Redact: true},  // --to zero
	{To: Zero},                // --no-redact
	{To: Zero1, Redact: true}, // --to zero@1
	{To: Zero, Redact: true, Redactor: redact.WithExtra()}, // --redact-extra
	{To: Zero, Redact: true, Unmapped: Keep},               // --unmapped keep
	{To: EvoSci},                                           // --to evosci
	{To: EvoSci, Redact: true},                             // --to evosci --redact
	{To: EvoSci, Unmapped: Keep, Redactor: redact.WithExtra(), Redact: true},
	{To: Zero, From: EvoSci, Redact: true}, // --from evosci
	{To: EvoSci, From: Zero},               // --from zero
	{To: Zero1, Unmapped: Keep, Redact: true, Redactor: redact.WithExtra()},
}

func TestHostileStreamsTranslateAlikeEveryWay(t *testing.T) {
	lines, long := 1000, []int{batchBytes, jsonl.ReaderSize + 5}
	if testing.Short() {
		lines, long = 200, long[:1]
	}
	g := &hostileGen{r: rand.New(rand.NewSource(31))}
	in := g.stream(lines)
	var esc []byte
	for _, l := range bytes.SplitAfter(in, []byte("\n")) {
		esc = append(esc, escapeLetters(l)...)
	}
	// Lines longer than a batch and than the read buffer.
	var longLines []byte
	for _, n := range long {
		longLines = append(longLines, `{"type": "tool_result", "name": "read_file", "content": "`+g.filler(n)+`sk-ABCDEFGHIJKLMNOPQRSTUV12", "success": true, "id": "c\u0031"}`+"\n"...)
		longLines = append(longLines, g.stream(20)...)
	}
	in, esc = append(in, longLines...), append(esc, longLines...)
	for _, input := range [][]byte{in, esc} {
		// the same input as three files, cut at line ends
		third := bytes.IndexByte(input[len(input)/3:], '\n') + len(input)/3 + 1
		splits := [][][]byte{{input}, {input[:third], input[third:]}}
		if testing.Short() && &input[0] == &in[0] {
			splits = splits[:1]
		}
		for _, opt := range hostileOptions {
			for _, fs := range splits {
				// Cut into files, values from 4 KiB are large ones, referred
				// to in the output as they are in the input.
				opt := opt
				if len(fs) > 1 {
					opt.bigValue = 4 << 10
				}
				want := translateFiles(t, opt, fs, lineIdeal)
				if len(want.out) == 0 || len(want.diags) == 0 {
					t.Fatalf("%+v: no output or no diagnostics", opt)
				}
				for w := lineScribbled; w <= streamFile; w++ {
					compareTranslations(t, fmt.Sprintf("%+v, %d files, %v", opt, len(fs), w), translateFiles(t, opt, fs, w), want)
				}
			}
		}
	}
}

// regularFile is data in a regular file, open for reading.
func regularFile(t *testing.T, data []byte) *os.File {
	t.Helper()
	name := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
