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

// Detect returns line's dialect, or nil when no dialect writes it. It
// reads the line once for all the dialects (a Line) and gives it to
// those that take one (DetectLine).
func (d *Detector) Detect(line []byte) *Dialect {
	var first *Dialect
	lastMaybe := false
	read := false
	for _, dl := range d.dialects {
		var c Certainty
		if dl.DetectLine != nil {
			if !read {
				d.line, read = ReadLine(line), true
			}
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
// type, read once, and what it surely lacks. Every input asks every
// dialect about every line, and most lines lack the fields that would
// make them another dialect's: Lacks tells so without a lookup that
// reads the whole line to find nothing.
type Line struct {
	Bytes  []byte
	Type   string // the "type" field, when TypeOK
	TypeOK bool   // the line has a "type" that is a JSON string (it is an object)
	esc    int8   // 0: not looked at yet; 1: no escape can spell a name's letter; 2: one may
}

// ReadLine reads line's type.
func ReadLine(line []byte) Line {
	t := gjson.GetBytes(line, "type")
	return Line{Bytes: line, Type: t.Str, TypeOK: t.Type == gjson.String}
}

// Lacks reports that the line surely has no field whose name contains
// key (ASCII letters and underscores): key is nowhere in the line, and no
// escape in it could spell one of its characters (\u0040 to \u007f).
func (l *Line) Lacks(key string) bool {
	if bytes.Contains(l.Bytes, []byte(key)) {
		return false
	}
	if l.esc == 0 {
		l.esc = 1
		if letterEscape(l.Bytes) {
			l.esc = 2
		}
	}
	return l.esc == 1
}

// letterEscape reports a \u00XX escape that may spell an ASCII letter or
// underscore (XX from 40 to 7f), or one cut short.
func letterEscape(b []byte) bool {
	if bytes.IndexByte(b, '\\') < 0 {
		return false
	}
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte(`\u00`))
		if j < 0 {
			return false
		}
		i += j + 4
		if i >= len(b) || b[i] >= '4' && b[i] <= '7' {
			return true
		}
	}
}
