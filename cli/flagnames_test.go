package cli

import (
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
