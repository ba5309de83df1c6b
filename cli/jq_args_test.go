package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"testing"

	"github.com/zevo/zevo/filter"
)

// TestJQArgsReadAsJqReadsThem pins down how zevo jq reads its command
// line: every option, combined short options, option values, --args and
// --jsonargs, "--", and the exact message of each mistake.
func TestJQArgsReadAsJqReadsThem(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	values := write("values.json", `1 {"a":2.50}`)
	notJSON := write("bad.json", `[1,`)
	text := write("text.txt", "two\nlines\n")
	missing := filepath.Join(dir, "missing")
	_, errMissing := os.ReadFile(missing)

	// want builds the expected result from the empty one.
	want := func(set func(a *jqArgs)) *jqArgs {
		a := &jqArgs{}
		set(a)
		return a
	}
	expr := func(e string, files ...string) func(a *jqArgs) {
		return func(a *jqArgs) { a.opt.Expr, a.haveExpr, a.files = e, true, files }
	}
	for _, tc := range []struct {
		args []string
		want *jqArgs
		err  string
	}{
		{args: nil, want: &jqArgs{}},
		{args: []string{"."}, want: want(expr("."))},
		{args: []string{".a", "f1", "-", "f2"}, want: want(expr(".a", "f1", "-", "f2"))},
		// "-" then a letter or "-" is an option; "-." and "-1" are not.
		{args: []string{"-.", "-1"}, want: want(expr("-.", "-1"))},
		{args: []string{"-nr", ".a", "f1"}, want: want(func(a *jqArgs) {
			expr(".a", "f1")(a)
			a.opt.NullInput, a.opt.Raw = true, true
		})},
		{args: []string{"-cCMrjaSnsRe", "."}, want: want(func(a *jqArgs) {
			expr(".")(a)
			o := &a.opt
			o.Compact, a.color, a.mono, o.Raw, o.Join, o.ASCII, o.SortKeys = true, true, true, true, true, true, true
			o.NullInput, o.Slurp, o.RawInput, a.exitStatus = true, true, true, true
		})},
		{args: []string{"-h"}, want: &jqArgs{help: true}},
		{args: []string{".", "--help", "f"}, want: want(func(a *jqArgs) { expr(".", "f")(a); a.help = true })},
		{args: []string{
			"--compact-output", "--tab", "--color-output", "--monochrome-output", "--raw-output",
			"--join-output", "--raw-output0", "--ascii-output", "--sort-keys", "--seq", "--stream",
			"--null-input", "--slurp", "--raw-input", "--exit-status", "--unbuffered", "--fail-fast",
			"--follow", ".",
		}, want: want(func(a *jqArgs) {
			expr(".")(a)
			o := &a.opt
			o.Compact, o.Tab, a.color, a.mono, o.Raw, o.Join, o.Raw0, o.ASCII = true, true, true, true, true, true, true, true
			o.SortKeys, o.Seq, o.Stream, o.NullInput, o.Slurp, o.RawInput = true, true, true, true, true, true
			a.exitStatus, o.FailFast, a.follow = true, true, true
		})},
		// Options may come after the expression and between files.
		{args: []string{".", "f1", "-r", "f2", "-s"}, want: want(func(a *jqArgs) {
			expr(".", "f1", "f2")(a)
			a.opt.Raw, a.opt.Slurp = true, true
		})},
		// After "--" every argument is an argument.
		{args: []string{".", "--", "-n", "--x", "--"}, want: want(expr(".", "-n", "--x", "--"))},
		{args: []string{"--", "-n"}, want: want(expr("-n"))},
		{args: []string{"-n", "--", "."}, want: want(func(a *jqArgs) { expr(".")(a); a.opt.NullInput = true })},

		// Named values; the first value of a name counts.
		{args: []string{"--arg", "x", "1", "--arg", "x", "2", "--arg", "y", "-n", "."}, want: want(func(a *jqArgs) {
			expr(".")(a)
			a.opt.Vars = []filter.Var{{Name: "x", Value: "1"}, {Name: "y", Value: "-n"}}
		})},
		{args: []string{".", "--argjson", "j", `{"a":[1.50,true,null]}`, "--slurpfile", "s", values, "--rawfile", "r", text},
			want: want(func(a *jqArgs) {
				expr(".")(a)
				a.opt.Vars = []filter.Var{
					{Name: "j", Value: map[string]any{"a": []any{json.Number("1.50"), true, nil}}},
					{Name: "s", Value: []any{json.Number("1"), map[string]any{"a": json.Number("2.50")}}},
					{Name: "r", Value: "two\nlines\n"},
				}
			})},
		{args: []string{".", "--slurpfile", "s", write("empty.json", "")}, want: want(func(a *jqArgs) {
			expr(".")(a)
			a.opt.Vars = []filter.Var{{Name: "s", Value: []any{}}}
		})},
		{args: []string{"--arg", "x"}, err: `jq: --arg needs 2 argument(s) (see zevo jq --help)`},
		{args: []string{".", "--rawfile", "r"}, err: `jq: --rawfile needs 2 argument(s) (see zevo jq --help)`},
		{args: []string{"--argjson", "j", "{"}, err: `jq: --argjson j: invalid JSON: unexpected EOF`},
		{args: []string{"--argjson", "j", "1 2"}, err: `jq: --argjson j: invalid JSON: more than one value`},
		{args: []string{"--slurpfile", "s", missing}, err: `jq: --slurpfile s: ` + errMissing.Error()},
		{args: []string{"--rawfile", "r", missing}, err: `jq: --rawfile r: ` + errMissing.Error()},
		{args: []string{"--slurpfile", "s", notJSON}, err: `jq: --slurpfile s: ` + notJSON + `: invalid JSON: unexpected EOF`},
		{args: []string{"--arg=x", "1", "."}, err: `jq: unknown option "--arg=x" (see zevo jq --help)`},

		// Positional values: --args strings, --jsonargs JSON values; the
		// expression comes first wherever the option is.
		{args: []string{"--args", ".", "a", "-r", "b"}, want: want(func(a *jqArgs) {
			expr(".")(a)
			a.opt.Raw = true
			a.opt.Positional = []any{"a", "b"}
		})},
		{args: []string{".", "f", "--jsonargs", "1", `"s"`, `{"k":[2]}`, "--args", "t", "--", "-u"}, want: want(func(a *jqArgs) {
			expr(".", "f")(a)
			a.opt.Positional = []any{json.Number("1"), "s", map[string]any{"k": []any{json.Number("2")}}, "t", "-u"}
		})},
		{args: []string{".", "--jsonargs", "nope"}, err: `jq: --jsonargs: invalid JSON "nope": invalid character 'o' in literal null (expecting 'u')`},
		{args: []string{".", "--jsonargs", "1 2"}, err: `jq: --jsonargs: invalid JSON "1 2": more than one value`},

		// Options of one value: --name VALUE or --name=VALUE.
		{args: []string{"--indent", "3", "--workers=4", "."}, want: want(func(a *jqArgs) {
			expr(".")(a)
			a.indent, a.indentSet, a.opt.Workers = 3, true, 4
		})},
		{args: []string{"--indent=0", "--workers", "1"}, want: &jqArgs{indentSet: true, opt: filter.Options{Workers: 1}}},
		{args: []string{"--indent", "8"}, err: `jq: --indent takes a number from 0 to 7, not "8"`},
		{args: []string{"--indent=-1"}, err: `jq: --indent takes a number from 0 to 7, not "-1"`},
		{args: []string{"--indent", "x"}, err: `jq: --indent takes a number from 0 to 7, not "x"`},
		{args: []string{".", "--indent"}, err: `jq: --indent needs 1 argument(s) (see zevo jq --help)`},
		{args: []string{"--workers=0"}, err: `jq: --workers: want a number of at least 1, not "0"`},
		{args: []string{"--workers="}, err: `jq: --workers: want a number of at least 1, not ""`},
		{args: []string{"--workers"}, err: `jq: --workers needs 1 argument(s) (see zevo jq --help)`},
		{args: []string{"--library-path", "d1", "--library-path=d2", "-L", "d3", "-Ld4", "-L=d5", "-nLd6", "-L", "-r", "."},
			want: want(func(a *jqArgs) {
				expr(".")(a)
				a.opt.NullInput = true
				a.opt.LibPaths = []string{"d1", "d2", "d3", "d4", "d5", "d6", "-r"}
			})},
		// -L takes the rest of its argument: -Lrn is the directory "rn".
		{args: []string{"-Lrn"}, want: &jqArgs{opt: filter.Options{LibPaths: []string{"rn"}}}},
		{args: []string{"-L="}, err: `jq: -L needs 1 argument(s) (see zevo jq --help)`},
		{args: []string{".", "-nL"}, err: `jq: -L needs 1 argument(s) (see zevo jq --help)`},
		{args: []string{"--library-path"}, err: `jq: --library-path needs 1 argument(s) (see zevo jq --help)`},

		// The program from a file: -f makes the first argument its FILE;
		// --from-file=FILE names it, and every argument is a FILE.
		{args: []string{"-f", "prog.jq", "in1", "in2"}, want: &jqArgs{fromFile: "prog.jq", fromFileFlag: true, files: []string{"in1", "in2"}}},
		{args: []string{"in0", "-nf", "in1"}, want: &jqArgs{fromFile: "in0", fromFileFlag: true, files: []string{"in1"}, opt: filter.Options{NullInput: true}}},
		{args: []string{"--from-file", "prog.jq"}, want: &jqArgs{fromFile: "prog.jq", fromFileFlag: true}},
		{args: []string{"--from-file=prog.jq", "in1", "in2"}, want: &jqArgs{fromFile: "prog.jq", files: []string{"in1", "in2"}}},
		{args: []string{"-f", "--from-file=prog.jq", "in1"}, want: &jqArgs{fromFile: "prog.jq", fromFileFlag: true, files: []string{"in1"}}},
		{args: []string{"--from-file=", "."}, want: want(expr("."))},
		{args: []string{"-f"}, err: `jq: -f needs a program FILE (see zevo jq --help)`},
		{args: []string{"-n", "--from-file"}, err: `jq: -f needs a program FILE (see zevo jq --help)`},

		// Mistakes.
		{args: []string{"--bogus"}, err: `jq: unknown option "--bogus" (see zevo jq --help)`},
		{args: []string{".", "--tab=1"}, err: `jq: unknown option "--tab=1" (see zevo jq --help)`},
		{args: []string{"--unbuffered=yes"}, err: `jq: unknown option "--unbuffered=yes" (see zevo jq --help)`},
		{args: []string{"--=x"}, err: `jq: unknown option "--=x" (see zevo jq --help)`},
		{args: []string{"--c"}, err: `jq: unknown option "--c" (see zevo jq --help)`},
		{args: []string{"--L", "d"}, err: `jq: unknown option "--L" (see zevo jq --help)`},
		{args: []string{"-x"}, err: `jq: unknown option "-x" in "-x" (see zevo jq --help)`},
		{args: []string{"-nxr"}, err: `jq: unknown option "-x" in "-nxr" (see zevo jq --help)`},
		{args: []string{"-nü"}, err: `jq: unknown option "-ü" in "-nü" (see zevo jq --help)`},
		{args: []string{"-n-r"}, err: `jq: unknown option "--" in "-n-r" (see zevo jq --help)`},
		{args: []string{"-t"}, err: `jq: unknown option "-t" in "-t" (see zevo jq --help)`},
		// The first mistake is the one reported.
		{args: []string{"--arg", "x", "1", "--bogus", "--indent", "9"}, err: `jq: unknown option "--bogus" (see zevo jq --help)`},
	} {
		got, err := parseJQArgs(tc.args)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %s", tc.args, err, tc.err)
			} else if code, _ := exitCode(err); code != ExitUsage {
				t.Errorf("%q: exit code %d, want %d", tc.args, code, ExitUsage)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got  %+v\n want %+v", tc.args, *got, *tc.want)
		}
	}
}

// TestJQFlagsAreTheHelpsOptions keeps the option table and the help's
// option lines (which the shells complete from) the same.
func TestJQFlagsAreTheHelpsOptions(t *testing.T) {
	var table, help []string
	for _, f := range jqFlags {
		switch {
		case f.short == 'L': // the help names it -L DIR only
			table = append(table, "-L")
		case f.short != 0:
			table = append(table, "-"+string(f.short)+", --"+f.long)
		default:
			table = append(table, "--"+f.long)
		}
	}
	lines := regexp.MustCompile(`(?m)^ +(-[A-Za-z], --[a-z0-9-]+|--[a-z0-9-]+|-L)\b`)
	for _, m := range lines.FindAllStringSubmatch(jqUsage, -1) {
		help = append(help, m[1])
	}
	if !slices.Equal(table, help) {
		t.Errorf("options of the table:\n%q\nof the help:\n%q", table, help)
	}
}
