// Package corpus generates deterministic, realistic EvoScientist and Zero
// stream-json corpora of any size, serialized exactly as the real producers
// write them, for benchmarks and comparisons.
package corpus

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// Protocol is the producer a corpus imitates: protocol.EvoSci or
// protocol.ZeroV2.
type Protocol = *protocol.Protocol

// The protocols a corpus can imitate.
var (
	EvoSci = protocol.EvoSci
	Zero   = protocol.ZeroV2
)

// Options describe a corpus.
type Options struct {
	Protocol Protocol
	Size     int64  // bytes to write at least; whole runs are finished past it, the last one cut
	Seed     uint64 // the same seed gives the same bytes
}

// Write writes a corpus to w and returns the number of bytes written.
func Write(w io.Writer, opt Options) (int64, error) {
	if opt.Protocol != EvoSci && opt.Protocol != Zero {
		return 0, fmt.Errorf("corpus: cannot write protocol %v (want %s or %s)", opt.Protocol, EvoSci, Zero)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	g := &gen{
		rng: rand.New(rand.NewPCG(opt.Seed, 0x5eed)),
		enc: encoder{python: opt.Protocol.Style == jsonl.PythonStyle},
		w:   bw,
	}
	for run := 1; g.err == nil; run++ {
		// The last run is cut short (the producer died): the input ends
		// inside a run, which translation must close.
		last := g.n >= opt.Size
		if opt.Protocol == EvoSci {
			g.evoRun(run, last)
		} else {
			g.zeroRun(run, last)
		}
		if last {
			break
		}
	}
	if g.err != nil {
		return g.n, g.err
	}
	return g.n, bw.Flush()
}

type gen struct {
	rng  *rand.Rand
	enc  encoder
	w    *bufio.Writer
	buf  []byte
	n    int64
	err  error
	call int
}

func (g *gen) emit(o obj) {
	if g.err != nil {
		return
	}
	g.buf = g.enc.value(g.buf[:0], o)
	g.buf = append(g.buf, '\n')
	n, err := g.w.Write(g.buf)
	g.n += int64(n)
	g.err = err
}

func (g *gen) pct(p int) bool { return g.rng.IntN(100) < p }

func (g *gen) pick(s []string) string { return s[g.rng.IntN(len(s))] }

var words = strings.Fields(`the a of to and in is it that for on with as this be are file test
function error value return import package config run build check read write update fix the
should first then next let me look at line module struct type field call result output change
cache index query parser token stream event handler server client request response path
directory commit branch merge review patch diff tests passing failing because however also`)

// Words with characters both producers escape or keep differently.
var rich = []string{"café", "naïve", "—", "→", "résumé", "日本語", "😀", "Ünïcödé", "<div>", "a&b", "x > y", `"quoted"`, "tab\there", "über"}

func (g *gen) sentence(nwords int) string {
	var b strings.Builder
	for i := 0; i < nwords; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		if g.pct(4) {
			b.WriteString(g.pick(rich))
		} else {
			b.WriteString(g.pick(words))
		}
	}
	return b.String()
}

// delta is a short streamed piece of text, as models stream tokens.
func (g *gen) delta() string {
	s := g.sentence(1 + g.rng.IntN(8))
	if g.pct(50) {
		s = " " + s
	}
	if g.pct(5) {
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

// output is a tool's output of about n bytes.
func (g *gen) output(n int) string {
	var b strings.Builder
	for b.Len() < n {
		if g.pct(10) {
			b.WriteString(g.sentence(6))
		} else {
			b.WriteString(g.pick(codeLines))
		}
		b.WriteByte('\n')
	}
	s := b.String()
	if len(s) > n {
		s = s[:n]
		for !validEnd(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

// validEnd reports whether s does not end inside a UTF-8 sequence.
func validEnd(s string) bool {
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

// resultSize draws a tool output size: mostly small, sometimes large, up
// to 10 KiB.
func (g *gen) resultSize() int {
	switch r := g.rng.IntN(100); {
	case r < 55:
		return 20 + g.rng.IntN(300)
	case r < 85:
		return 300 + g.rng.IntN(1700)
	default:
		return 2000 + g.rng.IntN(8240)
	}
}

// secret is text that Zero's redaction replaces.
func (g *gen) secret() string {
	switch g.rng.IntN(4) {
	case 0:
		return fmt.Sprintf("export OPENAI_KEY=sk-proj%016x%04x", g.rng.Uint64(), g.rng.IntN(1<<16))
	case 1:
		return fmt.Sprintf("curl -H 'Authorization: Bearer %016x%08x' https://api.example.com", g.rng.Uint64(), g.rng.Uint32())
	case 2:
		return fmt.Sprintf("api_key=%016x", g.rng.Uint64())
	default:
		return fmt.Sprintf("apiKey: \"%x\"", g.rng.Uint64())
	}
}

type tool struct {
	name string
	args func(g *gen) obj
}

func (g *gen) path() string {
	return g.pick([]string{"src", "cmd", "internal", "docs", "tests"}) + "/" + g.pick(words) + "_" + g.pick(words) + g.pick([]string{".go", ".py", ".md", ".json", ".ts"})
}

var evoTools = []tool{
	{"read_file", func(g *gen) obj { return obj{{"path", g.path()}} }},
	{"ls", func(g *gen) obj { return obj{{"path", g.pick([]string{".", "src", "docs"})}} }},
	{"grep", func(g *gen) obj { return obj{{"pattern", g.pick(words)}, {"path", "."}, {"glob", "*.py"}} }},
	{"write_file", func(g *gen) obj { return obj{{"path", g.path()}, {"content", g.output(100 + g.rng.IntN(1500))}} }},
	{"edit_file", func(g *gen) obj {
		return obj{{"path", g.path()}, {"old_string", g.sentence(5)}, {"new_string", g.sentence(6)}, {"replace_all", g.pct(10)}}
	}},
	{"execute", func(g *gen) obj {
		cmd := g.pick([]string{"python -m pytest -q", "ls -la", "git status", "pip install -e .", "make test"})
		if g.pct(8) {
			cmd = g.secret()
		}
		return obj{{"command", cmd}, {"timeout", 120}}
	}},
	{"web_search", func(g *gen) obj { return obj{{"query", g.sentence(4)}, {"max_results", 5}} }},
	{"fetch_url", func(g *gen) obj {
		o := obj{{"url", "https://example.org/" + g.pick(words)}}
		if g.pct(15) {
			o = append(o, kv{"headers", obj{{"Authorization", fmt.Sprintf("Bearer %016x", g.rng.Uint64())}, {"Accept", "text/html"}}})
		}
		return o
	}},
	{"think_tool", func(g *gen) obj { return obj{{"reflection", g.sentence(20)}} }},
	{"write_todos", func(g *gen) obj {
		return obj{{"todos", []any{obj{{"content", g.sentence(4)}, {"status", "pending"}}, obj{{"content", g.sentence(3)}, {"status", "completed"}}}}}
	}},
	{"mcp_deploy", func(g *gen) obj {
		return obj{{"service", g.pick(words)}, {"api_key", fmt.Sprintf("%016x", g.rng.Uint64())}, {"replicas", 2}}
	}},
}

func (g *gen) tool() tool {
	// Reads dominate real sessions.
	if g.pct(40) {
		return evoTools[g.rng.IntN(3)]
	}
	return evoTools[g.rng.IntN(len(evoTools))]
}

func (g *gen) callID() string {
	g.call++
	return fmt.Sprintf("call_%08x%04d", g.rng.Uint32(), g.call%10000)
}

// risky tools are the ones a permission prompt is shown for.
func risky(name string) bool {
	return name == "write_file" || name == "edit_file" || name == "execute" || name == "mcp_deploy"
}
