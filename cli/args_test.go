package cli

import (
	"io"
	"slices"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

// argCase is a command line (after "zevo") and what a rewrite makes of it.
type argCase struct{ in, want string }

// checkRewrite runs rewrite on each case's words.
func checkRewrite(t *testing.T, rewrite func(*ucli.App, []string) []string, cases []argCase) {
	t.Helper()
	app := newApp(newEnv(strings.NewReader(""), io.Discard, io.Discard))
	for _, tc := range cases {
		got := strings.Join(rewrite(app, append([]string{"zevo"}, strings.Fields(tc.in)...))[1:], " ")
		if got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFlagsFirst(t *testing.T) {
	checkRewrite(t, flagsFirst, []argCase{
		{"stats run.jsonl --json", "stats --json run.jsonl"},
		{"translate --to zero f --jq select(.a)", "translate --to zero --jq select(.a) f"},
		{"translate f --to zero -f", "translate --to zero -f f"},
		{"translate --jq --json f --to evosci", "translate --jq --json --to evosci f"},
		{"validate a -- --json -", "validate -- a --json -"},
		{"validate a - --json", "validate --json a -"},
		{"translate --to zero --", "translate --to zero --"},
		{"f.jsonl --to zero", "--to zero f.jsonl"},
		{"--to zero stats", "--to zero stats"},
		{"jq .a f --arg x y", "jq .a f --arg x y"},
		{"help translate", "help translate"},
		{"stats --j --generate-bash-completion", "stats --j --generate-bash-completion"},
		{"stats --as", "stats --as"},
	})
}

// A command's --help among FILEs shows the command's help, not "No help
// topic for FILE"; a "--help" that is a flag's value or after "--" is not.
func TestHelpAfterFiles(t *testing.T) {
	for _, args := range []string{
		"stats testdata/translate/basic.zero.jsonl --help",
		"schema zero --help",
		"view testdata/translate/basic.zero.jsonl -h",
		"translate testdata/translate/basic.zero.jsonl --to zero --help",
	} {
		code, out, errs := run(t, "", strings.Fields(args)...)
		name := strings.Fields(args)[0]
		if code != 0 || !strings.Contains(out, "zevo "+name+" - ") || errs != "" {
			t.Errorf("zevo %s: exit %d, stderr %q, stdout %.80q", args, code, errs, out)
		}
	}
	code, out, errs := run(t, "", "--to", "zero", "testdata/translate/basic.zero.jsonl", "--help")
	if code != 0 || !strings.Contains(out, "COMMANDS:") || errs != "" {
		t.Errorf("zevo --to zero FILE --help: exit %d, stderr %q, stdout %.80q", code, errs, out)
	}
	checkRewrite(t, helpAlone, []argCase{
		{"translate --jq --help --to zero f", "translate --jq --help --to zero f"},
		{"validate -- --help", "validate -- --help"},
		{"stats --json --help a b", "stats --help"},
		{"jq . --help", "jq . --help"},
		{"--to zero --help x", "--help"},
		{"--to --help x", "--to --help x"},
		{"help translate", "help translate"},
	})
}

// zevo help NAME, with no command NAME, is a usage error that names it.
func TestHelpUnknownTopic(t *testing.T) {
	code, out, errs := run(t, "", "help", "nosuch")
	if code != ExitUsage || out != "" || errs != "zevo: help: no command \"nosuch\" (see zevo --help)\n" {
		t.Errorf("zevo help nosuch: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, args := range [][]string{{"help", "stats"}, {"help"}, {"help", "help"}, {"h", "jq"}} {
		if code, out, errs := run(t, "", args...); code != 0 || out == "" {
			t.Errorf("zevo %v: exit %d, stdout %.80q, stderr %q", args, code, out, errs)
		}
	}
}

// Every usage error names the help to read, a bad value too.
func TestUsageErrorNamesHelp(t *testing.T) {
	for _, tc := range []struct{ args, help string }{
		{"translate --to zro x", "zevo translate --help"},
		{"stats --by nope x", "zevo stats --help"},
		{"view --color sometimes x", "zevo view --help"},
		{"--to zro x", "zevo --help"},
		{"stats --bogus", "zevo stats --help"},
		{"completion", "zevo completion --help"},
	} {
		code, _, errs := run(t, "", strings.Fields(tc.args)...)
		if code != ExitUsage || strings.Count(errs, "--help") != 1 || !strings.Contains(errs, "(see "+tc.help+")") {
			t.Errorf("zevo %s: exit %d, stderr %q; want %d naming %s once", tc.args, code, errs, ExitUsage, tc.help)
		}
	}
}

// FuzzFlagsFirst: reordering keeps every argument, and reordering again
// changes nothing.
func FuzzFlagsFirst(f *testing.F) {
	f.Add("stats\x00run.jsonl\x00--json")
	f.Add("translate\x00--to\x00zero\x00f\x00--jq\x00.\x00--\x00-x")
	f.Add("--to\x00evosci\x00a\x00-f\x00--mapping\x00m.json")
	f.Add("view\x00-\x00--color\x00always\x00--\x00--full")
	app := newApp(newEnv(strings.NewReader(""), io.Discard, io.Discard))
	f.Fuzz(func(t *testing.T, s string) {
		args := append([]string{"zevo"}, strings.Split(s, "\x00")...)
		once := flagsFirst(app, args)
		a, b := slices.Clone(args), slices.Clone(once)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			t.Fatalf("%q became %q", args, once)
		}
		if twice := flagsFirst(app, once); !slices.Equal(twice, once) {
			t.Fatalf("%q became %q, then %q", args, once, twice)
		}
	})
}

// takesValue asks no flag that takes no value for its names (a hidden
// bool flag's Names runs a regular expression), and answers as asking
// every flag did: for each name and alias of every command's flags, and
// for names no flag has.
func TestTakesValueAsEveryFlagSays(t *testing.T) {
	app := newApp(newEnv(strings.NewReader(""), io.Discard, io.Discard))
	lists := [][]ucli.Flag{app.Flags}
	for _, c := range app.Commands {
		lists = append(lists, c.Flags)
	}
	checked := 0
	for _, flags := range lists {
		var args []string
		for _, f := range flags {
			for _, n := range f.Names() {
				args = append(args, "--"+n, "-"+n)
			}
		}
		args = append(args, "--no-such-flag", "-z9", "--to=zero")
		for _, arg := range args {
			want := false
			if !strings.Contains(arg, "=") {
			search:
				for _, f := range flags {
					for _, n := range f.Names() {
						if n == strings.TrimLeft(arg, "-") {
							v, ok := f.(interface{ TakesValue() bool })
							want = ok && v.TakesValue()
							break search
						}
					}
				}
			}
			if got := takesValue(flags, arg); got != want {
				t.Errorf("takesValue(%q) = %v, want %v", arg, got, want)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d arguments checked", checked)
	}
}
