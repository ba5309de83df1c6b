package cli

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExamples runs every zevo command line of the README's sh blocks
// that reads files (pipelines from other programs are left out), so the
// README stays true.
func TestReadmeExamples(t *testing.T) {
	if ran := checkDocExamples(t, "README.md"); ran < 3 {
		t.Fatalf("only %d README examples found", ran)
	}
}

// TestDocsExamples does the same for every page of docs/; there, a text
// block right after an sh block must also be what its last command writes.
func TestDocsExamples(t *testing.T) {
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs pages: %v", err)
	}
	for _, p := range pages {
		name := "docs/" + filepath.Base(p)
		t.Run(name, func(t *testing.T) {
			if ran := checkDocExamples(t, name); ran == 0 {
				t.Errorf("%s has no example that runs", name)
			}
		})
	}
}

// checkDocExamples runs the examples of the page at path (from the
// repository's root) and returns how many ran. An --output FILE is written
// to a temporary folder.
func checkDocExamples(t *testing.T, path string) (ran int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", path))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Chdir("..")
	inSh, inText := false, false
	var last, lastLine string // the output of the last command of the last sh block
	var text strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		switch {
		case inText && line == "```":
			inText = false
			if text.String() != last {
				t.Errorf("%s: the output shown after %q differs:\n--- shown\n%s--- written\n%s", path, lastLine, text.String(), last)
			}
			continue
		case inText:
			text.WriteString(raw + "\n")
			continue
		case strings.HasPrefix(line, "```"):
			if line == "```text" && !inSh && lastLine != "" && strings.HasPrefix(path, "docs/") {
				inText = true
				text.Reset()
				continue
			}
			if inSh {
				inSh = false
				continue
			}
			inSh = line == "```sh"
			last, lastLine = "", ""
			continue
		case !inSh:
			if line != "" {
				lastLine = ""
			}
			continue
		case strings.ContainsAny(line, "|$<>"):
			last, lastLine = "", ""
			continue
		}
		if i := strings.Index(line, " #"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		var rest string
		switch {
		case strings.HasPrefix(line, "zevo "):
			rest = strings.TrimPrefix(line, "zevo ")
		case strings.HasPrefix(line, "go run ./cmd/zevo "):
			rest = strings.TrimPrefix(line, "go run ./cmd/zevo ")
		default:
			continue
		}
		args := append([]string{"zevo"}, splitArgs(t, rest)...)
		for i, a := range args[1:] {
			if (a == "--output" || a == "-o") && i+2 < len(args) {
				args[i+2] = filepath.Join(tmp, filepath.Base(args[i+2]))
			}
			if strings.HasSuffix(a, ".jsonl") || strings.HasSuffix(a, ".json") {
				if _, err := os.Stat(a); err != nil && !strings.HasPrefix(args[i+1], tmp) {
					t.Errorf("%s example %q names a file that is not there: %v", path, line, err)
				}
			}
		}
		var stdout, stderr bytes.Buffer
		code := Run(args, strings.NewReader(""), &stdout, &stderr)
		if code > ExitDiagnostics || stdout.Len() == 0 && !strings.Contains(line, "--output") {
			t.Errorf("%s example %q: exit %d, %d bytes out\n%s", path, line, code, stdout.Len(), stderr.String())
		}
		last, lastLine = stdout.String(), line
		ran++
	}
	return ran
}
