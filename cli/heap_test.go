package cli

import (
	"math"
	"runtime/debug"
	"testing"
)

// limitHeap sets its limit only when none is set (GOMEMLIMIT wins), and
// undoes what it set.
func TestLimitHeap(t *testing.T) {
	orig := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(orig)
	undo := limitHeap()
	if got := debug.SetMemoryLimit(-1); got != heapLimit {
		t.Errorf("limit while running: %d, want %d", got, heapLimit)
	}
	undo()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit after: %d, want none", got)
	}
	debug.SetMemoryLimit(1 << 30) // as GOMEMLIMIT=1GiB would
	undo = limitHeap()
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("limit with one already set: %d, want 1 GiB kept", got)
	}
	undo()
}
