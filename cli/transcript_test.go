package cli

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestViewFormatUsage(t *testing.T) {
	code, out, errs := run(t, "", "view", "--format", "pdf", seedEvo)
	if code != ExitUsage || out != "" || !strings.Contains(errs, `--format: unknown format "pdf" (want text, markdown or html)`) {
		t.Errorf("exit %d, %q, %q", code, out, errs)
	}
	// text is today's view.
	_, plain, _ := run(t, "", "view", seedEvo)
	if code, text, _ := run(t, "", "view", "--format", "text", seedEvo); code != 0 || text != plain {
		t.Errorf("--format text: exit %d, differs from view", code)
	}
}

// Standard input is read once into a temporary file, rendered as a file
// is, and the temporary file is removed.
func TestViewDocumentStdin(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	data, err := os.ReadFile(seedEvo)
	if err != nil {
		t.Fatal(err)
	}
	for f, name := range map[string]string{"markdown": `\<stdin\>`, "html": "&lt;stdin&gt;"} {
		_, fromFile, _ := run(t, "", "view", "--format", f, seedEvo)
		code, fromStdin, errs := run(t, string(data), "view", "--format", f)
		if code != 0 || strings.ReplaceAll(fromFile, seedEvo, name) != fromStdin {
			t.Errorf("%s: exit %d %s; from a file:\n%s\nfrom stdin:\n%s", f, code, errs, fromFile, fromStdin)
		}
		// A second "-" finds standard input read.
		code, twice, _ := run(t, string(data), "view", "--format", f, "-", "-")
		if code != 0 || strings.Count(twice, "Run 1") != 1 || !strings.Contains(twice, name+", "+name) {
			t.Errorf("%s: stdin twice: exit %d\n%s", f, code, twice)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestViewDocumentBadInputs(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"type\": \"text\", \"content\": \"kept\"}\nnot json\n{\"type\": \"done\", \"response\": \"kept too\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"markdown", "html"} {
		code, out, errs := run(t, "", "view", "--format", f, filepath.Join(dir, "missing.jsonl"), bad, seedZero)
		if code != ExitDiagnostics || !strings.Contains(errs, "missing.jsonl: no such file") || !strings.Contains(errs, bad+":2: ") {
			t.Errorf("%s: exit %d, %q", f, code, errs)
		}
		if !strings.Contains(out, "kept too") || !strings.Contains(out, "abc123") || strings.Contains(out, "missing.jsonl") {
			t.Errorf("%s: the readable inputs are not all shown:\n%s", f, out)
		}
	}
}

func TestViewDocumentRedaction(t *testing.T) {
	for _, f := range []string{"markdown", "html"} {
		_, out, _ := run(t, "", "view", "--format", f, sampleEvo)
		_, raw, _ := run(t, "", "view", "--format", f, "--no-redact", sampleEvo)
		if strings.Contains(out, "sk-abcdefghijklmnopqrstuvwx") || !strings.Contains(out, "[REDACTED]") || !strings.Contains(raw, "sk-abcdefghijklmnopqrstuvwx") || !strings.Contains(raw, "not redacted") {
			t.Errorf("%s: redaction by default, none with --no-redact", f)
		}
	}
}

// The sample in docs/transcripts.md is what zevo writes.
func TestTranscriptDocSample(t *testing.T) {
	doc, err := os.ReadFile("../docs/transcripts.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "````markdown\n")
	block, _, ok2 := strings.Cut(block, "\n````")
	if !ok || !ok2 {
		t.Fatal("no ````markdown sample in docs/transcripts.md")
	}
	t.Chdir("..")
	_, out, _ := run(t, "", "view", "--format", "markdown", "testdata/translate/basic.evosci.jsonl")
	if !strings.HasPrefix(out, strings.ReplaceAll(block, "0.1.0-dev", Version)+"\n") {
		t.Errorf("docs/transcripts.md's sample is not the start of the output:\n%s", out)
	}
}

// A document is written at the end of its inputs, which a followed file
// never reaches: --follow with a document format is refused, naming what
// to do instead.
func TestViewDocumentFollowIsRefused(t *testing.T) {
	for _, format := range []string{"markdown", "md", "html"} {
		code, out, errs := run(t, "", "view", "--format", format, "--follow", seedEvo)
		if code != ExitUsage || out != "" || !strings.Contains(errs, "--follow shows a growing log as text") || !strings.Contains(errs, "tail -F FILE | zevo view --format "+format) {
			t.Errorf("%s: exit %d, %q, %q", format, code, out, errs)
		}
	}
}

// An interruption while standard input is being kept leaves no temporary
// file behind.
func TestViewDocumentSignal(t *testing.T) {
	bin := zevoBinary(t)
	tmp := t.TempDir()
	cmd := exec.Command(bin, "view", "--format", "html")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	io.WriteString(stdin, `{"type": "text", "content": "hello"}`+"\n")
	for i := 0; ; i++ { // until zevo has made its temporary file
		if m, _ := filepath.Glob(filepath.Join(tmp, "zevo-view-*")); len(m) > 0 {
			break
		}
		if i == 1000 {
			t.Fatal("no temporary file appeared")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(t, cmd.Wait()); code != ExitInterrupt {
		t.Errorf("exit %d, want %d", code, ExitInterrupt)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Interrupted on a live pipe (standard input or a named FIFO whose writer
// keeps it open), a document is written of what was read, and ends as a
// whole one: the open run says where zevo was stopped and is closed, the
// page's end written, the temporary file removed.
func TestViewDocumentInterruptedOnLivePipeWritesWhatWasRead(t *testing.T) {
	bin := zevoBinary(t)
	run := `{"type": "thinking", "content": "plan"}
{"type": "tool_call", "name": "read_file", "args": {"path": "a"}, "id": "c1"}
{"type": "tool_result", "name": "read_file", "content": "line one\nline two", "success": true, "id": "c1"}
{"type": "text", "content": "half way there"}
{"type": "text", "content": "a half line`
	for _, format := range []string{"html", "markdown"} {
		for _, via := range []string{"stdin", "fifo"} {
			t.Run(format+"/"+via, func(t *testing.T) {
				tmp := t.TempDir()
				cmd := exec.Command(bin, "view", "--format", format)
				cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
				var w io.WriteCloser
				if via == "stdin" {
					var err error
					if w, err = cmd.StdinPipe(); err != nil {
						t.Fatal(err)
					}
				} else {
					fifo := filepath.Join(t.TempDir(), "run.jsonl")
					if err := syscall.Mkfifo(fifo, 0o600); err != nil {
						t.Skip("no named pipes here:", err)
					}
					cmd.Args = append(cmd.Args, fifo)
				}
				out, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				if w == nil {
					if w, err = os.OpenFile(cmd.Args[len(cmd.Args)-1], os.O_WRONLY, 0); err != nil {
						t.Fatal(err)
					}
				}
				defer w.Close()
				io.WriteString(w, run)
				for i := 0; ; i++ { // until zevo has kept what was written
					if m, _ := filepath.Glob(filepath.Join(tmp, "zevo-view-*")); len(m) == 1 {
						if fi, err := os.Stat(m[0]); err == nil && fi.Size() == int64(len(run)) {
							break
						}
					}
					if i == 1000 {
						t.Fatal("zevo did not keep the input in a temporary file")
					}
					time.Sleep(10 * time.Millisecond)
				}
				cmd.Process.Signal(syscall.SIGINT)
				var got bytes.Buffer
				io.Copy(&got, out)
				if code := exitCodeOf(t, cmd.Wait()); code != ExitInterrupt {
					t.Errorf("exit %d, want %d", code, ExitInterrupt)
				}
				doc := got.String()
				if !strings.Contains(doc, "half way there") || !strings.Contains(doc, "line two") {
					t.Errorf("the lines read are not all shown:\n%s", doc)
				}
				if strings.Contains(doc, "a half line") {
					t.Errorf("the line being written is shown:\n%s", doc)
				}
				if !strings.Contains(doc, "zevo was stopped here") {
					t.Errorf("the document does not say where it was stopped:\n%s", doc)
				}
				if format == "html" {
					if !strings.HasSuffix(doc, "</html>\n") {
						t.Errorf("the page is not ended:\n%s", doc[max(0, len(doc)-400):])
					}
					for _, tag := range []string{"details", "section", "main", "ol", "ul", "pre", "div"} {
						if open, shut := strings.Count(doc, "<"+tag+">")+strings.Count(doc, "<"+tag+" "), strings.Count(doc, "</"+tag+">"); open != shut {
							t.Errorf("<%s>: %d opened, %d closed", tag, open, shut)
						}
					}
				} else if strings.Count(doc, "```")%2 != 0 || strings.Count(doc, "<details>") != strings.Count(doc, "</details>") {
					t.Errorf("a fence or a details block is left open:\n%s", doc)
				}
				if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
					t.Errorf("temporary files left: %v", left)
				}
			})
		}
	}
}
