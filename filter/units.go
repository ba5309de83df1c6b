package filter

import (
	"io"

	"github.com/zevo/zevo/jsonl"
)

// units cuts an input into units of whole JSON values: one line, or the
// lines of a value that spans several (pretty-printed JSON). A line of
// JSONL is a unit as it is, found by a look at its last byte; only a line
// that ends inside a value is scanned, and the lines after it are joined
// to it until the value closes.
//
// A value that never closes must not swallow the rest of the input: a
// line that starts with { or [ in its first column where the open value
// cannot take one (after a complete value, or where an object wants a
// key) starts a new unit, and the open one is handed over as it is, to
// be reported as the bad value it is.
type units struct {
	rd  *jsonl.Reader
	raw bool // -R: every line is a unit, blank ones too
	buf []byte
	// held is a line read ahead that starts the next unit.
	held    jsonl.Line
	hasHeld bool
	// scanning state of an open value
	stack []byte // the open containers, '{' or '['
	prev  byte   // the last byte that is not white space, outside strings
	bad   bool   // a string ran to the end of a line: no JSON value
}

// unit is one unit: its text, the line it starts on and how many lines
// it has (blank lines are units of one line with Blank set).
type unit struct {
	Name      string
	Num       int
	Lines     int
	Bytes     []byte // valid until the next call to next
	Blank     bool
	CR        bool // -R: the line ended with CR LF
	NoNewline bool
}

func newUnits(rd *jsonl.Reader, raw bool) *units {
	return &units{rd: rd, raw: raw}
}

// openUnits reads the units of input r, named name, as both paths do: idle
// as idleFor says, and opt.LineGrows told of a long line's growth.
func (f *Filter) openUnits(r io.Reader, name string, idle func() error) *units {
	lr := jsonl.NewReader(r, name, idleFor(r, idle))
	lr.OnGrow(f.opt.LineGrows)
	return newUnits(lr, f.opt.RawInput)
}

func (u *units) line() (jsonl.Line, error) {
	if u.hasHeld {
		u.hasHeld = false
		return u.held, nil
	}
	return u.rd.Next()
}

// next returns the next unit, io.EOF at the end, or a read error.
func (u *units) next() (unit, error) {
	l, err := u.line()
	if err != nil {
		return unit{}, err
	}
	un := unit{Name: l.Name, Num: l.Num, Lines: 1, Bytes: l.Bytes, CR: l.CR, NoNewline: l.NoNewline}
	if u.raw {
		return un, nil
	}
	last, ok := lastByte(l.Bytes)
	if !ok {
		un.Blank = true
		return un, nil
	}
	switch last {
	case '{', '[', ',', ':':
	default:
		return un, nil // a line that ends a value: JSONL
	}
	u.stack, u.prev, u.bad = u.stack[:0], 0, false
	u.scan(l.Bytes)
	if len(u.stack) == 0 || u.bad || len(u.stack) > jsonl.MaxDepth {
		return un, nil // complete, or bad already
	}
	u.buf = append(u.buf[:0], l.Bytes...)
	for len(u.stack) > 0 && !u.bad && len(u.stack) <= jsonl.MaxDepth {
		l, err := u.line()
		if err != nil {
			if err == io.EOF {
				break // the open value is reported as cut short
			}
			return unit{}, err
		}
		if len(l.Bytes) > 0 && (l.Bytes[0] == '{' || l.Bytes[0] == '[') && !u.wantsValue() {
			u.held, u.hasHeld = l, true
			break
		}
		u.buf = append(u.buf, '\n')
		u.buf = append(u.buf, l.Bytes...)
		un.Lines++
		un.NoNewline = l.NoNewline
		u.scan(l.Bytes)
	}
	un.Bytes = u.buf
	return un, nil
}

// wantsValue reports whether the open value takes a value next.
func (u *units) wantsValue() bool {
	switch u.prev {
	case ':', '[':
		return true
	case ',':
		return u.stack[len(u.stack)-1] == '['
	}
	return false
}

// scan follows the containers opened and closed on one line.
func (u *units) scan(b []byte) {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case ' ', '\t', '\r':
		case '"':
			i++
			for i < len(b) && b[i] != '"' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(b) {
				u.bad = true // strings do not span lines
				return
			}
			u.prev = '"'
		case '{', '[':
			u.stack = append(u.stack, c)
			u.prev = c
		case '}', ']':
			if len(u.stack) > 0 {
				u.stack = u.stack[:len(u.stack)-1]
			}
			u.prev = c
		default:
			u.prev = c
		}
	}
}

// lastByte is the last byte of b that is not JSON white space; false
// when there is none.
func lastByte(b []byte) (byte, bool) {
	for i := len(b) - 1; i >= 0; i-- {
		switch c := b[i]; c {
		case ' ', '\t', '\r', '\n':
		default:
			return c, true
		}
	}
	return 0, false
}
