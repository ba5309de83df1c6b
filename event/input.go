package event

// Input reads one input's lines through a list of dialects: each line's
// dialect is detected, its dialect's decoder (one per dialect, for this
// input) decodes it, and the run rules place each event. Every command
// reads events through it, so they agree on an input's runs.
type Input struct {
	det      *Detector
	fallback *Dialect
	opt      DecodeOptions
	decs     map[*Dialect]Decoder
	last     *Dialect
	dec      Decoder     // last's
	ldec     LineDecoder // dec, when it is one
	runs     Runs
	buf      []Event
	line     Line // the line being read, by the detector and its decoder
	checked  bool // line was read by Check, for the Line call that follows
}

// NewInput reads among dialects (in the registry's order). A JSON object
// no dialect claims goes to the dialect of the lines before it (unless
// that one is Marked), else to fallback, whose decoder makes it an Other event (or a diagnostic).
// Without a table of effects in opt, the dialects' own (EffectsOf).
func NewInput(dialects []*Dialect, fallback *Dialect, opt DecodeOptions) *Input {
	if opt.Effects == nil {
		opt.Effects = EffectsOf(dialects)
	}
	return &Input{det: NewDetector(dialects), fallback: fallback, opt: opt, decs: map[*Dialect]Decoder{}}
}

// Line decodes one line, a JSON object, numbered num in its input, and
// calls fn with each of its events and what it did to the runs, in
// order. A run cut by the line is closed in a Step before its events.
// The error is the decoder's diagnostic about the line; the events
// decoded before it are still given to fn. The events and their Raw are
// valid only during fn.
func (in *Input) Line(line []byte, num int, fn func(*Event, Step)) error {
	return in.read(fn, nil, line, num, false)
}

// LineOwned is Line of a line the caller never writes again, nor reads
// as anything but this line: the events' strings are cut from it rather
// than from a copy. Only a caller that copies each line anyway (translate,
// whose decoders may hold a line past it) gains by it.
func (in *Input) LineOwned(line []byte, num int, fn func(*Event, Step)) error {
	return in.read(fn, nil, line, num, true)
}

// LineChecked is Line of a line l the caller read (Line.ReadOwned) and
// checked, perhaps on another goroutine, so that it is read once, there;
// the events' strings are copies, as Line's. l is the decoder's until
// fn has had the line's events.
func (in *Input) LineChecked(l *Line, num int, fn func(*Event, Step)) error {
	in.checked = false
	l.owned, l.arena = false, nil
	return in.decode(fn, nil, l, num)
}

// AppendChecked is LineOwned of a line l the caller read (ReadOwned,
// and Check, perhaps on another goroutine), appending the events to evs
// and their steps to steps, in order, rather than giving them to a
// function: they stay valid as long as the slices, for a caller that
// decodes lines ahead of writing their events. The strings with escapes
// are unescaped into text, when not nil, an arena whose bytes are never
// written again once handed out (the caller's to drop, never to reuse).
func (in *Input) AppendChecked(evs []Event, steps []Step, l *Line, num int, text *[]byte) ([]Event, []Step, error) {
	k := kept{evs, steps}
	in.checked = false
	l.arena = text
	err := in.decode(nil, &k, l, num)
	return k.evs, k.steps, err
}

// kept is where AppendChecked keeps a line's events and their steps.
// (Apart from the function the others give them to, which a kept slice
// passed to a decoder would otherwise make escape, at every call.)
type kept struct {
	evs   []Event
	steps []Step
}

// dst is where the next events are decoded to.
func (in *Input) dst(k *kept) []Event {
	if k != nil {
		return k.evs
	}
	return in.buf[:0]
}

func (in *Input) read(fn func(*Event, Step), k *kept, line []byte, num int, owned bool) error {
	if !in.checked || !sameBytes(in.line.Bytes, line) {
		in.line.Reset(line)
	}
	in.line.owned, in.line.arena = owned, nil
	in.checked = false
	return in.decode(fn, k, &in.line, num)
}

// decode decodes l, the line being read.
func (in *Input) decode(fn func(*Event, Step), k *kept, l *Line, num int) error {
	line := l.Bytes
	// Checked first, the line is read once, not once as far as the
	// detectors ask and once more by a decoder's Check (a checked line
	// answers them as gjson does).
	if l.Check() && l.Dup() {
		// A key written twice reads as its last value, as the
		// producers' own readers read it (docs/guarantees.md), in
		// every command and for every dialect's decoder.
		line = l.LastWins() // fresh memory: owned
		owned, arena := l.owned, l.arena
		l.Reset(line)
		l.owned, l.arena = owned, arena
		l.Check()
	}
	l.surrogates = in.opt.Surrogates
	dl := in.det.detect(l)
	if dl == nil {
		if dl = in.last; dl == nil || dl.Marked {
			dl = in.fallback
		}
	}
	if in.last != nil && in.last != dl {
		// What the other dialect's decoder holds belongs before this line.
		in.place(fn, k, in.decs[in.last].End(in.dst(k)))
	}
	if in.last != dl || in.dec == nil {
		if in.dec = in.decs[dl]; in.dec == nil {
			in.dec = dl.NewDecoder(in.opt)
			in.decs[dl] = in.dec
		}
		in.ldec, _ = in.dec.(LineDecoder)
	}
	in.last = dl
	var evs []Event
	var err error
	if in.ldec != nil {
		l.Check() // read once already, when the caller checked it
		evs, err = in.ldec.DecodeLine(in.dst(k), l, num)
	} else {
		evs, err = in.dec.Decode(in.dst(k), line, num)
	}
	in.place(fn, k, evs)
	return err
}

// Check reports whether line is one JSON object as every command takes
// one (Line.Check): a caller that must check each line before it gives
// it to Line has it read once, not twice, when Line follows at once
// with the same line.
func (in *Input) Check(line []byte) bool {
	in.line.Reset(line)
	in.checked = true
	return in.line.Check()
}

// Checked is the line Check read, as the line's decoder will read it
// when Line follows with the same line.
func (in *Input) Checked() *Line { return &in.line }

// sameBytes reports whether a and b are the same memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && cap(a) == cap(b) && (len(a) == 0 || &a[0] == &b[0])
}

// End ends the input: what the decoder holds, then the run still open,
// closed cut (its Step has Closed set and no event).
func (in *Input) End(fn func(*Event, Step)) {
	if in.last != nil {
		in.place(fn, nil, in.decs[in.last].End(in.buf[:0]))
	}
	if r := in.runs.End(); r != nil {
		fn(nil, Step{Closed: r})
	}
}

// Dialect is the dialect of the last line Line read, nil before any.
func (in *Input) Dialect() *Dialect { return in.last }

// Runs is the number of runs so far.
func (in *Input) Runs() int { return in.runs.Count() }

// place places the events a decoder appended to dst(k): kept in k, or
// given to fn.
func (in *Input) place(fn func(*Event, Step), k *kept, evs []Event) {
	if k != nil {
		for i := len(k.evs); i < len(evs); i++ {
			k.steps = append(k.steps, in.runs.Place(&evs[i]))
		}
		k.evs = evs
		return
	}
	for i := range evs {
		fn(&evs[i], in.runs.Place(&evs[i]))
	}
	clear(evs)
	in.buf = evs[:0]
}
