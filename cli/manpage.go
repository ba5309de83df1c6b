package cli

import (
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// manPage writes zevo's manual page in roff (man(7)) from the command
// tree that help prints. urfave/cli's own page goes through Markdown
// (go-md2man and blackfriday), whose package initialisation, a dozen
// regular expressions and an entity table, every command paid at start;
// with this page zevo builds with urfave/cli's urfave_cli_no_docs tag,
// which leaves them out (README, Install).
func manPage(app *ucli.App) string {
	var b strings.Builder
	// No hyphenation: option names and paths are not to be broken
	// (groff's man macros turn it back on at each paragraph unless HY is 0).
	b.WriteString(".nh\n.TH zevo 1 \"\" \"zevo " + roffEscape(app.Version) + "\" \"User Commands\"\n.nr HY 0\n.nh\n")
	b.WriteString(".SH NAME\nzevo \\- " + roffEscape(app.Usage) + "\n")
	b.WriteString(".SH SYNOPSIS\n.B zevo\n[\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR...]\n")
	b.WriteString(".SH DESCRIPTION\n")
	roffParagraphs(&b, app.Description)

	b.WriteString(".SH GLOBAL OPTIONS\n")
	flags := app.VisibleFlags()
	if !app.HideHelp && ucli.HelpFlag != nil {
		flags = append(flags, ucli.HelpFlag)
	}
	if !app.HideVersion && ucli.VersionFlag != nil {
		flags = append(flags, ucli.VersionFlag)
	}
	roffFlags(&b, flags)

	b.WriteString(".SH COMMANDS\n")
	for _, c := range app.VisibleCommands() {
		b.WriteString(".SS " + roffEscape(c.Name) + "\n")
		// jq's options are its own, not urfave's flags: its help text
		// (what zevo help jq prints) says them, and its usage lines.
		help, synopsis := c.Description, []string{"zevo " + c.Name}
		if c.CustomHelpTemplate != "" {
			help = c.CustomHelpTemplate
			if usage, rest, ok := strings.Cut(help, "\n\n"); ok && strings.HasPrefix(usage, "Usage: ") {
				help, synopsis = rest, strings.Split(usage, "\n")
				for i, l := range synopsis {
					synopsis[i] = strings.TrimSpace(strings.TrimPrefix(l, "Usage: "))
				}
			}
		} else {
			if len(c.VisibleFlags()) > 0 && !c.SkipFlagParsing {
				synopsis[0] += " [OPTIONS]"
			}
			if c.ArgsUsage != "" {
				synopsis[0] += " " + c.ArgsUsage
			}
		}
		for i, l := range synopsis {
			if i > 0 {
				b.WriteString(".br\n")
			}
			b.WriteString("\\fB" + roffOptions(roffEscape(l)) + "\\fR\n")
		}
		b.WriteString(".PP\n" + roffEscape(c.Usage) + "\n")
		roffParagraphs(&b, help)
		if flags := c.VisibleFlags(); len(flags) > 0 && !c.SkipFlagParsing {
			b.WriteString(".PP\nOptions:\n")
			roffFlags(&b, flags)
		}
	}
	return b.String()
}

// docFlag is what the page shows of a flag (every urfave/cli flag type
// has it).
type docFlag interface {
	ucli.Flag
	TakesValue() bool
	GetUsage() string
	GetDefaultText() string
}

// roffFlags writes one tagged paragraph a flag: its names, its value's
// placeholder (the usage's `NAME`), its usage and its default, as help
// prints them.
func roffFlags(b *strings.Builder, flags []ucli.Flag) {
	for _, f := range flags {
		d, ok := f.(docFlag)
		if !ok {
			continue
		}
		placeholder, usage := unquoteUsage(d.GetUsage())
		b.WriteString(".TP\n")
		for i, n := range f.Names() {
			if i > 0 {
				b.WriteString(", ")
			}
			dash := "\\-"
			if len(n) > 1 {
				dash = "\\-\\-"
			}
			b.WriteString("\\fB" + dash + roffOptions(roffEscape(n)) + "\\fR")
		}
		if d.TakesValue() {
			if placeholder == "" {
				placeholder = "value"
			}
			b.WriteString(" \\fI" + roffEscape(placeholder) + "\\fR")
		}
		b.WriteString("\n" + roffLine(roffEscape(usage)))
		if def := d.GetDefaultText(); d.TakesValue() && def != "" {
			b.WriteString(" (default: " + roffEscape(def) + ")")
		}
		b.WriteString("\n")
	}
}

// roffParagraphs writes help text: paragraphs apart at blank lines,
// filled; indented lines (examples, option lists) as they are, in an
// example block, so that they can be copied.
func roffParagraphs(b *strings.Builder, text string) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for i := 0; i < len(lines); {
		switch line := lines[i]; {
		case strings.TrimSpace(line) == "":
			i++
		case line[0] == ' ' || line[0] == '\t':
			j := i
			for j < len(lines) && (strings.TrimSpace(lines[j]) == "" || lines[j][0] == ' ' || lines[j][0] == '\t') {
				j++
			}
			block := lines[i:j]
			for len(block) > 0 && strings.TrimSpace(block[len(block)-1]) == "" {
				block = block[:len(block)-1]
			}
			indent := len(block[0])
			for _, l := range block {
				if t := strings.TrimLeft(l, " \t"); t != "" {
					indent = min(indent, len(l)-len(t))
				}
			}
			b.WriteString(".PP\n.RS 4\n.EX\n")
			for _, l := range block {
				if len(l) >= indent {
					l = l[indent:]
				}
				b.WriteString(roffLine(strings.ReplaceAll(roffEscape(l), "-", "\\-")) + "\n")
			}
			b.WriteString(".EE\n.RE\n")
			i = j
		default:
			b.WriteString(".PP\n")
			for ; i < len(lines) && strings.TrimSpace(lines[i]) != "" && lines[i][0] != ' ' && lines[i][0] != '\t'; i++ {
				b.WriteString(roffLine(roffEscape(lines[i])) + "\n")
			}
		}
	}
}

// roffEscape makes text print as it is: a backslash is roff's escape.
func roffEscape(s string) string {
	return strings.ReplaceAll(s, `\`, `\e`)
}

// roffLine keeps a line that starts with a period or an apostrophe from
// being read as a request.
func roffLine(s string) string {
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		return `\&` + s
	}
	return s
}

// roffOptions writes a word's hyphens as minus signs, as options are
// typed.
func roffOptions(s string) string {
	return strings.ReplaceAll(s, "-", `\-`)
}

// unquoteUsage is a flag's value placeholder, the first `NAME` in its
// usage, and the usage without the backquotes, as help shows them.
func unquoteUsage(usage string) (placeholder, text string) {
	before, rest, ok := strings.Cut(usage, "`")
	if !ok {
		return "", usage
	}
	name, after, ok := strings.Cut(rest, "`")
	if !ok {
		return "", usage
	}
	return name, before + name + after
}
