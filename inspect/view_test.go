package inspect

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

func viewString(t *testing.T, input string, opt ViewOptions) (string, []string) {
	t.Helper()
	var out bytes.Buffer
	v := NewViewer(&out, opt)
	if err := v.File("x", false); err != nil {
		t.Fatal(err)
	}
	bad := feedLines(t, strings.NewReader(input), "x", v.Line)
	if err := v.End(); err != nil {
		t.Fatal(err)
	}
	return out.String(), bad
}

// Content is untrusted: every control sequence in it shows as text.
func TestViewHostile(t *testing.T) {
	in := `{"type": "text", "content": "hi \u001b[2J\u001b[H cleared? \u001b]0;owned\u0007 title \u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\ link"}` + "\n" +
		`{"type": "text", "content": "\n\u202egnp.exe\u202c \u2066iso\u2069 \u200f c1:\u009b31m\u0085 del:\u007f bell:\u0007 bs:\b cr:\rover\r\nnext\ttab"}` + "\n" +
		`{"type": "tool_call", "name": "ex\u001b[31mec", "args": {"cmd\u001b[1m": "echo \u001b]52;c;ZXZpbA==\u0007"}, "id": "c1"}` + "\n" +
		`{"type": "tool_result", "name": "ex\u001b[31mec", "content": "line1\u001b[A\u001b[2K\nline2\u009d0;t\u009c", "success": false, "id": "c1"}` + "\n" +
		`{"type": "subagent_text", "subagent": "r\u001b[8m", "content": "s\u001bPq\u001b\\"}` + "\n" +
		`{"type": "evil\u001b[5m", "x": "\u001b[6n"}` + "\n" +
		`{"type": "error", "message": "boom\u001b[?1049h"}` + "\n"
	want := "── run 1 ──\n" +
		`hi \x1b[2J\x1b[H cleared? \x1b]0;owned\a title \x1b]8;;https://evil.example\x1b\click\x1b]8;;\x1b\ link` + "\n" +
		`\u202egnp.exe\u202c \u2066iso\u2069 \u200f c1:\u009b31m\u0085 del:\x7f bell:\a bs:\b cr:\rover` + "\n" +
		"next\ttab\n" +
		`▶ ex\x1b[31mec  cmd\x1b[1m=echo \x1b]52;c;ZXZpbA==\a` + "\n" +
		`  ✗ ex\x1b[31mec failed` + "\n" +
		`    line1\x1b[A\x1b[2K` + "\n" +
		`    line2\u009d0;t\u009c` + "\n" +
		`r\x1b[8m │ s\x1bPq\x1b\` + "\n" +
		`· evil\x1b[5m {"type":"evil\u001b[5m","x":"\u001b[6n"}` + "\n" +
		`✗ error: boom\x1b[?1049h` + "\n" +
		"── run ended with an error · tokens: 0 in · 0 out · 0 total ──\n"
	got, bad := viewString(t, in, ViewOptions{})
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if bad != nil {
		t.Errorf("bad lines: %v", bad)
	}
	// Whatever the input, the only ESC and C1 bytes in coloured output
	// are zevo's own SGR sequences.
	colored, _ := viewString(t, in, ViewOptions{Color: true})
	rest := colored
	for _, sgr := range []string{sDim, sBold, sRed, sGreen, sYellow, sCyan, sReset, "\x1b[7m", "\x1b[27m"} {
		rest = strings.ReplaceAll(rest, sgr, "")
	}
	if strings.ContainsAny(rest, "\x1b\x07\x08\r\u009b\u009c\u009d\u202e\u2066") {
		t.Errorf("control characters leak into coloured output: %q", rest)
	}
	if !strings.Contains(colored, "\x1b[7m\\x1b\x1b[27m[2J") {
		t.Errorf("escapes are not marked in colour: %q", colored)
	}
}

// Bytes that are not UTF-8 never reach the terminal raw; the line is reported.
func TestViewInvalidLines(t *testing.T) {
	in := "{\"type\": \"text\", \"content\": \"\xff\x9b31m\"}\nnot json\n[1]\n{\"type\": \"text\", \"content\": \"ok\"}\n"
	got, bad := viewString(t, in, ViewOptions{})
	want := "── run 1 ──\nok\n── run incomplete: the input ended inside the run · tokens: 0 in · 0 out · 0 total ──\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	wantBad := []string{"x:1: invalid UTF-8 at byte 30", "x:2: not valid JSON at byte 1: unexpected 'n'", "x:3: not a JSON object: an array"}
	if strings.Join(bad, "|") != strings.Join(wantBad, "|") {
		t.Errorf("bad lines %q, want %q", bad, wantBad)
	}
}

func TestSafe(t *testing.T) {
	cases := map[string]string{
		"plain text, café 😀": "plain text, café 😀",
		"\x1b[31mred":        `\x1b[31mred`,
		"a\nb\tc\r\n":        `a\nb\tc\r\n`,
		"\xff\xfe":           `\xff\xfe`,
		"\u009b\u0080\u009f": `\u009b\u0080\u009f`,
		"\u202a\u202e\u2066\u2069\u2028\u2029\u061c\u200e": `\u202a\u202e\u2066\u2069\u2028\u2029\u061c\u200e`,
		"\u00a0\u2000": "\u00a0\u2000", // printable spaces stay
	}
	for in, want := range cases {
		if got := Safe(in); got != want {
			t.Errorf("Safe(%q) = %q, want %q", in, got, want)
		}
	}
	if got := string(AppendSafe(nil, "a\r\nb\rc\n", true, nil)); got != "a\nb\\rc\n" {
		t.Errorf("with newlines: %q", got)
	}
}

// A token count past int64 is no count the model reads: it is left
// unset (zevo validate reports it), the others add up.
func TestViewZero(t *testing.T) {
	in := `{"apiModel":"m","cwd":"/r","model":"m","provider":"p","runId":"r1","schemaVersion":2,"type":"run_start"}
{"delta":"let me ","runId":"r1","schemaVersion":2,"type":"reasoning"}
{"delta":"look\nclosely","runId":"r1","schemaVersion":2,"type":"reasoning"}
{"delta":"Hello ","runId":"r1","schemaVersion":2,"type":"text"}
{"delta":"world","runId":"r1","schemaVersion":2,"type":"text"}
{"args":{"command":"seq 1 10","timeout":30},"id":"c1","name":"bash","runId":"r1","schemaVersion":2,"sideEffect":"shell","type":"tool_call"}
{"action":"prompt","block":{"action":"prompt","code":"network","reason":"network access requires approval","recoverable":true,"risk":{"level":"critical"}},"id":"c1","name":"bash","permission":"prompt","permissionGranted":false,"permissionMode":"ask","reason":"runs a command","risk":{"level":"high"},"runId":"r1","schemaVersion":2,"sideEffect":"shell","type":"permission_request"}
{"action":"deny","decisionReason":"not now","id":"c1","name":"bash","permission":"prompt","permissionGranted":false,"risk":{"level":""},"runId":"r1","schemaVersion":2,"type":"permission_decision"}
{"id":"c1","output":"1\n2\n3\n4\n5\n6\n7\n8\n9\n10","runId":"r1","schemaVersion":2,"status":"ok","truncated":true,"type":"tool_result"}
{"completionTokens":8,"promptTokens":12,"runId":"r1","schemaVersion":2,"totalTokens":20,"type":"usage"}
{"completionTokens":1,"promptTokens":18446744073709551617,"runId":"r1","schemaVersion":2,"totalTokens":18446744073709551618,"type":"usage"}
{"runId":"r1","schemaVersion":2,"text":"Hello world","type":"final"}
{"exitCode":0,"runId":"r1","schemaVersion":2,"status":"success","type":"run_end"}
`
	want := `── run r1 · p · m · /r ──
┊ let me look
┊ closely
Hello world
▶ bash  command=seq 1 10  timeout=30
  ⚠ permission requested: bash (shell, risk high) — runs a command
    sandbox: network: network access requires approval
  ✗ permission denied: bash — not now
  ✓ bash ok (cut by Zero)
    1
    2
    3
    4
    5
    … 5 more line(s) (--full shows all)
── final answer ──
Hello world
── run ended: success (exit 0) · tokens: 12 in · 9 out · 21 total ──
`
	got, _ := viewString(t, in, ViewOptions{})
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	full, _ := viewString(t, in, ViewOptions{Full: true})
	if !strings.Contains(full, "    9\n    10\n") || strings.Contains(full, "more line") {
		t.Errorf("--full cut the result:\n%s", full)
	}
}

func TestViewEvoSci(t *testing.T) {
	in := `{"type": "thinking", "content": "plan", "id": 0}
{"type": "tool_call", "name": "write_file", "args": {"path": "a.txt", "content": "` + strings.Repeat("x", 300) + `"}, "id": "c1"}
{"type": "interrupt", "interrupt_id": "i1", "action_requests": [{"name": "write_file", "args": {"path": "a.txt"}, "description": "Creates a file."}], "review_configs": []}
{"type": "ask_user", "interrupt_id": "i2", "questions": [{"question": "Which?", "type": "multiple_choice", "choices": [{"value": "a"}, {"value": "b"}]}], "tool_call_id": "c2"}
{"type": "subagent_start", "name": "r", "description": "look", "instance_id": "s1"}
{"type": "subagent_tool_call", "subagent": "r", "name": "grep", "args": {"q": NaN}, "id": "s1c", "instance_id": "s1"}
{"type": "subagent_tool_result", "subagent": "r", "name": "grep", "content": "", "success": true, "id": "s1c", "instance_id": "s1"}
{"type": "subagent_end", "name": "r", "instance_id": "s1"}
{"type": "usage_stats", "input_tokens": 10, "output_tokens": 2}
{"type": "text", "content": "done"}
{"type": "done", "content": "done", "response": "done"}
{"type": "error", "message": "later failure"}
{"type": "done", "content": "", "response": ""}
{"type": "text", "content": "next"}
`
	want := `── run 1 ──
┊ plan
▶ write_file  path=a.txt  content=` + strings.Repeat("x", 79) + `…
  ⚠ approval needed: write_file — Creates a file.
    path=a.txt
  ? question: Which? [a / b]
⇢ subagent r: look
  ▶ r/grep  q=null
    ✓ r/grep ok
⇠ subagent done: r
done
── final answer ──
done
── run done · tokens: 10 in · 2 out · 12 total ──

── run 2 ──
✗ error: later failure
── run ended with an error · tokens: 0 in · 0 out · 0 total ──

── run 3 ──
next
── run incomplete: the input ended inside the run · tokens: 0 in · 0 out · 0 total ──
`
	got, _ := viewString(t, in, ViewOptions{})
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// Whatever the content, AppendSafe's output holds no byte a terminal acts
// on, and printable text passes unchanged.
func FuzzSafe(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[2J", "\u009b31m", "\u202eabc", "a\r\nb", "\xff\xfe", "\x1b]8;;u\x1b\\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, nl := range []bool{false, true} {
			out := string(AppendSafe(nil, s, nl, nil))
			for _, r := range out {
				bad := r < 0x20 && !(nl && (r == '\n' || r == '\t')) || r == 0x7f || r >= 0x80 && r <= 0x9f ||
					r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029
				if bad {
					t.Fatalf("%q -> %q holds %U", s, out, r)
				}
			}
			if !utf8.ValidString(out) {
				t.Fatalf("%q -> %q is not UTF-8", s, out)
			}
			if isPlain(s) && out != s {
				t.Fatalf("%q changed to %q", s, out)
			}
		}
	})
}

func isPlain(s string) bool {
	for _, c := range []byte(s) {
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// Any line: the viewer and the validator do not fail, and the viewer's
// output stays safe.
func FuzzLine(f *testing.F) {
	for _, s := range []string{`{"type": "text", "content": "\u001b[2J"}`, `{"type": "tool_call", "name": "x", "args": {"a": NaN}, "id": "c"}`,
		`{"schemaVersion":2,"type":"run_start","runId":"r"}`, `{"type": "usage_stats", "input_tokens": 1e400, "output_tokens": 99999999999999999999999}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		out, _ := viewString(t, s+"\n", ViewOptions{})
		if strings.ContainsAny(out, "\x1b\r\a\u009b\u202e") {
			t.Fatalf("%q shows %q", s, out)
		}
		validateString(t, "x", s+"\n", Auto)
		st := NewSummarizer("x", Auto)
		st.Line(lineOf(1, s))
		st.End()
	})
}

// One input of several dialects: each line is read by its dialect's
// decoder (Zero's permission details, OpenCode's run, EvoScientist's
// approvals), and a run cut by a line of another dialect says so,
// whichever way the input turns. A done right after a question ends its
// run interrupted (dialects/evosci/doc.md).
func TestViewReadsEachLineByItsDialect(t *testing.T) {
	capture, err := os.ReadFile("../testdata/captures/opencode/nightgauge-bash-permission-rejected.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	in := `{"schemaVersion":2,"type":"run_start","runId":"r1"}
{"schemaVersion":2,"type":"permission_request","runId":"r1","id":"c1","name":"bash","sideEffect":"shell","risk":{"level":"high"},"reason":"runs"}
` + string(capture) + `{"type":"thinking","content":"plan"}
{"type":"interrupt","action_requests":[{"name":"write_file","description":"Creates.","args":{"path":"a"}}]}
{"type":"done","response":"ok"}
`
	got, bad := viewString(t, in, ViewOptions{})
	if len(bad) > 0 {
		t.Fatalf("bad lines %v", bad)
	}
	for _, want := range []string{
		"── run r1 ──\n  ⚠ permission requested: bash (shell, risk high) — runs\n── run incomplete: a line of another dialect came · tokens: 0 in · 0 out · 0 total ──\n",
		"── run ses_fixture0000000000000000001 ──\n▶ bash  command=python3 calc.py\n",
		"── run ended: blocked · tokens: 1533 in · 3 out · 1536 total ──\n",
		"── run 3 ──\n┊ plan\n  ⚠ approval needed: write_file — Creates.\n    path=a\n── final answer ──\nok\n── run ended: interrupted · ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	// The other way: an OpenCode run cut by a Zero line.
	got, _ = viewString(t, string(capture[:bytes.LastIndex(capture[:len(capture)-1], []byte("\n"))+1])+`{"schemaVersion":2,"type":"run_start","runId":"r2"}`+"\n", ViewOptions{})
	if !strings.Contains(got, "── run incomplete: a line of another dialect came · tokens: ") || !strings.Contains(got, "── run r2 ──") {
		t.Errorf("an OpenCode run cut by a Zero line:\n%s", got)
	}
}

// Of a key written twice the last value is the line's, as the producers'
// own readers (Go's, Python's) read it, in the view and in the documents.
func TestViewReadsDuplicateKeysAsTheProducersReadersDo(t *testing.T) {
	in := `{"type": "text", "content": "first", "content": "last wins"}` + "\n" + `{"type": "done", "response": "x", "response": "y"}` + "\n"
	got, _ := viewString(t, in, ViewOptions{})
	if !strings.Contains(got, "last wins\n") || strings.Contains(got, "first") || !strings.Contains(got, "── final answer ──\ny\n") {
		t.Errorf("view:\n%s", got)
	}
	var md bytes.Buffer
	df, _ := ScanDocFile(strings.NewReader(in), "x", Pricing{})
	d := NewDocument(&md, DocOptions{Format: Markdown}, []*DocFile{df})
	d.File()
	feedLines(t, strings.NewReader(in), "x", d.Line)
	d.EndFile()
	d.Close()
	if !strings.Contains(md.String(), "last wins") || strings.Contains(md.String(), "first") {
		t.Errorf("markdown:\n%s", md.String())
	}
}

// What the model carries of a producer's own events and of its
// permissions shows as the producer's words: EvoScientist's tool
// selection, sub-agents (by name), context summary and questions with
// their choices; Zero's plain permission event and sandbox block.
func TestViewShowsWhatTheProducersSay(t *testing.T) {
	for file, want := range map[string][]string{
		"evosci-all-types": {
			"· tools selected: read_file, write_file, task\n",
			"⇢ subagent researcher: survey papers\n  ▶ researcher/web_search  query=attention\n",
			"researcher │ Found 3 papers.\n⇠ subagent done: researcher\n",
			"· summarizing the context…\n· context summary:\n    Summary so far.\n",
			"  ? question: Which file? [a / b]\n",
		},
		"zero-all-types": {
			"  ⚠ permission: read_file auto\n",
			"  ⚠ permission requested: bash (shell, risk critical) — network access requires approval\n    sandbox: network: network access requires approval\n",
		},
		"evosci-interrupt": {
			"  ⚠ approval needed: write_file — Write notes.md\n    path=notes.md\n",
		},
	} {
		in, err := os.ReadFile("../testdata/golden/" + file + "/input.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		got, _ := viewString(t, string(in), ViewOptions{})
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: missing %q in\n%s", file, w, got)
			}
		}
	}
}

// A run's total in the view is the producers' stated totals where they
// state one, as stats and the documents count it, not the counts' sum.
func TestViewTotalIsTheStatedTotal(t *testing.T) {
	in := `{"type":"run_start","schemaVersion":2,"runId":"r1"}
{"type":"usage","schemaVersion":2,"runId":"r1","promptTokens":10,"completionTokens":5,"totalTokens":100}
{"type":"usage","schemaVersion":2,"runId":"r1","promptTokens":1,"completionTokens":2}
{"type":"run_end","schemaVersion":2,"runId":"r1","status":"success","exitCode":0}
`
	out, _ := viewString(t, in, ViewOptions{})
	if !strings.Contains(out, "tokens: 11 in · 7 out · 103 total") {
		t.Errorf("want the stated total 100 plus 3:\n%s", out)
	}
}
