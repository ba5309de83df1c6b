package zero

import (
	"fmt"
	"github.com/zevo/zevo/jsonl"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
)

// prepare is what translate checks of a Zero line before decoding it:
// the JSON kinds of the fields Zero's event structs give them (a client
// refuses a line of another), and a schemaVersion it knows.
var prepare = &event.Prepare{
	Kinds:      fieldKinds,
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

// fieldKinds is FieldKind as a table made once: a name's
// kind is that of its first field in this order, the order
// FieldKind looks in (asking it for each field cost every
// command tens of thousands of instructions at init).
var fieldKinds = func() *event.FieldKinds {
	t := &event.FieldKinds{}
	seen := map[string]bool{}
	for _, p := range []*jsonl.Protocol{V2, V1, Input} {
		add := func(fs []jsonl.Field) {
			for _, f := range fs {
				if !seen[f.Name] {
					seen[f.Name] = true
					t.Add(f.Name, f.Kind)
				}
			}
		}
		add(p.Envelope)
		for _, e := range p.Events {
			add(e.Fields)
		}
	}
	return t
}()
