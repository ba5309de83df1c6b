package corpus

import "github.com/zevo/zevo/dialects"

// Zero and EvoSci are the two generators' dialects under the names the
// tests of translate/ and jsonl/ use. Deprecated: name a dialect with
// Lookup or dialects.ByName; these go when those tests do.
var (
	Zero   = byName("zero")
	EvoSci = byName("evosci")
)

func byName(name string) Protocol {
	d, _ := dialects.ByName(name)
	return d
}
