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
		return &Dialect{Name: name, Detect: func(l []byte) Certainty {
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
	e := DefaultEffects()
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
	if (DecodeOptions{}).EffectOf("Write") != EffectWrite {
		t.Error("DecodeOptions without a table does not use the shipped one")
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
