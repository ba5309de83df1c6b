package zero

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
)

// targets are the versions of Zero's output zevo writes: version 2 by
// default (--to zero), version 1 for older clients.
var targets = []event.Target{
	{Name: "zero@2", Aliases: []string{"zero"}, Version: 2, Holds: holdsAt(2)},
	{Name: "zero@1", Version: 1, Lacks: func() map[string]bool { return V1Renames().V2Only }, Holds: holdsAt(1)},
}

// holdsAt: Zero's clients read a field only as their event struct of
// that version holds it.
func holdsAt(version int) func(key string, v gjson.Result) bool {
	return func(key string, v gjson.Result) bool {
		f, known := EventShape(version).Field(key)
		return known && f.Holds(v)
	}
}

// inputType reports the events a Zero client writes to Zero, not Zero to
// its clients.
func inputType(typ string) bool { return typ == "message" || typ == "prompt" }

// runIDs: the runs zevo opens are named as Zero names its own,
// run_<UTC time>_<6 hex>, and so are their sessions.
var runIDs = &event.RunIDs{
	New:   NewRunID,
	Check: checkRunID,
	Session: func(at time.Time, n int) string {
		at = at.UTC()
		return fmt.Sprintf("zero_%s_%d_%d", at.Format("20060102150405"), at.UnixNano(), n)
	},
}

// runIDPattern is Zero's run id rule, shortened so that the suffixes of
// later runs still fit its 128 characters. Compiled on first use: its
// bounded repeat makes it costly to compile, and only --run-id needs it.
var runIDPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,119}$`)
})

func checkRunID(id string) error {
	if !runIDPattern().MatchString(id) {
		return fmt.Errorf("Zero run ids match %s (at most 120 characters here, leaving room for .2, .3, …)", runIDPattern())
	}
	return nil
}

// failed is the lines Zero writes for a run that failed before it began.
func failed(runID, code, msg, status string, exitCode int) [][]byte {
	type line struct {
		SchemaVersion int    `json:"schemaVersion"`
		Type          string `json:"type"`
		RunID         string `json:"runId"`
		Code          string `json:"code,omitempty"`
		Message       string `json:"message,omitempty"`
		Recoverable   *bool  `json:"recoverable,omitempty"`
		Status        string `json:"status,omitempty"`
		ExitCode      *int   `json:"exitCode,omitempty"`
	}
	no := false
	var out [][]byte
	for _, l := range []line{
		{SchemaVersion: 2, Type: "error", RunID: runID, Code: code, Message: msg, Recoverable: &no},
		{SchemaVersion: 2, Type: "run_end", RunID: runID, Status: status, ExitCode: &exitCode},
	} {
		b, _ := json.Marshal(l)
		out = append(out, b)
	}
	return out
}
