package translate

import (
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
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
	var r [3]byte
	_, _ = io.ReadFull(t.opt.Rand, r[:])
	return "run_" + t.opt.Now().UTC().Format("20060102150405") + "_" + hex.EncodeToString(r[:])
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
	claimed  bool // already named by a permission_request of this interrupt
}

// addPending remembers a tool call. It reports false for a call announced
// again (EvoScientist 0.1.x repeats every call before each result): the
// same id still pending, or already answered.
func (t *Translator) addPending(id, name string) bool {
	z := &t.toZero
	if id != "" {
		if z.answered.has(id) {
			return false
		}
		for _, p := range z.pending {
			if p.id == id {
				return false
			}
		}
	}
	if len(z.pending) >= maxPending {
		z.pending = append(z.pending[:0], z.pending[1:]...)
	}
	z.pending = append(z.pending, pendingCall{id: strings.Clone(id), name: strings.Clone(name)})
	return true
}

// takePending removes and returns the call with id, or, without id, the
// earliest of that name.
func (t *Translator) takePending(id, name string) (string, bool) {
	z := &t.toZero
	for i, p := range z.pending {
		if (id != "" && p.id == id) || (id == "" && p.name == name) {
			z.pending = append(z.pending[:i], z.pending[i+1:]...)
			if p.id != "" {
				z.answered.add(p.id)
			}
			return p.id, true
		}
	}
	return "", false
}

// permissionID is the id of the permission_request for request i (named
// name) of the interrupt iid: the pending call the interrupt names, else
// the earliest unclaimed pending call of that name, else iid (iid:N for
// the Nth request); when that id is already used in the run, the first of
// ID:2, ID:3, … that is not, ID being the call's id or iid.
func (t *Translator) permissionID(iid string, i int, name string) string {
	z := &t.toZero
	id := ""
	claim := func(j int) {
		z.pending[j].claimed = true
		id = z.pending[j].id
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
		stem, id = iid, iid
		if i > 0 {
			id = iid + ":" + strconv.Itoa(i+1)
		}
	}
	for n := 2; z.perms.has(id); n++ {
		id = stem + ":" + strconv.Itoa(n)
	}
	if id == iid {
		id = strings.Clone(id) // a view of the line
	}
	z.perms.add(id)
	return id
}
