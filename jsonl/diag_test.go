package jsonl

import "testing"

func TestDiagnosticStringEscapesFileName(t *testing.T) {
	d := Diagnostic{File: "a\x1b[2J\nb.jsonl", Line: 3, Severity: SevError, Message: "bad"}
	if got, want := d.String(), `a\x1b[2J\nb.jsonl:3: bad`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestDiagnosticOfALineReadsAsEveryCommandWritesIt(t *testing.T) {
	var err error = Line{Name: "in.jsonl", Num: 7}.Diag("no string \"type\" field")
	if got, want := err.Error(), `in.jsonl:7: no string "type" field`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	w := Diagnostic{File: "in.jsonl", Line: 2, Severity: SevWarning, Field: "tool_call", Message: "bare NaN"}
	if got, want := w.String(), "in.jsonl:2: warning: tool_call: bare NaN"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
