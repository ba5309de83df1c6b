package translate

import "testing"

// Every target but EvoScientist is redacted unless an option says not:
// Zero redacts its own output, and Claude Code's is another agent's
// stream; EvoScientist's is written as EvoScientist writes it.
func TestRedactsByDefaultEveryTargetButEvoScientist(t *testing.T) {
	for name, want := range map[string]bool{"zero": true, "zero@1": true, "evosci": false, "claude": true} {
		to, err := ParseTarget(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := RedactsByDefault(to); got != want {
			t.Errorf("RedactsByDefault(%s) = %v, want %v", name, got, want)
		}
	}
}
