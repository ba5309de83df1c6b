package translate

import (
	"github.com/zevo/zevo/dialects"
	model "github.com/zevo/zevo/event"
)

// ownPasser is an encoder that writes the lines of its own dialect
// through (the source is the target), each as its clients read it, in
// the run framing of the producer's own lines.
type ownPasser interface {
	// PassOwn writes ev, of a line of the target's dialect; mapped is
	// false for a line the target's version has no room for.
	PassOwn(ev *model.Event, st model.Step) (mapped bool, err error)
	// FrameOwn frames the run st places ev in, and writes none of ev
	// (a bad line's).
	FrameOwn(ev *model.Event, st model.Step) error
	// Restored is ev, a line of the target's dialect that another
	// stream kept (--unmapped keep), as the event of type typ it was;
	// a Prompt is its producer's input, in no run.
	Restored(ev *model.Event, typ string) model.Event
}

// upgraded is ev with its line as its dialect's default version writes
// it (Dialect.Upgrade), or ev when it is of that version.
func (t *Translator) upgraded(ev *model.Event) *model.Event {
	if ev.Dialect != t.upDialect {
		// Most events are of the dialect of the event before them.
		t.upDialect, t.upgrade = ev.Dialect, nil
		if d, ok := dialects.ByName(ev.Dialect); ok {
			t.upgrade = d.Upgrade
		}
	}
	if t.upgrade == nil {
		return ev
	}
	raw, ok := t.upgrade(ev)
	if !ok {
		return ev
	}
	o := *ev
	o.Raw = raw
	return &o
}
