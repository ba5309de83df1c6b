package protocol

import (
	"strconv"
	"strings"

	"github.com/zevo/zevo/internal/termsafe"
)

// Severity grades a diagnostic. Only errors make a stream invalid.
type Severity string

const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
)

// Diagnostic is one finding about one line, worded the same by every
// command.
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Severity Severity `json:"severity"`
	Field    string   `json:"field,omitempty"` // TYPE.path of the field at fault
	Message  string   `json:"message"`
}

// String formats d as FILE:LINE: [warning: ][FIELD: ]MESSAGE, the file's
// name escaped (a control character in it can neither drive a terminal
// nor start a line).
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(termsafe.String(d.File))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(d.Line))
	b.WriteString(": ")
	if d.Severity == SevWarning {
		b.WriteString("warning: ")
	}
	if d.Field != "" {
		b.WriteString(d.Field)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// NonFiniteMessage is the warning for a bare NaN, Infinity or -Infinity
// read as null.
func NonFiniteMessage(tok string) string {
	return "bare " + tok + " is not JSON (Python writes a non-finite float so); read as null"
}

// DuplicateMessage is the warning for a top-level key that occurs twice.
func DuplicateMessage(key string) string {
	return "duplicate key " + Quote(key) + " (the last one is used)"
}

// Quote renders a value from the input for a diagnostic: quoted, escaped
// (no control or format character reaches the terminal), and clipped.
func Quote(s string) string {
	const max = 60
	r := []rune(s)
	if len(r) > max {
		return strconv.Quote(string(r[:max-3])) + "..."
	}
	return strconv.Quote(s)
}
