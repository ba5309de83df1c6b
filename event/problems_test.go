package event

import (
	"testing"

	"github.com/tidwall/gjson"
)

// A field of the wrong type is worded as validate words it, one way for
// every decoder: its path from the event's type, the type it needs, and
// what it got (a scalar shown).
func TestProblemsWordAWrongTypedFieldAsValidate(t *testing.T) {
	for _, c := range []struct {
		line, want string
	}{
		{`{"type":"text","content":"fine"}`, ``},
		{`{"type":"text","content":null}`, ``},
		{`{"type":"text","content":42}`, `text.content: want string, got number 42`},
		{`{"type":"text","content":true}`, `text.content: want string, got boolean true`},
		{`{"type":"text","content":[1]}`, `text.content: want string, got array`},
		{`{"type":"text","content":{"a":1}}`, `text.content: want string, got object`},
		{`{"type":"usage","content":"12"}`, `usage.content: want integer, got string "12"`},
		{`{"type":"usage","content":1.5}`, `usage.content: want integer, got number 1.5`},
		{`{"type":"usage","content":-1}`, `usage.content: -1 is not a token count`},
	} {
		l := ReadLine([]byte(c.line))
		l.Check()
		var p Problems
		typ, _ := l.Type()
		if typ == "usage" {
			p.Count(&l, "content", nil, 0)
		} else {
			p.Str(&l, "content")
		}
		err := p.Err(typ)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v, want no problem", c.line, err)
			}
			continue
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %s", c.line, err, c.want)
		}
	}
}

// Every problem of a line is named by its field's path; the line's own
// (a missing field) by its type, as validate names them; a line without
// a type is an "event".
func TestProblemsNameEachFieldByItsPath(t *testing.T) {
	l := ReadLine([]byte(`{"status":7,"costUsd":"1"}`))
	l.Check()
	var p Problems
	p.Str(&l, "status")
	p.Missing("type")
	p.WrongType("costUsd", "number", l.Get("costUsd"))
	want := `event.status: want string, got number 7; event: missing field "type"; event.costUsd: want number, got string "1"`
	if err := p.Err(""); err == nil || err.Error() != want {
		t.Errorf("%v\nwant %s", err, want)
	}
}

// WrongType is the one wording: the same words for a value of any type,
// a long one clipped.
func TestWrongTypeWording(t *testing.T) {
	for raw, want := range map[string]string{
		`null`: `x.y: want string, got null`,
		`"` + "0123456789012345678901234567890123456789xyz" + `"`: `x.y: want string, got string "012345678901234567890123456789012345678…`,
	} {
		if got := WrongType("x.y", "string", gjson.Parse(raw)); got != want {
			t.Errorf("%s: %s, want %s", raw, got, want)
		}
	}
}

// FieldError words a field a decoder needs as validate does: missing,
// named by its parent's path, or of the wrong type (WrongType).
func TestFieldErrorWordsAsValidate(t *testing.T) {
	for _, c := range []struct{ path, raw, want string }{
		{"message", ``, `assistant: missing field "message"`},
		{"message.content", ``, `assistant.message: missing field "content"`},
		{"message.content", `7`, `assistant.message.content: want array, got number 7`},
		{"message", `null`, `assistant.message: want array, got null`},
	} {
		got := gjson.Get(`{"v":`+c.raw+`}`, "v")
		if c.raw == "" {
			got = gjson.Result{}
		}
		if err := FieldError("assistant", c.path, "array", got); err == nil || err.Error() != c.want {
			t.Errorf("%s %s: %v, want %s", c.path, c.raw, err, c.want)
		}
	}
}
