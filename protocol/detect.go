package protocol

import "github.com/tidwall/gjson"

// Detect names the protocol of one line, the same rule for every command:
// a line with "schemaVersion" is Zero — an input event when its type is
// message or prompt, version 1 when schemaVersion is 1, else version 2
// (a wrong version is the schema's to report) —, any other line is
// EvoScientist.
func Detect(o *Object) *Protocol { return DetectBy(o.Peek("schemaVersion"), o.Peek("type")) }

// DetectBy is Detect for a caller that has the line's "schemaVersion" and
// "type" values at hand (as Peek returns them).
func DetectBy(sv, typ gjson.Result) *Protocol {
	if !sv.Exists() {
		return EvoSci
	}
	switch typ.Raw {
	case `"message"`, `"prompt"`:
		return ZeroInput
	}
	if sv.Raw == "1" {
		return ZeroV1
	}
	return ZeroV2
}
