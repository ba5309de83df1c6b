package benthos

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestMatrix is the processors' row of zevo's fault matrix (cli's
// matrix_test.go, docs/guarantees.md): files read with the zevo_lines
// scanner, plain, gzip and zstd, give the same messages as zevo translate
// and zevo jq give on the plain file, and no planted secret shows in a
// message or an error.
//
// A cell with a bug is a known failure: skipped unless ZEVO_MATRIX_ALL=1.
var sessionID = regexp.MustCompile(`"sessionId":"zero_[0-9_]+"`)

func TestMatrix(t *testing.T) {
	const (
		key    = "sk-PLANTEDkey0000000000000"
		bearer = "Bearer PLANTEDbearer000000000"
	)
	evo := strings.Join(fileLines(t, "../../testdata/translate/basic.evosci.jsonl")[:12], "\n") + "\n" +
		`{"type": "tool_call", "name": "bash", "args": {"password": "PLANTEDpassword0", "command": "curl -H 'Authorization: ` + bearer + `'"}, "id": "call_9"}` + "\n" +
		`{"type": "tool_result", "name": "bash", "content": "OPENAI_API_KEY=` + key + `", "success": true, "id": "call_9"}` + "\n" +
		`{"type": "error", "message": "401 for key ` + key + ` (Authorization: ` + bearer + `)"}` + "\n"
	r := `"runId":"run_20260603110000_5ec000","schemaVersion":2`
	zero := strings.Join(fileLines(t, "../../testdata/translate/basic.zero.jsonl")[:19], "\n") + "\n" +
		`{"apiModel":"gpt-4.1","cwd":"/repo","model":"gpt-4.1","provider":"openai",` + r + `,"type":"run_start"}` + "\n" +
		`{"id":"call_9","name":"bash","output":"OPENAI_API_KEY=` + key + `",` + r + `,"status":"ok","truncated":false,"type":"tool_result"}` + "\n" +
		`{"code":"provider_error","message":"401 for key ` + key + ` (Authorization: ` + bearer + `)","recoverable":false,` + r + `,"type":"error"}` + "\n" +
		`{"exitCode":3,` + r + `,"status":"error","type":"run_end"}` + "\n"

	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	kinds := []struct {
		name string
		enc  func([]byte) []byte
		bug  string
	}{
		{"plain file", func(b []byte) []byte { return b }, ""},
		{"gzip file", func(b []byte) []byte {
			gz.Reset()
			zw.Reset(&gz)
			zw.Write(b)
			zw.Close()
			return bytes.Clone(gz.Bytes())
		}, ""},
		{"zstd file", func(b []byte) []byte {
			enc, err := zstd.NewWriter(nil)
			if err != nil {
				t.Fatal(err)
			}
			defer enc.Close()
			return enc.EncodeAll(b, nil)
		}, ""},
	}
	procs := []struct {
		name, yaml string
		cli        []string
	}{
		{"zevo_translate to zero", "zevo_translate:\n  to: zero\n  run_id: r\n  cwd: /w\n", []string{"translate", "--to", "zero", "--run-id", "r", "--cwd", "/w"}},
		{"zevo_translate to evosci", "zevo_translate:\n  to: evosci\n  redact: true\n", []string{"translate", "--to", "evosci", "--redact"}},
		{"zevo_translate to claude", "zevo_translate:\n  to: claude\n  run_id: r\n  cwd: /w\n", []string{"translate", "--to", "claude", "--run-id", "r", "--cwd", "/w"}},
		{"zevo_jq", "zevo_jq:\n  query: '[.type, .id]'\n", []string{"jq", "-c", "[.type, .id]"}},
	}
	dir := t.TempDir()
	// A real Claude Code capture: the other agents' dialects go through the
	// processors as through the CLI.
	claude := strings.Join(fileLines(t, "../../testdata/captures/claude/agent-harness-thinking-bash.jsonl"), "\n") + "\n"
	for _, corpus := range []struct{ name, data string }{{"zero", zero}, {"evosci", evo}, {"claude", claude}} {
		plain := filepath.Join(dir, corpus.name+".jsonl")
		if err := os.WriteFile(plain, []byte(corpus.data), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, k := range kinds {
			path := filepath.Join(dir, corpus.name+"-"+strings.Fields(k.name)[0])
			if err := os.WriteFile(path, k.enc([]byte(corpus.data)), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, p := range procs {
				t.Run(corpus.name+"/"+k.name+"/"+p.name, func(t *testing.T) {
					if k.bug != "" && os.Getenv("ZEVO_MATRIX_ALL") != "1" {
						t.Skipf("issue %s (known failure; ZEVO_MATRIX_ALL=1 runs it)", k.bug)
					}
					out := runFiles(t, []string{path}, p.yaml)
					want, _, _ := zevo(t, "", append(p.cli, plain)...)
					got := bodies(t, out)
					if p.name == "zevo_jq" {
						// zevo_lines ends each input with an empty end message,
						// which zevo_jq passes on as it is.
						for strings.HasSuffix(got, "\n\n") {
							got = strings.TrimSuffix(got, "\n")
						}
					}
					// The session ids zevo makes for a run that names none
					// are derived from the file for the CLI and from the
					// time for a processor, as for standard input.
					got, want = sessionID.ReplaceAllString(got, `"sessionId":"S"`), sessionID.ReplaceAllString(want, `"sessionId":"S"`)
					if got != want {
						t.Errorf("messages differ from zevo %s on the plain file\n got:\n%.2000s\nwant:\n%.2000s", strings.Join(p.cli, " "), got, want)
					}
					for where, s := range map[string]string{"a message": got, "an error": errorsOf(out)} {
						if i := strings.Index(s, "PLANTED"); i >= 0 {
							t.Errorf("a planted secret in %s: …%s…", where, s[max(0, i-60):min(len(s), i+40)])
						}
					}
				})
			}
		}
	}
}
