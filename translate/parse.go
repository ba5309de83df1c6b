package translate

import (
	"fmt"
	"regexp"

	"github.com/zevo/zevo/protocol"
)

// ParseTarget reads a target protocol's name (--to): zero, zero@1 or
// evosci, or another name the protocol registry knows for them.
func ParseTarget(name string) (Format, error) {
	p, err := protocol.Lookup(name)
	if err != nil || (p != Zero && p != Zero1 && p != EvoSci) {
		return nil, fmt.Errorf("unknown format %q (want zero, zero@1 or evosci)", name)
	}
	return p, nil
}

// ParseSource reads a source protocol's name (--from): auto (Auto, each
// line's own), zero or evosci.
func ParseSource(name string) (Format, error) {
	if name == "auto" {
		return Auto, nil
	}
	p, err := protocol.Lookup(name)
	if err != nil || (p != Zero && p != EvoSci) {
		return nil, fmt.Errorf("unknown format %q (want auto, zero or evosci)", name)
	}
	return p, nil
}

// runIDPattern is Zero's run id rule, shortened so that the suffixes of
// later runs still fit its 128 characters.
var runIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,119}$`)

// CheckRunID reports whether id can be Options.RunID: a Zero run id that
// leaves room for the .2, .3, … of later runs.
func CheckRunID(id string) error {
	if !runIDPattern.MatchString(id) {
		return fmt.Errorf("Zero run ids match %s (at most 120 characters here, leaving room for .2, .3, …)", runIDPattern)
	}
	return nil
}
