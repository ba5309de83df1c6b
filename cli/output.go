package cli

import (
	"bytes"
	"encoding/json"
	"io"
)

// jsonOut is how zevo writes its own JSON (stats --json, validate --json,
// schema): indented on a terminal, for people; otherwise one compact value
// per line, so that zevo jq and jq read it in a pipe.
func jsonOut(w io.Writer, v any) ([]byte, error) {
	if isTerminal(w) {
		return json.MarshalIndent(v, "", "  ")
	}
	return json.Marshal(v)
}

// jsonTextOut is jsonOut for JSON text that is already written out.
func jsonTextOut(w io.Writer, text []byte) []byte {
	var b bytes.Buffer
	if isTerminal(w) {
		return text
	}
	if err := json.Compact(&b, text); err != nil {
		return text
	}
	return append(b.Bytes(), '\n')
}
