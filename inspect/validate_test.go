package inspect

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zevo/zevo/jsonl"
)

// validateString validates input and returns its diagnostics, one a line.
func validateString(t *testing.T, name, input string, as Protocol) (string, FileReport) {
	t.Helper()
	var b strings.Builder
	rep, err := Validate(strings.NewReader(input), name, asOpt(as), func(d jsonl.Diagnostic) {
		b.WriteString(d.String())
		b.WriteByte('\n')
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), rep
}

// The shipped samples and the protocol documents' own examples are what
// the producers write: they validate clean. Two samples end inside a run on
// purpose (they exercise translate's end-of-input handling); that is the
// only thing said about them, and with AllowUnfinished it is a warning.
func TestValidateSamples(t *testing.T) {
	want := map[string]string{
		"../testdata/translate/basic.zero.jsonl":   "basic.zero.jsonl:21: the input ends inside run \"run_20260603101000_aaa111\" (line 20): no run_end\n",
		"../testdata/translate/basic.evosci.jsonl": "basic.evosci.jsonl:18: warning: the input ends inside the run that began at line 17: no done or error (the run was cancelled or cut short)\n",
	}
	files, _ := filepath.Glob("../testdata/translate/*.jsonl")
	seeds, _ := filepath.Glob("../testdata/inspect/*.jsonl")
	files = append(files, seeds...)
	if len(files) < 10 {
		t.Fatalf("found only %d sample files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, rep := validateString(t, filepath.Base(f), string(data), Auto)
		if got != want[f] {
			t.Errorf("%s:\ngot  %q\nwant %q", f, got, want[f])
		}
		// With --allow-unfinished an input cut inside a run is a warning.
		var warned []string
		_, err = Validate(strings.NewReader(string(data)), filepath.Base(f), ValidateOptions{AllowUnfinished: true}, func(d jsonl.Diagnostic) {
			warned = append(warned, d.String())
		})
		wantWarned := strings.TrimSuffix(strings.Replace(want[f], ":21: the input ends", ":21: warning: the input ends", 1), "\n")
		if err != nil || strings.Join(warned, "\n") != wantWarned {
			t.Errorf("%s with AllowUnfinished: %q, want %q", f, warned, wantWarned)
		}
		if rep.Events == 0 || rep.Protocol == "" {
			t.Errorf("%s: report %+v", f, rep)
		}
	}
}

func TestValidateDetects(t *testing.T) {
	cases := map[string]string{
		"seed.zero.jsonl":            "zero@2",
		"seed-input.zero.jsonl":      "zero-input",
		"seed.evosci.jsonl":          "evosci",
		"../translate/v1.zero.jsonl": "zero@1",
	}
	for f, want := range cases {
		data, err := os.ReadFile(filepath.Join("../testdata/inspect", f))
		if err != nil {
			t.Fatal(err)
		}
		_, rep := validateString(t, f, string(data), Auto)
		if rep.Protocol != want {
			t.Errorf("%s: protocol %q, want %q", f, rep.Protocol, want)
		}
	}
}

const (
	zStart = `{"apiModel":"m","cwd":"/r","model":"m","provider":"p","runId":"r1","schemaVersion":2,"type":"run_start"}`
	zEnd   = `{"exitCode":0,"runId":"r1","schemaVersion":2,"status":"success","type":"run_end"}`
)

func TestValidateInvalid(t *testing.T) {
	cases := []struct {
		name, as, in, want string
	}{
		{"not json", "auto", "{\"type\": \"text\", \"content\": \"a\"}\nnot json\n",
			"x:2: not valid JSON at byte 1: unexpected 'n'\n" +
				"x:2: warning: the input ends inside the run that began at line 1: no done or error (the run was cancelled or cut short)\n"},
		{"truncated line", "evosci", `{"type": "text", "content": "a`,
			"x:1: not valid JSON at byte 31: the line ends inside a value\n"},
		{"array", "evosci", "[1]\n", "x:1: not a JSON object: an array\n"},
		{"invalid utf8", "evosci", "{\"type\": \"text\", \"content\": \"\xff\"}\n", "x:1: invalid UTF-8 at byte 30\n"},
		{"zero missing run_start", "auto", `{"delta":"a","runId":"r1","schemaVersion":2,"type":"text"}` + "\n" + zEnd + "\n",
			"x:1: text: comes before run_start (a Zero run starts with run_start)\n"},
		{"zero missing run_end between runs", "auto", zStart + "\n" + strings.ReplaceAll(zStart, "r1", "r2") + "\n" + strings.ReplaceAll(zEnd, "r1", "r2") + "\n",
			"x:2: run_start: run \"r1\" (line 1) has no run_end before this run_start\n"},
		{"zero missing last run_end", "auto", zStart + "\n" + `{"delta":"a","runId":"r1","schemaVersion":2,"type":"text"}` + "\n",
			"x:2: the input ends inside run \"r1\" (line 1): no run_end\n"},
		{"zero event after run_end", "auto", zStart + "\n" + zEnd + "\n" + `{"delta":"a","runId":"r1","schemaVersion":2,"type":"text"}` + "\n" + zEnd + "\n",
			"x:3: text: comes after the run_end of run \"r1\" (line 2)\n"},
		{"zero error before start without run_end", "auto", `{"code":"usage","message":"bad flag","recoverable":false,"runId":"r0","schemaVersion":2,"type":"error"}` + "\n",
			"x:1: the input ends inside run \"r0\" (line 1): no run_end\n"},
		{"zero error before start, then a run", "auto", `{"code":"usage","message":"bad flag","recoverable":false,"runId":"r0","schemaVersion":2,"type":"error"}` + "\n" + zStart + "\n" + zEnd + "\n",
			"x:2: run_start: run \"r0\" (line 1) has no run_end before this run_start\n"},
		{"zero stray event after the last run_end", "auto", zStart + "\n" + zEnd + "\n" + `{"delta":"a","runId":"r1","schemaVersion":2,"type":"text"}` + "\n",
			"x:3: text: comes after the run_end of run \"r1\" (line 2)\n"},
		{"zero runId changes", "auto", zStart + "\n" + `{"delta":"a","runId":"r2","schemaVersion":2,"type":"text"}` + "\n" + zEnd + "\n",
			"x:2: text.runId: \"r2\" differs from the run's runId \"r1\" (line 1)\n" +
				"x:3: run_end.runId: \"r1\" differs from the run's runId \"r2\" (line 2)\n"},
		{"zero runId reused", "auto", zStart + "\n" + zEnd + "\n" + zStart + "\n" + zEnd + "\n",
			"x:3: warning: runId \"r1\" was already used by the run at line 1\n"},
		{"zero tool_result without call", "auto", zStart + "\n" +
			`{"id":"c1","runId":"r1","schemaVersion":2,"status":"ok","truncated":false,"type":"tool_result"}` + "\n" + zEnd + "\n",
			"x:2: tool_result.id: \"c1\" answers no earlier tool_call of this run\n"},
		{"zero call of another run", "auto", zStart + "\n" +
			`{"id":"c1","name":"ls","runId":"r1","schemaVersion":2,"sideEffect":"read","type":"tool_call"}` + "\n" + zEnd + "\n" +
			strings.ReplaceAll(zStart, "r1", "r2") + "\n" +
			`{"id":"c1","runId":"r2","schemaVersion":2,"status":"ok","truncated":false,"type":"tool_result"}` + "\n" + strings.ReplaceAll(zEnd, "r1", "r2") + "\n",
			"x:5: tool_result.id: \"c1\" answers no earlier tool_call of this run\n"},
		{"zero unknown field and type", "zero", zStart + "\n" +
			`{"delta":"a","runId":"r1","schemaVersion":2,"type":"text","extra":true}` + "\n" +
			`{"runId":"r1","schemaVersion":2,"type":"thought"}` + "\n" + zEnd + "\n",
			"x:2: text: field \"extra\" is not part of a text event\n" +
				"x:3: thought.type: unknown Zero event type \"thought\"\n"},
		{"zero wrong types", "zero", zStart + "\n" +
			`{"completionTokens":8.5,"promptTokens":-1,"runId":"r1","schemaVersion":2,"totalTokens":"20","type":"usage"}` + "\n" + zEnd + "\n",
			"x:2: usage.completionTokens: want integer, got number 8.5\n" +
				"x:2: usage.promptTokens: -1 is less than the minimum 0\n" +
				"x:2: usage.totalTokens: want integer, got string \"20\"\n"},
		{"zero big integer", "zero", zStart + "\n" +
			`{"completionTokens":1,"promptTokens":18446744073709551617,"runId":"r1","schemaVersion":2,"totalTokens":18446744073709551618,"type":"usage"}` + "\n" + zEnd + "\n",
			"x:2: usage.promptTokens: 18446744073709551617 is more than the maximum 9223372036854775807 (Zero writes and reads it as a 64-bit int)\n" +
				"x:2: usage.totalTokens: 18446744073709551618 is more than the maximum 9223372036854775807 (Zero writes and reads it as a 64-bit int)\n"},
		{"zero v1 line as zero", "zero", strings.ReplaceAll(zStart, `"schemaVersion":2`, `"schemaVersion":1`) + "\n",
			"x:1: run_start.schemaVersion: want 2, got 1\nx:1: the input ends inside run \"r1\" (line 1): no run_end\n"},
		{"zero v1 has no reasoning nor block", "zero@1", strings.ReplaceAll(zStart, `"schemaVersion":2`, `"schemaVersion":1`) + "\n" +
			`{"delta":"a","runId":"r1","schemaVersion":1,"type":"reasoning"}` + "\n" +
			`{"action":"prompt","block":{"action":"prompt","code":"network","reason":"n","recoverable":true,"risk":{"level":"high"}},"id":"c","name":"bash","runId":"r1","schemaVersion":1,"type":"permission_request"}` + "\n" +
			strings.ReplaceAll(zEnd, `"schemaVersion":2`, `"schemaVersion":1`) + "\n",
			"x:2: reasoning.type: unknown Zero event type \"reasoning\"\n" +
				"x:3: permission_request: field \"block\" is not part of a permission_request event\n"},
		// The v1-era Grant struct always wrote maxAutonomy; v2's has no such field.
		{"zero v1 grant with maxAutonomy", "auto", strings.ReplaceAll(zStart, `"schemaVersion":2`, `"schemaVersion":1`) + "\n" +
			`{"action":"allow","grant":{"approvedAt":"t","decision":"allow","maxAutonomy":"high","toolName":"bash"},"id":"c","name":"bash","runId":"r1","schemaVersion":1,"type":"permission_decision"}` + "\n" +
			`{"action":"allow","grant":{"approvedAt":"t","decision":"allow","maxAutonomy":"high","toolName":"bash"},"id":"c","name":"bash","runId":"r1","schemaVersion":2,"type":"permission_decision"}` + "\n" +
			strings.ReplaceAll(zEnd, `"schemaVersion":2`, `"schemaVersion":1`) + "\n",
			"x:3: permission_decision.grant: unknown field \"maxAutonomy\"\n" +
				"x:3: permission_decision.schemaVersion: 2 in a run that began with schemaVersion 1 (line 1)\n"},
		{"zero mixed versions", "auto", zStart + "\n" + strings.ReplaceAll(zEnd, `"schemaVersion":2`, `"schemaVersion":1`) + "\n",
			"x:2: run_end.schemaVersion: 1 in a run that began with schemaVersion 2 (line 1)\n"},
		{"zero permission shapes", "zero", zStart + "\n" +
			`{"action":"allow","id":"c","name":"n","permission":"maybe","risk":{"level":"huge"},"runId":"r1","schemaVersion":2,"type":"permission_request"}` + "\n" +
			`{"action":"prompt","id":"c","name":"n","runId":"r1","schemaVersion":2,"type":"permission"}` + "\n" + zEnd + "\n",
			"x:2: permission_request.action: want \"prompt\", got \"allow\"\n" +
				"x:2: permission_request.permission: \"maybe\" is not one of \"allow\", \"prompt\", \"deny\"\n" +
				"x:2: permission_request.risk.level: \"huge\" is not one of \"low\", \"medium\", \"high\", \"critical\", \"\"\n" +
				"x:3: permission.action: this action belongs to permission_request or permission_decision, not permission\n"},
		{"zero bad runId", "zero", strings.ReplaceAll(zStart, `"r1"`, `"-r"`) + "\n" + strings.ReplaceAll(zEnd, `"r1"`, `"-r"`) + "\n",
			"x:1: run_start.runId: \"-r\" does not match ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$\n" +
				"x:2: run_end.runId: \"-r\" does not match ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$\n"},
		// Zero omits every empty field but schemaVersion, type and runId.
		{"zero omitted fields", "zero", `{"runId":"r1","schemaVersion":2,"type":"run_start"}` + "\n" +
			`{"runId":"r1","schemaVersion":2,"type":"tool_result"}` + "\n" + `{"runId":"r1","schemaVersion":2,"type":"run_end"}` + "\n", ""},
		{"zero envelope", "zero", `{"type":"run_start"}` + "\n",
			"x:1: run_start: missing field \"runId\"\nx:1: run_start: missing field \"schemaVersion\"\n" +
				"x:1: the input ends inside run \"\" (line 1): no run_end\n"},
		{"zero input", "zero-input", `{"schemaVersion":2,"type":"message","role":"assistant","content":"hi","files":[]}` + "\n" +
			`{"schemaVersion":2,"type":"prompt","content":" ","role":"user"}` + "\n" +
			`{"schemaVersion":1,"type":"ask","content":"x"}` + "\n",
			"x:1: message: unknown field \"files\": Zero rejects input events with unknown fields\n" +
				"x:1: message.role: want \"user\", got \"assistant\"\n" +
				"x:2: prompt: needs non-blank content or at least one image\n" +
				"x:2: prompt: unknown field \"role\": Zero rejects input events with unknown fields\n" +
				"x:3: ask.schemaVersion: want 2, got 1\n" +
				"x:3: ask.type: unknown Zero input event type \"ask\"\n" +
				// --as names the schema; Zero's reader still reads a type
				// other than message and prompt as an output event.
				"x:3: ask: comes before run_start (a Zero run starts with run_start)\n"},
		{"zero input images only", "zero-input", `{"schemaVersion":2,"type":"message","role":"user","images":[{"mediaType":"image/png","data":"iVBORw0KGgo="}]}` + "\n",
			"x:1: no event has non-blank content: Zero needs at least one prompt or user message\n"},
		{"zero input bad image", "zero-input", `{"schemaVersion":2,"type":"message","role":"user","content":"see","images":[{"mediaType":"image/png","data":"not base64!"}]}` + "\n",
			"x:1: message.images[0].data: \"not base64!\" does not match ^[A-Za-z0-9+/]*={0,2}$\n"},
		{"evosci nan", "auto", `{"type": "tool_call", "name": "execute", "args": {"x": NaN, "y": [1, -Infinity]}, "id": "c1"}` + "\n" +
			`{"type": "tool_result", "name": "execute", "content": "", "success": true, "id": "c1"}` + "\n" +
			`{"type": "done", "content": "", "response": ""}` + "\n",
			"x:1: warning: tool_call: bare NaN is not JSON (Python writes a non-finite float so); read as null\n" +
				"x:1: warning: tool_call: bare -Infinity is not JSON (Python writes a non-finite float so); read as null\n"},
		{"evosci result without call", "evosci", `{"type": "tool_result", "name": "ls", "content": "", "success": true, "id": "c9"}` + "\n" +
			`{"type": "tool_result", "name": "ls", "content": "", "success": true}` + "\n" +
			`{"type": "subagent_tool_result", "subagent": "s", "name": "ls", "content": "", "success": true, "id": "s1"}` + "\n" +
			`{"type": "done", "content": "", "response": ""}` + "\n",
			"x:1: tool_result.id: \"c9\" answers no earlier tool_call of this run\n" +
				"x:2: tool_result: has no id and answers no earlier tool_call named \"ls\"\n" +
				"x:3: subagent_tool_result.id: \"s1\" answers no earlier subagent_tool_call of this run\n"},
		{"evosci old result matches by name", "evosci", `{"type": "tool_call", "name": "ls", "args": {}, "id": "c1"}` + "\n" +
			`{"type": "tool_result", "name": "ls", "content": "", "success": true}` + "\n" +
			`{"type": "tool_result", "name": "ls", "content": "", "success": true}` + "\n" +
			`{"type": "done", "content": "", "response": ""}` + "\n",
			"x:3: tool_result: has no id and answers no earlier tool_call named \"ls\"\n"},
		{"evosci two dones", "evosci", `{"type": "text", "content": "a"}` + "\n" + `{"type": "done", "content": "a", "response": "a"}` + "\n" +
			`{"type": "done", "content": "a", "response": "a"}` + "\n",
			"x:3: done: a second done right after the done at line 2 (a run ends with one done)\n"},
		{"evosci error then done", "evosci", `{"type": "text", "content": "a"}` + "\n" + `{"type": "error", "message": "boom"}` + "\n" +
			`{"type": "done", "content": "a", "response": "a"}` + "\n", ""},
		{"evosci done differs", "evosci", `{"type": "text", "content": "a"}` + "\n" + `{"type": "text", "content": "b"}` + "\n" +
			`{"type": "done", "content": "ab", "response": "abc"}` + "\n",
			"x:3: done: content and response differ (EvoScientist writes the same text in both)\n" +
				"x:3: warning: done.response: differs from the run's text events joined (3 characters against 2)\n"},
		{"evosci shapes", "evosci", `{"type": "thinking", "content": "x"}` + "\n" +
			`{"type": "text", "content": ""}` + "\n" +
			`{"type": "tool_call", "name": "ls", "args": [], "id": 1}` + "\n" +
			`{"type": "usage_stats", "input_tokens": 0, "output_tokens": 0}` + "\n" +
			`{"type": "ask_user", "interrupt_id": "i", "questions": [{"question": "q", "type": "radio"}]}` + "\n" +
			`{"type": "interrupt", "interrupt_id": "i", "action_requests": [{"args": {}}], "review_configs": [{"action_name": "x", "allowed_decisions": ["maybe"]}]}` + "\n" +
			`{"type": "done", "content": "", "response": ""}` + "\n",
			"x:1: thinking: missing field \"id\"\n" +
				"x:2: text.content: must not be empty\n" +
				"x:3: tool_call.args: want object, got array\n" +
				"x:3: tool_call.id: want string, got number 1\n" +
				"x:4: usage_stats: input_tokens and output_tokens are both 0 (EvoScientist never writes a 0/0 usage_stats)\n" +
				"x:5: ask_user: missing field \"tool_call_id\"\n" +
				"x:5: ask_user.questions[0].type: \"radio\" is not one of \"text\", \"multiple_choice\"\n" +
				"x:6: interrupt.action_requests[0]: missing field \"name\"\n" +
				"x:6: interrupt.review_configs[0].allowed_decisions[0]: \"maybe\" is not one of \"approve\", \"edit\", \"reject\", \"respond\"\n"},
		{"evosci unknown types and fields pass", "evosci", `{"type": "panel_dispatch_start", "eval_id": "e", "id": "d", "label": "l"}` + "\n" +
			`{"type": "brand_new", "anything": [1, 2]}` + "\n" +
			`{"type": "text", "content": "a", "lang": "en"}` + "\n" +
			`{"type": "usage_stats", "input_tokens": 123456789012345678901234567890, "output_tokens": 0}` + "\n" +
			`{"type": "done", "content": "a", "response": "a"}` + "\n", ""},
		{"evosci no type", "evosci", `{"content": "a"}` + "\n" + `{"type": 5}` + "\n",
			"x:1: event: missing field \"type\"\n" +
				"x:2: event.type: want string, got number 5\n" +
				"x:2: warning: the input ends inside the run that began at line 1: no done or error (the run was cancelled or cut short)\n"},
		{"duplicate key", "evosci", `{"type": "text", "content": "a", "content": "b"}` + "\n" + `{"type": "done", "content": "b", "response": "b"}` + "\n",
			"x:1: warning: text: duplicate key \"content\" (the last one is used)\n"},
		{"hostile values are escaped", "zero", zStart + "\n" + "{\"runId\":\"r1\",\"schemaVersion\":2,\"type\":\"text\",\"delta\":\"a\",\"\\u001b]0;pwn\\u0007\":1,\"\\u202e\":2}\n" + zEnd + "\n",
			"x:2: text: field \"\\u202e\" is not part of a text event\n" +
				"x:2: text: field \"\\x1b]0;pwn\\a\" is not part of a text event\n"},
		{"empty", "auto", "\n\n", "x:1: warning: no events\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			as, err := parseProtocol(c.as)
			if err != nil {
				t.Fatal(err)
			}
			got, rep := validateString(t, "x", c.in, as)
			if got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
			if n := strings.Count(got, ": warning: "); n != rep.Warnings || strings.Count(got, "\n")-n != rep.Errors {
				t.Errorf("report counts %d errors, %d warnings for:\n%s", rep.Errors, rep.Warnings, got)
			}
		})
	}
}

// A line of many megabytes is read whole.
func TestValidateLongLine(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"type": "text", "content": "`)
	b.WriteString(strings.Repeat("x", 5<<20))
	b.WriteString("\"}\n{\"type\": \"done\", \"content\": \"x\", \"response\": \"x\"}\n")
	got, rep := validateString(t, "x", b.String(), Auto)
	if !strings.Contains(got, "done.response: differs from the run's text events joined (1 characters against 5242880)") || rep.Errors != 0 {
		t.Errorf("got %q, %+v", got, rep)
	}
}

// validate reads runs as stats does (the event model's rules): a Zero
// input event inside an output run steers that run, and a Zero event
// without runId belongs to the open run. Both once cut the run in
// validate alone.
func TestValidateAgreesWithStatsOnRuns(t *testing.T) {
	const (
		start = `{"runId":"r1","schemaVersion":2,"type":"run_start"}`
		text  = `{"delta":"a","runId":"r1","schemaVersion":2,"type":"text"}`
		end   = `{"exitCode":0,"runId":"r1","schemaVersion":2,"status":"success","type":"run_end"}`
	)
	cases := []struct{ name, in, diags string }{
		{"an input event inside an output run steers it",
			start + "\n" + text + "\n" + `{"content":"go on","schemaVersion":2,"type":"prompt"}` + "\n" + text + "\n" + end + "\n", ""},
		{"an event without runId belongs to the open run",
			start + "\n" + `{"delta":"a","schemaVersion":2,"type":"text"}` + "\n" + end + "\n",
			"x:2: text: missing field \"runId\"\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, rep := validateString(t, "x", c.in, Auto)
			if got != c.diags {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, c.diags)
			}
			st, err := Summarize(strings.NewReader(c.in), "x", Auto)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.RunList) != 1 || len(st.Runs) != 1 {
				t.Fatalf("validate %+v, stats %d runs: want one run", rep.RunList, len(st.Runs))
			}
			v, s := rep.RunList[0], st.Runs[0]
			if v.FirstLine != 1 || v.LastLine != strings.Count(c.in, "\n") ||
				v.Status != "success" || v.FirstLine != s.FirstLine || v.LastLine != s.LastLine || v.Status != s.Status || v.ID != "r1" {
				t.Errorf("validate's run %+v, stats' %+v", v, s)
			}
		})
	}
}

// A key written twice, once escaped, is still a repeated key: the line
// is read as the producers' readers read it, its last value.
func TestValidateRepeatedEscapedKey(t *testing.T) {
	in := `{"runId":"r1","schemaVersion":2,"type":"run_start"}` + "\n" +
		`{"schemaVersion":2,"type":"text","runId":"r1","delta":"x","sch\u0065maVersion":2}` + "\n" +
		`{"exitCode":0,"runId":"r1","schemaVersion":2,"status":"success","type":"run_end"}` + "\n"
	got, _ := validateString(t, "x", in, Auto)
	if want := "x:2: warning: text: duplicate key \"schemaVersion\" (the last one is used)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
