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
// top-level fields, found in one pass the first time a dialect asks for
// one. Every input asks every dialect about every line, and a lookup of
// a field a line lacks reads the whole line to find nothing: six
// dialects would read most lines several times.
type Line struct {
	Bytes   []byte
	scanned bool
	// plain: the line is one object whose keys have no escapes, and
	// fields holds them; else every lookup is gjson's on the line.
	plain  bool
	fields []field
	typed  int8 // 0: the type not read yet; 1: a string, typ; 2: not one
	typ    string
}

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
		if t := l.Get("type"); t.Type == gjson.String {
			l.typ, l.typed = t.Str, 1
		}
	}
	return l.typ, l.typed == 1
}

// Has reports a top-level field named key, as gjson.GetBytes(line,
// key).Exists() does.
func (l *Line) Has(key string) bool {
	if l.scan() {
		return l.find(key) != nil
	}
	return gjson.GetBytes(l.Bytes, key).Exists()
}

// Get is the top-level field named key (the first, when the line writes
// it twice), as gjson.GetBytes(line, key) reads it.
func (l *Line) Get(key string) gjson.Result {
	if l.scan() {
		if f := l.find(key); f != nil {
			return gjson.ParseBytes(f.val)
		}
		return gjson.Result{}
	}
	return gjson.GetBytes(l.Bytes, key)
}

func (l *Line) find(key string) *field {
	for i := range l.fields {
		if string(l.fields[i].key) == key {
			return &l.fields[i]
		}
	}
	return nil
}

// scan finds the top-level fields once; it reports whether the line is
// plain (an object, well formed, no escape in a key).
func (l *Line) scan() bool {
	if l.scanned {
		return l.plain
	}
	l.scanned = true
	b := l.Bytes
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		l.plain = skipSpace(b, i+1) == len(b)
		return l.plain
	}
	for i < len(b) && b[i] == '"' {
		end := stringEnd(b, i)
		if end < 0 {
			return false
		}
		key := b[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false // an escaped key: gjson reads it
		}
		if i = skipSpace(b, end); i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		vend := valueEnd(b, i)
		if vend < 0 {
			return false
		}
		l.fields = append(l.fields, field{key, b[i:vend]})
		if i = skipSpace(b, vend); i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			l.plain = skipSpace(b, i+1) == len(b)
		}
		return l.plain
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
