package event

import (
	"testing"

	"github.com/zevo/zevo/jsonl"
)

// A field keeps the first kind it is given; KindAny gives none, and a
// field the table does not know is of any kind.
func TestFieldKindsFirstKindWins(t *testing.T) {
	var k FieldKinds
	k.Add("a", jsonl.KindAny)
	k.Add("a", jsonl.KindString)
	k.Add("a", jsonl.KindInteger)
	k.Add("b", jsonl.KindObject)
	for name, want := range map[string]jsonl.Kind{"a": jsonl.KindString, "b": jsonl.KindObject, "c": jsonl.KindAny, "": jsonl.KindAny} {
		if got := k.Kind(name); got != want {
			t.Errorf("Kind(%q) = %v, want %v", name, got, want)
		}
	}
}
