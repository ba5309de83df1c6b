package inspect

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	gen "github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/pricing"
)

// docString renders inputs (name → content) as one document.
func docString(t *testing.T, opt DocOptions, inputs ...string) (string, []string) {
	t.Helper()
	var files []*DocFile
	for i, in := range inputs {
		df, err := ScanDocFile(strings.NewReader(in), fmt.Sprintf("in%d", i+1), Pricing{Tables: []*pricing.Table{pricing.Snapshot()}})
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, df)
	}
	var out bytes.Buffer
	d := NewDocument(&out, opt, files)
	var bad []string
	for i, in := range inputs {
		bad = append(bad, renderFile(t, d, strings.NewReader(in), fmt.Sprintf("in%d", i+1))...)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	return out.String(), bad
}

// renderFile renders the next input of d and returns its bad lines.
func renderFile(t *testing.T, d *Document, r io.Reader, name string) (bad []string) {
	t.Helper()
	if err := d.File(); err != nil {
		t.Fatal(err)
	}
	bad = feedLines(t, r, name, d.Line)
	if err := d.EndFile(); err != nil {
		t.Fatal(err)
	}
	return bad
}

// feedLines gives each line of r to line and returns the lines it
// refused (a *jsonl.Diagnostic); another error fails the test.
func feedLines(t *testing.T, r io.Reader, name string, line func(jsonl.Line) error) (bad []string) {
	t.Helper()
	lr := jsonl.NewReader(r, name, nil)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			return bad
		}
		if err != nil {
			t.Fatal(err)
		}
		var le *jsonl.Diagnostic
		if err := line(l); errors.As(err, &le) {
			bad = append(bad, le.Error())
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

// hostileEvo is content written to break out of Markdown and HTML: raw
// markup, scripts, event handlers, fences, lines that would start block
// constructs, mentions, and terminal escapes.
const hostileEvo = `{"type": "text", "content": "# Not a heading\n- not a list\n1. not a list\n    not code\n> not a quote\n| a | b |\n|---|---|\n<script>window.pwned=1</script> <img src=x onerror=\"window.pwned2=1\"> [link](javascript:alert(1)) ![img](http://127.0.0.1:9/x.png) @octocat $x^2$ **bold** </details></summary> <!-- open \u001b[31m\u202e"}
{"type": "tool_call", "name": "exec<script>", "args": {"command": "` + "```" + `\n</details>\n<script>window.pwned4=1</script>", "n": 18446744073709551617}, "id": "c1"}
{"type": "tool_result", "name": "exec<script>", "content": "` + "````" + `\n# heading\n</pre></details><script>window.pwned3=1</script><style>body{display:none}</style>\n<iframe src=\"http://127.0.0.1:9/\"></iframe>\n` + "```" + `", "success": false, "id": "c1"}
{"type": "thinking", "content": "</summary></details><script>window.pwned5=1</script>"}
{"type": "error", "message": "<b onmouseover=\"window.pwned6=1\">boom</b>"}
{"type": "done", "response": "ok"}
{"type": "text", "content": "second run"}
{"type": "done", "response": "second run"}
`

// tagRE finds every tag in HTML text.
var tagRE = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>`)

// attrRE is every attribute zevo (and goldmark, for code blocks) writes.
var attrRE = regexp.MustCompile(`^(\s+(class="[a-z -]+"|id="run-\d+"|href="#run-\d+"|lang="en"|charset="utf-8"|colspan="6"|style="text-align:right"|http-equiv="Content-Security-Policy"|name="(referrer|viewport|color-scheme)"|content="[^"<>]*"))*\s*$`)

// linkRE is a link GitHub-flavoured Markdown makes of a URL in text
// (http, https, www and email only), as GitHub does.
var linkRE = regexp.MustCompile(`^ href="(https?://|mailto:)[^"<>]*"$`)

// checkTags fails on any element or attribute that is not one a transcript
// writes: markup from the input must have been escaped into text.
// Rendered Markdown may also hold the links GFM makes of URLs.
func checkTags(t *testing.T, html string, allowed string) {
	t.Helper()
	ok := map[string]bool{}
	for _, n := range strings.Fields(allowed) {
		ok[n] = true
	}
	for _, m := range tagRE.FindAllStringSubmatch(html, -1) {
		if !ok[strings.ToLower(m[2])] {
			t.Errorf("element <%s%s> in the output", m[2], m[3])
		}
		if !attrRE.MatchString(m[3]) && !(m[2] == "a" && strings.Contains(allowed, "blockquote") && linkRE.MatchString(m[3])) {
			t.Errorf("attributes %q in the output", m[3])
		}
	}
}

// renderGFM renders Markdown as GitHub does before it sanitizes: GFM with
// raw HTML passed through.
func renderGFM(t *testing.T, md string) string {
	t.Helper()
	var out bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := gm.Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestMarkdownHostile(t *testing.T) {
	md, bad := docString(t, DocOptions{Format: Markdown}, hostileEvo)
	if bad != nil {
		t.Fatalf("bad lines: %v", bad)
	}
	html := renderGFM(t, md)
	checkTags(t, html, "h1 h2 p a strong em details summary pre code blockquote br table thead tbody tr th td")
	for what, n := range map[string]int{
		"<h1":         1, // the title only: "# Not a heading" stays text
		"<h2":         2, // one per run: the fences did not swallow the second
		"<details>":   2, // the tool call, the reasoning
		"<pre>":       2, // arguments, result
		"<blockquote": 1, // the error
		"<li":         0,
		"<table":      1, // the overview of the two runs only
	} {
		if got := strings.Count(html, what); got != n {
			t.Errorf("%d %s, want %d\nmarkdown:\n%s\nhtml:\n%s", got, what, n, md, html)
		}
	}
	for _, text := range []string{
		"# Not a heading", "- not a list", "1. not a list", "&gt; not a quote", "| a | b |",
		"&lt;script&gt;window.pwned=1&lt;/script&gt;", "onerror=&quot;window.pwned2=1&quot;",
		"[link](javascript:alert(1))", "**bold**", "$x^2$", `\x1b[31m\u202e`,
		"&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;window.pwned3=1&lt;/script&gt;",
		"18446744073709551617", "@\u2060octocat",
	} {
		if !strings.Contains(html, text) {
			t.Errorf("rendered Markdown lacks the text %q\n%s", text, html)
		}
	}
	if strings.Contains(html, "@octocat") {
		t.Error("a mention survives")
	}
	// Leading spaces stay, as non-breaking spaces, not an indented code block.
	if !strings.Contains(md, "&nbsp;&nbsp;&nbsp;&nbsp;not code") {
		t.Errorf("indentation: %s", md)
	}
}

func TestHTMLHostile(t *testing.T) {
	page, bad := docString(t, DocOptions{Format: HTML}, hostileEvo)
	if bad != nil {
		t.Fatalf("bad lines: %v", bad)
	}
	checkTags(t, page, "html head meta title style body header h1 h2 h3 h4 p nav div table thead tbody tr th td a main section dl dt dd details summary span code pre b")
	for what, n := range map[string]int{
		`<section class="run"`: 2,
		"<details":             2,
		"<script":              0,
		"<style>":              1,
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'sha256-": 1,
	} {
		if got := strings.Count(page, what); got != n {
			t.Errorf("%d %s, want %d", got, what, n)
		}
	}
	for _, text := range []string{
		"&lt;script&gt;window.pwned=1&lt;/script&gt;", "onerror=&#34;window.pwned2=1&#34;",
		"&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;window.pwned3=1&lt;/script&gt;",
		`\x1b[31m\u202e`, "exec&lt;script&gt;", "18446744073709551617",
	} {
		if !strings.Contains(page, text) {
			t.Errorf("the page lacks the text %q", text)
		}
	}
}

// The CSP names the hash of the style sheet the page carries, or the
// browser would drop the style.
func TestHTMLStyleHash(t *testing.T) {
	if csp := htmlCSP(); !strings.Contains(csp, "'sha256-") || strings.Contains(csp, "unsafe") || strings.Contains(csp, "script-src") {
		t.Errorf("CSP %q", csp)
	}
	page, _ := docString(t, DocOptions{Format: HTML}, "")
	if !strings.Contains(page, "<style>"+htmlStyle+"</style>") || !strings.Contains(page, "0 run(s)") || !strings.HasSuffix(page, "</html>\n") {
		t.Errorf("empty input:\n%s", page)
	}
}

const secretsEvo = `{"type": "tool_call", "name": "execute", "args": {"command": "curl -H 'Authorization: Bearer abcdefghijklmnop1234' x", "password": "hunter2-hunter2", "deep": [{"client_secret": "s3cr3t-value"}]}, "id": "c1"}
{"type": "tool_result", "name": "execute", "content": "key sk-abcdefghijklmnopqrstuvwx ok", "success": true, "id": "c1"}
{"type": "text", "content": "use api_key=ABCDEFGHIJKLMNOPQRST please"}
{"type": "thinking", "content": "the token is sk-zyxwvutsrqponmlkjihg"}
{"type": "error", "message": "auth failed for sk-errorerrorerrorerror"}
`

var secrets = []string{"abcdefghijklmnop1234", "hunter2-hunter2", "s3cr3t-value", "sk-abcdefghijklmnopqrstuvwx", "ABCDEFGHIJKLMNOPQRST", "sk-zyxwvutsrqponmlkjihg", "sk-errorerrorerrorerror"}

func TestDocumentRedaction(t *testing.T) {
	zero := `{"schemaVersion": 2, "type": "run_start", "runId": "sk-runidrunidrunidrunid", "model": "m"}
{"schemaVersion": 2, "type": "tool_call", "runId": "sk-runidrunidrunidrunid", "id": "c", "name": "t", "args": {"apiKey": "zero-nested-key"}}
{"schemaVersion": 2, "type": "tool_result", "runId": "sk-runidrunidrunidrunid", "id": "c", "status": "ok", "output": "Bearer abcdefghijklmnopqrstu"}
`
	all := append(secrets, "sk-runidrunidrunidrunid", "zero-nested-key", "abcdefghijklmnopqrstu")
	for _, f := range []DocFormat{Markdown, HTML} {
		out, _ := docString(t, DocOptions{Format: f, Redact: true}, secretsEvo, zero)
		for _, s := range all {
			if strings.Contains(out, s) {
				t.Errorf("format %d: secret %q in the output", f, s)
			}
		}
		if !strings.Contains(out, "[REDACTED]") || !strings.Contains(out, "secrets redacted") {
			t.Errorf("format %d: no redaction shown", f)
		}
		out, _ = docString(t, DocOptions{Format: f}, secretsEvo, zero)
		for _, s := range all {
			if !strings.Contains(out, s) {
				t.Errorf("format %d without redaction: %q missing", f, s)
			}
		}
	}
}

// Each heading shows how its run ended, before the run's events: the
// document has read the input once already.
func TestDocumentRunHeadings(t *testing.T) {
	evo := "{\"type\": \"text\", \"content\": \"a\"}\n{\"type\": \"usage_stats\", \"input_tokens\": 5, \"output_tokens\": 7}\n{\"type\": \"error\", \"message\": \"boom\"}\n{\"type\": \"done\", \"response\": \"late\"}\n{\"type\": \"text\", \"content\": \"cut\"}\n"
	md, _ := docString(t, DocOptions{Format: Markdown}, evo)
	for _, want := range []string{
		// The done after the error belongs to the run and shows nothing.
		"## <a id=\"run-1\"></a>Run 1 · ✗ error · 12 tokens\n\n**Tokens** 5 in · 7 out · 12 total · **Cost** unpriced: no price for (no model) (--pricing FILE, --model NAME) · **Tool calls** 0 · **Errors** 1 error\n\na\n\n> ✗ **error**: boom\n\n## <a id=\"run-2\"></a>Run 2 · ⚠ incomplete: the input ended inside the run · 0 tokens\n",
		"| [1](#run-1) | ✗ error | 12 | unpriced | 0 | 1 |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("lacks %q\n%s", want, md)
		}
	}
	// The runs are the runs zevo stats counts.
	fs, err := Summarize(strings.NewReader(evo), "x", Auto)
	if err != nil || len(fs.Runs) != 2 || strings.Count(md, "## <a id=") != 2 {
		t.Errorf("stats: %d runs, %v", len(fs.Runs), err)
	}
}

// A run's cost is the cost zevo stats gives it, with its source.
func TestDocumentCost(t *testing.T) {
	in, err := os.ReadFile("../testdata/inspect/seed.zero.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	fs, err := Summarize(bytes.NewReader(in), "x", nil)
	if err != nil {
		t.Fatal(err)
	}
	Pricing{Tables: []*pricing.Table{pricing.Snapshot()}}.Apply([]*FileStats{fs})
	r := fs.Runs[0]
	if r.Cost == nil || *r.Cost <= 0 {
		t.Fatalf("stats prices the sample at %v", r.Cost)
	}
	want := "$" + formatUSD(*r.Cost) + " (" + r.CostSource + ": " + r.PricedAs + ")"
	page, _ := docString(t, DocOptions{Format: HTML}, string(in))
	if !strings.Contains(page, "<dt>cost</dt><dd>"+want+"</dd>") || !strings.Contains(page, "<td>$"+formatUSD(*r.Cost)+"</td>") {
		t.Errorf("the page does not show the cost %q", want)
	}
}

func TestDocumentClips(t *testing.T) {
	var big strings.Builder
	for i := 0; big.Len() < 1<<20; i++ {
		fmt.Fprintf(&big, "line %d of a long output\n", i)
	}
	lines := strings.Count(big.String(), "\n")
	in := fmt.Sprintf("{\"type\": \"tool_call\", \"name\": \"cat\", \"args\": {}, \"id\": \"c\"}\n{\"type\": \"tool_result\", \"name\": \"cat\", \"content\": %q, \"success\": true, \"id\": \"c\"}\n", big.String())
	note := func(n int) string {
		shown := strings.Join(strings.SplitAfter(big.String(), "\n")[:n], "")
		return fmt.Sprintf("clipped: %s of %s shown (%d of %d lines)", byteSize(int64(len(shown))), byteSize(int64(big.Len())), n, lines)
	}
	for _, c := range []struct {
		f     DocFormat
		shown string
	}{{Markdown, note(markdownLimits.resultLines)}, {HTML, note(htmlLimits.resultLines)}} {
		out, _ := docString(t, DocOptions{Format: c.f}, in)
		if !strings.Contains(out, c.shown) || len(out) > 64<<10 {
			t.Errorf("format %d: %d bytes, want the note %q", c.f, len(out), c.shown)
		}
		full, _ := docString(t, DocOptions{Format: c.f, Full: true}, in)
		if strings.Contains(full, "clipped") || !strings.Contains(full, fmt.Sprintf("line %d of a long output", lines-1)) {
			t.Errorf("format %d --full: clipped", c.f)
		}
	}
}

// Past its page size a document shows only each run's heading and summary.
func TestDocumentPageLimit(t *testing.T) {
	var in strings.Builder
	text := strings.Repeat("word ", 2000)
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&in, "{\"type\": \"text\", \"content\": \"run%dstart %s\"}\n{\"type\": \"done\", \"response\": \"r%d\"}\n", i, text, i)
	}
	md, _ := docString(t, DocOptions{Format: Markdown}, in.String())
	if n := strings.Count(md, "## <a id="); n != 300 {
		t.Errorf("%d run headings, want 300", n)
	}
	cut := strings.Count(md, "**events not shown**: this document reached 1.0 MiB")
	if cut < 100 || len(md) > 1<<20+300*1024 {
		t.Errorf("%d bytes, %d runs cut", len(md), cut)
	}
	full, _ := docString(t, DocOptions{Format: Markdown, Full: true}, in.String())
	if strings.Contains(full, "events not shown") {
		t.Error("--full cut runs")
	}
	for i := 0; i < 300; i++ {
		if !strings.Contains(full, fmt.Sprintf("run%dstart word", i)) {
			t.Fatalf("--full: run %d's text missing", i)
		}
	}
}

func TestDocumentBadLines(t *testing.T) {
	in := "{\"type\": \"text\", \"content\": \"a\"}\n{\"type\": \"text\"\n[1]\n\xff\n{\"type\": \"done\", \"response\": \"b\"}\n"
	for _, f := range []DocFormat{Markdown, HTML} {
		out, bad := docString(t, DocOptions{Format: f}, in)
		want := []string{"in1:2: not valid JSON at byte 16: the line ends inside a value", "in1:3: not a JSON object: an array", "in1:4: invalid UTF-8 at byte 1"}
		if fmt.Sprint(bad) != fmt.Sprint(want) || !strings.Contains(out, "b") {
			t.Errorf("format %d: %q", f, bad)
		}
	}
}

// Zero's events: permission traffic, sandbox blocks, results that follow
// permission prompts, the final answer given as text already.
func TestDocumentZero(t *testing.T) {
	in := `{"schemaVersion": 2, "type": "run_start", "runId": "r1", "provider": "openai", "model": "gpt-4.1", "cwd": "/repo"}
{"schemaVersion": 2, "type": "text", "runId": "r1", "delta": "Hel"}
{"schemaVersion": 2, "type": "text", "runId": "r1", "delta": "lo"}
{"schemaVersion": 2, "type": "tool_call", "runId": "r1", "id": "c1", "name": "write_file", "args": {"path": "a"}}
{"schemaVersion": 2, "type": "permission_request", "runId": "r1", "id": "c1", "name": "write_file", "sideEffect": "write", "risk": {"level": "medium"}, "reason": "Writes."}
{"schemaVersion": 2, "type": "permission_decision", "runId": "r1", "id": "c1", "name": "write_file", "action": "deny", "block": {"code": "denied", "reason": "outside", "path": "/etc"}}
{"schemaVersion": 2, "type": "tool_result", "runId": "r1", "id": "c1", "status": "error", "output": "denied"}
{"schemaVersion": 2, "type": "usage", "runId": "r1", "promptTokens": 3, "completionTokens": 4, "totalTokens": 7, "costUsd": 0.0125}
{"schemaVersion": 2, "type": "final", "runId": "r1", "text": "Hello"}
{"schemaVersion": 2, "type": "run_end", "runId": "r1", "status": "error", "exitCode": 1}
`
	md, _ := docString(t, DocOptions{Format: Markdown}, in)
	for _, want := range []string{
		"## <a id=\"run-1\"></a>Run 1 · r1 · gpt-4.1 · ✗ error (exit 1) · 7 tokens\n",
		"**Cost** \\$0.0125 (costUsd)",
		"Hello\n\n> ⚠ **permission requested**: write\\_file (write, risk medium) — Writes.\n\n> ✗ **permission denied**: write\\_file\n\n> ✗ **sandbox**: denied: outside (/etc)\n\n" +
			"<details>\n<summary>write_file  path=a — ✗ failed, 6 B</summary>\n\nArguments:\n\n```json\n{\"path\": \"a\"}\n```\n\nResult (✗ failed, 6 B):\n\n```\ndenied\n```\n\n</details>\n\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("lacks %q\n%s", want, md)
		}
	}
	if strings.Contains(md, "Final answer") {
		t.Error("the final answer repeats the text")
	}
}

func TestMarkdownFence(t *testing.T) {
	for _, s := range []string{"plain", "a ``` b", "````\nx\n`````", "`"} {
		out := string(mdFence(nil, "", s))
		fence := out[:strings.IndexByte(out, '\n')]
		if strings.Contains(s, fence) || len(fence) < 3 || !strings.HasSuffix(out, "\n"+fence+"\n\n") {
			t.Errorf("%q: fence %q", s, fence)
		}
	}
}

// memWriter counts what is written and samples the live heap (as of the
// last collection) every 64 writes; memReader samples it every 64 reads.
type memWriter struct {
	n, writes int64
	runs      int // run sections begun
	peak      heapPeak
	tail      []byte
}

type heapPeak struct {
	max    uint64
	sample []metrics.Sample
}

func (p *heapPeak) read() {
	if p.sample == nil {
		p.sample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	}
	metrics.Read(p.sample)
	p.max = max(p.max, p.sample[0].Value.Uint64())
}

func (w *memWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	w.writes++
	w.runs += bytes.Count(p, []byte(`<section class="run"`))
	if w.writes%64 == 0 {
		w.peak.read()
	}
	w.tail = append(w.tail[:0], p[max(0, len(p)-64):]...)
	return len(p), nil
}

type memReader struct {
	r     io.Reader
	reads int
	peak  heapPeak
}

func (r *memReader) Read(p []byte) (int, error) {
	if r.reads++; r.reads%64 == 0 {
		r.peak.read()
	}
	return r.r.Read(p)
}

// A 100 MB log gives a page of bounded size, rendered in bounded memory:
// what stays in memory is each run's summary, not its events.
func TestDocumentLargeLog(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and renders 100 MB logs: left out by -short")
	}
	for _, p := range []gen.Protocol{gen.EvoSci, gen.Zero} {
		path := filepath.Join(t.TempDir(), "big.jsonl")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		size, err := gen.Write(f, gen.Options{Protocol: p, Size: 100 << 20, Seed: 1})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		f, _ = os.Open(path)
		scan := &memReader{r: f}
		df, err := ScanDocFile(scan, path, Pricing{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		w := &memWriter{}
		d := NewDocument(w, DocOptions{Format: HTML, Redact: true}, []*DocFile{df})
		f, _ = os.Open(path)
		bad := renderFile(t, d, f, path)
		f.Close()
		if bad != nil {
			t.Fatalf("%s: %v", p, bad[:min(len(bad), 3)])
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		runs := len(df.runs)
		t.Logf("%s: %d MB log, %d runs: %.1f MiB page; peak live heap %.1f MiB reading, %.1f MiB writing", p, size>>20, runs, float64(w.n)/(1<<20), float64(scan.peak.max)/(1<<20), float64(w.peak.max)/(1<<20))
		if w.n > htmlLimits.page+int64(runs)*2048 || !bytes.HasSuffix(w.tail, []byte("</html>\n")) || w.runs != runs || runs < 1000 {
			t.Errorf("%s: a page of %d bytes, %d of %d runs", p, w.n, w.runs, runs)
		}
		for _, peak := range []uint64{scan.peak.max, w.peak.max} {
			if peak == 0 || peak > 16<<20 {
				t.Errorf("%s: peak live heap %d bytes", p, peak)
			}
		}
	}
}

func TestPrettyJSON(t *testing.T) {
	in := `{"cmd": "a && b < c", "n": 18446744073709551617, "list": [1, {"b": "x\ny\u0001"}], "empty": {}, "long": "` + strings.Repeat("x", 60) + `"}`
	want := "{\n  \"cmd\": \"a && b < c\",\n  \"n\": 18446744073709551617,\n  \"list\": [\n    1,\n    {\n      \"b\": \"x\\ny\\u0001\"\n    }\n  ],\n  \"empty\": {},\n  \"long\": \"" + strings.Repeat("x", 60) + "\"\n}"
	if got := prettyJSON(gjson.Parse(in)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := prettyJSON(gjson.Parse(`{"path": "a.txt", "n": [1, 2]}`)); got != `{"path": "a.txt", "n": [1, 2]}` {
		t.Errorf("small value: %s", got)
	}
	// Deep nesting is laid out to a depth, then written as it came: the
	// output stays linear in the input.
	deep := strings.Repeat(`{"a":`, 9000) + "1" + strings.Repeat("}", 9000)
	got := prettyJSON(gjson.Parse(deep))
	if len(got) > 2*len(deep) || !strings.Contains(got, strings.Repeat(`{"a":`, 8983)+"1"+strings.Repeat("}", 8983)+"\n"+strings.Repeat("  ", 16)+"}") {
		t.Errorf("deep: %d bytes for %d", len(got), len(deep))
	}
}

// On generated logs of both protocols (secrets, markup, escapes, every
// event type the generator writes), every run gets its heading, every
// folded block is closed, and no element comes from content.
func TestDocumentCorpus(t *testing.T) {
	for _, p := range []gen.Protocol{gen.EvoSci, gen.Zero} {
		var in bytes.Buffer
		if _, err := gen.Write(&in, gen.Options{Protocol: p, Size: 1 << 20, Seed: 7}); err != nil {
			t.Fatal(err)
		}
		fs, err := Summarize(bytes.NewReader(in.Bytes()), "x", nil)
		if err != nil {
			t.Fatal(err)
		}
		md, bad := docString(t, DocOptions{Format: Markdown, Redact: true, Full: true}, in.String())
		if bad != nil {
			t.Fatalf("%s: %v", p, bad)
		}
		html := renderGFM(t, md)
		checkTags(t, html, "h1 h2 p a strong em details summary pre code blockquote br table thead tbody tr th td")
		if o, c := strings.Count(html, "<details>"), strings.Count(html, "</details>"); o != c || o == 0 {
			t.Errorf("%s: Markdown: %d <details>, %d </details>", p, o, c)
		}
		if n := strings.Count(html, "<h2>"); n != len(fs.Runs) {
			t.Errorf("%s: Markdown: %d run headings, stats counts %d runs", p, n, len(fs.Runs))
		}
		page, _ := docString(t, DocOptions{Format: HTML, Redact: true, Full: true}, in.String())
		checkTags(t, page, "html head meta title style body header h1 h2 h3 h4 p nav div table thead tbody tr th td a main section dl dt dd details summary span code pre b")
		for _, tag := range []string{"details", "section", "pre", "div"} {
			if o, c := strings.Count(page, "<"+tag), strings.Count(page, "</"+tag+">"); o != c {
				t.Errorf("%s: HTML: %d <%s, %d </%s>", p, o, tag, c, tag)
			}
		}
		if n := strings.Count(page, `<section class="run"`); n != len(fs.Runs) {
			t.Errorf("%s: HTML: %d runs, stats counts %d", p, n, len(fs.Runs))
		}
	}
}

// FuzzDocument: whatever the lines, both formats render without failing,
// the HTML holds only zevo's own elements and the Markdown, rendered as
// GitHub does, only its own elements with every folded block closed.
func FuzzDocument(f *testing.F) {
	for _, s := range []string{hostileEvo, secretsEvo, "{\"type\": \"text\", \"content\": \"```\\n<details>\"}\n"} {
		f.Add(s)
	}
	for _, name := range []string{"../testdata/translate/basic.evosci.jsonl", "../testdata/translate/basic.zero.jsonl", "../testdata/inspect/seed.zero.jsonl"} {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 8<<10 { // small inputs: many runs a second
			return
		}
		page, _ := docString(t, DocOptions{Format: HTML, Redact: true}, in)
		checkTags(t, page, "html head meta title style body header h1 h2 h3 h4 p nav div table thead tbody tr th td a main section dl dt dd details summary span code pre b")
		md, _ := docString(t, DocOptions{Format: Markdown, Redact: true}, in)
		html := renderGFM(t, md)
		checkTags(t, html, "h1 h2 p a strong em details summary pre code blockquote br table thead tbody tr th td")
		if o, c := strings.Count(html, "<details>"), strings.Count(html, "</details>"); o != c {
			t.Errorf("%d <details>, %d </details>\n%s", o, c, md)
		}
	})
}

// A tool's name, an unknown event's type and an error's message are clipped
// as outputs are: a 3 MB message must not make a page of megabytes.
func TestDocumentClipsNamesLabelsAndMessages(t *testing.T) {
	huge := strings.Repeat("x", 3<<20)
	in := fmt.Sprintf(`{"type": "tool_call", "name": %q, "args": {}, "id": %q}
{"type": "tool_result", "name": %q, "content": "ok", "success": true, "id": %q}
{"type": "error", "message": %q}
{"type": %q, "content": "a"}
{"schemaVersion": 2, "type": "run_start", "runId": "r1"}
{"schemaVersion": 2, "type": "error", "runId": "r1", "code": %q, "message": %q}
{"schemaVersion": 2, "type": "warning", "runId": "r1", "message": %q}
{"schemaVersion": 2, "type": "run_end", "runId": "r1", "status": "error", "exitCode": 1}
`, huge, huge, huge, huge, huge, huge, huge, huge, huge)
	for _, f := range []DocFormat{Markdown, HTML} {
		out, _ := docString(t, DocOptions{Format: f}, in)
		if len(out) > 256<<10 {
			t.Errorf("format %d: %d bytes for names and messages of 3 MiB", f, len(out))
		}
		if !strings.Contains(out, "…") {
			t.Errorf("format %d: no mark where a name or message was clipped", f)
		}
		full, _ := docString(t, DocOptions{Format: f, Full: true}, in)
		if len(full) < 6*(3<<20) {
			t.Errorf("format %d --full: %d bytes, want every name and message whole", f, len(full))
		}
	}
}

// One input of several dialects in a document: Zero's lines by today's
// renderers (the permission's side effect and risk), OpenCode's through
// the event model, EvoScientist's by today's again (its approvals).
func TestDocumentRoutesEachLineByItsDialect(t *testing.T) {
	capture, err := os.ReadFile("../testdata/captures/opencode/nightgauge-bash-permission-rejected.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	in := `{"schemaVersion":2,"type":"run_start","runId":"r1"}
{"schemaVersion":2,"type":"permission_request","runId":"r1","id":"c1","name":"bash","sideEffect":"shell","risk":{"level":"high"},"reason":"runs"}
` + string(capture) + `{"type":"interrupt","action_requests":[{"name":"write_file","description":"Creates.","args":{"path":"a"}}]}
{"type":"done","response":"ok"}
`
	md, bad := docString(t, DocOptions{Format: Markdown}, in)
	if len(bad) > 0 {
		t.Fatalf("bad lines %v", bad)
	}
	for _, want := range []string{
		"> ⚠ **permission requested**: bash (shell, risk high) — runs\n",
		"<summary>bash  command=python3 calc.py — ✗ failed",
		"> ⚠ **approval needed**: write\\_file — Creates. · path=a\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("lacks %q\n%s", want, md)
		}
	}
}
