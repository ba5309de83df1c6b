package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/filter"
)

const jqUsage = `Usage: zevo jq [OPTIONS] EXPR [FILE...]
       zevo jq [OPTIONS] -f PROGRAM-FILE [FILE...]

Runs the jq expression EXPR on every JSON value of each FILE (standard input
when none is given, or for "-"), one line at a time, and writes each result
as one line of JSON. The expression is compiled once; unless it reads other
inputs (input, inputs, -n, -s) or writes to stderr (debug, stderr), lines
are filtered on every core, and results keep the input order.

A result that is the input line itself (., select(...)) is written byte for
byte as it was read. Numbers are never rounded. A line that is not JSON is
reported as FILE:LINE: reason and skipped; an error in the expression on one
line is reported as FILE:LINE: message and the next line is filtered.

Options (jq's meanings):
  -c, --compact-output     one result per line (the default; accepted for jq's sake)
  -r, --raw-output         write string results without quotes
  -j, --join-output        like -r, without a newline after each result
  -a, --ascii-output       escape every non-ASCII character as \uXXXX
  -S, --sort-keys          sort object keys, also of lines written as read
      --seq                write an RS character (0x1e) before each result
  -n, --null-input         run once with null as input; input and inputs read the values
  -s, --slurp              run once on the array of all values
  -R, --raw-input          each line is a string, not JSON
  -e, --exit-status        exit 1 if the last result was false or null, 4 if there was none
  -f, --from-file FILE     read the expression from FILE; every argument is then a FILE
      --arg NAME VALUE     $NAME is the string VALUE
      --argjson NAME JSON  $NAME is the JSON value JSON
      --slurpfile NAME FILE  $NAME is the array of the JSON values in FILE
      --rawfile NAME FILE  $NAME is the text of FILE
      --args               the remaining arguments are strings in $ARGS.positional
      --jsonargs           the remaining arguments are JSON values in $ARGS.positional
zevo options:
      --fail-fast          stop at the first bad line or error
      --workers N          goroutines filtering lines (default: one per CPU)
      --follow             keep reading the last FILE as it grows, as tail -f does,
                           until interrupted (-f is --from-file, as in jq)
  -h, --help               show this help

input_line_number and input_filename give the place of the current line.

Exit codes: 0 success; 1 some lines were not JSON or a FILE could not be read
(results of the other lines were written), or with -e the last result was false
or null; 2 bad options; 3 the expression does not compile; 4 with -e no result;
5 the expression raised an error on some line; halt_error sets its own.

Examples:
   zevo jq 'select(.type == "tool_call") | .name' run.evosci.jsonl
   zevo jq -r '.content // empty' run.evosci.jsonl
   zevo jq -n 'reduce inputs as $e (0; . + ($e.output_tokens // 0))' run.evosci.jsonl
   zevo translate --to zero run.evosci.jsonl --jq 'select(.type == "tool_result" and .status == "error")'
`

func jqCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "jq",
		Usage:     "run a jq expression on every line of JSONL input",
		ArgsUsage: "[OPTIONS] EXPR [FILE...]",
		// jq's options (--arg NAME VALUE, -nr, --args) are not urfave's.
		SkipFlagParsing: true,
		Action: func(c *ucli.Context) error {
			return runJQ(e, c.Args().Slice())
		},
	}
}

// jqArgs is the parsed command line of zevo jq.
type jqArgs struct {
	opt        filter.Options
	exitStatus bool
	help       bool
	fromFile   string
	files      []string
	follow     bool
}

func parseJQArgs(args []string) (*jqArgs, error) {
	a := &jqArgs{}
	haveExpr := false
	positional := 0 // 0 files, 1 strings, 2 JSON values
	noMore := false
	addPositional := func(s string) error {
		switch {
		case !haveExpr && a.fromFile == "":
			a.opt.Expr, haveExpr = s, true
		case positional == 1:
			a.opt.Positional = append(a.opt.Positional, s)
		case positional == 2:
			v, err := parseJSONArg(s)
			if err != nil {
				return usageErr("--jsonargs: invalid JSON %q: %v", s, err)
			}
			a.opt.Positional = append(a.opt.Positional, v)
		default:
			a.files = append(a.files, s)
		}
		return nil
	}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if noMore || arg == "-" || !strings.HasPrefix(arg, "-") {
			if err := addPositional(arg); err != nil {
				return nil, err
			}
			continue
		}
		if arg == "--" {
			noMore = true
			continue
		}
		// need returns the n values after option name.
		need := func(name string, n int) ([]string, error) {
			if i+n >= len(args) {
				return nil, usageErr("jq: %s needs %d argument(s) (see zevo jq --help)", name, n)
			}
			v := args[i+1 : i+1+n]
			i += n
			return v, nil
		}
		if strings.HasPrefix(arg, "--") {
			name, val, hasVal := strings.Cut(arg, "=")
			if hasVal && name != "--workers" && name != "--from-file" {
				return nil, usageErr("jq: unknown option %q (see zevo jq --help)", arg)
			}
			switch name {
			case "--compact-output":
			case "--raw-output":
				a.opt.Raw = true
			case "--join-output":
				a.opt.Join = true
			case "--ascii-output":
				a.opt.ASCII = true
			case "--sort-keys":
				a.opt.SortKeys = true
			case "--seq":
				a.opt.Seq = true
			case "--null-input":
				a.opt.NullInput = true
			case "--slurp":
				a.opt.Slurp = true
			case "--raw-input":
				a.opt.RawInput = true
			case "--exit-status":
				a.exitStatus = true
			case "--fail-fast":
				a.opt.FailFast = true
			case "--follow":
				a.follow = true
			case "--help":
				a.help = true
			case "--args":
				positional = 1
			case "--jsonargs":
				positional = 2
			case "--from-file", "--workers":
				if !hasVal {
					v, err := need(name, 1)
					if err != nil {
						return nil, err
					}
					val = v[0]
				}
				if name == "--from-file" {
					a.fromFile = val
					break
				}
				n, err := strconv.Atoi(val)
				if err != nil || n < 1 {
					return nil, usageErr("jq: --workers: want a number of at least 1, not %q", val)
				}
				a.opt.Workers = n
			case "--arg", "--argjson", "--slurpfile", "--rawfile":
				v, err := need(name, 2)
				if err != nil {
					return nil, err
				}
				val, err := varValue(name, v[0], v[1])
				if err != nil {
					return nil, err
				}
				a.opt.Vars = append(a.opt.Vars, filter.Var{Name: v[0], Value: val})
			default:
				return nil, usageErr("jq: unknown option %q (see zevo jq --help)", arg)
			}
			continue
		}
		for j, c := range arg[1:] {
			switch c {
			case 'c':
			case 'r':
				a.opt.Raw = true
			case 'j':
				a.opt.Join = true
			case 'a':
				a.opt.ASCII = true
			case 'S':
				a.opt.SortKeys = true
			case 'n':
				a.opt.NullInput = true
			case 's':
				a.opt.Slurp = true
			case 'R':
				a.opt.RawInput = true
			case 'e':
				a.exitStatus = true
			case 'h':
				a.help = true
			case 'f':
				if j != len(arg)-2 {
					return nil, usageErr("jq: -f must come last in %q", arg)
				}
				v, err := need("-f", 1)
				if err != nil {
					return nil, err
				}
				a.fromFile = v[0]
			default:
				return nil, usageErr("jq: unknown option %q in %q (see zevo jq --help)", "-"+string(c), arg)
			}
		}
	}
	if a.fromFile != "" && haveExpr {
		// With -f the first argument was a FILE, not an expression.
		a.files = append([]string{a.opt.Expr}, a.files...)
		a.opt.Expr = ""
	}
	if !haveExpr && a.fromFile == "" && !a.help {
		return nil, usageErr("jq: no expression given (see zevo jq --help)")
	}
	return a, nil
}

// varValue reads the value of --arg, --argjson, --slurpfile or --rawfile.
func varValue(opt, name, v string) (any, error) {
	switch opt {
	case "--arg":
		return v, nil
	case "--argjson":
		x, err := parseJSONArg(v)
		if err != nil {
			return nil, usageErr("jq: --argjson %s: invalid JSON: %v", name, err)
		}
		return x, nil
	}
	data, err := os.ReadFile(v)
	if err != nil {
		return nil, usageErr("jq: %s %s: %v", opt, name, err)
	}
	if opt == "--rawfile" {
		return string(data), nil
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	all := []any{}
	for {
		var x any
		if err := d.Decode(&x); err == io.EOF {
			return all, nil
		} else if err != nil {
			return nil, usageErr("jq: --slurpfile %s: %s: invalid JSON: %v", name, v, err)
		}
		all = append(all, x)
	}
}

// parseJSONArg reads one JSON value, numbers kept as spelled.
func parseJSONArg(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("more than one value")
	}
	return x, nil
}

func runJQ(e *env, args []string) error {
	a, err := parseJQArgs(args)
	if err != nil {
		return err
	}
	if a.help {
		return writeOut(e, jqUsage)
	}
	if a.fromFile != "" {
		data, err := os.ReadFile(a.fromFile)
		if err != nil {
			return usageErr("jq: -f: %v", err)
		}
		a.opt.Expr, a.opt.ExprName = string(data), a.fromFile
	}
	a.opt.Environ = os.Environ
	a.opt.StdinName = stdinName
	f, err := filter.Compile(a.opt)
	if err != nil {
		return &exitError{ExitJQCompile, "jq: " + err.Error()}
	}
	e.setFollow(a.follow, a.files)
	names := a.files
	if len(names) == 0 {
		names = []string{"-"}
	}
	inputs := make([]filter.Input, len(names))
	for i, name := range names {
		display := name
		if name == "-" {
			display = stdinName
		}
		inputs[i] = filter.Input{Name: display, Open: func() (io.ReadCloser, error) {
			_, r, err := e.openInput(name)
			return r, err
		}}
	}
	// Filtering allocates many short-lived values per line while the live
	// heap stays small; collecting less often saves a good share of the
	// work at the cost of a few tens of megabytes.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	st, err := f.Run(inputs, e.stdout, e.stderr)
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return silentExit(jqExitCode(st, a.exitStatus))
}

// jqExitCode picks the exit code of a finished run; see cli/exit.go for the
// order.
func jqExitCode(st filter.Stats, exitStatus bool) int {
	switch {
	case st.Halted:
		return st.HaltCode
	case st.Bad > 0:
		return ExitDiagnostics
	case st.Errors > 0:
		return ExitJQError
	case !exitStatus:
		return ExitOK
	case st.Outputs == 0:
		return ExitJQNoOutput
	case !st.LastTruthy:
		return ExitJQFalse
	}
	return ExitOK
}
