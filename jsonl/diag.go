package jsonl

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
// command: the one type of every command's line diagnostics. As an error
// (a *Diagnostic) it reads as String does.
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Severity Severity `json:"severity"`
	Field    string   `json:"field,omitempty"` // TYPE.path of the field at fault
	Message  string   `json:"message"`
}

// Diag is the error diagnostic msg about l.
func (l Line) Diag(msg string) *Diagnostic {
	return &Diagnostic{File: l.Name, Line: l.Num, Severity: SevError, Message: msg}
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

func (d *Diagnostic) Error() string { return d.String() }
