package dialects

import (
	"github.com/zevo/zevo/dialects/claude"
	"github.com/zevo/zevo/dialects/evosci"
	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/redact"
)

// Encoder writes events as one dialect's lines. Encode writes ev, placed
// in its run by st (as event.Input gives them; ev nil: st only closes a
// run); mapped is false for an event the dialect has no room for.
// Interrupt ends the output of a translation stopped by a signal as the
// dialect's producer ends a run so stopped.
type Encoder interface {
	Encode(ev *event.Event, st event.Step) (mapped bool, err error)
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
	V1Lacks                map[string]bool   // Zero: event types version 1 lacks
	Risk                   map[string]string // Zero: risk level by side effect
	Effects                *event.Effects    // a permission's tool → side effect; nil: Effects()
}

// encoders are the dialects zevo writes, by name.
var encoders = map[string]func(EncodeOptions, func([]byte) error) Encoder{
	zero.Name: func(o EncodeOptions, emit func([]byte) error) Encoder {
		dec := event.DecodeOptions{Effects: o.Effects}
		if dec.Effects == nil {
			dec = DecodeOptions()
		}
		return zero.NewEncoder(zero.EncodeOptions{
			Version: o.Version, V1Lacks: o.V1Lacks, Redactor: o.Redactor,
			NewRunID: o.NewRunID, NewSessionID: o.NewSessionID,
			SessionID: o.SessionID, Cwd: o.Cwd, Model: o.Model,
			Keep: o.Keep, Risk: o.Risk, Effect: dec.EffectOf,
		}, emit)
	},
	claude.Name: func(o EncodeOptions, emit func([]byte) error) Encoder {
		return claude.NewEncoder(claude.EncodeOptions{Redactor: o.Redactor, Keep: o.Keep, NewSeed: o.NewRunID,
			SessionID: o.SessionID, Cwd: o.Cwd, Model: o.Model}, emit)
	},
	evosci.Name: func(o EncodeOptions, emit func([]byte) error) Encoder {
		return evosci.NewEncoder(evosci.EncodeOptions{Redactor: o.Redactor, Keep: o.Keep}, emit)
	},
}

// NewEncoder writes dialect d's lines to emit (one a call, without line
// end), or reports false for a dialect zevo does not write.
func NewEncoder(d *event.Dialect, opt EncodeOptions, emit func([]byte) error) (Encoder, bool) {
	f, ok := encoders[d.Name]
	if !ok {
		return nil, false
	}
	return f(opt, emit), true
}

// Writes reports whether zevo writes dialect d.
func Writes(d *event.Dialect) bool {
	_, ok := encoders[d.Name]
	return ok
}
