// Package protocol is the one definition of the Zero and EvoScientist stream protocols: names, detection, style, fields, line decoding and runs.
package protocol

import (
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/zevo/zevo/jsonl"
)

// Family groups the versions of one producer's protocol: lines of one
// family may belong to one run, lines of different families never do.
type Family uint8

const (
	FamilyZero      Family = iota + 1 // Zero output events, any schema version
	FamilyZeroInput                   // Zero input events (message, prompt)
	FamilyEvoSci                      // EvoScientist events
)

// Protocol is one protocol at one version, as its producer writes it.
type Protocol struct {
	Name    string   // canonical name, as zevo prints it
	Aliases []string // other names accepted on the command line
	Title   string
	Family  Family
	// Version is the schemaVersion the events carry (Zero); 0 when the
	// protocol has none.
	Version int
	// Style is how the producer serializes JSON.
	Style jsonl.Style
	// SchemaFile is the file of its JSON Schema, in its dialect's folder
	// (dialects/NAME), which embeds it.
	SchemaFile string
	// Truncated is what the producer appends to content it cut short, and
	// TruncatedField the field that holds such content.
	Truncated, TruncatedField string
	// Strict: the producer's own decoder refuses unknown fields (Zero's
	// event struct); otherwise readers ignore them (EvoScientist).
	Strict bool
	// Envelope are the fields every event carries; Events the fields of
	// each event type. Both follow the producer's own structs.
	Envelope []Field
	Events   []Event
}

// The protocols zevo knows.
var (
	ZeroV2 = &Protocol{
		Name: "zero@2", Aliases: []string{"zero"}, Title: "Zero output events, schema version 2",
		Family: FamilyZero, Version: 2, Style: jsonl.GoStyle, SchemaFile: "zero-v2.schema.json",
		Truncated: "\n[truncated]", TruncatedField: "output", Strict: true,
		Envelope: zeroEnvelope, Events: zeroV2Events,
	}
	ZeroV1 = &Protocol{
		Name: "zero@1", Title: "Zero output events, schema version 1",
		Family: FamilyZero, Version: 1, Style: jsonl.GoStyle, SchemaFile: "zero-v1.schema.json",
		Truncated: "\n[truncated]", TruncatedField: "output", Strict: true,
		Envelope: zeroEnvelope, Events: zeroV1Events,
	}
	ZeroInput = &Protocol{
		Name: "zero-input", Title: "Zero input events (message, prompt)",
		Family: FamilyZeroInput, Version: 2, Style: jsonl.GoStyle, SchemaFile: "zero-input.schema.json",
		Strict:   true,
		Envelope: zeroInputEnvelope, Events: zeroInputEvents,
	}
	EvoSci = &Protocol{
		Name: "evosci", Aliases: []string{"evoscientist"}, Title: "EvoScientist events",
		Family: FamilyEvoSci, Style: jsonl.PythonStyle, SchemaFile: "evosci.schema.json",
		Truncated: "\n... (truncated)", TruncatedField: "content",
		Envelope: evoEnvelope, Events: evoEvents,
	}
)

// All lists the protocols in a stable order.
var All = []*Protocol{ZeroV2, ZeroV1, ZeroInput, EvoSci}

func (p *Protocol) String() string { return p.Name }

// Names lists p's name and aliases.
func (p *Protocol) Names() []string { return append([]string{p.Name}, p.Aliases...) }

// IsZero reports a Zero output protocol (either version).
func (p *Protocol) IsZero() bool { return p != nil && p.Family == FamilyZero }

// Lookup finds a protocol by name or alias.
func Lookup(name string) (*Protocol, error) {
	for _, p := range All {
		for _, n := range p.Names() {
			if n == name {
				return p, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown protocol %q (want %s)", name, strings.Join(names(), ", "))
}

// names lists every protocol's name and aliases, for messages.
func names() []string {
	var out []string
	for _, p := range All {
		out = append(out, p.Names()...)
	}
	return out
}

// Event returns the field table of one event type, or nil for a type the
// protocol does not define.
func (p *Protocol) Event(typ string) *Event {
	for i := range p.Events {
		if p.Events[i].Type == typ {
			return &p.Events[i]
		}
	}
	return nil
}

// OwnFields reports an event of p's type typ whose every member but type
// is one of that type's fields: a line as p's producer writes it, which
// the dialects' detection need not be asked about (another agent's line
// of the same type carries fields of its own).
func (p *Protocol) OwnFields(typ string, members []Member) bool {
	e := p.Event(typ)
	if e == nil {
		return false
	}
	for _, m := range members {
		if _, ok := e.Field(m.Key); !ok && m.Key != "type" {
			return false
		}
	}
	return true
}

// ZeroIDPattern is what a Zero runId matches (Zero refuses to write an
// event whose runId does not); the schemas say the same.
const ZeroIDPattern = `^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`

// IsZeroID reports whether s matches ZeroIDPattern.
func IsZeroID(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != ':' && c != '-') {
			return false
		}
	}
	return true
}

// zeroRunIDTime is the layout of the time in a runId Zero makes,
// run_<YYYYMMDDHHMMSS UTC>_<6 hex digits>.
const zeroRunIDTime = "20060102150405"

// NewZeroRunID is a new runId in Zero's format, for time at, its 6 hex
// digits read from random.
func NewZeroRunID(at time.Time, random io.Reader) string {
	var r [3]byte
	_, _ = io.ReadFull(random, r[:])
	return "run_" + at.UTC().Format(zeroRunIDTime) + "_" + hex.EncodeToString(r[:])
}

// ZeroRunIDTime reads the time in a runId of Zero's format.
func ZeroRunIDTime(id string) (time.Time, bool) {
	if len(id) != 4+len(zeroRunIDTime)+1+6 || id[:4] != "run_" || id[18] != '_' {
		return time.Time{}, false
	}
	at, err := time.Parse(zeroRunIDTime, id[4:18])
	return at, err == nil
}
