package protocol

// Detect names the protocol of one line, the same rule for every command:
// a line with "schemaVersion" is Zero — an input event when its type is
// message or prompt, version 1 when schemaVersion is 1, else version 2
// (a wrong version is the schema's to report) —, any other line is
// EvoScientist.
func Detect(o *Object) *Protocol {
	sv := o.Peek("schemaVersion")
	if !sv.Exists() {
		return EvoSci
	}
	switch o.Peek("type").Raw {
	case `"message"`, `"prompt"`:
		return ZeroInput
	}
	if sv.Raw == "1" {
		return ZeroV1
	}
	return ZeroV2
}
