package event

import "github.com/zevo/zevo/redact"

// Encoder writes events as one dialect's lines. Encode writes ev, placed
// in its run by st (as Input gives them; ev nil: st only closes a run);
// mapped is false for an event the dialect has no room for. Interrupt
// ends the output of a translation stopped by a signal as the dialect's
// producer ends a run so stopped.
type Encoder interface {
	Encode(ev *Event, st Step) (mapped bool, err error)
	Interrupt() error
}

// EncodeOptions are what every encoder is given; each takes what its
// dialect needs.
type EncodeOptions struct {
	Version  int // of the target, where it has versions (Zero: 1 or 2)
	Redactor *redact.Redactor
	Keep     bool // write Other events' lines under their prefixed type
	// The run framing of targets that frame runs (Zero); Claude Code's
	// ids are derived from NewRunID's.
	NewRunID, NewSessionID func() string
	SessionID, Cwd, Model  string
	// Risk is the risk level by side effect of a target that rates the
	// permissions it asks: the mapping tables' into it, a user's over
	// the shipped.
	Risk    map[string]string
	Effects *Effects // a permission's tool → side effect
	// Provider is the producer of a dialect's runs, by the dialect's
	// name, where its lines name none (the dialect's Provider, else its
	// name); nil is the dialect's name.
	Provider func(dialect string) string
	// Report, when not nil, gets what the encoder finds wrong with the
	// line it is writing (a runId its target cannot write, replaced), in
	// words for the line's diagnostic; the line is written all the same.
	Report func(msg string)
	// Dropped, when not nil, gets the path (TYPE.FIELD) of each field an
	// encoder leaves out of a line of its own dialect it writes through
	// because its clients' types cannot hold it (without Keep).
	Dropped func(path string)
	// Plain writes every line the general way, without the shortcuts an
	// encoder takes for its common lines: the reference its differential
	// tests hold the shortcuts to (translate's Options.Plain).
	Plain bool
}

// CutMessage is why an encoder says a run it closes cut short ended (its
// error's message), in the words every target writes.
func CutMessage(c Cut) string {
	if c == CutEndOfInput {
		return "the input ended before the run finished"
	}
	return "the run was cut short: " + c.String()
}
