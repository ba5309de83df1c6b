package inspect

import (
	"github.com/zevo/zevo/dialects"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/protocol"
)

// router sends each line of one input to the renderers of its dialect, as
// the registry detects it (dialects.All, in its order): Zero's and
// EvoScientist's lines to today's renderers (view.go's zero and evo,
// docevents.go's), every other dialect's through the event model
// (dialects' decoders and event/runs.go), which viewevents.go and
// docmodel.go show.
//
// Zero and EvoScientist move to the event path once the model carries
// what TestEventViewGapsForZeroAndEvoSci lists (the permission's side
// effect, risk and sandbox block, the interrupt's arguments and the
// questions' choices, EvoScientist's tool selections, sub-agents and
// summaries, token counts past int64, the producers' own status words)
// and the event path is as fast as today's (BenchmarkView).
type router struct {
	det  *model.Detector
	last *model.Dialect // the dialect of the line before
	in   *model.Input   // the event path's current stretch of lines
	// eventsOnly sends every line through the event model: what
	// TestEventViewGapsForZeroAndEvoSci compares with today's renderers.
	eventsOnly bool
	// registryOnly asks the registry about every line (no decodedToday):
	// the plain path TestRouteShortcutAsTheRegistry holds the shortcut to.
	registryOnly bool
}

// shownToday is the dialects whose lines today's renderers show: those
// whose name the protocol package knows (Zero's and EvoScientist's).
var shownToday = func() map[*model.Dialect]bool {
	m := map[*model.Dialect]bool{}
	for _, d := range dialects.All {
		if _, err := protocol.Lookup(d.Name); err == nil {
			m[d] = true
		}
	}
	return m
}()

// decodedToday reports, for a line ls has just decoded (ls.cur), whether
// it is certainly a line today's renderers show, without asking the
// registry: a Zero line (its schemaVersion is what Zero's detection looks
// for), or an EvoScientist event with only EvoScientist's fields for its
// type, when the lines before it were today's too (such a line that
// another dialect may also write goes with the lines before it, as the
// registry decides). Today's decoding has been done anyway, so this costs
// a look at the keys; other lines go to today().
func (r *router) decodedToday(ls *lines) bool {
	if r.eventsOnly || r.registryOnly || ls.as != nil || r.last != nil && !shownToday[r.last] || ls.cur.blank || ls.cur.err != nil {
		return false
	}
	d := &ls.cur
	switch {
	case d.proto.Family == protocol.FamilyZero || d.proto.Family == protocol.FamilyZeroInput:
		r.last = todaysDialect[protocol.FamilyZero]
	case d.ownFields():
		r.last = todaysDialect[protocol.FamilyEvoSci]
	default:
		return false
	}
	// The registry's detector, not asked, starts afresh after this line.
	r.det = nil
	return r.last != nil
}

// todaysDialect is the registry's dialect of each of today's protocol
// families.
var todaysDialect = func() map[protocol.Family]*model.Dialect {
	m := map[protocol.Family]*model.Dialect{}
	for d := range shownToday {
		if p, err := protocol.Lookup(d.Name); err == nil {
			m[p.Family] = d
		}
	}
	return m
}()

// today detects line's dialect and reports whether today's renderers show
// it. A line no dialect claims (not JSON, or a type no producer writes)
// goes with the line before it, else to dialects.Fallback, as
// model.Input places it.
func (r *router) today(line []byte) bool {
	if r.det == nil {
		r.det = model.NewDetector(dialects.All)
	}
	dl := r.det.Detect(line)
	if dl == nil {
		if dl = r.last; dl == nil {
			dl = dialects.Fallback
		}
	}
	r.last = dl
	return !r.eventsOnly && shownToday[dl]
}

// input is the event path's Input for the lines routed to it. Its
// dialects are the registry's, each told the line's dialect as detected
// by today(), so a line is detected once and the Input's decoders and
// runs go by the same decision.
func (r *router) input() *model.Input {
	if r.in != nil {
		return r.in
	}
	ds := make([]*model.Dialect, len(dialects.All))
	var fallback *model.Dialect
	for i, dl := range dialects.All {
		d := *dl
		d.Detect = func([]byte) model.Certainty {
			if r.last == dl {
				return model.Sure
			}
			return model.No
		}
		ds[i] = &d
		if dl == dialects.Fallback {
			fallback = ds[i]
		}
	}
	r.in = model.NewInput(ds, fallback, model.DecodeOptions{})
	return r.in
}

// end ends the event path's stretch of lines, if one is open: what its
// decoders hold, then the run left open, closed by why (a Zero or
// EvoScientist line came, or the input ended).
func (r *router) end(why model.Cut, fn func(*model.Event, model.Step)) {
	if r.in == nil {
		return
	}
	r.in.End(func(ev *model.Event, st model.Step) {
		if st.Closed != nil && ev == nil {
			st.Closed.Cut = why
		}
		fn(ev, st)
	})
	r.in = nil
}

// reset forgets the input: the next line starts a new one.
func (r *router) reset() {
	*r = router{eventsOnly: r.eventsOnly, registryOnly: r.registryOnly}
}
