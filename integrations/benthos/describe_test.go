package benthos

import (
	"slices"
	"strings"
	"testing"

	"github.com/zevo/zevo/translate"
)

// The descriptions of to and redact say what translate decides: each
// target whose output is redacted by default is named, and no other; each
// target that is another's alias is named with it.
func TestDescriptionsAsTranslateDecides(t *testing.T) {
	listed := strings.FieldsFunc(redactedTargets(), func(r rune) bool { return r == ',' || r == ' ' })
	listed = slices.DeleteFunc(listed, func(s string) bool { return s == "or" })
	if len(listed) == 0 {
		t.Fatalf("redactedTargets() = %q: no target", redactedTargets())
	}
	for _, n := range translate.Targets() {
		f, err := translate.ParseTarget(n)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(listed, n) != translate.RedactsByDefault(f) {
			t.Errorf("%s: listed %v in %q, redacted by default %v", n, slices.Contains(listed, n), redactedTargets(), translate.RedactsByDefault(f))
		}
	}
	if got, want := targetAliases(), " (zero is zero@2)"; got != want {
		t.Errorf("targetAliases() = %q, want %q", got, want)
	}
}
