package dialects

import "github.com/zevo/zevo/event"

// Encoder and EncodeOptions are event's: a dialect zevo writes sets its
// Dialect's NewEncoder.
type (
	Encoder       = event.Encoder
	EncodeOptions = event.EncodeOptions
)

// NewEncoder writes dialect d's lines to emit (one a call, without line
// end), or reports false for a dialect zevo does not write. Without a
// table of effects in opt, the encoder is given every dialect's.
func NewEncoder(d *event.Dialect, opt EncodeOptions, emit func([]byte) error) (Encoder, bool) {
	if d.NewEncoder == nil {
		return nil, false
	}
	if opt.Effects == nil {
		opt.Effects = effects()
	}
	if opt.Provider == nil {
		opt.Provider = Provider
	}
	return d.NewEncoder(opt, emit), true
}

// Provider is the producer of dialect name's runs: its Provider, else
// its name.
func Provider(name string) string {
	if d, ok := ByName(name); ok && d.Provider != "" {
		return d.Provider
	}
	return name
}

// Writes reports whether zevo writes dialect d.
func Writes(d *event.Dialect) bool { return d.NewEncoder != nil }
