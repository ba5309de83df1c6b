package zero

import "testing"

// Zero 0.8.0's ParseInput and ResolvePrompt, case by case (their messages
// are Zero's own).
func TestPrompt(t *testing.T) {
	for _, c := range []struct{ in, prompt, err string }{
		{`{"schemaVersion":2,"type":"prompt","content":" a "}`, "a", ""},
		{"{\"schemaVersion\":2,\"type\":\"prompt\",\"content\":\"a\"}\r\n\n  \n{\"schemaVersion\":2,\"type\":\"message\",\"role\":\"user\",\"content\":\"b\\n\"}", "a\n\nb", ""},
		{`{"type":"message","content":"x","role":"user","images":[],"schemaVersion":2}`, "x", ""},
		{`{"schemaVersion":2,"type":"prompt","content":"x","content":"y"}`, "y", ""}, // the last wins, as in Go's decoder
		{``, "", "Stream-json input must include at least one prompt or user message event."},
		{"\n \n", "", "Stream-json input must include at least one prompt or user message event."},
		{`[]`, "", "Invalid stream-json input at line 1: expected a JSON object."},
		{`{"schemaVersion":2,`, "", "Invalid stream-json input at line 1: expected a JSON object."},
		{`null`, "", "Invalid stream-json input at line 1: schemaVersion must be 2"},
		{`{"schemaVersion":2,"type":"prompt","content":5}`, "", "Invalid stream-json input at line 1: expected a JSON object."},
		{`{"schemaVersion":2.5,"type":"prompt","content":"x"}`, "", "Invalid stream-json input at line 1: expected a JSON object."},
		{`{"type":"prompt","content":"x"}`, "", "Invalid stream-json input at line 1: schemaVersion must be 2"},
		{`{"schemaVersion":2,"type":"prompt"}`, "", "Invalid stream-json input at line 1: content is required"},
		{`{"schemaVersion":2,"type":"message","content":"x"}`, "", "Invalid stream-json input at line 1: role must be user"},
		{`{"schemaVersion":2,"type":"text","content":"x"}`, "", "Invalid stream-json input at line 1: type must be prompt or message"},
		{`{"schemaVersion":2,"content":"x"}`, "", "Invalid stream-json input at line 1: type must be prompt or message"},
		{`{"schemaVersion":2,"type":"prompt","role":"user","content":"x"}`, "", "Invalid stream-json input at line 1: unknown field role"},
		{`{"schemaVersion":2,"type":"prompt","zz":1,"content":"x","aa":2}`, "", "Invalid stream-json input at line 1: unknown field zz"},
		{`{"schemaVersion":2,"type":"prompt","Content":"x"}`, "", "Invalid stream-json input at line 1: unknown field Content"},
		{"{\"schemaVersion\":2,\"type\":\"prompt\",\"content\":\"a\"}\n{\"schemaVersion\":2,\"type\":\"message\",\"role\":\"user\",\"content\":\"\",\"images\":[{\"mediaType\":\"image/png\",\"data\":\"AA==\"}]}", "", "Invalid stream-json input at line 2: images cannot be passed on to the agent (zevo exec passes text only)"},
	} {
		p, err := Prompt([]byte(c.in))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if p != c.prompt || got != c.err {
			t.Errorf("%q: prompt %q, error %q; want %q, %q", c.in, p, got, c.prompt, c.err)
		}
	}
}
