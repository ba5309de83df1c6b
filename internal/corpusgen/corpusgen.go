// Package corpusgen is what the dialects' corpus generators share
// (event.Dialect.Corpus): a seeded random source of words, text, tool
// outputs and secrets, and objects written in a producer's JSON style.
// Each dialect writes its own runs with it; bench/corpus asks the
// registry for them.
package corpusgen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/zevo/zevo/jsonl"
)

// Gen is one corpus being written.
type Gen struct {
	Rand *rand.Rand
	enc  encoder
	w    *bufio.Writer
	buf  []byte
	n    int64
	err  error
	call int
}

// Write writes runs to w in style, each by run (run numbers from 1, cut
// true for the last, which the producer left without its end: an input
// ending inside a run), until at least size bytes are written; the same
// seed gives the same bytes. It returns the number of bytes written.
func Write(w io.Writer, style jsonl.Style, size int64, seed uint64, run func(g *Gen, run int, cut bool)) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	g := &Gen{
		Rand: rand.New(rand.NewPCG(seed, 0x5eed)),
		enc:  encoder{python: style == jsonl.PythonStyle},
		w:    bw,
	}
	for n := 1; g.err == nil; n++ {
		last, before := g.n >= size, g.n
		run(g, n, last)
		if last {
			break
		}
		if g.n == before && g.err == nil {
			// It would never reach size.
			g.err = fmt.Errorf("corpusgen: run %d wrote nothing", n)
		}
	}
	if g.err != nil {
		return g.n, g.err
	}
	return g.n, bw.Flush()
}

// HugeText is size bytes of lines of output, the text of the one huge
// tool output a dialect's Corpus.Huge writes.
func HugeText(size int) string {
	return strings.Repeat("0123456789abcdef line of output\n", size/32+1)[:size]
}

// WriteLine writes o alone as one line in style.
func WriteLine(w io.Writer, style jsonl.Style, o Obj) error {
	b := encoder{python: style == jsonl.PythonStyle}.value(nil, o)
	b = append(b, '\n')
	_, err := w.Write(b)
	return err
}

// Emit writes o as one line.
func (g *Gen) Emit(o Obj) {
	if g.err != nil {
		return
	}
	g.buf = g.enc.value(g.buf[:0], o)
	g.buf = append(g.buf, '\n')
	n, err := g.w.Write(g.buf)
	g.n += int64(n)
	g.err = err
}

// Pct is true p times in a hundred.
func (g *Gen) Pct(p int) bool { return g.Rand.IntN(100) < p }

// Pick is one of s.
func (g *Gen) Pick(s []string) string { return s[g.Rand.IntN(len(s))] }

// Word is a plain English word.
func (g *Gen) Word() string { return g.Pick(words) }

// A literal, not strings.Fields at start-up: the dialects that use it are
// linked into every command.
var words = []string{"the", "a", "of", "to", "and", "in", "is", "it", "that", "for", "on", "with", "as", "this", "be", "are", "file", "test",
	"function", "error", "value", "return", "import", "package", "config", "run", "build", "check", "read", "write", "update", "fix", "the",
	"should", "first", "then", "next", "let", "me", "look", "at", "line", "module", "struct", "type", "field", "call", "result", "output", "change",
	"cache", "index", "query", "parser", "token", "stream", "event", "handler", "server", "client", "request", "response", "path",
	"directory", "commit", "branch", "merge", "review", "patch", "diff", "tests", "passing", "failing", "because", "however", "also"}

// Words with characters the JSON styles escape or keep differently.
var rich = []string{"café", "naïve", "—", "→", "résumé", "日本語", "😀", "Ünïcödé", "<div>", "a&b", "x > y", `"quoted"`, "tab\there", "über"}

// Sentence is nwords words, a few of them rich in characters to escape.
func (g *Gen) Sentence(nwords int) string {
	var b strings.Builder
	for i := 0; i < nwords; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		if g.Pct(4) {
			b.WriteString(g.Pick(rich))
		} else {
			b.WriteString(g.Pick(words))
		}
	}
	return b.String()
}

// Delta is a short streamed piece of text, as models stream tokens.
func (g *Gen) Delta() string {
	s := g.Sentence(1 + g.Rand.IntN(8))
	if g.Pct(50) {
		s = " " + s
	}
	if g.Pct(5) {
		s += "\n\n"
	}
	return s
}

var codeLines = []string{
	"func main() {", "\treturn nil", "}", "if err != nil && n > 0 {", "<html><body>&nbsp;</body></html>",
	"import \"fmt\"", "# Heading — notes", "- [x] done", "    at Object.<anonymous> (index.js:12:5)",
	"PASS ok  github.com/x/y 0.012s", "total 48", "drwxr-xr-x  5 user staff  160 Jan  1 12:00 src",
	"SELECT * FROM runs WHERE id = 'r1';", "{\"key\": \"value\", \"n\": 3}", "error: expected ';' — found '}'",
}

// Output is a tool's output of about n bytes.
func (g *Gen) Output(n int) string {
	var b strings.Builder
	for b.Len() < n {
		if g.Pct(10) {
			b.WriteString(g.Sentence(6))
		} else {
			b.WriteString(g.Pick(codeLines))
		}
		b.WriteByte('\n')
	}
	s := b.String()
	if len(s) > n {
		s = s[:n]
		for !ValidEnd(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

// ValidEnd reports whether s does not end inside a UTF-8 sequence.
func ValidEnd(s string) bool {
	for i := len(s) - 1; i >= 0 && i >= len(s)-4; i-- {
		c := s[i]
		if c < 0x80 {
			return true
		}
		if c >= 0xC0 {
			need := 2
			if c >= 0xE0 {
				need = 3
			}
			if c >= 0xF0 {
				need = 4
			}
			return len(s)-i == need
		}
	}
	return true
}

// ResultSize draws a tool output size: mostly small, sometimes large, up
// to 10 KiB.
func (g *Gen) ResultSize() int {
	switch r := g.Rand.IntN(100); {
	case r < 55:
		return 20 + g.Rand.IntN(300)
	case r < 85:
		return 300 + g.Rand.IntN(1700)
	default:
		return 2000 + g.Rand.IntN(8240)
	}
}

// Secret is text that the default redaction replaces (package redact).
func (g *Gen) Secret() string {
	switch g.Rand.IntN(4) {
	case 0:
		return fmt.Sprintf("export OPENAI_KEY=sk-proj%016x%04x", g.Rand.Uint64(), g.Rand.IntN(1<<16))
	case 1:
		return fmt.Sprintf("curl -H 'Authorization: Bearer %016x%08x' https://api.example.com", g.Rand.Uint64(), g.Rand.Uint32())
	case 2:
		return fmt.Sprintf("api_key=%016x", g.Rand.Uint64())
	default:
		return fmt.Sprintf("apiKey: \"%x\"", g.Rand.Uint64())
	}
}

// Path is a source file's path.
func (g *Gen) Path() string {
	return g.Pick([]string{"src", "cmd", "internal", "docs", "tests"}) + "/" + g.Pick(words) + "_" + g.Pick(words) + g.Pick([]string{".go", ".py", ".md", ".json", ".ts"})
}

// CallID is a new tool call's id.
func (g *Gen) CallID() string {
	g.call++
	return fmt.Sprintf("call_%08x%04d", g.Rand.Uint32(), g.call%10000)
}
