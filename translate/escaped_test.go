package translate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/bench/corpus"
)

// escapeLetters rewrites every letter inside the JSON strings of line
// (keys and values) as a \u escape: the same values, spelled otherwise.
func escapeLetters(line []byte) []byte {
	var out []byte
	in := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case !in:
			in = c == '"'
		case c == '\\':
			n := 2
			if i+1 < len(line) && line[i+1] == 'u' {
				n = 6
			}
			out = append(out, line[i:min(i+n, len(line))]...)
			i += n - 1
			continue
		case c == '"':
			in = false
		case c|0x20 >= 'a' && c|0x20 <= 'z':
			out = fmt.Appendf(out, `\u%04x`, c)
			continue
		}
		out = append(out, c)
	}
	return out
}

// A string decoded from escapes lives in memory reused from line to line
// (jsonl.LineObject.Get): whatever the translator keeps of a line (run ids,
// tool names and ids, texts for done) must be a copy. Spelled with escapes,
// every input must translate exactly as it does plainly, through Line and
// through Stream, whose read-ahead batches reuse objects.
func TestEscapedInputTranslatesAsPlain(t *testing.T) {
	inputs := map[string][]byte{}
	files, _ := filepath.Glob("../testdata/translate/*.jsonl")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(f)] = b
	}
	for _, p := range []corpus.Protocol{corpus.EvoSci, corpus.Zero} {
		var buf bytes.Buffer
		if _, err := corpus.Write(&buf, corpus.Options{Protocol: p, Size: 256 << 10, Seed: 7}); err != nil {
			t.Fatal(err)
		}
		inputs["generated."+p.Name] = buf.Bytes()
	}
	if len(inputs) < 4 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	for name, plain := range inputs {
		var esc []byte
		for _, l := range bytes.SplitAfter(plain, []byte("\n")) {
			esc = append(esc, escapeLetters(l)...)
		}
		if bytes.Equal(esc, plain) {
			t.Fatalf("%s: escaping changed nothing", name)
		}
		for _, opt := range []Options{{To: Zero, Redact: true}, {To: EvoSci}, {To: Zero, Unmapped: Keep}} {
			if opt.To == EvoSci && strings.Contains(name, "evosci") {
				continue // passed through as it was written
			}
			opt.RunID = "R"
			want, _, _ := run(t, opt, plain)
			got, _, _ := run(t, opt, esc)
			if len(want) == 0 {
				t.Fatalf("%s: no output", name)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s --to %v (Line): escaped input translates differently:\n%s", name, opt.To, firstDiff(got, want))
			}
			if got, want := streamedBytes(t, opt, esc), streamedBytes(t, opt, plain); !bytes.Equal(got, want) {
				t.Errorf("%s --to %v (Stream): escaped input translates differently:\n%s", name, opt.To, firstDiff(got, want))
			}
		}
	}
}

func streamedBytes(t *testing.T, opt Options, in []byte) []byte {
	t.Helper()
	opt.Now, opt.Rand = fixedNow, zeroReader{}
	out, _, err := streamed(t, bytes.NewReader(in), opt)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(out)
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range max(len(g), len(w)) {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			return fmt.Sprintf("line %d:\n got %s\nwant %s", i+1, gl, wl)
		}
	}
	return "(lengths differ)"
}
