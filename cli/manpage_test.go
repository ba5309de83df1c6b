package cli

import (
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

// TestManPageEscapes: text that roff would read as a request or an
// escape prints as it is, and what help hides the page leaves out too.
func TestManPageEscapes(t *testing.T) {
	app := &ucli.App{
		Name:        "zevo",
		Usage:       `a \ b`,
		Description: ".SH not a section\n'also not a request\nC:\\path",
		Commands: []*ucli.Command{
			{Name: "shown", Usage: "u", ArgsUsage: "[FILE...]", Flags: []ucli.Flag{
				&ucli.StringFlag{Name: "to", Aliases: []string{"t"}, Value: "zero", Usage: "target `FORMAT`"},
				&ucli.StringFlag{Name: "plain", Usage: "no placeholder"},
				&ucli.BoolFlag{Name: "secret", Hidden: true, Usage: "hidden"},
			}},
			{Name: "gone", Hidden: true, Usage: "hidden command"},
		},
	}
	page := manPage(app)
	for _, bad := range []string{"\n.SH not", "\n'also", `C:\path`, `a \ b`, "secret", "gone", "hidden command"} {
		if strings.Contains(page, bad) {
			t.Errorf("page has %q:\n%s", bad, page)
		}
	}
	for _, want := range []string{
		"\n\\&.SH not a section\n",
		"\n\\&'also not a request\n",
		`C:\epath`,
		`zevo \- a \e b`,
		".SS shown\n\\fBzevo shown [OPTIONS] [FILE...]\\fR\n",
		"\\fB\\-\\-to\\fR, \\fB\\-t\\fR \\fIFORMAT\\fR\ntarget FORMAT (default: \"zero\")\n",
		"\\fB\\-\\-plain\\fR \\fIvalue\\fR\nno placeholder\n",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
}

// TestManPageCoversHelp: every command and option that help shows is on
// the page, and jq's own usage lines are its synopsis.
func TestManPageCoversHelp(t *testing.T) {
	app := newApp(newEnv(strings.NewReader(""), nil, nil))
	page := manPage(app)
	commands := 0
	for _, c := range app.VisibleCommands() {
		commands++
		if !strings.Contains(page, "\n.SS "+c.Name+"\n") {
			t.Errorf("no section for %s", c.Name)
		}
		if c.SkipFlagParsing {
			continue
		}
		for _, f := range c.VisibleFlags() {
			name := `\fB\-\-` + strings.ReplaceAll(f.Names()[0], "-", `\-`) + `\fR`
			if !strings.Contains(page, name) {
				t.Errorf("%s: no %s", c.Name, name)
			}
		}
	}
	if commands < 9 {
		t.Fatalf("only %d commands", commands)
	}
	if !strings.Contains(page, "\n.SS jq\n\\fBzevo jq [OPTIONS] [EXPR] [FILE...]\\fR\n.br\n\\fBzevo jq [OPTIONS] \\-f PROGRAM\\-FILE [FILE...]\\fR\n") {
		t.Errorf("jq's synopsis is not its usage lines:\n%s", page)
	}
	if strings.Contains(page, "Usage: zevo jq") {
		t.Error("jq's usage lines are repeated in its text")
	}
}
