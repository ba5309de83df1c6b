package translate

import "testing"

// TestEventPathUnmappedWrongTypedLineAsToday: a line whose type the
// target has no counterpart for is unmapped whatever its fields hold
// (kept, dropped or reported as unmapped), not a wrong-typed line: an
// EvoScientist thinking line to Zero v1, which has no reasoning.
func TestEventPathUnmappedWrongTypedLineAsToday(t *testing.T) {
	in := `{"type":"thinking","content":["x"]}
{"type":"thinking","content":"ok"}
{"type":"done","content":"x","response":"x"}
`
	for _, to := range []Format{Zero1, Zero} {
		for _, um := range []Unmapped{Keep, Drop, Error} {
			bothPaths(t, Options{To: to, RunID: "R", Unmapped: um}, in)
		}
	}
}
