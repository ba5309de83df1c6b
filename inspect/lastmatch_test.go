package inspect

import (
	"math/rand"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// lastMatch answers as the pattern does, whatever came before: repeats,
// a string that does not match after one that does, strings too long to
// be remembered, and from several goroutines at once (the compiled schema
// is shared; go test -race).
func TestLastMatchAsMatchString(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`)
	words := []string{"run_1", "run_1", "run_2", "-bad", "", "run_1", strings.Repeat("a", 128), strings.Repeat("a", 129),
		strings.Repeat("b", 300), "run_1 ", "run_1\n", "é"}
	match := lastMatch(re)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(g)))
			for range 5000 {
				w := words[r.Intn(len(words))]
				if got, want := match(w), re.MatchString(w); got != want {
					t.Errorf("%q: %v, the pattern says %v", w, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
