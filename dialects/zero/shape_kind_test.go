package zero

import (
	"testing"

	"github.com/tidwall/gjson"
)

// TestZeroStringArraysHoldOnlyStrings: Zero's []string fields (top-level
// changedFiles, nested risk.categories and checkpoint.files) hold arrays
// of strings or nulls, nothing else; an object field is fitted member by
// member instead.
func TestZeroStringArraysHoldOnlyStrings(t *testing.T) {
	changed := zeroV2Event().fields["changedFiles"]
	for v, want := range map[string]bool{
		`["a", null]`: true, `[]`: true, `null`: true,
		`[1]`: false, `["a", {}]`: false, `"a"`: false, `{}`: false,
	} {
		if got := changed.Holds(gjson.Parse(v)); got != want {
			t.Errorf("changedFiles holds %s: %v, want %v", v, got, want)
		}
	}
	checkpoint := zeroV2Event().fields["checkpoint"]
	for v, want := range map[string]bool{
		`{"files": ["a"], "sequence": 2}`: true,
		`{"files": [2]}`:                  false,
		`{"skipped": "a"}`:                false,
		`{"sequence": 1.5}`:               false,
	} {
		if got := checkpoint.Holds(gjson.Parse(v)) && checkpoint.sub.Fits(gjson.Parse(v)); got != want {
			t.Errorf("checkpoint %s fits: %v, want %v", v, got, want)
		}
	}
	// An object is admitted whole; its members are fitted one by one.
	if !checkpoint.Holds(gjson.Parse(`{"files": [2]}`)) {
		t.Error("checkpoint with a bad member not admitted for fitting")
	}
}
