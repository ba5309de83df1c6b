// Package zerotest decodes Zero output events as Zero's own struct does, for tests of what zevo writes.
package zerotest

import (
	"bytes"
	"encoding/json"

	"github.com/zevo/zevo/dialects/zero"
)

// Event is Zero's output event (zero.Event); a v1 line reads into it with
// its violation as block.
type Event = zero.Event

// Decode decodes one v2 output line with unknown fields disallowed, as
// Zero's decoder does.
func Decode(line []byte) (*Event, error) {
	var ev zero.Event
	if err := strict(line, &ev); err != nil {
		return nil, err
	}
	return &ev, nil
}

// DecodeV1 decodes one v1 output line likewise (a block, v2's name, is
// refused), and returns it as a v2 event.
func DecodeV1(line []byte) (*Event, error) {
	var v1 zero.EventV1
	if err := strict(line, &v1); err != nil {
		return nil, err
	}
	ev := &zero.Event{Fields: v1.Fields, Block: v1.Violation}
	if v1.Grant != nil {
		ev.Grant = &v1.Grant.Grant
	}
	return ev, nil
}

func strict(line []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(line))
	d.DisallowUnknownFields()
	return d.Decode(v)
}
