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
	for name, want := range map[string]Format{"zero": Zero, "zero@1": Zero1, "evosci": EvoSci} {
		if got, err := ParseTarget(name); err != nil || got != want {
			t.Errorf("ParseTarget(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	// A dialect zevo writes and zero.Protocols does not know is the
	// event path's target, by its name or an alias.
	cl, err := ParseTarget("claude")
	if err != nil || cl.Name != "claude" || !eventOnly(cl) {
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
	for name, want := range map[string]Format{"auto": Auto, "zero": Zero, "evosci": EvoSci} {
		if got, err := ParseSource(name); err != nil || got != want {
			t.Errorf("ParseSource(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	for _, name := range []string{"", "zero@1", "zero@3", "EvoSci"} {
		if got, err := ParseSource(name); err == nil || !strings.Contains(err.Error(), "want auto, zero or evosci") {
			t.Errorf("ParseSource(%q) = %v, %v; want an error", name, got, err)
		}
	}
}
