package event

// Detector tells each line's dialect among a list, for one input: a line
// one dialect is sure of is that dialect's; a line several dialects may
// write belongs to the dialect of the input's lines before it, when that
// is one of them, else to the first in the list that says Maybe (the
// list's order is the registry's: the older dialects first).
type Detector struct {
	dialects []*Dialect
	last     *Dialect
}

// NewDetector detects among dialects, in their order of precedence.
func NewDetector(dialects []*Dialect) *Detector { return &Detector{dialects: dialects} }

// Detect returns line's dialect, or nil when no dialect writes it.
func (d *Detector) Detect(line []byte) *Dialect {
	var first *Dialect
	lastMaybe := false
	for _, dl := range d.dialects {
		switch dl.Detect(line) {
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
