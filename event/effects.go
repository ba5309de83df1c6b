package event

import (
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

// Effects tells a tool's effect by its name. The zero value knows no
// tool; EffectsOf knows the dialects' own tools.
type Effects struct{ byName map[string]Effect }

// EffectsOf is the table of every tool the dialects ds name (their
// Effects): a tool keeps its effect wherever it is called, so Claude
// Code's Bash is a shell command in a Zero stream translated from Claude
// Code's too. Where two dialects name one tool differently, the first in
// ds decides (the registry's test sees that none does).
func EffectsOf(ds []*Dialect) *Effects {
	e := &Effects{byName: map[string]Effect{}}
	for i := len(ds) - 1; i >= 0; i-- {
		for name, eff := range ds[i].Effects {
			e.byName[name] = eff
		}
	}
	return e
}

// Load adds a table of the shape {"effects": {"TOOL": "EFFECT", …}}; its
// names override the ones already known.
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
	if e == nil {
		return EffectUnknown
	}
	if eff, ok := e.byName[name]; ok {
		return eff
	}
	return EffectUnknown
}
