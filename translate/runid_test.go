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
