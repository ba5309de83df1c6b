package inspect

import (
	"fmt"
	"strings"

	"github.com/zevo/zevo/dialects"
	evt "github.com/zevo/zevo/event"
)

// StatsAs is how stats reads its inputs (--as): each line by its own
// dialect (the zero value, "auto"), or every line as one dialect.
type StatsAs struct {
	dialect *evt.Dialect // nil for auto
}

// ParseStatsAs reads --as: "auto", or the name of a dialect or one of its
// aliases (zero@1 for instance).
func ParseStatsAs(s string) (StatsAs, error) {
	if s == "auto" {
		return StatsAs{}, nil
	}
	if d, ok := dialects.ByName(s); ok {
		return StatsAs{dialect: d}, nil
	}
	return StatsAs{}, fmt.Errorf("unknown dialect %q: want auto or one of %s", s, DialectNames())
}

// DialectNames lists the dialects' names and aliases, for help and errors.
func DialectNames() string {
	var names []string
	for _, d := range dialects.All {
		names = append(names, d.Name)
		names = append(names, d.Aliases...)
	}
	return strings.Join(names, ", ")
}

// New returns the summarizer of the input named name.
func (a StatsAs) New(name string) *EventSummarizer {
	in := dialects.NewInput(evt.DecodeOptions{})
	if d := a.dialect; d != nil {
		in = evt.NewInput([]*evt.Dialect{d}, d, dialects.DecodeOptions())
	}
	return NewEventSummarizer(name, in)
}
