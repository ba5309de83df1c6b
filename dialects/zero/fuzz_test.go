package zero

import (
	"testing"

	"github.com/zevo/zevo/event/eventtest"
)

// FuzzDecode: no line panics the decoder; every line gives events or an
// error; every event names its dialect and line.
func FuzzDecode(f *testing.F) {
	eventtest.Fuzz(f, Dialect, "translate/*.jsonl", "inspect/*.jsonl", "golden/*/*.jsonl", "hostile/*.jsonl")
}
