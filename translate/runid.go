package translate

import (
	"fmt"
	"regexp"
)

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
