package filter

import (
	"bytes"
	"io"
	"sync/atomic"

	"github.com/zevo/zevo/jsonl"
)

// units cuts an input into units of whole JSON values: one line, or the
// lines of a value that spans several (pretty-printed JSON). A line of
// JSONL is a unit as it is, found by a look at its last byte; only a line
// that ends inside a value is scanned, and the lines after it are joined
// to it until the value closes.
//
// A join is kept only when it is valid JSON. A line cut short must not
// swallow the lines after it: when the join fails, reading starts again at
// the first line joined that starts a value of its own (the line after a
// cut line of JSONL), and the lines before it are a unit, to be reported
// as the bad value they are. (A failed join with no such line, a
// pretty-printed value broken inside, is one bad unit, reported where it
// starts.) So that a join does not read far ahead, it stops at a line that
// cannot continue the open value (a line starting with "{" after a
// complete value, as the next line of JSONL does), and, on a live input,
// where the input pauses after a line that is JSON alone.
type units struct {
	rd  *jsonl.Reader
	raw bool // -R: every line is a unit, blank ones too
	buf []byte
	// ahead are lines read ahead that are units of their own or start
	// them, in order; their bytes are their own.
	ahead []jsonl.Line
	// ends are where each line joined in buf ends.
	ends []int
	dec  decoder // checks joins and lines alone
	// scanning state of an open value
	stack []byte // the open containers, '{' or '['
	prev  byte   // the last byte that is not white space, outside strings
	bad   bool   // a string ran to the end of a line: no JSON value
	// handed is the number of the last line next returned, read by
	// pending on another goroutine.
	handed atomic.Int64
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
	u := newUnits(lr, f.opt.RawInput)
	f.reading.Store(u)
	return u
}

// pending returns the line the input stopped inside (read, with no line
// end yet), if every line before it was returned as a unit: not when it
// would continue a value open on the lines before it. It is safe to call
// while next runs on another goroutine.
func (u *units) pending() (jsonl.Line, bool) {
	l, ok := u.rd.Pending()
	if !ok || int64(l.Num) != u.handed.Load()+1 {
		return jsonl.Line{}, false
	}
	return l, true
}

func (u *units) line() (jsonl.Line, error) {
	if len(u.ahead) > 0 {
		l := u.ahead[0]
		u.ahead[0] = jsonl.Line{}
		u.ahead = u.ahead[1:]
		return l, nil
	}
	return u.rd.Next()
}

// next returns the next unit, io.EOF at the end, or a read error.
func (u *units) next() (unit, error) {
	un, err := u.read()
	if err == nil {
		u.handed.Store(int64(un.Num + un.Lines - 1))
	}
	return un, err
}

func (u *units) read() (unit, error) {
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
	u.ends = append(u.ends[:0], len(u.buf))
	var held []jsonl.Line
	checked := 1 // the lines joined known not to be JSON alone
	for len(u.stack) > 0 && !u.bad && len(u.stack) <= jsonl.MaxDepth {
		if len(u.ahead) == 0 && u.rd.Waits() {
			// A live input pauses: a line that is JSON alone is not held
			// back for what may come (a log that ends on the line after a
			// cut one). The join is taken as failed.
			for ; checked < len(u.ends) && !u.valid(u.buf[u.ends[checked-1]+1:u.ends[checked]]); checked++ {
			}
			if checked < len(u.ends) {
				break
			}
		}
		l, err := u.line()
		if err != nil {
			if err == io.EOF {
				break // the open value is reported as cut short
			}
			return unit{}, err
		}
		if !u.continues(l.Bytes) {
			held = append(held, u.own(l))
			break
		}
		u.buf = append(u.buf, '\n')
		u.buf = append(u.buf, l.Bytes...)
		u.ends = append(u.ends, len(u.buf))
		un.Lines++
		un.NoNewline = l.NoNewline
		u.scan(l.Bytes)
	}
	un.Bytes = u.buf
	if len(u.stack) == 0 && !u.bad && u.valid(u.buf) {
		u.ahead = append(held, u.ahead...)
		return un, nil
	}
	// The join failed. Reading starts again at the first line joined that
	// starts a value of its own: JSON alone, or a "{" or "[" in the first
	// column (the next line of JSONL, a pretty-printed value's start). The
	// lines before it are one bad unit, reported where it starts.
	again := 1
	for again < len(u.ends) && !u.startsValue(u.buf[u.ends[again-1]+1:u.ends[again]]) {
		again++
	}
	if again == len(u.ends) {
		u.ahead = append(held, u.ahead...)
		return un, nil // one bad value
	}
	for again > 1 && jsonl.IsBlank(u.buf[u.ends[again-2]+1:u.ends[again-1]]) {
		again-- // blank lines are read again as such, not as part of the bad value
	}
	rest := make([]jsonl.Line, 0, len(u.ends)-again+len(held)+len(u.ahead))
	for i := again; i < len(u.ends); i++ {
		rest = append(rest, jsonl.Line{Name: un.Name, Num: un.Num + i,
			Bytes: bytes.Clone(u.buf[u.ends[i-1]+1 : u.ends[i]])})
	}
	if len(held) == 0 {
		rest[len(rest)-1].NoNewline = un.NoNewline
	}
	u.ahead = append(append(rest, held...), u.ahead...)
	un.Bytes, un.Lines, un.NoNewline = u.buf[:u.ends[again-1]], again, false
	return un, nil
}

// startsValue reports whether line b starts a value of its own.
func (u *units) startsValue(b []byte) bool {
	return len(b) > 0 && (b[0] == '{' || b[0] == '[') || u.valid(b)
}

// own is l with bytes of its own, to be read again later.
func (u *units) own(l jsonl.Line) jsonl.Line {
	l.Bytes = bytes.Clone(l.Bytes)
	return l
}

// valid reports whether b is one or more JSON values, as they are read.
func (u *units) valid(b []byte) bool {
	u.dec.reset(b)
	n := 0
	for u.dec.more() {
		if _, _, err := u.dec.next(); err != nil {
			return false
		}
		n++
	}
	return n > 0
}

// continues reports whether line b can go on from where the open value
// is: white space, a value where one is wanted, a key where one is
// wanted, else a comma, a colon or a closing bracket.
func (u *units) continues(b []byte) bool {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	if i == len(b) {
		return true
	}
	c := b[i]
	inObject := u.stack[len(u.stack)-1] == '{'
	switch {
	case u.prev == '{':
		return c == '"' || c == '}'
	case u.prev == ',' && inObject:
		return c == '"'
	case u.prev == '[':
		return c != '}' && c != ',' && c != ':'
	case u.prev == ':' || u.prev == ',':
		return c != '}' && c != ']' && c != ',' && c != ':'
	}
	return c == ',' || c == ':' || c == '}' || c == ']'
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
