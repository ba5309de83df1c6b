package translate

import (
	"fmt"
	"strings"

	"github.com/zevo/zevo/dialects"
)

// Targets are the targets' names, as ParseTarget reads them: each
// dialect zevo writes by its name, and its other versions by theirs
// (zero, zero@1, evosci, claude).
func Targets() []string {
	var names []string
	var last *Form
	for _, f := range forms() {
		if !dialects.Writes(f.Dialect) {
			continue
		}
		if last == nil || last.Dialect != f.Dialect {
			names = append(names, f.Dialect.Name)
		} else {
			names = append(names, f.Name)
		}
		last = f
	}
	return names
}

// TargetNames lists the targets' names for help and messages: "zero,
// zero@1, evosci or claude".
func TargetNames() string {
	names := Targets()
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// MustTarget is ParseTarget of a name fixed in a program (a test, an
// example), which panics on a name no dialect writes.
func MustTarget(name string) Format {
	f, err := ParseTarget(name)
	if err != nil {
		panic(err)
	}
	return f
}

// ParseTarget reads a target's name (--to): a form of a dialect zevo
// writes, by any of its names.
func ParseTarget(name string) (Format, error) {
	for _, f := range forms() {
		if !dialects.Writes(f.Dialect) {
			continue
		}
		for _, n := range f.Names() {
			if n == name {
				return f, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown format %q (want %s)", name, TargetNames())
}

// Sources are the names ParseSource reads: auto and the dialects that
// are sources (Dialect.Source).
func Sources() []string {
	names := []string{"auto"}
	for _, d := range dialects.All {
		if d.Source {
			names = append(names, d.Name)
		}
	}
	return names
}

// ParseSource reads a source's name (--from): auto (Auto, each line's
// own), or a source dialect's default form by any of its names.
func ParseSource(name string) (Format, error) {
	if name == "auto" {
		return Auto, nil
	}
	for _, d := range dialects.All {
		if !d.Source {
			continue
		}
		f := defaultForm(d)
		for _, n := range f.Names() {
			if n == name {
				return f, nil
			}
		}
	}
	s := Sources()
	return nil, fmt.Errorf("unknown format %q (want %s or %s)", name, strings.Join(s[:len(s)-1], ", "), s[len(s)-1])
}

// CheckRunID reports whether id can be Options.RunID: an id of the runs
// zevo opens (dialects.Runs) that leaves room for the .2, .3, … of
// later runs.
func CheckRunID(id string) error { return dialects.Runs.RunIDs.Check(id) }
