package translate

import (
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/mappings"
)

// The event path applies the rules of one table into its target
// (sourceTable): a second table into the same dialect would be left
// unapplied, so the registry ships at most one.
func TestOneTableIntoEachDialect(t *testing.T) {
	into := map[string][]string{}
	for _, d := range dialects.All {
		for to := range d.Tables {
			into[to] = append(into[to], d.Name)
		}
	}
	for to, from := range into {
		if len(from) > 1 {
			t.Errorf("tables into %s from %v: pathRules applies one", to, from)
		}
	}
}

// Every shipped table is the rules of the translation into its target,
// found through the registry, not named by hand.
func TestSourceTableOfEachTarget(t *testing.T) {
	for _, d := range dialects.All {
		for to := range d.Tables {
			f, err := ParseTarget(to)
			if err != nil {
				t.Fatalf("%s: %v", to, err)
			}
			tr := New(Options{To: f}, func([]byte) error { return nil })
			tb, src := tr.sourceTable()
			if tb == nil || src != d || tb.From != d.Name || tb.To != to {
				t.Errorf("into %s: table %+v from %v, want %s's", to, tb, src, d.Name)
			}
		}
	}
	tr := New(Options{To: claudeTarget(t)}, func([]byte) error { return nil })
	if tb, _ := tr.sourceTable(); tb != nil {
		t.Errorf("into claude: a table %s -> %s, and none ships", tb.From, tb.To)
	}
}

func claudeTarget(t *testing.T) Format {
	t.Helper()
	f, err := ParseTarget("claude")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A tool's sideEffect given by a user's table of either direction names
// the tool's effect in every translation (before, only the EvoScientist
// into Zero table's were read).
func TestUserSideEffectsOfEitherTable(t *testing.T) {
	in := `{"type": "tool_call", "name": "mytool", "args": {}, "id": "c1"}` + "\n"
	for _, from := range []string{"evosci", "zero"} {
		to := map[string]string{"evosci": "zero", "zero": "evosci"}[from]
		s := mappings.Default()
		table := `{"from":"` + from + `","to":"` + to + `","sideEffects":{"mytool":"network"}}`
		if err := s.Load("mine.json", []byte(table)); err != nil {
			t.Fatal(err)
		}
		out, diags, _ := run(t, Options{To: Zero, RunID: "R", Tables: s}, []byte(in))
		if len(diags) > 0 || !strings.Contains(string(out), `"sideEffect":"network"`) {
			t.Errorf("table %s -> %s: %v\n%s", from, to, diags, out)
		}
	}
}
