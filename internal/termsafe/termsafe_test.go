package termsafe

import "testing"

func TestStringEscapesControlsAndKeepsPrintableText(t *testing.T) {
	for in, want := range map[string]string{
		"plain/file-name.jsonl": "plain/file-name.jsonl",
		"a\x1b[2J\nb":           `a\x1b[2J\nb`,
		"é\u202eevil":           `é\u202eevil`,
		"bad\xffbyte":           `bad\xffbyte`,
		`already\x1b`:           `already\x1b`, // escaping twice changes nothing
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
