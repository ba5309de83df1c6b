package event

import (
	"sync"
	"time"
)

// Dialect is one agent's stream format: everything zevo knows of it lives
// in its folder under dialects/, and the registry (dialects/registry.go)
// lists it.
type Dialect struct {
	Name    string   // as users write it: --from NAME, --to NAME
	Aliases []string // other names users may write
	// Detect tells from one line alone whether it is this dialect's.
	Detect func(line []byte) Certainty
	// DetectLine, when set, decides as Detect does, given the line as a
	// Detector reads it once for all the dialects it asks (its type, and
	// what it lacks).
	DetectLine func(l *Line) Certainty
	// NewDecoder starts decoding one input. A decoder keeps the state the
	// dialect's lines need (open messages, items, calls) for that input
	// only.
	NewDecoder func(opt DecodeOptions) Decoder

	// Producer is the name the producer goes by as an agent (a trace's
	// service.name), when it is not Name.
	Producer string
	// OneCallPerLine: a line holds at most one tool call, so its number
	// alone tells the call apart (a synthetic trace's span ids hash it).
	OneCallPerLine bool
	// RunTime, when set, is the time a run began as its id states it
	// (ok false when the id states none).
	RunTime func(run string) (at time.Time, ok bool)
}

// AgentName is the name the dialect's producer goes by as an agent.
func (d *Dialect) AgentName() string {
	if d.Producer != "" {
		return d.Producer
	}
	return d.Name
}

// Certainty is how sure a dialect is that a line is its own.
type Certainty uint8

const (
	No Certainty = iota
	// Maybe: the line's shape is this dialect's and also another's (a
	// bare {"type":"error","message":…} is EvoScientist's and Codex's).
	// Such a line belongs to the dialect of the input's lines before it.
	Maybe
	// Sure: no other dialect writes this line.
	Sure
)

// DecodeOptions are what every decoder is given.
type DecodeOptions struct {
	Effects *Effects // tool name → effect; DefaultEffects when nil
}

// EffectOf is the effect of the tool called name under these options.
func (o DecodeOptions) EffectOf(name string) Effect {
	if o.Effects == nil {
		o.Effects = sharedEffects()
	}
	return o.Effects.Of(name)
}

// Decoder turns one input's lines into events.
type Decoder interface {
	// Decode appends the events of one line (numbered num in its input)
	// to dst and returns it. line is a JSON object the dialect detected as
	// its own; the events' Raw is line itself, so a caller that reuses
	// its buffer copies it first. An error is a diagnostic about this
	// line; the events decoded before it are still returned.
	Decode(dst []Event, line []byte, num int) ([]Event, error)
	// End appends the events that the end of the input implies: runs it
	// cut short end as StatusIncomplete, calls without results are left
	// as they are.
	End(dst []Event) []Event
}

// sharedEffects is the shipped table, read once for every decoder.
var sharedEffects = sync.OnceValue(DefaultEffects)
