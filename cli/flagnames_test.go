package cli

import (
	"flag"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

// Every flag of every command answers Names() as urfave/cli would, and
// every flag of a known type has its names cached: a flag added with a
// comma or space in a name, or of a type cachedNames does not know, fails
// here rather than costing every run.
func TestCachedFlagNames(t *testing.T) {
	app := newApp(newEnv(strings.NewReader(""), io.Discard, io.Discard))
	// urfave/cli adds its help and version flags to the commands' own.
	sets := [][]ucli.Flag{app.Flags, {ucli.HelpFlag, ucli.VersionFlag}}
	for _, cmd := range app.Commands {
		sets = append(sets, cmd.Flags)
	}
	n := 0
	for _, flags := range sets {
		for _, f := range flags {
			var own []string
			switch f := f.(type) {
			case stringFlag:
				own = f.StringFlag.Names()
			case boolFlag:
				own = f.BoolFlag.Names()
			case *boolFlag:
				own = f.BoolFlag.Names()
			case stringSliceFlag:
				own = f.StringSliceFlag.Names()
			case intFlag:
				own = f.IntFlag.Names()
			case durationFlag:
				own = f.DurationFlag.Names()
			case *ucli.BoolFlag:
				if !f.Hidden {
					t.Errorf("flag %s: names not cached", f.Name)
				}
				continue
			default:
				t.Errorf("flag %v of type %T: names not cached", f.Names(), f)
				continue
			}
			if !reflect.DeepEqual(f.Names(), own) {
				t.Errorf("flag names %q, urfave/cli's %q", f.Names(), own)
			}
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d flags", n)
	}
}

// Every flag registers itself in a command's flag set as urfave/cli's own
// Apply would: the same names, usage, defaults, and the same values once
// the same arguments are parsed, an alias or a bad value included.
func TestCachedFlagApply(t *testing.T) {
	app := newApp(newEnv(strings.NewReader(""), io.Discard, io.Discard))
	sets := [][]ucli.Flag{app.Flags, {ucli.HelpFlag, ucli.VersionFlag}}
	for _, cmd := range app.Commands {
		sets = append(sets, cmd.Flags)
	}
	own := func(f ucli.Flag) ucli.Flag {
		switch f := f.(type) {
		case stringFlag:
			return f.StringFlag
		case boolFlag:
			return f.BoolFlag
		case *boolFlag:
			return f.BoolFlag
		case intFlag:
			return f.IntFlag
		case durationFlag:
			return f.DurationFlag
		}
		return nil
	}
	state := func(fs *flag.FlagSet) string {
		var b strings.Builder
		fs.VisitAll(func(f *flag.Flag) {
			_, isBool := f.Value.(interface{ IsBoolFlag() bool })
			fmt.Fprintf(&b, "%s %q %q %q %v\n", f.Name, f.Usage, f.DefValue, f.Value.String(), isBool)
		})
		return b.String()
	}
	n := 0
	for _, flags := range sets {
		for _, f := range flags {
			orig := own(f)
			if orig == nil {
				continue
			}
			n++
			names := f.Names()
			var tries [][]string
			for _, name := range names {
				tries = append(tries, []string{"--" + name}, []string{"--" + name + "=1"}, []string{"--" + name + "=x"}, []string{"--" + name + "=false", "--" + name + "=3s"})
			}
			for _, args := range append(tries, nil) {
				a, b := flag.NewFlagSet("a", flag.ContinueOnError), flag.NewFlagSet("b", flag.ContinueOnError)
				a.SetOutput(io.Discard)
				b.SetOutput(io.Discard)
				if err := orig.Apply(a); err != nil {
					t.Fatal(err)
				}
				if err := f.Apply(b); err != nil {
					t.Fatal(err)
				}
				if sa, sb := state(a), state(b); sa != sb {
					t.Fatalf("flag %v applied: %q, urfave/cli's %q", names, sb, sa)
				}
				ea, eb := a.Parse(args), b.Parse(args)
				if fmt.Sprint(ea) != fmt.Sprint(eb) || state(a) != state(b) {
					t.Errorf("flag %v, %q: %v, %q; urfave/cli's %v, %q", names, args, eb, state(b), ea, state(a))
				}
				if cb, ok := b.Lookup(names[0]).Value.(interface{ Count() int }); ok {
					if ca := a.Lookup(names[0]).Value.(interface{ Count() int }); ca.Count() != cb.Count() {
						t.Errorf("flag %v, %q: count %d, urfave/cli's %d", names, args, cb.Count(), ca.Count())
					}
				}
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d flags", n)
	}
}

// TestCachedFlagApplyAllocatesLittle: registering translate's flags, as
// every translation does, costs a few allocations a name; urfave/cli's
// Apply ran a regular expression on each name (six more allocations and
// thousands of instructions each).
func TestCachedFlagApplyAllocatesLittle(t *testing.T) {
	flags := cachedNames(translateFlags(false))
	names := 0
	for _, f := range flags {
		names += len(f.Names())
	}
	if names < 20 {
		t.Fatalf("only %d names", names)
	}
	allocs := testing.AllocsPerRun(10, func() {
		fs := flag.NewFlagSet("translate", flag.ContinueOnError)
		for _, f := range flags {
			f.Apply(fs)
		}
	})
	if perName := allocs / float64(names); perName > 4 {
		t.Errorf("applying translate's flags: %.0f allocations for %d names, %.1f a name, more than 4", allocs, names, perName)
	}
}
