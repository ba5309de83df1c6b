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
	runs     Runs
	buf      []Event
}

// NewInput reads among dialects (in the registry's order). A JSON object
// no dialect claims goes to the dialect of the lines before it, else to
// fallback, whose decoder makes it an Other event (or a diagnostic).
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
	dl := in.det.Detect(line)
	if dl == nil {
		if dl = in.last; dl == nil {
			dl = in.fallback
		}
	}
	if in.last != nil && in.last != dl {
		// What the other dialect's decoder holds belongs before this line.
		in.place(in.decs[in.last].End(in.buf[:0]), fn)
	}
	in.last = dl
	dec := in.decs[dl]
	if dec == nil {
		dec = dl.NewDecoder(in.opt)
		in.decs[dl] = dec
	}
	evs, err := dec.Decode(in.buf[:0], line, num)
	in.place(evs, fn)
	return err
}

// End ends the input: what the decoder holds, then the run still open,
// closed cut (its Step has Closed set and no event).
func (in *Input) End(fn func(*Event, Step)) {
	if in.last != nil {
		in.place(in.decs[in.last].End(in.buf[:0]), fn)
	}
	if r := in.runs.End(); r != nil {
		fn(nil, Step{Closed: r})
	}
}

// Runs is the number of runs so far.
func (in *Input) Runs() int { return in.runs.Count() }

func (in *Input) place(evs []Event, fn func(*Event, Step)) {
	for i := range evs {
		fn(&evs[i], in.runs.Place(&evs[i]))
	}
	clear(evs)
	in.buf = evs[:0]
}
