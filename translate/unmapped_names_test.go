package translate

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/jsonl"
)

// statsOf translates input on the event path, the way way says, and
// returns its Stats.
func statsOf(t *testing.T, opt Options, input []byte, way aheadWay) Stats {
	t.Helper()
	opt.Now, opt.Rand = fixedNow, zeroReader{}
	tr := New(opt, func([]byte) error { return nil })
	if way == aheadPlain {
		tr.ep.plain = true
		feedLines(t, tr, input, "in", nil, nil)
	} else if err := tr.Stream(bytes.NewReader(input), "in", nil, func() error { return nil },
		func(*jsonl.Diagnostic) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := tr.End("in"); err != nil {
		t.Fatal(err)
	}
	return *tr.Stats()
}

// The unmapped lines are counted under the same names, as often, when
// the names are made once a type (eventPath.unmappedName) as when the
// plain path reads each line: over generated streams with their
// unmapped events, and over more unknown types than a summary names.
func TestUnmappedNamesAsPlain(t *testing.T) {
	var many bytes.Buffer
	for i := 0; i < 2*maxUnmappedTypes+7; i++ {
		// Each type twice, apart, and every one past the names kept.
		fmt.Fprintf(&many, `{"type":"kind_%d"}`+"\n"+`{"type":"kind_%d"}`+"\n", i, i/2)
	}
	inputs := [][]byte{many.Bytes()}
	for _, p := range []corpus.Protocol{corpus.Zero, corpus.EvoSci} {
		var buf bytes.Buffer
		if _, err := corpus.Write(&buf, corpus.Options{Protocol: p, Size: 200 << 10, Seed: 7}); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, buf.Bytes())
	}
	for i, in := range inputs {
		for _, opt := range []Options{{To: Zero}, {To: EvoSci}} {
			want := statsOf(t, opt, in, aheadPlain)
			got := statsOf(t, opt, in, aheadStream)
			// Into another protocol (a dialect's own lines pass into it).
			across := (i == 1) == (opt.To == EvoSci)
			if want.Unmapped == 0 && across {
				t.Fatalf("input %d to %s: no unmapped line to count", i, opt.To)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("input %d to %s: stats %+v, want %+v", i, opt.To, got, want)
			}
		}
	}
}

// A type is counted under its own name when the line it was read from
// is overwritten by the next (the names kept are copies).
func TestUnmappedNamesOutliveTheirLine(t *testing.T) {
	tr := New(Options{To: Zero, Now: fixedNow, Rand: zeroReader{}}, func([]byte) error { return nil })
	buf := make([]byte, 0, 64)
	for i, typ := range []string{"kind_a", "kind_b", "kind_a", "kind_c", "kind_b", "kind_a"} {
		buf = append(buf[:0], `{"type":"`+typ+`"}`...)
		if err := tr.Line(jsonl.Line{Bytes: buf, Name: "in", Num: i + 1}); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]int{"evosci.kind_a": 3, "evosci.kind_b": 2, "evosci.kind_c": 1}
	if got := tr.Stats().UnmappedTypes; !reflect.DeepEqual(got, want) {
		t.Errorf("counted %v, want %v", got, want)
	}
}

// integral finds a fraction or an exponent where bytes.IndexAny does.
func TestIntegralAsIndexAny(t *testing.T) {
	for _, n := range []string{"0", "-1", "12345678901234567890", "1.5", "1e3", "1E3", "-0.0", "2e-7", "7.", "", "e", "."} {
		if got, want := integral([]byte(n)), bytes.IndexAny([]byte(n), ".eE") < 0; got != want {
			t.Errorf("integral(%q) = %v, want %v", n, got, want)
		}
	}
}
