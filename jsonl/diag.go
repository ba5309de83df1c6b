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
func (d Diagnostic) String() string { return d.format(false) }

// Labelled formats d as FILE:LINE: error|warning: [FIELD: ]MESSAGE, as
// validate's text output does: the severity always spelled out, so that
// it cannot be taken for a field (Zero's warning event has a field
// warning.message).
func (d Diagnostic) Labelled() string { return d.format(true) }

func (d Diagnostic) format(labelled bool) string {
	var b strings.Builder
	b.WriteString(termsafe.String(d.File))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(d.Line))
	b.WriteString(": ")
	if labelled || d.Severity == SevWarning {
		b.WriteString(string(d.Severity))
		b.WriteString(": ")
	}
	if d.Field != "" {
		b.WriteString(d.Field)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

func (d *Diagnostic) Error() string { return d.String() }
