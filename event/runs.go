package event

// The run rules every dialect shares (a dialect's decoder says where its
// runs start and end; these rules say what happens around that):
//  1. Each input is cut into runs on its own; a run still open at its end
//     is closed there, cut (CutEndOfInput).
//  2. A line of another dialect than the open run's closes that run, cut
//     (CutOtherDialect), and starts a new run.
//  3. RunStart starts a run; a run still open is closed first, cut
//     (CutRunStart).
//  4. Any other event starts a run when none is open (the producer's
//     start is missing: a run that fails before it starts), or when its
//     Run differs from the open run's (both stated), which is then closed,
//     cut (CutRunID).
//  5. RunEnd ends its run with its Status.
//  6. An event of a sub-agent (Sub set) belongs to the open run: it never
//     starts, ends or cuts one.
//  7. An event set Aside belongs to the open run, else to the run that
//     ended right before it, else to none: it never starts, cuts or ends
//     a run.
// A cut run has StatusIncomplete.

// Cut says why a run was closed without an event of its own ending it.
type Cut uint8

const (
	NotCut          Cut = iota
	CutEndOfInput       // the input ended inside the run
	CutOtherDialect     // a line of another dialect came
	CutRunStart         // another run's start came
	CutRunID            // an event of another run came
)

var cutNames = [...]string{"", "the input ended inside the run", "a line of another dialect came", "another run started", "an event of another run came"}

func (c Cut) String() string { return cutNames[c] }

// Run is one run of one input.
type Run struct {
	N         int    // 1 for an input's first run
	Dialect   string // of its first event
	ID        string // the producer's run or session id, "" when its lines carry none
	FirstLine int
	LastLine  int  // of its last event
	Started   bool // it has a RunStart
	Status    Status
	Cut       Cut
}

// Open reports a run not closed yet.
func (r *Run) Open() bool { return r.Status == StatusOpen }

// Step is what one event does to the runs.
type Step struct {
	Closed     *Run // the run closed (cut) before this event, or nil
	Run        *Run // the run the event belongs to; nil for an Aside event outside every run
	Start, End bool // the event starts Run; it ends Run
}

// Runs cuts one input's events into runs. The zero value is ready; call
// Place for each event in order, and End at the end of the input.
type Runs struct {
	cur  *Run
	last *Run // the run that ended with the previous event, for rule 7
	n    int
}

// Count is the number of runs so far.
func (t *Runs) Count() int { return t.n }

// Current is the open run, or nil.
func (t *Runs) Current() *Run { return t.cur }

// Place places ev and reports what it does.
func (t *Runs) Place(ev *Event) Step {
	last := t.last
	t.last = nil
	if ev.Aside {
		r := t.cur
		if r == nil {
			r, t.last = last, last // more late lines may follow
		}
		if r != nil {
			r.LastLine = ev.Line
		}
		return Step{Run: r}
	}
	var s Step
	if c := t.cur; c != nil && ev.Sub == "" {
		switch {
		case c.Dialect != ev.Dialect:
			s.Closed = t.cut(CutOtherDialect)
		case ev.Kind == RunStart:
			s.Closed = t.cut(CutRunStart)
		case ev.Run != "" && c.ID != "" && ev.Run != c.ID:
			s.Closed = t.cut(CutRunID)
		}
	}
	if t.cur == nil {
		t.n++
		t.cur = &Run{N: t.n, Dialect: ev.Dialect, ID: ev.Run, FirstLine: ev.Line, Started: ev.Kind == RunStart}
		s.Start = true
	}
	r := t.cur
	r.LastLine = ev.Line
	if r.ID == "" {
		r.ID = ev.Run // a run id stated after the run's first event
	}
	s.Run = r
	if ev.Kind == RunEnd && ev.Sub == "" {
		r.Status = ev.Status
		if r.Status == StatusOpen {
			r.Status = StatusEnded
		}
		s.End = true
		t.cur, t.last = nil, r
	}
	return s
}

func (t *Runs) cut(why Cut) *Run {
	r := t.cur
	t.cur = nil
	r.Status, r.Cut = StatusIncomplete, why
	return r
}

// End closes the run open at the end of the input, if any, and returns it.
func (t *Runs) End() *Run {
	t.last = nil
	if t.cur == nil {
		return nil
	}
	return t.cut(CutEndOfInput)
}
