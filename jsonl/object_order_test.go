package jsonl

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// TestSortedObjectOrderAsStableSort: a Sorted object writes its members
// in the order a stable sort of them by key gives, however many and in
// whatever order they come (those past insertMax sorted when written),
// duplicate keys in the order they were added.
func TestSortedObjectOrderAsStableSort(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 2, insertMax, insertMax + 1, insertMax + 2, 3 * insertMax, 5000} {
		for _, order := range []string{"random", "reverse", "ascending"} {
			type kv struct{ k, v string }
			var in []kv
			for i := 0; i < n; i++ {
				k := fmt.Sprintf("k%d", rng.Intn(n/2+1))
				switch order {
				case "reverse":
					k = fmt.Sprintf("k%06d", n-i)
				case "ascending":
					k = fmt.Sprintf("k%06d", i)
				}
				in = append(in, kv{k, fmt.Sprint(i)})
			}
			o := Object{Style: GoStyle, Sorted: true}
			for _, m := range in {
				o.Raw(m.k, []byte(m.v))
			}
			want := slices.Clone(in)
			slices.SortStableFunc(want, func(a, b kv) int { return strings.Compare(a.k, b.k) })
			var b strings.Builder
			b.WriteByte('{')
			for i, m := range want {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%q:%s", m.k, m.v)
			}
			b.WriteByte('}')
			if got := string(o.AppendTo(nil)); got != b.String() {
				t.Errorf("%d members, %s: wrote %.200s…, want %.200s…", n, order, got, b.String())
			}
			// Written twice, and after a Reset, the same.
			if got := string(o.AppendTo(nil)); got != b.String() {
				t.Errorf("%d members, %s: the second writing differs", n, order)
			}
			o.Reset()
			o.Raw("b", []byte("1"))
			o.Raw("a", []byte("2"))
			if got := string(o.AppendTo(nil)); got != `{"a":2,"b":1}` {
				t.Errorf("after a Reset: %s", got)
			}
		}
	}
}
