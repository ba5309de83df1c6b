package event

import (
	"bytes"

	"github.com/tidwall/gjson"
)

// Detector tells each line's dialect among a list, for one input: a line
// one dialect is sure of is that dialect's; a line several dialects may
// write belongs to the dialect of the input's lines before it, when that
// is one of them, else to the first in the list that says Maybe (the
// list's order is the registry's: the older dialects first).
type Detector struct {
	dialects []*Dialect
	last     *Dialect
	line     Line // the line being detected
}

// NewDetector detects among dialects, in their order of precedence.
func NewDetector(dialects []*Dialect) *Detector { return &Detector{dialects: dialects} }

// Detect returns line's dialect, or nil when no dialect writes it. The
// dialects that take a Line (DetectLine) share one: what it reads of
// the line, it reads once.
func (d *Detector) Detect(line []byte) *Dialect {
	var first *Dialect
	lastMaybe := false
	d.line.reset(line)
	for _, dl := range d.dialects {
		var c Certainty
		if dl.DetectLine != nil {
			c = dl.DetectLine(&d.line)
		} else {
			c = dl.Detect(line)
		}
		switch c {
		case Sure:
			d.last = dl
			return dl
		case Maybe:
			if first == nil {
				first = dl
			}
			if dl == d.last {
				lastMaybe = true
			}
		}
	}
	if lastMaybe {
		return d.last
	}
	if first != nil {
		d.last = first
	}
	return first
}

// Line is one line as a Detector reads it for every dialect it asks: its
// top-level fields, found in one pass that goes as far as the dialects'
// questions need. Every input asks every dialect about every line, and a
// lookup of a field a line lacks reads the whole line to find nothing:
// six dialects would read most lines several times.
type Line struct {
	Bytes  []byte
	fields []field // the fields read so far, in their order
	pos    int     // where the next field starts
	state  int8    // reading, done, or gjson's
	typed  int8    // 0: the type not read yet; 1: a string, typ; 2: not one
	typ    string
}

const (
	reading int8 = iota // fields holds the fields up to pos
	done                // fields holds them all: the line is one object
	// gjsons: the line is not one well-formed object, or it escapes a
	// key: every lookup is gjson's on the line.
	gjsons
)

type field struct{ key, val []byte }

// ReadLine starts reading line.
func ReadLine(line []byte) Line { return Line{Bytes: line} }

// reset starts reading line, keeping the room of the last line's fields.
func (l *Line) reset(line []byte) {
	*l = Line{Bytes: line, fields: l.fields[:0]}
}

// Type is the line's "type" field, ok when it is a JSON string (then the
// line is an object).
func (l *Line) Type() (typ string, ok bool) {
	if l.typed == 0 {
		l.typed = 2
		if f := l.find("type"); f != nil && len(f.val) >= 2 && f.val[0] == '"' && bytes.IndexByte(f.val, '\\') < 0 {
			l.typ, l.typed = string(f.val[1:len(f.val)-1]), 1 // a plain string: as it is
		} else if t := l.Get("type"); t.Type == gjson.String {
			l.typ, l.typed = t.Str, 1
		}
	}
	return l.typ, l.typed == 1
}

// Has reports a top-level field named key, as gjson.GetBytes(line,
// key).Exists() does.
func (l *Line) Has(key string) bool {
	if f := l.find(key); f != nil || l.state != gjsons {
		return f != nil
	}
	return gjson.GetBytes(l.Bytes, key).Exists()
}

// Get is the top-level field named key (the first, when the line writes
// it twice), as gjson.GetBytes(line, key) reads it.
func (l *Line) Get(key string) gjson.Result {
	if f := l.find(key); f != nil {
		return gjson.ParseBytes(f.val)
	}
	if l.state != gjsons {
		return gjson.Result{}
	}
	return gjson.GetBytes(l.Bytes, key)
}

// find is the first field named key, reading on as far as it takes; nil
// when the line has none, or is gjson's to read.
func (l *Line) find(key string) *field {
	for i := range l.fields {
		if string(l.fields[i].key) == key {
			return &l.fields[i]
		}
	}
	for l.state == reading {
		if l.next() && string(l.fields[len(l.fields)-1].key) == key {
			return &l.fields[len(l.fields)-1]
		}
	}
	return nil
}

// scan reads all the fields; it reports whether the line is one
// well-formed object with no escaped key (its fields read by the Line).
func (l *Line) scan() bool {
	for l.state == reading {
		l.next()
	}
	return l.state == done
}

// next reads the next field, and reports whether there was one.
func (l *Line) next() bool {
	b, i := l.Bytes, l.pos
	if len(l.fields) == 0 {
		if i = skipSpace(b, i); i >= len(b) || b[i] != '{' {
			l.state = gjsons
			return false
		}
		i++
	} else if i = skipSpace(b, i); i < len(b) && b[i] == ',' {
		i++
	} else {
		return l.end(i)
	}
	if i = skipSpace(b, i); len(l.fields) == 0 && i < len(b) && b[i] == '}' {
		return l.end(i)
	}
	if i >= len(b) || b[i] != '"' {
		l.state = gjsons
		return false
	}
	end := stringEnd(b, i)
	if end < 0 {
		l.state = gjsons
		return false
	}
	key := b[i+1 : end-1]
	if bytes.IndexByte(key, '\\') >= 0 {
		l.state = gjsons // an escaped key: gjson reads it
		return false
	}
	if i = skipSpace(b, end); i >= len(b) || b[i] != ':' {
		l.state = gjsons
		return false
	}
	i = skipSpace(b, i+1)
	vend := valueEnd(b, i)
	if vend < 0 {
		l.state = gjsons
		return false
	}
	l.fields = append(l.fields, field{key, b[i:vend]})
	l.pos = vend
	return true
}

// end ends the object at b[i], which must be its closing brace and the
// end of the line.
func (l *Line) end(i int) bool {
	b := l.Bytes
	l.state = gjsons
	if i < len(b) && b[i] == '}' && skipSpace(b, i+1) == len(b) {
		l.state = done
	}
	return false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index after the string starting at b[i] (a quote), -1
// when it does not end.
func stringEnd(b []byte, i int) int {
	start := i + 1
	for i = start; ; i++ {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		// The quote ends the string unless an odd number of backslashes
		// comes before it.
		n := 0
		for k := i - 1; k >= start && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return i + 1
		}
	}
}

// valueEnd is the index after the value starting at b[i], -1 when it
// does not end.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end := stringEnd(b, i)
				if end < 0 {
					return -1
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	start := i
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}
