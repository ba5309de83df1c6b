package cli

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// docs/jq.md: every command runs in a folder of the files the page
// describes. A ```sh block followed by a ```text block must write that
// text (standard output, then standard error, then "(exit N)" when N is
// not 0); one without must succeed with some output. Every row of the
// table of differences runs its command and must write its zevo column.
func TestJQDocs(t *testing.T) {
	data, err := os.ReadFile("../docs/jq.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	// The samples the page shows are the files the examples read.
	_, api, _ := strings.Cut(doc, "```json\n")
	api, _, _ = strings.Cut(api, "```")
	module, err := os.ReadFile("../testdata/jq/agent.jq")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile("../testdata/jq/api.json"); err != nil || string(b) != api {
		t.Errorf("testdata/jq/api.json is not the api.json the page shows (%v)", err)
	}
	if !strings.Contains(doc, "`agent.jq`, a module: `"+strings.TrimSpace(string(module))+"`") {
		t.Error("docs/jq.md does not show testdata/jq/agent.jq")
	}
	t.Chdir("..")
	t.Setenv("NO_COLOR", "")
	t.Setenv("JQ_COLORS", "")

	body, table, _ := strings.Cut(doc, "## Differences from jq")
	n := 0
	for rest := body; ; {
		_, block, ok := strings.Cut(rest, "```sh\n")
		if !ok {
			break
		}
		cmds, after, _ := strings.Cut(block, "```")
		rest = after
		out, hasOut := strings.CutPrefix(strings.TrimLeft(after, "\n"), "```text\n")
		if !hasOut {
			continue // TestDocExamples and TestReadmeRecipes run these
		}
		cmd := readmeCommands("```sh\n" + cmds + "```")
		if len(cmd) != 1 {
			t.Fatalf("a block with its output must hold one command: %q", cmds)
		}
		want, _, _ := strings.Cut(out, "```")
		if got := runJQDocCommand(t, cmd[0]); got != want {
			t.Errorf("%s:\n got %q\nwant %q", cmd[0], got, want)
		}
		n++
	}
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := tableCells(line)
		if len(cells) != 4 || !strings.HasPrefix(cells[1], "`") || strings.HasPrefix(cells[1], "`-") {
			continue
		}
		rows++
		cmd := strings.Trim(cells[1], "`")
		cmd = readmeCommands("```sh\n" + cmd + "\n```")[0]
		if got, want := runJQDocCommand(t, cmd), codeSpans(cells[2]); got != want {
			t.Errorf("%s:\n got %q\nwant %q", cmd, got, want)
		}
	}
	if n < 8 || rows < 10 {
		t.Errorf("ran %d examples and %d rows of differences", n, rows)
	}
}

// tableCells splits a Markdown table row at its unescaped bars, and
// unescapes the bars inside cells.
func tableCells(line string) []string {
	if !strings.HasPrefix(line, "|") {
		return nil
	}
	var cells []string
	var cur strings.Builder
	for i := 1; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return cells
}

var codeSpan = regexp.MustCompile("`([^`]*)`")

// codeSpans is the text of a cell's code spans, one line each (\e is ESC).
func codeSpans(cell string) string {
	var b strings.Builder
	for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
		b.WriteString(strings.ReplaceAll(m[1], `\e`, "\x1b"))
		b.WriteByte('\n')
	}
	return b.String()
}

// runJQDocCommand runs a command of the page, stages separated by
// "\x00|": zevo commands, maybe fed by echo or printf. It returns standard
// output, standard error and the exit code when not 0.
func runJQDocCommand(t *testing.T, cmd string) string {
	t.Helper()
	cmd, _, _ = strings.Cut(cmd, " # ")
	var stdin []byte
	stages := strings.Split(cmd, "\x00|")
	switch words := shellWords(t, stages[0]); words[0] {
	case "echo":
		stdin = []byte(strings.Join(words[1:], " ") + "\n")
		stages = stages[1:]
	case "printf":
		stdin = []byte(printfText(words[1]))
		stages = stages[1:]
	}
	var stdout, stderr bytes.Buffer
	code := 0
	for _, stage := range stages {
		stdout.Reset()
		code = Run(shellWords(t, stage), bytes.NewReader(stdin), &stdout, &stderr)
		stdin = bytes.Clone(stdout.Bytes())
	}
	out := stdout.String() + stderr.String()
	if code != 0 {
		out += fmt.Sprintf("(exit %d)\n", code)
	}
	return out
}

// printfText is printf's format with its escapes (\n, \t, \\, \xHH).
func printfText(f string) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '\\' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'x':
			var c byte
			fmt.Sscanf(f[i+1:i+3], "%02x", &c)
			b.WriteByte(c)
			i += 2
		default:
			b.WriteByte(f[i])
		}
	}
	return b.String()
}
