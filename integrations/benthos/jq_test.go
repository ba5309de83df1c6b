package benthos

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

func jqPipe(t *testing.T, conf string, more ...string) *pipe {
	return startPipe(t, append([]string{"zevo_jq:\n  " + strings.ReplaceAll(conf, "\n", "\n  ")}, more...)...)
}

// The processor gives what zevo jq gives, message by message, line by
// line: the same results and the same messages for bad lines.
func TestJQSameAsCLI(t *testing.T) {
	var lines []string
	for _, f := range []string{"../../testdata/translate/basic.evosci.jsonl", "../../testdata/hostile/numbers.evosci.jsonl", "../../testdata/hostile/invalid-json.jsonl"} {
		lines = append(lines, fileLines(t, f)...)
	}
	input := strings.Join(lines, "\n") + "\n"
	for _, expr := range []string{
		`select(.type == "tool_call")`,
		`select(.type == "tool_call") | .name`,
		`{type, n: input_line_number, tokens: ((.input_tokens // 0) + (.output_tokens // 0))}`,
		`.content // empty`,
		`.[]?`,
		`keys`,
		`.input_tokens + 1`,
	} {
		t.Run(expr, func(t *testing.T) {
			q, _ := json.Marshal(expr)
			p := jqPipe(t, "query: "+string(q))
			for _, l := range lines {
				p.line(l)
			}
			out := p.taken()
			want, stderr, _ := zevo(t, input, "jq", expr)
			if g := bodies(t, out); g != want {
				t.Errorf("results:\n got:\n%s\nwant:\n%s", g, want)
			}
			wantErr := strings.ReplaceAll(stderr, "<stdin>:", "message:")
			if g := errorsOf(out); g != wantErr {
				t.Errorf("errors:\n got:\n%s\nwant:\n%s", g, wantErr)
			}
		})
	}
}

// Each result is a message with the input's metadata; none filters the
// message out; output_raw writes strings as their text.
func TestJQResults(t *testing.T) {
	p := jqPipe(t, "query: .a[]")
	p.line(`{"a": [1, "x", {"b": 18446744073709551617}]}`, "k", "v")
	p.line(`{"a": []}`, "k", "w")
	out := p.taken()
	if g, w := bodies(t, out), "1\n\"x\"\n{\"b\":18446744073709551617}\n"; g != w {
		t.Errorf("results %q, want %q", g, w)
	}
	for _, m := range out {
		if v, _ := m.MetaGet("k"); v != "v" {
			t.Errorf("result with metadata k=%q, want v", v)
		}
	}

	p = jqPipe(t, "query: .s\noutput_raw: true")
	p.line(`{"s": "two\nlines \u00e9"}`)
	p.line(`{"s": 2}`)
	if g, w := bodies(t, p.taken()), "two\nlines é\n2\n"; g != w {
		t.Errorf("raw results %q, want %q", g, w)
	}
}

// A message spread over several lines is still one value; its line ends
// become spaces.
func TestJQMultiLineMessage(t *testing.T) {
	p := jqPipe(t, "query: .")
	p.line("{\n  \"type\": \"text\",\r\n  \"content\": \"a\"\n}")
	if g, w := bodies(t, p.taken()), "{   \"type\": \"text\",    \"content\": \"a\" }\n"; g != w {
		t.Errorf("got %q, want %q", g, w)
	}
}

// A message the expression fails on goes on with the error, caught like
// any other; later messages are filtered as before, also after
// halt_error.
func TestJQErrorsCaught(t *testing.T) {
	p := jqPipe(t, `query: 'if .halt then .halt | halt_error else .n + 1 end'`, `
catch:
  - mapping: 'root = {"dead": content().string(), "error": error()}'
`)
	for _, l := range []string{`{"n": 1}`, `{"n": "x"}`, `{"halt": "stop here\n"}`, `{"n": 2}`, `{`} {
		p.line(l)
	}
	var got []string
	for _, m := range p.taken() {
		b, _ := m.AsBytes()
		got = append(got, string(b))
	}
	want := []string{
		`2`,
		`{"dead":"{\"n\": \"x\"}","error":"message:2: cannot add: string (\"x\") and number (1)"}`,
		`{"dead":"{\"halt\": \"stop here\\n\"}","error":"stop here"}`,
		`3`,
		`{"dead":"{","error":` + strconv.Quote(badJSON(t, "{")) + `}`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p.wantMetric("zevo_jq_errors", 3)
	p.wantMetric("zevo_jq_results", 2)
}

// An expression that does not compile stops the stream from starting.
func TestJQCompileError(t *testing.T) {
	err := buildErr(t, "zevo_jq:\n  query: 'select(.type =='")
	if err == nil || !strings.Contains(err.Error(), "compile error") {
		t.Errorf("error %v, want a compile error", err)
	}
}

// badJSON is zevo jq's message for the fifth line when it is bad, as the
// processor names it.
func badJSON(t *testing.T, line string) string {
	_, stderr, _ := zevo(t, "1\n2\n3\n4\n"+line+"\n", "jq", ".")
	msg, ok := strings.CutPrefix(strings.TrimSpace(stderr), "<stdin>:5: ")
	if !ok {
		t.Fatalf("zevo jq's message for %q: %q", line, stderr)
	}
	return "message:5: " + msg
}
