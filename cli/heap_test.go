package cli

import (
	"io"
	"math"
	"runtime/debug"
	"strings"
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

// raiseHeapLimit raises limitHeap's limit for a long line, never lowers
// it, and leaves alone a limit limitHeap did not set.
func TestRaiseHeapLimit(t *testing.T) {
	orig := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(orig)
	undo := limitHeap()
	raiseHeapLimit(100 << 20)
	if got, want := debug.SetMemoryLimit(-1), int64(heapLimit+300<<20); got != want {
		t.Errorf("limit for a 100 MiB line: %d, want %d", got, want)
	}
	raiseHeapLimit(1 << 20)
	if got, want := debug.SetMemoryLimit(-1), int64(heapLimit+300<<20); got != want {
		t.Errorf("limit after a shorter line: %d, want %d kept", got, want)
	}
	undo()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit after: %d, want none", got)
	}
	raiseHeapLimit(100 << 20)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit raised with none of limitHeap's in force: %d", got)
	}
	debug.SetMemoryLimit(1 << 30) // as GOMEMLIMIT=1GiB would
	undo = limitHeap()
	raiseHeapLimit(1 << 30)
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("limit with one already set: %d, want 1 GiB kept", got)
	}
	undo()
}

// gcReader is an input that notes the collector's pace when it is read.
type gcReader struct {
	r    io.Reader
	seen int
}

func (g *gcReader) Read(p []byte) (int, error) {
	g.seen = debug.SetGCPercent(-1)
	debug.SetGCPercent(g.seen)
	return g.r.Read(p)
}

// validate paces the collector at 4x the live heap while it reads, and
// gives back the pace it found.
func TestValidatePacesTheCollector(t *testing.T) {
	orig := debug.SetGCPercent(100)
	defer debug.SetGCPercent(orig)
	in := &gcReader{r: strings.NewReader(`{"type": "text", "content": "hi"}` + "\n")}
	var out, errb strings.Builder
	Run([]string{"zevo", "validate"}, in, &out, &errb)
	if in.seen != 400 {
		t.Errorf("the collector's pace while validating: %d, want 400", in.seen)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("the pace after: %d, want 100 given back", got)
	}
}

// translate paces the collector as validate does, and gives the pace
// back.
func TestTranslatePacesTheCollector(t *testing.T) {
	orig := debug.SetGCPercent(100)
	defer debug.SetGCPercent(orig)
	in := &gcReader{r: strings.NewReader(`{"type": "text", "content": "hi"}` + "\n")}
	var out, errb strings.Builder
	Run([]string{"zevo", "translate", "--to", "zero"}, in, &out, &errb)
	if in.seen != 400 {
		t.Errorf("the collector's pace while translating: %d, want 400", in.seen)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("the pace after: %d, want 100 given back", got)
	}
}
