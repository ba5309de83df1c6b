package zero

import (
	"fmt"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// prepare is what translate checks of a Zero line before decoding it:
// the JSON kinds of the fields Zero's event structs give them (a client
// refuses a line of another), and a schemaVersion it knows.
var prepare = &event.Prepare{
	Kind:       fieldKinds.get,
	VersionKey: "schemaVersion",
	Version: func(sv gjson.Result) string {
		switch {
		case sv.Raw == "2" || sv.Raw == "1":
			return ""
		case !sv.Exists():
			return `Zero event without "schemaVersion"`
		}
		return fmt.Sprintf("unknown schemaVersion %s (zevo knows 1 and 2)", clip(sv.Raw))
	},
	Plain: func(typ string, sv []byte) bool {
		// Zero's input, not its stream, is left to the checks.
		return string(sv) == "2" && !inputType(typ)
	},
}

// kindTable is protocol.ZeroFieldKind as a table made once, to look up
// every field of every Zero line: buckets by a cheap hash of the name.
type kindTable [64][]kindEntry

type kindEntry struct {
	name string
	kind jsonl.Kind
}

func nameHash(s string) int {
	if s == "" {
		return 0
	}
	return (len(s)*31 + int(s[0])*7 + int(s[len(s)-1])) & 63
}

// get returns the kind of a Zero field, KindAny for one Zero does not know.
func (t *kindTable) get(name string) jsonl.Kind {
	for _, e := range t[nameHash(name)] {
		if e.name == name {
			return e.kind
		}
	}
	return jsonl.KindAny
}

var fieldKinds = func() *kindTable {
	var t kindTable
	// A name's kind is that of its first field in this order, the order
	// protocol.ZeroFieldKind looks in (asking it for each field cost
	// every command tens of thousands of instructions at init).
	seen := map[string]bool{}
	for _, p := range []*protocol.Protocol{protocol.ZeroV2, protocol.ZeroV1, protocol.ZeroInput} {
		add := func(fs []protocol.Field) {
			for _, f := range fs {
				if seen[f.Name] {
					continue
				}
				seen[f.Name] = true
				if h := nameHash(f.Name); f.Kind != jsonl.KindAny {
					t[h] = append(t[h], kindEntry{f.Name, f.Kind})
				}
			}
		}
		add(p.Envelope)
		for _, e := range p.Events {
			add(e.Fields)
		}
	}
	return &t
}()
