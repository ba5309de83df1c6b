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

func TestDiagnosticLabelledSpellsOutEverySeverity(t *testing.T) {
	for _, c := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{File: "a\nb", Line: 1, Severity: SevError, Message: "bad"}, `a\nb:1: error: bad`},
		{Diagnostic{File: "f", Line: 2, Severity: SevError, Field: "warning.message", Message: "missing"}, "f:2: error: warning.message: missing"},
		{Diagnostic{File: "f", Line: 3, Severity: SevWarning, Field: "text", Message: "bare NaN"}, "f:3: warning: text: bare NaN"},
	} {
		if got := c.d.Labelled(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.d, got, c.want)
		}
	}
}
