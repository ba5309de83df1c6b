package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// On a terminal zevo jq pretty-prints in colour, as jq does; NO_COLOR, -M
// and -c change that; into a pipe it writes compact lines.
func TestJQTerminalDefaults(t *testing.T) {
	in := `{"b": [1], "a": "x"}` + "\n"
	const pretty = "{\n  \"b\": [\n    1\n  ],\n  \"a\": \"x\"\n}\n"
	colored := "\x1b[1;39m{\n  \x1b[0m\x1b[1;34m\"b\"\x1b[0m\x1b[1;39m: \x1b[0m\x1b[1;39m[\n    \x1b[0;39m1\x1b[0m\x1b[1;39m\n  \x1b[1;39m]\x1b[0m\x1b[1;39m,\n  \x1b[0m\x1b[1;34m\"a\"\x1b[0m\x1b[1;39m: \x1b[0m\x1b[0;32m\"x\"\x1b[0m\x1b[1;39m\n\x1b[1;39m}\x1b[0m\n"
	for _, c := range []struct {
		tty     bool
		noColor string
		args    []string
		want    string
	}{
		{true, "", nil, colored},
		{true, "1", nil, pretty},
		{true, "", []string{"-M"}, pretty},
		{true, "1", []string{"-C"}, colored},
		{true, "", []string{"-M", "-c"}, `{"b":[1],"a":"x"}` + "\n"},
		{false, "", nil, in},
		{false, "", []string{"-c"}, `{"b":[1],"a":"x"}` + "\n"},
		{false, "", []string{"--indent", "2"}, pretty},
	} {
		t.Setenv("NO_COLOR", c.noColor)
		t.Setenv("JQ_COLORS", "")
		defer func(f func(io.Writer) bool) { jqTerminal = f }(jqTerminal)
		jqTerminal = func(io.Writer) bool { return c.tty }
		var out, errw bytes.Buffer
		args := append(append([]string{"zevo", "jq"}, c.args...), ".")
		if code := Run(args, strings.NewReader(in), &out, &errw); code != 0 || errw.Len() > 0 {
			t.Fatalf("%v: exit %d, %s", args, code, errw.String())
		}
		if out.String() != c.want {
			t.Errorf("terminal %v, NO_COLOR=%q, %v:\n got %q\nwant %q", c.tty, c.noColor, c.args, out.String(), c.want)
		}
	}
}

// --help says what the output looks like where.
func TestJQHelpStatesTheDefaultLayout(t *testing.T) {
	var out, errw bytes.Buffer
	if code := Run([]string{"zevo", "jq", "--help"}, strings.NewReader(""), &out, &errw); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	help := strings.Join(strings.Fields(out.String()), " ")
	for _, want := range []string{
		"on a terminal, results are pretty-printed (2 spaces) in jq's colours",
		"into a pipe or a file, each result is one compact line",
		"-c compacts those too",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("--help does not say %q", want)
		}
	}
}
