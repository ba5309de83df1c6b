package cli

import ucli "github.com/urfave/cli/v2"

// urfave/cli finds a flag by calling each flag's Names(), which runs a
// regular expression over each of its names, and before a command runs it
// looks every flag up by every name (runFlagActions), so the work grows
// with the square of the flags: it was most of the instructions of a
// small translation. cachedNames gives each flag a Names() that returns
// its name and aliases as they are (zevo's have no comma or space for
// the expression to cut; TestCachedFlagNames checks); the flag is
// otherwise the same, its other methods its own.
func cachedNames(flags []ucli.Flag) []ucli.Flag {
	out := make([]ucli.Flag, len(flags))
	for i, f := range flags {
		out[i] = f
		switch f := f.(type) {
		case *ucli.StringFlag:
			out[i] = stringFlag{f, names(f.Name, f.Aliases)}
		case *ucli.BoolFlag:
			// Completion leaves out a hidden flag only when it sees a
			// *BoolFlag: a hidden one stays as it is.
			if !f.Hidden {
				out[i] = boolFlag{f, names(f.Name, f.Aliases)}
			}
		case *ucli.StringSliceFlag:
			out[i] = stringSliceFlag{f, names(f.Name, f.Aliases)}
		case *ucli.IntFlag:
			out[i] = intFlag{f, names(f.Name, f.Aliases)}
		case *ucli.DurationFlag:
			out[i] = durationFlag{f, names(f.Name, f.Aliases)}
		}
	}
	return out
}

// urfave/cli adds its own help flag to every command, at the end of its
// flags, so each lookup of a flag placed after it, or of none, ran the
// expression on its names: most of what the flags still cost a small
// translation. Its version flag is looked up on every run without a
// command word. Both are set once, before any App runs, each as a
// pointer: urfave/cli compares flags with == to add them once.
func init() {
	for _, f := range []*ucli.Flag{&ucli.HelpFlag, &ucli.VersionFlag} {
		if b, ok := (*f).(*ucli.BoolFlag); ok {
			*f = &boolFlag{b, names(b.Name, b.Aliases)}
		}
	}
}

func names(name string, aliases []string) []string {
	return append([]string{name}, aliases...)
}

type stringFlag struct {
	*ucli.StringFlag
	names []string
}

func (f stringFlag) Names() []string { return f.names }

type boolFlag struct {
	*ucli.BoolFlag
	names []string
}

func (f boolFlag) Names() []string { return f.names }

type stringSliceFlag struct {
	*ucli.StringSliceFlag
	names []string
}

func (f stringSliceFlag) Names() []string { return f.names }

type intFlag struct {
	*ucli.IntFlag
	names []string
}

func (f intFlag) Names() []string { return f.names }

type durationFlag struct {
	*ucli.DurationFlag
	names []string
}

func (f durationFlag) Names() []string { return f.names }
