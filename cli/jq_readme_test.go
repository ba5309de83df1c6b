package cli

import (
	"os"
	"strings"
	"testing"
)

// The jq recipes of docs/jq.md, run on the sample streams, give these.
var readmeWant = map[string]string{
	"tool_result\" and .success == false":                  "{\"content\":\"ok: token sk-abcdefghijklmnopqrstuvwx and task-list and the bearer of bad news; apiKey=ABCDEFGHIJKLMNOPxxxxxxxxxx\\n... (truncated)\",\"id\":\"call_3\",\"name\":\"execute\"}\n",
	"tool_result\" and .status == \"error":                 "{\"id\":\"call_2\",\"name\":null,\"output\":\"denied\"}\n",
	"$u.totalTokens)' testdata/translate/basic.zero.jsonl": "{\"run_20260603100000_abc123\":20}\n",
	"foreach inputs":        "{\"run\":1,\"tokens\":6716}\n{\"run\":2,\"tokens\":0}\n",
	".response":             "Done — notes.md now summarizes attention.\n",
	"\\(.runId): \\(.text)": "run_20260603100000_abc123: Looking <now> & done.\n",
	"permission_request":    "{\"id\":\"call_2\",\"name\":\"write_file\",\"reason\":\"Creates or overwrites files.\",\"risk\":\"medium\",\"runId\":\"run_20260603100000_abc123\"}\n",
	".action_requests[]":    "{\"args\":{\"path\":\"a.txt\"},\"description\":\"Creates a file.\",\"name\":\"write_file\"}\n{\"args\":{\"command\":\"rm -rf /\"},\"description\":\"Runs a command.\",\"name\":\"execute\"}\n",
	"ask_user":              "\"Which file?\"\n",
	"input_filename":        "testdata/translate/basic.evosci.jsonl:16: provider timed out\ntestdata/translate/basic.zero.jsonl:18: 503 from provider\n",
}

func TestReadmeRecipes(t *testing.T) {
	data, err := os.ReadFile("../docs/jq.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "## Recipes for agent logs")
	if !ok {
		t.Fatal("docs/jq.md has no recipes")
	}
	section, _, _ = strings.Cut(section, "## Exit codes")
	t.Chdir("..")
	cmds := readmeCommands(section)
	if len(cmds) < 10 {
		t.Fatalf("found %d recipes", len(cmds))
	}
	used := map[string]bool{}
	for _, cmd := range cmds {
		var want *string
		for k, v := range readmeWant {
			if strings.Contains(cmd, k) && !strings.HasPrefix(cmd, "zevo translate") {
				if want != nil {
					t.Fatalf("%q matches two expectations", cmd)
				}
				used[k] = true
				want = &v
			}
		}
		out, code, stderr, ok := runDocCommand(t, cmd)
		if !ok {
			t.Errorf("%q is not a zevo command", cmd)
			continue
		}
		if code != 0 || (stderr != "" && !strings.HasPrefix(cmd, "zevo translate")) {
			t.Errorf("%s: exit %d, stderr %s", cmd, code, stderr)
		}
		if want != nil && string(out) != *want {
			t.Errorf("%s:\n got %q\nwant %q", cmd, out, *want)
		}
		if want == nil && len(out) == 0 {
			t.Errorf("%s: no output", cmd)
		}
	}
	for k := range readmeWant {
		if !used[k] {
			t.Errorf("no recipe matches %q", k)
		}
	}
}

// readmeCommands returns the zevo commands of the ```sh blocks of s, a
// command running on until its quotes close; stages of a pipeline are
// separated by "\x00|".
func readmeCommands(s string) []string {
	var cmds []string
	for {
		_, rest, ok := strings.Cut(s, "```sh\n")
		if !ok {
			return cmds
		}
		block, after, _ := strings.Cut(rest, "```")
		s = after
		var cur strings.Builder
		quote := byte(0)
		for _, line := range strings.SplitAfter(block, "\n") {
			for i := 0; i < len(line); i++ {
				c := line[i]
				switch {
				case quote != 0 && c == quote:
					quote = 0
				case quote == 0 && (c == '\'' || c == '"'):
					quote = c
				case quote == 0 && c == '|' && i+1 < len(line) && line[i+1] == ' ':
					cur.WriteByte(0)
				}
				cur.WriteByte(c)
			}
			if quote == 0 && strings.TrimSpace(cur.String()) != "" {
				cmds = append(cmds, strings.TrimSpace(cur.String()))
				cur.Reset()
			}
		}
	}
}

// shellWords splits a command as sh would, for the quoting the README uses.
func shellWords(t *testing.T, s string) []string {
	var words []string
	var w strings.Builder
	in := false
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'' && c != '\'', quote == '"' && c != '"' && c != '\\':
			w.WriteByte(c)
		case quote == '"' && c == '\\':
			i++
			w.WriteByte(s[i])
		case quote != 0:
			quote = 0
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\n' || c == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		t.Fatalf("unclosed quote in %q", s)
	}
	if in {
		words = append(words, w.String())
	}
	return words
}
