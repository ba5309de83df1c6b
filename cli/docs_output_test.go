package cli

import (
	"os"
	"strings"
	"testing"
)

// TestDocOutputs checks the sample outputs of docs/: a text block right
// after an sh block must be exactly what the block's last command writes,
// so a page's pictures of zevo's output stay true.
func TestDocOutputs(t *testing.T) {
	t.Chdir("..")
	checked := 0
	for _, doc := range docFiles(t) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for rest := string(data); ; {
			_, after, ok := strings.Cut(rest, "```sh\n")
			if !ok {
				break
			}
			block, after, _ := strings.Cut(after, "```\n")
			rest = after
			shown, ok := strings.CutPrefix(after, "\n```text\n")
			if !ok {
				continue
			}
			shown, _, _ = strings.Cut(shown, "```\n")
			cmds := readmeCommands("```sh\n" + block + "```")
			if len(cmds) == 0 {
				continue
			}
			line, _, _ := strings.Cut(cmds[len(cmds)-1], " # ")
			out, _, stderr, ok := runDocCommand(t, line)
			if !ok {
				continue // fed by another program: shown, not checked
			}
			checked++
			if string(out) != shown {
				t.Errorf("%s: the output shown after %q differs:\n--- shown\n%s--- written\n%s%s", doc, line, shown, out, stderr)
			}
		}
	}
	if checked < 4 {
		t.Fatalf("only %d sample outputs checked", checked)
	}
}
