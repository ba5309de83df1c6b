package translate

import (
	"fmt"
	"sort"
	"strings"
)

// Stats accounts for every input line: Lines = Blank + Mapped + Unmapped + Diagnosed.
type Stats struct {
	Lines     int
	Blank     int
	Mapped    int // translated, or absorbed by the run framing
	Unmapped  int // no counterpart: dropped or kept per policy
	Diagnosed int // reported as a diagnostic
	Written   int // output events
	// UnmappedTypes counts unmapped lines by source type ("evosci.subagent_text").
	UnmappedTypes map[string]int
	// Dropped counts the fields left out of the output because the
	// target's types have no room for them, by path ("zero.text.colour").
	Dropped map[string]int

	holder string // the target's producer, whose types those are
}

// Summary is the stderr line about unmapped events, or "" when there were none.
func (s *Stats) Summary(policy Unmapped) string {
	if s.Unmapped == 0 {
		return ""
	}
	verb := "dropped"
	if policy == Keep {
		verb = "kept"
	}
	return summary(fmt.Sprintf("zevo: %d unmapped event(s) %s:", s.Unmapped, verb), s.UnmappedTypes)
}

// DroppedSummary is the stderr line about dropped fields, or "".
func (s *Stats) DroppedSummary() string {
	n := 0
	for _, c := range s.Dropped {
		n += c
	}
	if n == 0 {
		return ""
	}
	return summary(fmt.Sprintf("zevo: %d field(s) %s's types cannot hold dropped (--unmapped keep keeps them):", n, s.holder), s.Dropped)
}

func summary(head string, counts map[string]int) string {
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(head)
	for _, n := range names {
		fmt.Fprintf(&b, " %s=%d", n, counts[n])
	}
	return b.String()
}

// maxUnmappedTypes bounds the names a summary counts one by one, so that
// a stream of ever new types cannot grow memory or the summary line; the
// rest are counted together.
const (
	maxUnmappedTypes = 100
	otherTypes       = "(other types)"
)

func count(m map[string]int, name string) {
	name = clipTo(name, 80)
	if _, ok := m[name]; !ok && len(m) >= maxUnmappedTypes {
		name = otherTypes
	}
	m[name]++
}

func (t *Translator) countUnmapped(name string) { count(t.stats.UnmappedTypes, name) }

func (t *Translator) countDropped(path string) { count(t.stats.Dropped, path) }
