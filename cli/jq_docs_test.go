package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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
	const module = "def calls: select(.type == \"tool_call\") | .name;"
	if !strings.Contains(doc, "`agent.jq`, a module: `"+module+"`") {
		t.Fatal("docs/jq.md does not describe agent.jq")
	}
	_, api, _ := strings.Cut(doc, "```json\n")
	api, _, _ = strings.Cut(api, "```")
	files := map[string]string{"api.json": api, "agent.jq": module}
	for _, name := range []string{"evosci", "zero"} {
		b, err := os.ReadFile("../testdata/translate/basic." + name + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		files["run."+name+".jsonl"] = string(b)
	}
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("NO_COLOR", "")
	t.Setenv("JQ_COLORS", "")

	body, table, _ := strings.Cut(doc, "## Differences from jq")
	n := 0
	for rest := body; ; {
		_, block, ok := strings.Cut(rest, "```sh\n")
		if !ok {
			break
		}
		cmd, after, _ := strings.Cut(block, "```")
		rest = after
		cmd = strings.TrimSpace(cmd)
		got := runDocCommand(t, cmd)
		n++
		if out, ok := strings.CutPrefix(strings.TrimLeft(after, "\n"), "```text\n"); ok {
			want, _, _ := strings.Cut(out, "```")
			if got != want {
				t.Errorf("%s:\n got %q\nwant %q", cmd, got, want)
			}
		} else if got == "" || strings.Contains(got, "(exit ") {
			t.Errorf("%s: %q", cmd, got)
		}
	}
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := tableCells(line)
		if len(cells) != 4 || !strings.HasPrefix(cells[1], "`zevo") && !strings.HasPrefix(cells[1], "`echo") && !strings.HasPrefix(cells[1], "`printf") {
			continue
		}
		rows++
		cmd := strings.Trim(cells[1], "`")
		if got, want := runDocCommand(t, cmd), codeSpans(cells[2]); got != want {
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

// runDocCommand runs a command of the page: zevo, maybe after echo or
// printf and a pipe. It returns standard output, standard error and the
// exit code when not 0.
func runDocCommand(t *testing.T, cmd string) string {
	t.Helper()
	var stdin []byte
	stages := strings.Split(readmeCommands("```sh\n" + cmd + "\n```")[0], "\x00|")
	for i, stage := range stages {
		args := shellWords(t, stage)
		switch args[0] {
		case "echo":
			stdin = []byte(strings.Join(args[1:], " ") + "\n")
			continue
		case "printf":
			stdin = []byte(printfText(args[1]))
			continue
		}
		var stdout, stderr bytes.Buffer
		code := Run(args, bytes.NewReader(stdin), &stdout, &stderr)
		if i < len(stages)-1 {
			stdin = stdout.Bytes()
			continue
		}
		out := stdout.String() + stderr.String()
		if code != 0 {
			out += fmt.Sprintf("(exit %d)\n", code)
		}
		return out
	}
	return ""
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
