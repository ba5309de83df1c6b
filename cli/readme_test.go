package cli

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestReadmeExamples runs every zevo command line of the README's sh blocks
// that reads files (pipelines from other programs are left out), so the
// README stays true.
func TestReadmeExamples(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("..")
	inSh, ran := false, 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "```"):
			inSh = line == "```sh"
			continue
		case !inSh || strings.ContainsAny(line, "|$<>"):
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
		for _, a := range args[1:] {
			if strings.HasSuffix(a, ".jsonl") || strings.HasSuffix(a, ".json") {
				if _, err := os.Stat(a); err != nil {
					t.Errorf("README example %q names a file that is not there: %v", line, err)
				}
			}
		}
		var stdout, stderr bytes.Buffer
		code := Run(args, strings.NewReader(""), &stdout, &stderr)
		if code > ExitDiagnostics || stdout.Len() == 0 {
			t.Errorf("README example %q: exit %d, %d bytes out\n%s", line, code, stdout.Len(), stderr.String())
		}
		ran++
	}
	if ran < 3 {
		t.Fatalf("only %d README examples found", ran)
	}
}
