package zerotest

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects/evosci"
	"github.com/zevo/zevo/dialects/zero"
	"github.com/zevo/zevo/jsonl"
)

// Zero's and EvoScientist's protocols read as a pair, as the run tracker
// and the agreement tests read them: Zero's lines are marked by
// schemaVersion, EvoScientist's are every other line.

// Protocols lists them in a stable order.
var Protocols = []*jsonl.Protocol{zero.V2, zero.V1, zero.Input, evosci.Protocol}

// Lookup finds one of Protocols by name or alias.
func Lookup(name string) (*jsonl.Protocol, error) {
	for _, p := range Protocols {
		for _, n := range p.Names() {
			if n == name {
				return p, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown protocol %q (want %s)", name, strings.Join(protocolNames(), ", "))
}

// protocolNames lists every protocol's name and aliases, for messages.
func protocolNames() []string {
	var out []string
	for _, p := range Protocols {
		out = append(out, p.Names()...)
	}
	return out
}

// Detect names the protocol of one line: a line with "schemaVersion" is
// Zero's — an input event when its type is message or prompt, version 1
// when schemaVersion is 1, else version 2 (a wrong version is the
// schema's to report) —, any other line is EvoScientist's.
func Detect(o *jsonl.LineObject) *jsonl.Protocol {
	return DetectBy(o.Peek("schemaVersion"), o.Peek("type"))
}

// DetectBy is Detect for a caller that has the line's "schemaVersion" and
// "type" values at hand (as Peek returns them).
func DetectBy(sv, typ gjson.Result) *jsonl.Protocol {
	if !sv.Exists() {
		return evosci.Protocol
	}
	switch typ.Raw {
	case `"message"`, `"prompt"`:
		return zero.Input
	}
	if sv.Raw == "1" {
		return zero.V1
	}
	return zero.V2
}

// PairLayouts are zero.Layouts and EvoScientist's, for a reader of both.
var PairLayouts = append(zero.Layouts[:len(zero.Layouts):len(zero.Layouts)], evosci.Layouts...)
