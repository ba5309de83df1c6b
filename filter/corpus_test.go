package filter

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/zevo/zevo/jsonl"
)

// writeCorpus writes EvoScientist stream-json runs, as EvoScientist
// serializes them (Python's json.dumps: ", " and ": ", non-ASCII escaped),
// until at least size bytes are written. The mix of events follows a
// typical agent run: deltas of text and thinking, tool calls with results
// of up to 2000 characters, usage per model call, sub-agents, a done.
func writeCorpus(w io.Writer, size int64, seed uint64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	r := rand.New(rand.NewPCG(seed, 7))
	words := strings.Fields("the agent reads files runs tests and edits code until every check passes caf\u00e9 r\u00e9sum\u00e9 \u2014 \U0001F600 notes.md README.md go test ./... failed ok")
	text := func(n int) string {
		var b strings.Builder
		for b.Len() < n {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		return b.String()
	}
	tools := []string{"read_file", "write_file", "edit_file", "execute", "grep", "glob", "ls", "web_search", "task"}
	var line []byte
	str := func(s string) { line = jsonl.AppendString(line, s, jsonl.PythonStyle) }
	var written int64
	emit := func() error {
		line = append(line, '\n')
		n, err := bw.Write(line)
		written += int64(n)
		line = line[:0]
		return err
	}
	call := 0
	for written < size {
		var answer strings.Builder
		for step := 0; step < 5+r.IntN(20); step++ {
			switch k := r.IntN(10); {
			case k < 3:
				line = append(line, `{"type": "thinking", "content": `...)
				str(text(20 + r.IntN(200)))
				line = append(line, `, "id": 0}`...)
			case k < 5:
				t := text(10 + r.IntN(120))
				answer.WriteString(t)
				line = append(line, `{"type": "text", "content": `...)
				str(t)
				line = append(line, '}')
			case k < 8:
				call++
				id := "call_" + strconv.Itoa(call)
				name := tools[r.IntN(len(tools))]
				line = append(line, `{"type": "tool_call", "name": `...)
				str(name)
				line = append(line, `, "args": {"path": `...)
				str("src/" + text(8) + ".go")
				line = append(line, `, "limit": `...)
				line = strconv.AppendInt(line, int64(r.IntN(500)), 10)
				line = append(line, `}, "id": `...)
				str(id)
				line = append(line, '}')
				if err := emit(); err != nil {
					return err
				}
				line = append(line, `{"type": "tool_result", "name": `...)
				str(name)
				line = append(line, `, "content": `...)
				str(text(r.IntN(2000)))
				line = append(line, `, "success": `...)
				line = strconv.AppendBool(line, r.IntN(8) != 0)
				line = append(line, `, "id": `...)
				str(id)
				line = append(line, '}')
			case k < 9:
				line = append(line, `{"type": "usage_stats", "input_tokens": `...)
				line = strconv.AppendInt(line, int64(1000+r.IntN(50000)), 10)
				line = append(line, `, "output_tokens": `...)
				line = strconv.AppendInt(line, int64(1+r.IntN(4000)), 10)
				line = append(line, '}')
			default:
				line = append(line, `{"type": "subagent_text", "subagent": "researcher", "content": `...)
				str(text(30 + r.IntN(300)))
				line = append(line, `, "instance_id": "sa_1"}`...)
			}
			if err := emit(); err != nil {
				return err
			}
		}
		line = append(line, `{"type": "done", "content": `...)
		str(answer.String())
		line = append(line, `, "response": `...)
		str(answer.String())
		line = append(line, '}')
		if err := emit(); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// TestWriteCorpus writes a corpus for measuring against jq and gojq:
//
//	ZEVO_JQ_CORPUS=/tmp/corpus.evosci.jsonl ZEVO_JQ_CORPUS_MB=120 go test -run TestWriteCorpus ./filter
func TestWriteCorpus(t *testing.T) {
	path := os.Getenv("ZEVO_JQ_CORPUS")
	if path == "" {
		t.Skip("set ZEVO_JQ_CORPUS to a file name to write a corpus")
	}
	mb, err := strconv.Atoi(os.Getenv("ZEVO_JQ_CORPUS_MB"))
	if err != nil || mb < 1 {
		mb = 120
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeCorpus(f, int64(mb)<<20, 1); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCorpusIsValid checks a small corpus: every line is JSON that the
// filter passes through unchanged.
func TestCorpusIsValid(t *testing.T) {
	var b strings.Builder
	if err := writeCorpus(&b, 1<<20, 2); err != nil {
		t.Fatal(err)
	}
	out, errs, st := run(t, Options{Expr: "select(.type != null)", Workers: 2}, strInput("c", b.String()))
	if errs != "" || out != b.String() || st.Values < 500 {
		t.Fatalf("stderr %q, stats %+v", errs, st)
	}
}

var benchExprs = []string{`select(.type=="tool_call")`, `.content // empty`}

// BenchmarkRun runs the measured expressions on an 8 MB corpus, on every
// core and on one, so the two can be compared in one run.
func BenchmarkRun(b *testing.B) {
	var sb strings.Builder
	if err := writeCorpus(&sb, 8<<20, 3); err != nil {
		b.Fatal(err)
	}
	corpus := sb.String()
	for _, expr := range benchExprs {
		for _, workers := range []int{0, 1} {
			name := fmt.Sprintf("%s/workers=%d", expr, workers)
			b.Run(name, func(b *testing.B) {
				f, err := Compile(Options{Expr: expr, Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				in := []Input{strInput("c", corpus)}
				b.SetBytes(int64(len(corpus)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := f.Run(in, io.Discard, io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkLine is the per-line hot path alone (decode, run, encode) on
// one goroutine, as each worker runs it.
func BenchmarkLine(b *testing.B) {
	var sb strings.Builder
	if err := writeCorpus(&sb, 4<<20, 3); err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	for _, l := range strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n") {
		lines = append(lines, []byte(l))
	}
	for _, expr := range benchExprs {
		for _, project := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/project=%v", expr, project), func(b *testing.B) {
				f, err := Compile(Options{Expr: expr, Workers: 2})
				if err != nil {
					b.Fatal(err)
				}
				if !project {
					f.want = nil
				}
				lineBench(b, f, lines, sb.Len())
			})
		}
	}
}

// lineBench runs f on every line of lines on one goroutine per round.
func lineBench(b *testing.B, f *Filter, lines [][]byte, size int) {
	r := f.newRunner()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for i, l := range lines {
			r.line(l, "c", i+1)
			r.out = r.out[:0]
		}
	}
	if r.st.Bad+r.st.Errors != 0 {
		b.Fatalf("stats %+v", r.st)
	}
}
