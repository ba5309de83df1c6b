package event

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// Effect is what running a tool does to the world, as far as its name
// tells: the same scale as Zero's sideEffect.
type Effect string

const (
	EffectUnknown Effect = "unknown"
	EffectRead    Effect = "read"
	EffectWrite   Effect = "write"
	EffectShell   Effect = "shell"
	EffectNetwork Effect = "network"
	EffectNone    Effect = "none" // nothing outside the agent: a todo list, a thought (Zero's sideEffect none)
)

//go:embed effects.json
var defaultEffects []byte

// Effects tells a tool's effect by its name. The zero value knows no
// tool; DefaultEffects knows the agents' own tools.
type Effects struct{ byName map[string]Effect }

// DefaultEffects is the shipped table (effects.json).
func DefaultEffects() *Effects {
	e := &Effects{}
	if err := e.Load(defaultEffects); err != nil {
		panic("event: the shipped effects.json: " + err.Error())
	}
	return e
}

// Load adds a table of the shape of effects.json; its names override the
// ones already known.
func (e *Effects) Load(data []byte) error {
	var t struct {
		Effects map[string]Effect `json:"effects"`
	}
	if err := json.Unmarshal(data, &t); err != nil {
		return err
	}
	if e.byName == nil {
		e.byName = map[string]Effect{}
	}
	for name, eff := range t.Effects {
		switch eff {
		case EffectUnknown, EffectRead, EffectWrite, EffectShell, EffectNetwork, EffectNone:
		default:
			return fmt.Errorf("tool %q: unknown effect %q (read, write, shell, network, none or unknown)", name, eff)
		}
		e.byName[name] = eff
	}
	return nil
}

// Set names the effect of the tool called name, over what the table said.
func (e *Effects) Set(name string, eff Effect) error {
	switch eff {
	case EffectUnknown, EffectRead, EffectWrite, EffectShell, EffectNetwork, EffectNone:
	default:
		return fmt.Errorf("tool %q: unknown effect %q (read, write, shell, network, none or unknown)", name, eff)
	}
	if e.byName == nil {
		e.byName = map[string]Effect{}
	}
	e.byName[name] = eff
	return nil
}

// Of is the effect of the tool called name; unknown when the table does
// not list it.
func (e *Effects) Of(name string) Effect {
	if eff, ok := e.byName[name]; ok {
		return eff
	}
	return EffectUnknown
}
