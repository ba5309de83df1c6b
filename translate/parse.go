package translate

import (
	"fmt"
	"github.com/zevo/zevo/dialects/zero"
	"regexp"
	"strings"
	"sync"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/jsonl"
)

// eventTargets are the targets written only by the event path (events.go):
// the dialects of the registry that zevo writes and that have no protocol
// of their own in zero.Protocols (Claude Code's). Their Format names the
// dialect and has no Family.
var eventTargets = func() []Format {
	var out []Format
	for _, d := range dialects.All {
		if _, err := zero.Lookup(d.Name); err == nil || !dialects.Writes(d) {
			continue
		}
		out = append(out, &jsonl.Protocol{Name: d.Name, Aliases: d.Aliases, Title: d.Name,
			Style: jsonl.GoStyle, SchemaFile: d.Name + ".schema.json"})
	}
	return out
}()

// eventOnly reports a target that only the event path writes.
func eventOnly(f Format) bool { return f != nil && f.Family == 0 }

// Targets are the targets' names, as ParseTarget reads them: zero,
// zero@1, evosci and the dialects only the event path writes (claude).
func Targets() []string {
	names := []string{"zero", Zero1.Name, EvoSci.Name}
	for _, f := range eventTargets {
		names = append(names, f.Name)
	}
	return names
}

// TargetNames lists the targets' names for help and messages: "zero,
// zero@1, evosci or claude".
func TargetNames() string {
	names := Targets()
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ParseTarget reads a target's name (--to): zero, zero@1, evosci, a
// dialect only the event path writes (claude), or another name the
// registries know for them.
func ParseTarget(name string) (Format, error) {
	p, err := zero.Lookup(name)
	if err == nil && (p == Zero || p == Zero1 || p == EvoSci) {
		return p, nil
	}
	for _, f := range eventTargets {
		for _, n := range f.Names() {
			if n == name {
				return f, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown format %q (want %s)", name, TargetNames())
}

// Sources are the names ParseSource reads.
func Sources() []string { return []string{"auto", "zero", EvoSci.Name} }

// ParseSource reads a source protocol's name (--from): auto (Auto, each
// line's own), zero or evosci.
func ParseSource(name string) (Format, error) {
	if name == "auto" {
		return Auto, nil
	}
	p, err := zero.Lookup(name)
	if err != nil || (p != Zero && p != EvoSci) {
		s := Sources()
		return nil, fmt.Errorf("unknown format %q (want %s or %s)", name, strings.Join(s[:len(s)-1], ", "), s[len(s)-1])
	}
	return p, nil
}

// runIDPattern is Zero's run id rule, shortened so that the suffixes of
// later runs still fit its 128 characters. Compiled on first use: its
// bounded repeat makes it costly to compile, and only --run-id needs it.
var runIDPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,119}$`)
})

// CheckRunID reports whether id can be Options.RunID: a Zero run id that
// leaves room for the .2, .3, … of later runs.
func CheckRunID(id string) error {
	if !runIDPattern().MatchString(id) {
		return fmt.Errorf("Zero run ids match %s (at most 120 characters here, leaving room for .2, .3, …)", runIDPattern())
	}
	return nil
}
