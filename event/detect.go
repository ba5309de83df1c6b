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
	d.line = ReadLine(line)
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
// type, read once when a dialect asks, and what it surely lacks. Every input asks every
// dialect about every line, and most lines lack the fields that would
// make them another dialect's: Lacks tells so without a lookup that
// reads the whole line to find nothing.
type Line struct {
	Bytes []byte
	typ   string
	read  bool // typ and typed are read
	typed bool
	esc   int8 // 0: not looked at yet; 1: no escape can spell a name's letter; 2: one may
}

// ReadLine starts reading line.
func ReadLine(line []byte) Line { return Line{Bytes: line} }

// Type is the line's "type" field, ok when it is a JSON string (then the
// line is an object), read once.
func (l *Line) Type() (typ string, ok bool) {
	if !l.read {
		t := gjson.GetBytes(l.Bytes, "type")
		l.typ, l.typed, l.read = t.Str, t.Type == gjson.String, true
	}
	return l.typ, l.typed
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
// underscore (XX from 40 to 7f), or one cut short. It looks for "u00",
// not for the backslash: tool output holds many a \n, and few u00.
func letterEscape(b []byte) bool {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte("u00"))
		if j < 0 {
			return false
		}
		i += j
		if i > 0 && b[i-1] == '\\' && (i+3 >= len(b) || b[i+3] >= '4' && b[i+3] <= '7') {
			return true
		}
		i += 3
	}
}
