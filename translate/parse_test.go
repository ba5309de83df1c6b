package translate

import (
	"strings"
	"testing"
)

func TestCheckRunID(t *testing.T) {
	good := []string{"r", "run_20260101000000_abcdef", "a.b:c-d_e", "A" + strings.Repeat("9", 119)}
	for _, id := range good {
		if err := CheckRunID(id); err != nil {
			t.Errorf("CheckRunID(%q) = %v, want nil", id, err)
		}
	}
	bad := []string{"", "bad id", ".starts-with-dot", "-x", "tab\tid", "é", "A" + strings.Repeat("9", 120), "x\n"}
	for _, id := range bad {
		err := CheckRunID(id)
		if err == nil {
			t.Errorf("CheckRunID(%q) = nil, want an error", id)
			continue
		}
		if !strings.Contains(err.Error(), "at most 120 characters") {
			t.Errorf("CheckRunID(%q) = %q, want the rule in the message", id, err)
		}
	}
}

func TestParseTargetAndSource(t *testing.T) {
	for name, want := range map[string]Format{"zero": Zero, "zero@2": Zero, "zero@1": Zero1, "evosci": EvoSci, "evoscientist": EvoSci} {
		if got, err := ParseTarget(name); err != nil || got != want {
			t.Errorf("ParseTarget(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	// Every dialect zevo writes is a target, by its name or an alias; a
	// dialect with versions, by each version's names.
	cl, err := ParseTarget("claude")
	if err != nil || cl.Name != "claude" || cl.Dialect.Name != "claude" {
		t.Fatalf("ParseTarget(claude) = %v, %v", cl, err)
	}
	if got, err := ParseTarget("claude-code"); err != nil || got != cl {
		t.Errorf("ParseTarget(claude-code) = %v, %v; want %v", got, err, cl)
	}
	// A dialect zevo only reads is no target.
	for _, name := range []string{"", "auto", "zero@3", "Zero", "json", "codex", "cursor", "zero-input"} {
		if got, err := ParseTarget(name); err == nil || !strings.Contains(err.Error(), "want zero, zero@1, evosci or claude") {
			t.Errorf("ParseTarget(%q) = %v, %v; want an error", name, got, err)
		}
	}
	for name, want := range map[string]Format{"auto": Auto, "zero": Zero, "zero@2": Zero, "evosci": EvoSci, "evoscientist": EvoSci} {
		if got, err := ParseSource(name); err != nil || got != want {
			t.Errorf("ParseSource(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	for _, name := range []string{"", "zero@1", "zero@3", "EvoSci", "claude", "zero-input"} {
		if got, err := ParseSource(name); err == nil || !strings.Contains(err.Error(), "want auto, zero or evosci") {
			t.Errorf("ParseSource(%q) = %v, %v; want an error", name, got, err)
		}
	}
}

// The targets' names and forms, as the registry gives them: a dialect's
// default by its name, its other versions by theirs, in the registry's
// order; each names its dialect and its encoder's version.
func TestTargetsFromTheRegistry(t *testing.T) {
	if got := strings.Join(Targets(), " "); got != "zero zero@1 evosci claude" {
		t.Errorf("Targets() = %s", got)
	}
	for _, c := range []struct {
		f             Format
		name, dialect string
		version       int
		redacts       bool
	}{
		{Zero, "zero@2", "zero", 2, true},
		{Zero1, "zero@1", "zero", 1, true},
		{EvoSci, "evosci", "evosci", 0, false},
		{claudeTarget(t), "claude", "claude", 0, true},
	} {
		if c.f.String() != c.name || c.f.Dialect.Name != c.dialect || c.f.Version != c.version || RedactsByDefault(c.f) != c.redacts {
			t.Errorf("%s: %+v, redacted by default %v", c.name, c.f, RedactsByDefault(c.f))
		}
	}
}
