package event

import (
	"bytes"
	"errors"
	"math/big"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Problems collects what is wrong with one line's fields as a decoder
// reads them: the line still gives its events, with the bad fields left
// zero, and Err words them for the line, each named by its field's path
// as validate names it ("tool_result.success: want boolean, got string").
type Problems struct {
	list []problem
	past *big.Int // the last count past int64 (TakePast)
	// pastRaw is the last count whose value does not say its spelling
	// (-0), as spelled (TakeRaw).
	pastRaw string
}

// problem is one problem of a field (key) or of the line (key "").
// lenient: see Lenient.
type problem struct {
	key, msg string
	lenient  bool
}

// Add notes one problem of the field key ("" for the line).
func (p *Problems) Add(key, msg string) { p.list = append(p.list, problem{key: key, msg: msg}) }

// Missing notes a field the line must have and does not.
func (p *Problems) Missing(key string) { p.Add("", missingField(key)) }

// Lenient notes a problem of the field key ("" for the line) that leaves
// the line's events whole: a Zero line without runId, a token count that
// is not one. validate reports it; a translation writes the line all the
// same, and reports what its target cannot write of it.
func (p *Problems) Lenient(key, msg string) {
	p.list = append(p.list, problem{key: key, msg: msg, lenient: true})
}

// MissingLenient is Missing as a Lenient problem.
func (p *Problems) MissingLenient(key string) { p.Lenient("", missingField(key)) }

// LenientError is Err's error for a line whose problems are all
// Lenient ones.
type LenientError struct{ msg string }

func (e *LenientError) Error() string { return e.msg }

func missingField(key string) string { return "missing field " + strconv.Quote(key) }

// WrongType notes a field whose value got is not of the JSON type want.
func (p *Problems) WrongType(key, want string, got gjson.Result) {
	p.Add(key, WantGot(want, got))
}

// Err is the line's diagnostic, typ its event type; nil without problems.
func (p *Problems) Err(typ string) error {
	if len(p.list) == 0 {
		return nil
	}
	if typ == "" {
		typ = "event"
	}
	var b strings.Builder
	for i, q := range p.list {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(typ)
		if q.key != "" {
			b.WriteString(".")
			b.WriteString(q.key)
		}
		b.WriteString(": ")
		b.WriteString(q.msg)
	}
	for _, q := range p.list {
		if !q.lenient {
			return errors.New(b.String())
		}
	}
	return &LenientError{b.String()}
}

// WrongType is the one wording, in every command's diagnostics, of a
// field whose value is not of the JSON type its event needs: validate's
// ("tool_result.success: want boolean, got string "true""). field is
// its path, its event's type first; want the type (or "string or null").
func WrongType(field, want string, got gjson.Result) string {
	return field + ": " + WantGot(want, got)
}

// FieldError is a decoder's diagnostic, in validate's words, about the
// field at path (dotted) of a line of type typ that its event needs as a
// want: missing (`assistant.message: missing field "content"`), else of
// the wrong type (WrongType). A decoder that reads its fields through
// Problems words them the same way.
func FieldError(typ, path, want string, got gjson.Result) error {
	if got.Exists() {
		return errors.New(WrongType(typ+"."+path, want, got))
	}
	parent, key := typ, path
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		parent, key = typ+"."+path[:i], path[i+1:]
	}
	return errors.New(parent + ": " + missingField(key))
}

// WantGot is WrongType's words after the field's path, for a caller that
// names the field apart (validate).
func WantGot(want string, got gjson.Result) string { return "want " + want + ", got " + Got(got) }

// Got names a value for WrongType: its JSON type, and a scalar's text
// (clipped).
func Got(v gjson.Result) string {
	switch {
	case v.Type == gjson.String:
		return "string " + Clip(v.Raw)
	case v.Type == gjson.Number:
		return "number " + Clip(v.Raw)
	case v.Type == gjson.True || v.Type == gjson.False:
		return "boolean " + v.Raw
	case v.IsArray():
		return "array"
	case v.IsObject():
		return "object"
	}
	return "null"
}

// TakePast is the count that the last Count reported as no count
// (past int64, or below 0), exact.
func (p *Problems) TakePast() *big.Int {
	b := p.past
	p.past = nil
	return b
}

// TakeRaw is the spelling of the last count Count read whose value does
// not say it (-0), "" if none.
func (p *Problems) TakeRaw() string {
	s := p.pastRaw
	p.pastRaw = ""
	return s
}

// Str is a string field; "" when absent or null, a problem when of
// another type.
func (p *Problems) Str(v *Line, key string) string {
	s, typ := v.Str(key)
	switch typ {
	case gjson.String:
		return s
	case gjson.Null:
		return ""
	}
	p.WrongType(key, "string", v.Get(key))
	return ""
}

// Text is Str of a field whose text the caller may not read: when skip
// (DecodeOptions.SkipText), "" with the problem Str notes of a field of
// another type, the text itself not unescaped.
func (p *Problems) Text(v *Line, key string, skip bool) string {
	if !skip {
		return p.Str(v, key)
	}
	switch v.Kind(key) {
	case gjson.String, gjson.Null:
		return ""
	}
	p.WrongType(key, "string", v.Get(key))
	return ""
}

// Count is a token count: an integer from 0 to 2^63-1. has, when not
// nil, gets bit when the count is stated. A count of 2^63 or more, or
// below 0, is a (lenient) problem, kept exact for TakePast (stats still
// counts the first; a translation writes both as stated).
func (p *Problems) Count(v *Line, key string, has *Has, bit Has) int64 {
	p.pastRaw = ""
	f := v.Get(key)
	if !f.Exists() || f.Type == gjson.Null {
		return 0
	}
	if f.Type != gjson.Number {
		p.WrongType(key, "integer", f)
		return 0
	}
	n, err := strconv.ParseInt(f.Raw, 10, 64) // "-0" is 0
	if err != nil || n < 0 {
		if p.past = notCount(f.Raw); p.past == nil {
			// No integer (1.5, 1e400): the line is a bad one, worded
			// as a value of the wrong type.
			p.WrongType(key, "integer", f)
			return 0
		}
		p.Lenient(key, Clip(f.Raw)+" is not a token count")
		return 0
	}
	if n == 0 && f.Raw[0] == '-' {
		p.pastRaw = f.Raw // -0 is 0, written back as it was
	}
	if has != nil {
		*has |= bit
	}
	return n
}

// notCount is raw, an integer that is no int64 count (2^63 or more, or
// below 0), exact; nil for any other value.
func notCount(raw string) *big.Int {
	var n big.Int
	if _, ok := n.SetString(raw, 10); ok && (!n.IsInt64() || n.Sign() < 0) {
		return &n
	}
	return nil
}

// Clip shortens a raw value for a message.
func Clip(raw string) string {
	if len(raw) > 40 {
		raw = raw[:40] + "…"
	}
	return string(bytes.ToValidUTF8([]byte(raw), []byte("?")))
}
