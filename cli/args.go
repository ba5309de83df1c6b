package cli

import (
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// completionFlag is the argument with which a shell asks for completions
// (see zevo completion); it must stay last.
const completionFlag = "--generate-bash-completion"

// completionArgs prepares a shell's request for completions (args ending
// in completionFlag). A "--" being typed asks for every flag, as "-" does.
// After a complete "--" every word is positional (files, an agent's
// arguments), which zevo leaves to the shell: ok is false, and the command
// must not run, for it would read the terminal or start the agent.
func completionArgs(args []string) (out []string, ok bool) {
	words := args[:len(args)-1]
	for i, a := range words {
		if i == 0 || a != "--" {
			continue
		}
		if i < len(words)-1 {
			return nil, false
		}
		out = append(slices.Clone(words[:i]), "-", completionFlag)
		return out, true
	}
	return args, true
}

// flagsFirst reorders a command line so that flags come before the
// positional arguments, as urfave/cli expects: "zevo stats run.jsonl
// --json" reads as "zevo stats --json run.jsonl". Which arguments are flag
// values is told by each command's own flag definitions; "--" ends the
// flags, and everything after it stays positional. Commands that parse
// their own arguments (jq) are left alone.
func flagsFirst(app *ucli.App, args []string) []string {
	if len(args) < 2 || args[len(args)-1] == completionFlag {
		return args
	}
	rest := args[1:]
	i := commandAt(app, rest)
	if i < len(rest) {
		if cmd := app.Command(rest[i]); cmd != nil {
			if cmd.SkipFlagParsing {
				return args
			}
			out := append([]string{args[0]}, rest[:i+1]...)
			return append(out, reorder(cmd.Flags, rest[i+1:])...)
		}
	}
	return append([]string{args[0]}, reorder(app.Flags, rest)...)
}

// commandAt is the index in args (the words after the program's name) of
// the command word, past the top-level flags; len(args) if there is none.
func commandAt(app *ucli.App, args []string) int {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-" && args[i] != "--" {
		if takesValue(app.Flags, args[i]) {
			i++
		}
		i++
	}
	return i
}

// helpAlone turns a command line that asks for a command's help among
// other arguments (zevo stats run.jsonl --help) into "zevo stats --help",
// and zevo's (zevo --to zero run.jsonl --help) into "zevo --help":
// urfave/cli would take the FILEs for help topics. args are in flagsFirst's
// order: the command's flags first.
func helpAlone(app *ucli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	rest := args[1:]
	// zevo's own flags (zevo --to zero FILE --help), or a command's.
	flags, from := app.Flags, 0
	if i := commandAt(app, rest); i < len(rest) {
		if cmd := app.Command(rest[i]); cmd != nil {
			if cmd.SkipFlagParsing {
				return args
			}
			flags, from = cmd.Flags, i+1
		}
	}
	for j := from; j < len(rest); j++ {
		a := rest[j]
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			break
		}
		if a == "-h" || a == "--help" || a == "-help" {
			return append(slices.Clone(args[:from+1]), "--help")
		}
		if takesValue(flags, a) {
			j++
		}
	}
	return args
}

// unknownHelpTopic is the usage error of "zevo help NAME" when there is
// no command NAME (urfave/cli's own answer exits 1 and suggests a command
// unrelated to NAME).
func unknownHelpTopic(app *ucli.App, args []string) error {
	if len(args) < 2 {
		return nil
	}
	rest := args[1:]
	i := commandAt(app, rest)
	if i+1 >= len(rest) || (rest[i] != "help" && rest[i] != "h") {
		return nil
	}
	name := rest[i+1]
	// The help command itself is added when the app runs.
	if strings.HasPrefix(name, "-") || name == "help" || name == "h" || app.Command(name) != nil {
		return nil
	}
	return usageErr("help: no command %q (see zevo --help)", name)
}

// helpFor names the help of the command of a command line; "" for a
// command that parses its own options (jq, whose messages are jq's).
func helpFor(app *ucli.App, args []string) string {
	if len(args) > 1 {
		rest := args[1:]
		if i := commandAt(app, rest); i < len(rest) {
			if cmd := app.Command(rest[i]); cmd != nil {
				if cmd.SkipFlagParsing {
					return ""
				}
				return "zevo " + cmd.Name + " --help"
			}
		}
	}
	return "zevo --help"
}

// reorder puts the flags of args (with their values) first, then "--" if
// it was given, then the positional arguments in their order.
func reorder(flags []ucli.Flag, args []string) []string {
	var opts, pos []string
	dashes := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
			dashes = true
		case strings.HasPrefix(a, "-") && a != "-":
			opts = append(opts, a)
			if takesValue(flags, a) && i+1 < len(args) {
				i++
				opts = append(opts, args[i])
			}
		default:
			pos = append(pos, a)
		}
	}
	if dashes {
		opts = append(opts, "--")
	}
	return append(opts, pos...)
}

// takesValue reports whether arg ("--name" or "-n", without "=value") is
// a flag of flags that reads the next argument as its value.
func takesValue(flags []ucli.Flag, arg string) bool {
	if strings.Contains(arg, "=") {
		return false
	}
	name := strings.TrimLeft(arg, "-")
	for _, f := range flags {
		// Names are asked only of flags that take a value: a hidden
		// bool flag's Names runs urfave/cli's regular expression on
		// each name (cachedNames), which cost most of a small run.
		if v, ok := f.(interface{ TakesValue() bool }); !ok || !v.TakesValue() {
			continue
		}
		if slices.Contains(f.Names(), name) {
			return true
		}
	}
	return false
}
