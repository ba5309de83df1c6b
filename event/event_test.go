package event

import (
	"strings"
	"testing"
)

func TestRunsRules(t *testing.T) {
	ev := func(k Kind, dialect, run string, line int) *Event {
		return &Event{Kind: k, Dialect: dialect, Run: run, Line: line}
	}
	var r Runs
	steps := []struct {
		ev         *Event
		start, end bool
		closed     Cut // of the run cut before it, NotCut for none
		run        int
	}{
		{ev(RunStart, "a", "r1", 1), true, false, NotCut, 1},
		{ev(Text, "a", "r1", 2), false, false, NotCut, 1},
		{&Event{Kind: Text, Dialect: "a", Run: "other", Sub: "task-1", Line: 3}, false, false, NotCut, 1}, // rule 6
		{ev(RunStart, "a", "r2", 4), true, false, CutRunStart, 2},                                         // rule 3
		{ev(Text, "a", "r3", 5), true, false, CutRunID, 3},                                                // rule 4
		{ev(Text, "b", "", 6), true, false, CutOtherDialect, 4},                                           // rule 2
		{&Event{Kind: RunEnd, Dialect: "b", Line: 7, Status: StatusError}, false, true, NotCut, 4},        // rule 5
		{ev(Error, "b", "", 8), true, false, NotCut, 5},                                                   // rule 4: no run open
	}
	var runs []*Run
	for i, s := range steps {
		st := r.Place(s.ev)
		if st.Start != s.start || st.End != s.end || st.Run.N != s.run {
			t.Errorf("step %d: %+v, run %d", i, st, st.Run.N)
		}
		if (st.Closed == nil) != (s.closed == NotCut) || st.Closed != nil && (st.Closed.Cut != s.closed || st.Closed.Status != StatusIncomplete) {
			t.Errorf("step %d: closed %+v, want cut %v", i, st.Closed, s.closed)
		}
		if st.Start {
			runs = append(runs, st.Run)
		}
	}
	last := r.End() // rule 1
	if last == nil || last.N != 5 || last.Cut != CutEndOfInput || last.Status != StatusIncomplete {
		t.Errorf("end: %+v", last)
	}
	if runs[3].Status != StatusError || runs[3].FirstLine != 6 || runs[3].LastLine != 7 || runs[0].LastLine != 3 {
		t.Errorf("runs: %+v %+v", runs[3], runs[0])
	}
	if r.End() != nil || r.Count() != 5 {
		t.Error("End twice, or the count is off")
	}
}

func TestDetectorAmbiguousLinesFollowTheInput(t *testing.T) {
	mk := func(name string, sure, maybe string) *Dialect {
		return &Dialect{Name: name, DetectLine: func(ln *Line) Certainty {
			l := ln.Bytes
			switch {
			case strings.Contains(string(l), sure):
				return Sure
			case strings.Contains(string(l), maybe):
				return Maybe
			}
			return No
		}}
	}
	a, b := mk("a", "A!", "?"), mk("b", "B!", "?")
	d := NewDetector([]*Dialect{a, b})
	for i, c := range []struct {
		line string
		want *Dialect
	}{
		{"?", a},   // no input yet: the first that may
		{"B!", b},  // sure
		{"?", b},   // follows the line before
		{"x", nil}, // nobody's
		{"?", b},   // an unknown line changes nothing
		{"A!", a},
		{"?", a},
	} {
		if got := d.Detect([]byte(c.line)); got != c.want {
			t.Errorf("line %d %q: %v, want %v", i, c.line, got, c.want)
		}
	}
}

func TestEffectsTable(t *testing.T) {
	a := &Dialect{Name: "a", Effects: map[string]Effect{"Read": EffectRead, "Glob": EffectRead, "Grep": EffectRead, "Write": EffectWrite, "Edit": EffectWrite, "Bash": EffectShell}}
	b := &Dialect{Name: "b", Effects: map[string]Effect{"command_execution": EffectShell, "WebFetch": EffectNetwork, "WebSearch": EffectNetwork, "Bash": EffectRead}}
	e := EffectsOf([]*Dialect{a, b})
	for name, want := range map[string]Effect{
		"Read": EffectRead, "Glob": EffectRead, "Grep": EffectRead, "Write": EffectWrite, "Edit": EffectWrite,
		"Bash": EffectShell, "command_execution": EffectShell, "WebFetch": EffectNetwork, "WebSearch": EffectNetwork,
		"mcp__github__create_issue": EffectUnknown, "no such tool": EffectUnknown,
	} {
		if got := e.Of(name); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if err := e.Load([]byte(`{"effects": {"mcp__github__create_issue": "network", "Read": "unknown"}}`)); err != nil {
		t.Fatal(err)
	}
	if e.Of("mcp__github__create_issue") != EffectNetwork || e.Of("Read") != EffectUnknown || e.Of("Bash") != EffectShell {
		t.Error("a user's table does not extend and override the shipped one")
	}
	if err := e.Load([]byte(`{"effects": {"x": "delete"}}`)); err == nil || !strings.Contains(err.Error(), `unknown effect "delete"`) {
		t.Errorf("a bad effect: %v", err)
	}
	if err := e.Load([]byte(`{"effects": [`)); err == nil {
		t.Error("bad JSON accepted")
	}
	if EffectsOf([]*Dialect{a, b}).Of("Bash") != EffectShell {
		t.Error("where two dialects name a tool differently, the first does not decide")
	}
	if (DecodeOptions{}).EffectOf("Write") != EffectUnknown {
		t.Error("DecodeOptions without a table knows a tool")
	}
}

func TestTokensAddAndTotal(t *testing.T) {
	c := 0.5
	a := Tokens{Input: 10, Output: 5, CacheRead: 100, Has: HasInput | HasOutput | HasCacheRead, CostUSD: &c}
	a.Add(&Tokens{Input: 1, Output: 2, CacheWrite: 7, Reasoning: 1, Has: HasCacheWrite, CostUSD: &c})
	if a.Input != 11 || a.Output != 7 || a.CacheRead != 100 || a.CacheWrite != 7 || a.Reasoning != 1 || a.Total() != 125 || *a.CostUSD != 1 || a.Has&HasCacheWrite == 0 {
		t.Errorf("%+v", a)
	}
}

func TestRunsAsideEventsJoinTheOpenOrLastRun(t *testing.T) {
	var r Runs
	if st := r.Place(&Event{Kind: Other, Dialect: "a", Line: 1, Aside: true}); st.Run != nil || st.Start || r.Count() != 0 {
		t.Errorf("an aside line before any run: %+v", st)
	}
	r.Place(&Event{Kind: RunStart, Dialect: "a", Line: 2})
	if st := r.Place(&Event{Kind: Other, Dialect: "a", Line: 3, Aside: true}); st.Run == nil || st.Run.N != 1 || st.Start || st.End {
		t.Errorf("an aside line in a run: %+v", st)
	}
	end := r.Place(&Event{Kind: RunEnd, Dialect: "a", Line: 4, Status: StatusError})
	for line := 5; line <= 6; line++ { // a late line, and another after it
		if st := r.Place(&Event{Kind: Other, Dialect: "a", Line: line, Aside: true}); st.Run != end.Run || st.Start || st.End || st.Run.Status != StatusError || st.Run.LastLine != line {
			t.Errorf("late line %d: %+v", line, st)
		}
	}
	if st := r.Place(&Event{Kind: Text, Dialect: "a", Line: 7}); !st.Start || st.Run.N != 2 {
		t.Errorf("a line after the late ones: %+v", st)
	}
	r.Place(&Event{Kind: RunEnd, Dialect: "a", Line: 8})
	r.Place(&Event{Kind: Text, Dialect: "a", Line: 9})
	if st := r.Place(&Event{Kind: Other, Dialect: "a", Line: 10, Aside: true}); st.Run == nil || st.Run.N != 3 {
		t.Errorf("an aside line joins the open run, not an ended one: %+v", st)
	}
}

// A stand-in dialect: lines "start", "end", "x" and its decoder holds a
// "hold" line until End.
func standIn(name string, sure string) *Dialect {
	return &Dialect{Name: name,
		DetectLine: func(ln *Line) Certainty {
			l := ln.Bytes
			if strings.HasPrefix(string(l), sure) {
				return Sure
			}
			return No
		},
		NewDecoder: func(DecodeOptions) Decoder { return &standInDecoder{name: name} },
	}
}

type standInDecoder struct {
	name string
	held []Event
}

func (d *standInDecoder) Decode(dst []Event, line []byte, num int) ([]Event, error) {
	ev := Event{Dialect: d.name, Line: num, Raw: line, Kind: Text}
	switch s := string(line); {
	case strings.HasSuffix(s, "start"):
		ev.Kind = RunStart
	case strings.HasSuffix(s, "end"):
		ev.Kind, ev.Status = RunEnd, StatusSuccess
	case strings.HasSuffix(s, "hold"):
		d.held = append(d.held, ev)
		return dst, nil
	}
	return append(dst, ev), nil
}

func (d *standInDecoder) End(dst []Event) []Event {
	dst = append(dst, d.held...)
	d.held = nil
	return dst
}

func TestInputEndsADecoderWhereAnotherDialectBegins(t *testing.T) {
	a, b := standIn("a", "a:"), standIn("b", "b:")
	in := NewInput([]*Dialect{a, b}, a, DecodeOptions{})
	var got []string
	fn := func(ev *Event, st Step) {
		s := ""
		if st.Closed != nil {
			s = "closed run " + string(rune('0'+st.Closed.N)) + " " + string(st.Closed.Status) + " "
		}
		if ev != nil {
			s += ev.Dialect + " " + ev.Kind.String() + " line " + string(rune('0'+ev.Line))
		}
		got = append(got, s)
	}
	for i, l := range []string{"a:start", "a:hold", "b:start", "?unknown", "b:end", "a:x"} {
		if err := in.Line([]byte(l), i+1, fn); err != nil {
			t.Fatal(err)
		}
	}
	in.End(fn)
	want := []string{
		"a run_start line 1",
		"a text line 2", // held, given back where b begins
		"closed run 1 incomplete b run_start line 3",
		"b text line 4", // no dialect's: the input's dialect so far
		"b run_end line 5",
		"a text line 6",
		"closed run 3 incomplete ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if in.Runs() != 3 {
		t.Errorf("%d runs", in.Runs())
	}
}

// A permission without a reason of its own gives the sandbox's; its own
// comes first.
func TestPermissionWhyFallsBackOnTheSandboxsReason(t *testing.T) {
	block := &Block{Code: "network", Reason: "network access requires approval"}
	for _, c := range []struct {
		p    Permission
		want string
	}{
		{Permission{Reason: "asked", Block: block}, "asked"},
		{Permission{Block: block}, "network access requires approval"},
		{Permission{}, ""},
	} {
		if got := c.p.Why(); got != c.want {
			t.Errorf("%+v: Why() = %q, want %q", c.p, got, c.want)
		}
	}
}

// The kinds only their producer writes are the ones an encoder keeps as
// lines: Other and a producer's word on its own progress.
func TestOwnKindsAreKeptAsLines(t *testing.T) {
	for k := Other; k <= Notice; k++ {
		want := k == Other || k == SubStart || k == SubEnd || k == Compaction || k == Notice
		if k.Own() != want {
			t.Errorf("%v.Own() = %v, want %v", k, k.Own(), want)
		}
	}
	if Notice.String() != "notice" {
		t.Errorf("Notice.String() = %q", Notice.String())
	}
}

// Every target says why a run it closes was cut short in these words.
func TestCutMessage(t *testing.T) {
	for c, want := range map[Cut]string{
		CutEndOfInput:   "the input ended before the run finished",
		CutOtherDialect: "the run was cut short: a line of another dialect came",
		CutRunStart:     "the run was cut short: another run started",
	} {
		if got := CutMessage(c); got != want {
			t.Errorf("%v: %q, want %q", c, got, want)
		}
	}
}

// A dialect's schemas are the same values each call: validate keeps each
// one compiled by its pointer.
func TestSchemaListIsStable(t *testing.T) {
	d := &Dialect{Name: "toy", Schema: []byte(`{}`)}
	a, b := d.SchemaList(), d.SchemaList()
	if len(a) != 1 || len(b) != 1 || a[0] != b[0] || a[0].Name != "toy" || a[0].File != "toy.schema.json" {
		t.Errorf("%v %v", a, b)
	}
}
