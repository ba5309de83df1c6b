package cli

import (
	"errors"
	"flag"
	"strconv"

	ucli "github.com/urfave/cli/v2"
)

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

// urfave/cli's Apply, which registers a flag in the flag set of the
// command being run, asks the flag's embedded Names() again, with the
// regular expression (140,000 instructions for translate's flags on
// every run). These register the cached names in the same way. A flag
// that reads the environment or a file, or writes to a Destination or a
// Count, takes urfave/cli's own Apply (zevo has none).
func (f boolFlag) Apply(set *flag.FlagSet) error {
	b := f.BoolFlag
	if len(b.EnvVars) > 0 || b.FilePath != "" || b.Destination != nil || b.Count != nil {
		return b.Apply(set)
	}
	dest, count := new(bool), -len(b.Aliases)
	*dest = b.Value
	for _, name := range f.names {
		set.Var(&boolValue{dest, &count}, name, b.Usage)
	}
	return nil
}

func (f stringFlag) Apply(set *flag.FlagSet) error {
	s := f.StringFlag
	if len(s.EnvVars) > 0 || s.FilePath != "" || s.Destination != nil {
		return s.Apply(set)
	}
	for _, name := range f.names {
		set.String(name, s.Value, s.Usage)
	}
	return nil
}

func (f intFlag) Apply(set *flag.FlagSet) error {
	i := f.IntFlag
	if len(i.EnvVars) > 0 || i.FilePath != "" || i.Destination != nil || (i.Base != 0 && i.Base != 10) {
		return i.Apply(set)
	}
	for _, name := range f.names {
		set.Int(name, i.Value, i.Usage)
	}
	return nil
}

func (f durationFlag) Apply(set *flag.FlagSet) error {
	d := f.DurationFlag
	if len(d.EnvVars) > 0 || d.FilePath != "" || d.Destination != nil {
		return d.Apply(set)
	}
	for _, name := range f.names {
		set.Duration(name, d.Value, d.Usage)
	}
	return nil
}

// boolValue is urfave/cli's value of a boolean flag: shared by its
// names, counting how often it is given.
type boolValue struct {
	dest  *bool
	count *int
}

func (b *boolValue) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("parse error") // urfave/cli's wording
	}
	*b.dest = v
	*b.count++
	return nil
}

func (b *boolValue) Get() any         { return *b.dest }
func (b *boolValue) String() string   { return strconv.FormatBool(b.dest != nil && *b.dest) }
func (b *boolValue) IsBoolFlag() bool { return true }
func (b *boolValue) Count() int       { return max(*b.count, 0) }
