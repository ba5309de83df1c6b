package inspect

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// captureFacts is what a capture's events say, from the decoders alone:
// what every view of it must show.
type captureFacts struct {
	runs            int
	texts, thoughts []string // the deltas of the answer and of reasoning (main agent)
	calls           []string // tool names, in order (main agent)
	failed          []string // tools whose result failed (main agent)
	errors          []string
	finals          []string
}

func viewFactsOf(t *testing.T, data []byte) captureFacts {
	t.Helper()
	var f captureFacts
	in := dialects.NewInput(model.DecodeOptions{})
	note := func(ev *model.Event, st model.Step) {
		if ev == nil || ev.Aside {
			return
		}
		if st.Start {
			f.runs++
		}
		if ev.Sub != "" {
			return
		}
		switch ev.Kind {
		case model.Text:
			f.texts = append(f.texts, ev.Text)
		case model.Reasoning:
			f.thoughts = append(f.thoughts, ev.Text)
		case model.ToolCall:
			f.calls = append(f.calls, ev.Tool.Name)
		case model.ToolResult:
			if ev.Tool.Failed {
				f.failed = append(f.failed, ev.Tool.Name)
			}
		case model.Error:
			f.errors = append(f.errors, ev.Text)
		case model.Final:
			f.finals = append(f.finals, ev.Text)
		}
	}
	var dec jsonl.Decoder
	var o jsonl.LineObject
	for i, l := range bytes.Split(data, []byte("\n")) {
		if b, err := objectLine(&dec, &o, jsonl.Line{Bytes: l, Num: i + 1}); err == nil && b != nil {
			in.Line(b, i+1, note)
		}
	}
	in.End(note)
	return f
}

func viewCaptures(t *testing.T) []string {
	m, err := filepath.Glob(filepath.Join("..", "testdata", "captures", "*", "*.jsonl"))
	if err != nil || len(m) < 10 {
		t.Fatalf("captures: %v, %d found", err, len(m))
	}
	return m
}

// pieces are the parts of deltas that a streamed view shows whole: each
// line of each, trimmed, not empty.
func pieces(deltas []string) []string {
	var out []string
	for _, d := range deltas {
		for _, l := range strings.Split(d, "\n") {
			if l = strings.TrimSpace(strings.TrimSuffix(l, "\r")); l != "" {
				out = append(out, l)
			}
		}
	}
	return out
}

// On every real capture, zevo view shows each run, its text, its
// reasoning (marked), each tool call and each failed result (marked), its
// errors and its final answer, as the decoders read them.
func TestViewShowsCaptures(t *testing.T) {
	for _, path := range viewCaptures(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f := viewFactsOf(t, data)
		out, bad := viewString(t, string(data), ViewOptions{Full: true})
		name := filepath.Base(path)
		if len(bad) > 0 {
			t.Errorf("%s: lines not shown: %v", name, bad)
		}
		if n := runHeadings(out); n != f.runs {
			t.Errorf("%s: %d run headings, the decoders read %d runs\n%s", name, n, f.runs, out)
		}
		for _, p := range pieces(f.texts) {
			if !strings.Contains(out, Safe(p)) {
				t.Errorf("%s: text %q not shown", name, p)
			}
		}
		for _, p := range pieces(f.thoughts) {
			if !strings.Contains(out, "┊ ") || !strings.Contains(out, Safe(p)) {
				t.Errorf("%s: reasoning %q not shown", name, p)
			}
		}
		for _, c := range f.calls {
			if !strings.Contains(out, "▶ "+Safe(c)) {
				t.Errorf("%s: tool call %q not shown", name, c)
			}
		}
		for _, c := range f.failed {
			if !strings.Contains(out, "✗ "+Safe(c)+" failed") {
				t.Errorf("%s: failed result of %q not marked", name, c)
			}
		}
		for _, e := range f.errors {
			if !strings.Contains(out, "✗ error") || !strings.Contains(out, Safe(e)) {
				t.Errorf("%s: error %q not shown", name, e)
			}
		}
		for _, a := range pieces(f.finals) {
			if !strings.Contains(out, "── final answer ──") || !strings.Contains(out, Safe(a)) {
				t.Errorf("%s: final answer %q not shown", name, a)
			}
		}
	}
}

// runHeadings counts the view's run headings (not its closing lines).
func runHeadings(out string) int {
	n := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "── run ") && !strings.Contains(l, " · tokens: ") {
			n++
		}
	}
	return n
}

// On every real capture, the Markdown and HTML transcripts hold a
// heading per run, each tool call, each failed result marked, each error.
func TestDocumentsShowCaptures(t *testing.T) {
	for _, path := range viewCaptures(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f := viewFactsOf(t, data)
		name := filepath.Base(path)
		for _, format := range []DocFormat{Markdown, HTML} {
			out, bad := docString(t, DocOptions{Format: format, Full: true}, string(data))
			if len(bad) > 0 {
				t.Errorf("%s: lines not shown: %v", name, bad)
			}
			heads, failed, errs := `## <a id="run-`, "✗ failed", "✗ **error"
			if format == HTML {
				heads, failed, errs = `<section class="run" id="run-`, `<span class="bad">✗ failed`, `<div class="notice error">`
			}
			if n := strings.Count(out, heads); n != f.runs {
				t.Errorf("%s %d: %d run headings, the decoders read %d runs", name, format, n, f.runs)
			}
			if n := strings.Count(out, failed); n < len(f.failed) {
				t.Errorf("%s %d: %d failed results marked, the decoders read %d", name, format, n, len(f.failed))
			}
			if n := strings.Count(out, errs); n != len(f.errors) {
				t.Errorf("%s %d: %d errors shown, the decoders read %d", name, format, n, len(f.errors))
			}
			for _, c := range f.calls {
				if !strings.Contains(out, c) {
					t.Errorf("%s %d: tool call %q not shown", name, format, c)
				}
			}
		}
	}
}

// bloat puts n bytes into the longest string of the capture's longest
// line (a tool's output, as a rule).
func bloat(data []byte, n int) []byte {
	lines := bytes.Split(data, []byte("\n"))
	li := 0
	for i, l := range lines {
		if len(l) > len(lines[li]) {
			li = i
		}
	}
	l := lines[li]
	// The longest string: scan for quotes, skipping escapes.
	best, bestEnd, start := -1, -1, -1
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && start >= 0:
			i++
		case l[i] == '"' && start < 0:
			start = i
		case l[i] == '"':
			if i-start > bestEnd-best {
				best, bestEnd = start, i
			}
			start = -1
		}
	}
	if best < 0 {
		return data
	}
	big := append(append(append([]byte{}, l[:bestEnd]...), bytes.Repeat([]byte("x\\n"), n/3)...), l[bestEnd:]...)
	lines[li] = big
	return bytes.Join(lines, []byte("\n"))
}

// Adversarial variants of every capture (cut short at any line or inside
// one, a 5 MB output, garbage lines between the lines) go through the
// view and both documents without a panic, each run still headed, the
// garbage reported line by line and the documents held to their size.
func TestCapturesAdversarial(t *testing.T) {
	garbage := []string{"not json", "{", "[1,2]", "\x00\xff\xfe", `{"type": 5}`, `{}`}
	bloated := map[string]bool{} // one 5 MB variant per agent: they take the time
	for _, path := range viewCaptures(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		var variants []string
		for cut := 1; cut < len(lines); cut += 1 + len(lines)/4 {
			variants = append(variants, strings.Join(lines[:cut], "\n")+"\n")
			variants = append(variants, strings.Join(lines[:cut], "\n")+"\n"+lines[cut][:len(lines[cut])/2]+"\n")
		}
		var mixed []string
		for i, l := range lines {
			mixed = append(mixed, l, garbage[i%len(garbage)])
		}
		variants = append(variants, strings.Join(mixed, "\n")+"\n")
		var huge string
		if agent := filepath.Base(filepath.Dir(path)); !bloated[agent] {
			bloated[agent] = true
			huge = string(bloat(data, 5<<20))
			variants = append(variants, huge)
			if len(huge) < 5<<20 {
				t.Errorf("%s: the 5 MB variant has %d bytes", name, len(huge))
			}
		}
		for i, in := range variants {
			f := viewFactsOf(t, []byte(in))
			out, _ := viewString(t, in, ViewOptions{})
			if n := runHeadings(out); n != f.runs {
				t.Errorf("%s variant %d: %d run headings, the decoders read %d runs", name, i, n, f.runs)
			}
			for _, format := range []DocFormat{Markdown, HTML} {
				doc, _ := docString(t, DocOptions{Format: format}, in)
				limit := markdownLimits.page
				if format == HTML {
					limit = htmlLimits.page
				}
				if int64(len(doc)) > limit+256<<10 {
					t.Errorf("%s variant %d format %d: %d bytes, over the page's %d", name, i, format, len(doc), limit)
				}
			}
		}
		// The garbage lines are reported, one each; the capture's are not.
		_, bad := viewString(t, strings.Join(mixed, "\n")+"\n", ViewOptions{})
		want := 0
		for i := range lines {
			if g := garbage[i%len(garbage)]; !strings.HasPrefix(g, "{") || g == "{" {
				want++
			}
		}
		if len(bad) != want {
			t.Errorf("%s: %d lines reported, want %d: %v", name, len(bad), want, bad)
		}
	}
}

// A document's run headings say what zevo stats says of each run: the
// headings of the other agents' captures come from the summaries of their
// events, not from a reading of their lines as Zero's or EvoScientist's.
func TestDocumentHeadingsAgreeWithStatsOnCaptures(t *testing.T) {
	for _, path := range viewCaptures(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		df, err := ScanDocFile(bytes.NewReader(data), path, Pricing{})
		if err != nil {
			t.Fatal(err)
		}
		s := StatsAs{}.New(path)
		lr := jsonl.NewReader(bytes.NewReader(data), path, nil)
		for {
			l, err := lr.Next()
			if err != nil {
				break
			}
			s.Line(l)
		}
		fs := s.End()
		if len(df.runs) != len(fs.Runs) || len(fs.Runs) == 0 {
			t.Errorf("%s: %d headings, stats counts %d runs", path, len(df.runs), len(fs.Runs))
			continue
		}
		for i, h := range df.runs {
			r := fs.Runs[i]
			if h.Status != r.Status && !strings.HasPrefix(h.Status, r.Status+" ") && !strings.HasPrefix(h.Status, r.Status+":") || h.TotalTokens != r.Tokens.Total.String() {
				t.Errorf("%s: run %d heading %q, %s tokens; stats: %q, %s tokens", path, i+1, h.Status, h.TotalTokens, r.Status, r.Tokens.Total)
			}
			if strings.Contains(h.Status, "not known") {
				t.Errorf("%s: run %d heading %q", path, i+1, h.Status)
			}
		}
	}
}
