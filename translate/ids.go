package translate

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/zevo/zevo/protocol"
)

// The ids a client keys on. Runs zevo opens get --run-id (then .2, .3, …)
// or Zero's own run_<UTC time>_<6 hex> format; a tool call keeps its id;
// a permission_request takes the id of the tool call it asks about, else
// its interrupt's, and no two permission_requests of one run share one.

// newRunID names a run zevo opens in Zero output.
func (t *Translator) newRunID() string {
	t.toZero.runs++
	if t.opt.RunID != "" {
		if t.toZero.runs == 1 {
			return t.opt.RunID
		}
		return fmt.Sprintf("%s.%d", t.opt.RunID, t.toZero.runs)
	}
	return protocol.NewZeroRunID(t.opt.Now(), t.opt.Rand)
}

// maxPending bounds the calls and ids remembered for correlation, so a
// stream of calls that never get results cannot grow memory.
const maxPending = 4096

// idSet is a set of the ids of one run, bounded: past maxPending, the
// oldest are forgotten first.
type idSet struct {
	ring []string
	next int
	m    map[string]struct{}
}

func (s *idSet) has(id string) bool {
	_, ok := s.m[id]
	return ok
}

// add adds id, which the set keeps: it must not be a view of a line.
func (s *idSet) add(id string) {
	if s.has(id) {
		return
	}
	if s.m == nil {
		s.m = map[string]struct{}{}
	}
	if len(s.ring) < maxPending {
		s.ring = append(s.ring, id)
	} else {
		delete(s.m, s.ring[s.next])
		s.ring[s.next] = id
		s.next = (s.next + 1) % maxPending
	}
	s.m[id] = struct{}{}
}

func (s *idSet) reset() {
	if len(s.ring) == 0 {
		return
	}
	clear(s.m)
	s.ring, s.next = s.ring[:0], 0
}

// pendingCall is a tool call of the run written as Zero that has no result yet.
type pendingCall struct {
	id, name string
	out      string // the id written, distinct in the run once redacted (see outID)
	claimed  bool   // already named by a permission_request of this interrupt
}

// addPending remembers a tool call and returns the id to write for it. It
// reports false for a call announced again (EvoScientist 0.1.x repeats
// every call before each result): the same id still pending, or already
// answered.
func (t *Translator) addPending(id, name string) (string, bool) {
	z := &t.toZero
	if id != "" {
		if z.answered.has(id) {
			return "", false
		}
		for _, p := range z.pending {
			if p.id == id {
				return "", false
			}
		}
	}
	if len(z.pending) >= maxPending {
		z.pending = append(z.pending[:0], z.pending[1:]...)
	}
	id = strings.Clone(id)
	out := t.outID(id, &z.calls)
	z.pending = append(z.pending, pendingCall{id: id, name: strings.Clone(name), out: out})
	return out, true
}

// outID is the id to write for id (kept: not a view of the line), which
// is not yet in used: id itself,
// but when redaction changes it (it holds a secret) and another id of
// the run is written the same, the redacted id with the first free :2,
// :3, … The ids a client keys on stay distinct once redacted.
func (t *Translator) outID(id string, used *idSet) string {
	if id == "" || t.opt.Redactor == nil {
		return id
	}
	r := t.opt.Redactor.String(id)
	if r == id {
		used.add(id)
		return id
	}
	out := r
	for n := 2; used.has(out); n++ {
		out = r + ":" + strconv.Itoa(n)
	}
	used.add(out)
	return out
}

// takePending removes the call with id, or, without id, the earliest of
// that name, and returns the id written for it.
func (t *Translator) takePending(id, name string) (string, bool) {
	z := &t.toZero
	for i, p := range z.pending {
		if (id != "" && p.id == id) || (id == "" && p.name == name) {
			z.pending = append(z.pending[:i], z.pending[i+1:]...)
			if p.id != "" {
				z.answered.add(p.id)
			}
			return p.out, true
		}
	}
	return "", false
}

// noInterruptID stands for the id of an interrupt that has none.
const noInterruptID = "interrupt"

// permissionID is the id of the permission_request for request i (named
// name) of the interrupt iid: the pending call the interrupt names, else
// the earliest unclaimed pending call of that name, else iid (iid:N for
// the Nth request; "interrupt" stands for an empty iid); when that id is
// already used in the run, the first of ID:2, ID:3, … that is not, ID
// being the call's id or iid.
func (t *Translator) permissionID(iid string, i int, name string) string {
	z := &t.toZero
	id := ""
	claim := func(j int) {
		z.pending[j].claimed = true
		id = z.pending[j].out
	}
	for j := range z.pending {
		if p := &z.pending[j]; !p.claimed && p.id == iid && p.name == name && iid != "" {
			claim(j)
			break
		}
	}
	for j := range z.pending {
		if p := &z.pending[j]; id == "" && !p.claimed && p.name == name && p.id != "" {
			claim(j)
			break
		}
	}
	stem := id
	if id == "" {
		// An interrupt without an id still names each request: a client
		// keys pending permissions by id.
		stem = cmp.Or(iid, noInterruptID)
		id = stem
		if i > 0 {
			id = stem + ":" + strconv.Itoa(i+1)
		}
	}
	// Distinct as written: once redacted.
	key := func(id string) string {
		if t.opt.Redactor == nil {
			return id
		}
		return t.opt.Redactor.String(id)
	}
	for n := 2; z.perms.has(key(id)); n++ {
		id = stem + ":" + strconv.Itoa(n)
	}
	if id == iid {
		id = strings.Clone(id) // a view of the line
	}
	z.perms.add(key(id))
	return id
}
