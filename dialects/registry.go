// Package dialects is the registry of the agents' stream formats zevo
// reads: each dialect is a folder here, and the one list below names it.
// Adding a dialect is a folder and a line in All (CONTRIBUTING.md has the
// checklist).
package dialects

import (
	"sync"

	"github.com/zevo/zevo/dialects/claude"
	"github.com/zevo/zevo/dialects/codex"
	"github.com/zevo/zevo/dialects/cursor"
	"github.com/zevo/zevo/dialects/evosci"
	"github.com/zevo/zevo/dialects/opencode"
	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/event"
)

// All is every dialect, in the order in which a line that several may
// have written goes to the first (when the input's lines before it do not
// decide): EvoScientist before Codex for a bare {"type":"error"}, Cursor
// before Claude Code for the bare system and user lines a Cursor stream
// starts with (Claude Code's own lines are all told by their fields).
var All = []*event.Dialect{
	zero.Dialect,
	evosci.Dialect,
	cursor.Dialect,
	claude.Dialect,
	codex.Dialect,
	opencode.Dialect,
}

// Fallback reads a JSON object no dialect claims at the start of an input:
// EvoScientist, whose decoder keeps an unknown type as an Other event.
var Fallback = evosci.Dialect

// PromptInput is the dialect whose input events zevo exec reads its
// prompt from (--input-format stream-json), whatever its target: Zero's,
// whose input protocol its clients already write.
var PromptInput = zero.Dialect

// Runs is the dialect whose run ids (Dialect.RunIDs) name the runs zevo
// opens in any target, and whose failed run (Dialect.Failed) zevo
// writes, translated, for a run that failed before it began: Zero's,
// whose ids hold the time a run began.
var Runs = zero.Dialect

// SchemaURL is the URL of d's schema file, its folder's NAME.schema.json,
// which the schema's $id states.
func SchemaURL(d *event.Dialect) string {
	return "https://github.com/zevo/zevo/dialects/" + d.Name + "/" + d.Name + ".schema.json"
}

// ByName finds a dialect by its name or an alias.
func ByName(name string) (*event.Dialect, bool) {
	for _, d := range All {
		if d.Name == name {
			return d, true
		}
		for _, a := range d.Aliases {
			if a == name {
				return d, true
			}
		}
	}
	return nil, false
}

// Effects is every dialect's tools' effects (event.EffectsOf): a new
// table each call, for a caller to change.
func Effects() *event.Effects { return event.EffectsOf(All) }

// effects is Effects read once, for the decoders of callers that name no
// table of their own.
var effects = sync.OnceValue(Effects)

// DecodeOptions are the options of a decoder whose caller names no
// effects of its own: every dialect's tools' effects.
func DecodeOptions() event.DecodeOptions {
	return event.DecodeOptions{Effects: effects()}
}

// NewInput reads one input's lines through every dialect; without a
// table of effects in opt, through every dialect's (DecodeOptions).
func NewInput(opt event.DecodeOptions) *event.Input {
	if opt.Effects == nil {
		opt.Effects = effects()
	}
	return event.NewInput(All, Fallback, opt)
}
