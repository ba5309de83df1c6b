package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docFiles are the documents whose examples must run.
func docFiles(t *testing.T) []string {
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md", "CONTRIBUTING.md"}, files...)
}

var exitComment = regexp.MustCompile(`\bexit (\d+)\b`)

// TestDocExamples runs every zevo command of the ```sh blocks of the
// README and of docs/ (pipelines of zevo commands included; commands fed
// by other programs are left out), so the documentation stays true. A
// comment "exit N" states the exit code; otherwise the command must
// succeed (or report bad lines: exit 1) and write something, unless its
// comment says "no output".
func TestDocExamples(t *testing.T) {
	t.Chdir("..")
	ran := 0
	for _, doc := range docFiles(t) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range readmeCommands(string(data)) {
			line, comment, _ := strings.Cut(cmd, " # ")
			if strings.HasPrefix(strings.TrimSpace(cmd), "#") {
				continue
			}
			out, code, stderr, ok := runDocCommand(t, line)
			if !ok {
				continue
			}
			ran++
			if m := exitComment.FindStringSubmatch(comment); m != nil {
				if want, _ := strconv.Atoi(m[1]); code != want {
					t.Errorf("%s: %q: exit %d, want %d\n%s", doc, line, code, want, stderr)
				}
			} else if code > ExitDiagnostics {
				t.Errorf("%s: %q: exit %d\n%s", doc, line, code, stderr)
			}
			if empty := strings.Contains(comment, "no output"); empty != (len(out) == 0) {
				t.Errorf("%s: %q: %d bytes out (comment %q)\n%s", doc, line, len(out), comment, stderr)
			}
		}
	}
	if ran < 20 {
		t.Fatalf("only %d documented examples found", ran)
	}
}

// runDocCommand runs a documented command line: zevo commands (or
// "go run ./cmd/zevo"), piped into each other, on the repository's files.
// ok is false for a line that is not such a command.
func runDocCommand(t *testing.T, cmd string) (out []byte, code int, stderr string, ok bool) {
	stdin := []byte{}
	for _, stage := range strings.Split(cmd, "\x00|") {
		words := shellWords(t, stage)
		switch {
		case len(words) > 0 && words[0] == "zevo":
		case len(words) > 2 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/zevo":
			words = append([]string{"zevo"}, words[3:]...)
		default:
			return nil, 0, "", false
		}
		args := []string{"zevo"}
		for _, w := range words[1:] {
			if strings.ContainsAny(w, "<>") && !strings.Contains(stage, "'") {
				return nil, 0, "", false // a redirection
			}
			if last := args[len(args)-1]; last == "--output" || last == "-o" {
				args = append(args, filepath.Join(t.TempDir(), filepath.Base(w))) // written, not read
				continue
			}
			if strings.Contains(w, "*") {
				m, _ := filepath.Glob(w)
				if len(m) == 0 {
					t.Errorf("%q: %s matches no file", cmd, w)
				}
				args = append(args, m...)
				continue
			}
			if strings.HasSuffix(w, ".jsonl") || strings.HasSuffix(w, ".json") || strings.HasPrefix(w, "testdata/") || strings.HasPrefix(w, "mappings/") {
				if _, err := os.Stat(w); err != nil {
					t.Errorf("%q names a file that is not there: %v", cmd, err)
				}
			}
			args = append(args, w)
		}
		var so, se bytes.Buffer
		code = Run(args, bytes.NewReader(stdin), &so, &se)
		stdin, out, stderr = so.Bytes(), so.Bytes(), stderr+se.String()
	}
	return out, code, stderr, true
}
