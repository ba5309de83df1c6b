package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/filter"
	"github.com/zevo/zevo/internal/termsafe"
)

const jqUsage = `Usage: zevo jq [OPTIONS] [EXPR] [FILE...]
       zevo jq [OPTIONS] -f PROGRAM-FILE [FILE...]

Runs the jq expression EXPR (. when there is none) on every JSON value of
each FILE (standard input when none is given, or for "-"). Values are read
as jq reads them: one or more per line, or spread over lines (pretty-printed
JSON). The expression is compiled once; unless it reads other inputs (input,
inputs, -n, -s) or writes to stderr (debug, stderr), values are filtered on
every core, and results keep the input order.

Output: on a terminal, results are pretty-printed (2 spaces) in jq's colours;
into a pipe or a file, each result is one compact line, and a result that is
the input value itself (., select(...)) is written byte for byte as it was
read (-c compacts those too; --indent N or --tab pretty-print). Numbers are
never rounded. A value that is not JSON is reported as FILE:LINE: reason and
skipped; an error in the expression on one value is reported as FILE:LINE:
message and the next value is filtered.

Options (jq's meanings):
  -c, --compact-output     one compact result per line, passed-through values too
      --indent N           pretty-print with N spaces (0 to 7; 0 is compact)
      --tab                pretty-print with a tab per level
  -C, --color-output       colour JSON (JQ_COLORS sets the colours), also into a pipe
  -M, --monochrome-output  no colour (also when NO_COLOR is set)
  -r, --raw-output         write string results without quotes
  -j, --join-output        like -r, without a newline after each result
      --raw-output0        like -r, with a NUL instead of the newline
  -a, --ascii-output       escape every non-ASCII character as \uXXXX
  -S, --sort-keys          sort object keys, also of values written as read
      --seq                write an RS character (0x1e) before each JSON result
      --stream             run on [path, leaf] events of each value (tostream)
  -n, --null-input         run once with null as input; input and inputs read the values
  -s, --slurp              run once on the array of all values
  -R, --raw-input          each line is a string, not JSON
  -e, --exit-status        exit 1 if the last result was false or null, 4 if there was none
  -f, --from-file FILE     read the expression from FILE; every argument is then a FILE
  -L DIR                   search DIR for modules (import, include); repeatable
      --arg NAME VALUE     $NAME is the string VALUE (the first of a NAME counts)
      --argjson NAME JSON  $NAME is the JSON value JSON
      --slurpfile NAME FILE  $NAME is the array of the JSON values in FILE
      --rawfile NAME FILE  $NAME is the text of FILE
      --args               the remaining arguments are strings in $ARGS.positional
      --jsonargs           the remaining arguments are JSON values in $ARGS.positional
      --unbuffered         accepted: output is flushed whenever input would wait
zevo options:
      --fail-fast          stop at the first bad value or error
      --workers N          goroutines filtering values (default: one per CPU)
      --follow             keep reading the last FILE as it grows, as tail -f does,
                           until interrupted (-f is --from-file, as in jq)
  -h, --help               show this help

input_line_number and input_filename give the place of the current value.

Exit codes: 0 success; 1 with -e, the last result was false or null; 2 bad
options, or a FILE could not be read; 3 the expression does not compile; 4
with -e, no result; 5 some values were not JSON or the expression raised an
error (results for the others were written); halt_error sets its own.

Examples:
   zevo jq 'select(.type == "tool_call") | .name' run.evosci.jsonl
   zevo jq -r '.content // empty' run.evosci.jsonl
   zevo jq -n 'reduce inputs as $e (0; . + ($e.output_tokens // 0))' run.evosci.jsonl
   curl -s https://api.example.com/items | zevo jq '.items[].name'
   zevo translate --to zero run.evosci.jsonl --jq 'select(.type == "tool_result" and .status == "error")'
`

func jqCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "jq",
		Usage:     "run a jq expression on every JSON value of the input",
		ArgsUsage: "[OPTIONS] [EXPR] [FILE...]",
		// jq's options (--arg NAME VALUE, -nr, --args) are not urfave's.
		SkipFlagParsing: true,
		Action: func(c *ucli.Context) error {
			return runJQ(e, c.Args().Slice())
		},
		// The options are not urfave's flags: the shells get them from
		// the help's option lines.
		BashComplete: func(c *ucli.Context) {
			args := c.Args().Slice()
			if len(args) == 0 || !strings.HasPrefix(args[len(args)-1], "-") {
				return // an EXPR or a FILE: the shell's own completion
			}
			for _, m := range jqOptionNames().FindAllStringSubmatch(jqUsage, -1) {
				fmt.Fprintln(c.App.Writer, m[1])
			}
		},
	}
}

// jqOptionNames finds the long option of each option line of jqUsage;
// compiled on first use (completion only), not by every command's init.
var jqOptionNames = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^ +(?:-[A-Za-z], )? *(--[a-z0-9-]+)`)
})

// jqTerminal reports whether w is a terminal; tests replace it.
var jqTerminal = isTerminal

// jqArgs is the parsed command line of zevo jq.
type jqArgs struct {
	opt        filter.Options
	exitStatus bool
	help       bool
	fromFile   string
	// fromFileFlag: -f was given; the program file is the first argument
	fromFileFlag bool
	files        []string
	haveExpr     bool
	// layout and colour as given; resolved against the terminal later
	indent      int
	indentSet   bool
	color, mono bool
	follow      bool
}

// jqFlag is one option of zevo jq.
type jqFlag struct {
	short rune   // -c; 0: none
	long  string // --compact-output, without the dashes; "": none
	// n is the number of arguments that follow the option. -L takes its
	// one as the rest of its argument too (-LDIR, -L=DIR).
	n int
	// eq: --long=VALUE gives the value (alone, --from-file is -f).
	eq  bool
	set func(p *jqParser, v []string) error
}

// jqParser is the state of parseJQArgs.
type jqParser struct {
	a *jqArgs
	// positional is what an argument after the expression is: 0 a FILE,
	// 1 a string (--args), 2 a JSON value (--jsonargs).
	positional int
	named      map[string]bool // the names of --arg and its kin so far
}

// jqOn is the set of a flag that turns on the field its argument returns.
func jqOn(field func(a *jqArgs) *bool) func(*jqParser, []string) error {
	return func(p *jqParser, _ []string) error { *field(p.a) = true; return nil }
}

// jqVar is the set of --arg, --argjson, --slurpfile and --rawfile.
func jqVar(opt string) func(*jqParser, []string) error {
	return func(p *jqParser, v []string) error {
		val, err := varValue(opt, v[0], v[1])
		if err != nil {
			return err
		}
		if !p.named[v[0]] { // jq keeps the first value of a name
			p.named[v[0]] = true
			p.a.opt.Vars = append(p.a.opt.Vars, filter.Var{Name: v[0], Value: val})
		}
		return nil
	}
}

// jqValued is the set of an option of one value, read by jqArgs.valued.
func jqValued(opt string) func(*jqParser, []string) error {
	return func(p *jqParser, v []string) error { return p.a.valued(opt, v[0]) }
}

// jqFlags are zevo jq's options, in jqUsage's order.
var jqFlags = []jqFlag{
	{'c', "compact-output", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.Compact })},
	{0, "indent", 1, true, jqValued("--indent")},
	{0, "tab", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.Tab })},
	{'C', "color-output", 0, false, jqOn(func(a *jqArgs) *bool { return &a.color })},
	{'M', "monochrome-output", 0, false, jqOn(func(a *jqArgs) *bool { return &a.mono })},
	{'r', "raw-output", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.Raw })},
	{'j', "join-output", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.Join })},
	{0, "raw-output0", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.Raw0 })},
	{'a', "ascii-output", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.ASCII })},
	{'S', "sort-keys", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.SortKeys })},
	{0, "seq", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.Seq })},
	{0, "stream", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.Stream })},
	{'n', "null-input", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.NullInput })},
	{'s', "slurp", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.Slurp })},
	{'R', "raw-input", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.RawInput })},
	{'e', "exit-status", 0, false, jqOn(func(a *jqArgs) *bool { return &a.exitStatus })},
	{'f', "from-file", 0, true, func(p *jqParser, v []string) error {
		if len(v) == 0 {
			p.a.fromFileFlag = true
			return nil
		}
		return p.a.valued("--from-file", v[0])
	}},
	{'L', "library-path", 1, true, jqValued("--library-path")},
	{0, "arg", 2, false, jqVar("--arg")},
	{0, "argjson", 2, false, jqVar("--argjson")},
	{0, "slurpfile", 2, false, jqVar("--slurpfile")},
	{0, "rawfile", 2, false, jqVar("--rawfile")},
	{0, "args", 0, false, func(p *jqParser, _ []string) error { p.positional = 1; return nil }},
	{0, "jsonargs", 0, false, func(p *jqParser, _ []string) error { p.positional = 2; return nil }},
	{0, "unbuffered", 0, false, func(*jqParser, []string) error { return nil }},
	{0, "fail-fast", 0, false, jqOn(func(a *jqArgs) *bool { return &a.opt.FailFast })},
	{0, "workers", 1, true, jqValued("--workers")},
	{0, "follow", 0, false, jqOn(func(a *jqArgs) *bool { return &a.follow })},
	{'h', "help", 0, false, jqOn(func(a *jqArgs) *bool { return &a.help })},
}

// jqFlagNamed returns the option of the short name c, or with c 0 of the
// long name, or nil.
func jqFlagNamed(c rune, long string) *jqFlag {
	for i, f := range jqFlags {
		if c != 0 && f.short == c || c == 0 && long != "" && f.long == long {
			return &jqFlags[i]
		}
	}
	return nil
}

// parseJQArgs reads zevo jq's command line through jqFlags as jq reads
// its own: options anywhere, short ones combined (-nr), "--" ending them.
func parseJQArgs(args []string) (*jqArgs, error) {
	p := &jqParser{a: &jqArgs{}, named: map[string]bool{}}
	noMore := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if noMore || !optish(arg) {
			if err := p.argument(arg); err != nil {
				return nil, err
			}
			continue
		}
		if arg == "--" {
			noMore = true
			continue
		}
		// next returns the n arguments after option name.
		next := func(name string, n int) ([]string, error) {
			if i+n >= len(args) {
				return nil, usageErr("jq: %s needs %d argument(s) (see zevo jq --help)", name, n)
			}
			i += n
			return args[i-n+1 : i+1], nil
		}
		read := p.shorts
		if strings.HasPrefix(arg, "--") {
			read = p.long
		}
		if err := read(arg, next); err != nil {
			return nil, err
		}
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	return p.a, nil
}

// long reads a long option (--name, --name=VALUE).
func (p *jqParser) long(arg string, next func(string, int) ([]string, error)) error {
	name, val, hasVal := strings.Cut(arg, "=")
	f := jqFlagNamed(0, name[2:])
	if f == nil || hasVal && !f.eq {
		return usageErr("jq: unknown option %q (see zevo jq --help)", arg)
	}
	v := []string{val}
	if !hasVal {
		var err error
		if v, err = next(name, f.n); err != nil {
			return err
		}
	}
	return f.set(p, v)
}

// shorts reads one argument of short options (-nr); one that takes a value
// takes the rest of the argument, or the next (see parseJQArgs).
func (p *jqParser) shorts(arg string, next func(string, int) ([]string, error)) error {
	for j, c := range arg[1:] {
		f := jqFlagNamed(c, "")
		if f == nil {
			return usageErr("jq: unknown option %q in %q (see zevo jq --help)", "-"+string(c), arg)
		}
		var v []string
		var err error
		if f.n > 0 {
			// The names are ASCII: the rest begins after one byte.
			if v = []string{strings.TrimPrefix(arg[2+j:], "=")}; v[0] == "" {
				v, err = next("-"+string(c), f.n)
			}
		}
		if err == nil {
			err = f.set(p, v)
		}
		if err != nil || f.n > 0 {
			return err
		}
	}
	return nil
}

// argument reads an argument that is not an option: the expression, then
// FILEs, or the values of --args or --jsonargs.
func (p *jqParser) argument(s string) error {
	a := p.a
	switch {
	case !a.haveExpr && a.fromFile == "":
		a.opt.Expr, a.haveExpr = s, true
	case p.positional == 1:
		a.opt.Positional = append(a.opt.Positional, s)
	case p.positional == 2:
		v, err := parseJSONArg(s)
		if err != nil {
			return usageErr("jq: --jsonargs: invalid JSON %q: %v", s, err)
		}
		a.opt.Positional = append(a.opt.Positional, v)
	default:
		a.files = append(a.files, s)
	}
	return nil
}

// end settles the program file once every argument is read.
func (p *jqParser) end() error {
	a := p.a
	switch {
	case a.fromFile != "" && a.haveExpr:
		// With --from-file=FILE the first argument was a FILE, not an
		// expression.
		a.files = append([]string{a.opt.Expr}, a.files...)
		a.opt.Expr, a.haveExpr = "", false
	case a.fromFileFlag && a.fromFile == "":
		// With -f, as in jq, the first argument names the program file.
		if !a.haveExpr {
			return usageErr("jq: -f needs a program FILE (see zevo jq --help)")
		}
		a.fromFile = a.opt.Expr
		a.opt.Expr, a.haveExpr = "", false
	}
	return nil
}

// jqOutputFlags are zevo jq's output options as flags of translate, for
// its --jq stage.
func jqOutputFlags(hidden bool) []ucli.Flag {
	flag := func(name, alias, usage string) ucli.Flag {
		f := &ucli.BoolFlag{Name: name, Hidden: hidden, Usage: "with --jq: " + usage}
		if alias != "" {
			f.Aliases = []string{alias}
		}
		return f
	}
	return []ucli.Flag{
		flag("compact-output", "c", "one compact result per line, passed-through events too"),
		&ucli.IntFlag{Name: "indent", Hidden: hidden, Usage: "with --jq: pretty-print with `N` spaces (0 to 7; 0 is compact)"},
		flag("tab", "", "pretty-print with a tab per level"),
		flag("color-output", "C", "colour JSON results (JQ_COLORS sets the colours)"),
		flag("monochrome-output", "M", "no colour"),
		flag("raw-output", "r", "write string results without quotes"),
		flag("join-output", "j", "like -r, without a newline after each result"),
		flag("raw-output0", "", "like -r, with a NUL instead of the newline"),
		flag("ascii-output", "a", "escape every non-ASCII character as \\uXXXX"),
		flag("sort-keys", "S", "sort object keys, also of events written as read"),
		flag("seq", "", "write an RS character before each JSON result"),
	}
}

// jqOutput reads the flags of jqOutputFlags. Results are laid out as
// zevo jq lays them out into a pipe unless the flags say otherwise.
func jqOutput(c *ucli.Context, stderr io.Writer) (filter.Output, error) {
	a := &jqArgs{color: c.Bool("color-output"), mono: c.Bool("monochrome-output")}
	o := &a.opt.Output
	o.Compact, o.Tab = c.Bool("compact-output"), c.Bool("tab")
	o.Raw, o.Join, o.Raw0 = c.Bool("raw-output"), c.Bool("join-output"), c.Bool("raw-output0")
	o.ASCII, o.SortKeys, o.Seq = c.Bool("ascii-output"), c.Bool("sort-keys"), c.Bool("seq")
	if c.IsSet("indent") {
		if err := a.valued("--indent", strconv.Itoa(c.Int("indent"))); err != nil {
			return *o, err
		}
	}
	a.layout(false, os.Getenv, stderr)
	return *o, nil
}

// optish tells an option from an argument as jq does: "-" and then a
// letter or "-" ("-" alone and "-." or "-1" are arguments).
func optish(arg string) bool {
	return len(arg) > 1 && arg[0] == '-' && (arg[1] == '-' || arg[1] >= 'a' && arg[1] <= 'z' || arg[1] >= 'A' && arg[1] <= 'Z')
}

// valued sets an option that takes one value.
func (a *jqArgs) valued(name, val string) error {
	switch name {
	case "--from-file":
		a.fromFile = val
	case "--library-path":
		a.opt.LibPaths = append(a.opt.LibPaths, val)
	case "--indent":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 || n > 7 {
			return usageErr("jq: --indent takes a number from 0 to 7, not %q", val)
		}
		a.indent, a.indentSet = n, true
	case "--workers":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 {
			return usageErr("jq: --workers: want a number of at least 1, not %q", val)
		}
		a.opt.Workers = n
	}
	return nil
}

// layout settles the output layout and colours: pretty and coloured on a
// terminal, compact into a pipe, as the options change it.
func (a *jqArgs) layout(tty bool, getenv func(string) string, stderr io.Writer) {
	o := &a.opt.Output
	switch {
	case o.Compact || (a.indentSet && a.indent == 0 && !o.Tab):
		o.Compact, o.Tab = true, false
	case o.Tab || a.indentSet || tty:
		o.Pretty, o.Indent = true, 2
		if a.indentSet {
			o.Indent = a.indent
		}
	}
	color := (tty && getenv("NO_COLOR") == "" || a.color) && !a.mono
	if !color {
		return
	}
	p, err := filter.ParseColors(getenv("JQ_COLORS"))
	if err != nil {
		fmt.Fprintf(stderr, "zevo: jq: failed to set $JQ_COLORS: %s\n", termsafe.String(err.Error()))
		p, _ = filter.ParseColors("")
	}
	o.Colors = p
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
	if !a.haveExpr && a.fromFile == "" {
		if jqTerminal(e.stdout) && isTerminalReader(e.stdin) {
			return usageErr("jq: no expression given and nothing to read (see zevo jq --help)")
		}
		a.opt.Expr = "." // as jq does
	}
	a.layout(jqTerminal(e.stdout), os.Getenv, e.stderr)
	a.opt.Environ = os.Environ
	a.opt.Lock = &e.mu
	a.opt.LineGrows = raiseHeapLimit
	a.opt.Redactor = e.msgs // its messages, not its results
	f, err := filter.Compile(a.opt)
	if err != nil {
		return &exitError{ExitJQCompile, "jq: " + err.Error()}
	}
	// A signal: the results so far are written out, whole (the filter
	// writes with e.mu held, which the signal's handler holds too), and
	// the line the input stopped inside is read as a file ending there
	// would read it.
	e.whenStopped(func() {
		if f.Flush() == nil {
			f.Pending(e.stderr)
			f.Flush()
		}
	})
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
	// work at the cost of a few tens of megabytes. In parallel, the soft
	// heap limit, not the growth of the heap, paces the collector: it runs
	// once the heap nears the limit.
	gc := 400
	if f.Parallel() {
		gc = 800
		defer limitHeap()()
	}
	defer debug.SetGCPercent(debug.SetGCPercent(gc))
	st, err := f.Run(inputs, e.stdout, e.stderr)
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return silentExit(jqExitCode(st, a.exitStatus))
}

// heapLimit is the soft limit of the Go heap while the filter runs in
// parallel, unless GOMEMLIMIT sets one: the workers allocate (decoded
// values, results) faster than the collector, paced by the live heap
// alone, catches up on a busy machine, and the heap would overshoot to
// several times what is live. It is set here, where the process is owned,
// not in package filter, which a host program may embed.
const heapLimit = 40 << 20

// heapLimited is whether limitHeap's limit is in force.
var heapLimited atomic.Bool

// limitHeap sets heapLimit when no limit is set, and returns what undoes it.
func limitHeap() func() {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return func() {}
	}
	prev := debug.SetMemoryLimit(heapLimit)
	heapLimited.Store(true)
	return func() {
		heapLimited.Store(false)
		debug.SetMemoryLimit(prev)
	}
}

// raiseHeapLimit makes room under limitHeap's limit, never lowering it,
// for a line whose buffer grows to capacity bytes: the line, the values
// decoded from it and a result as long are live at once. Under 40 MiB, a
// 200 MB line had the collector run 520 times while it was read and
// filtered, each run signalling the reading goroutine until it could stop
// it: 4.8 s, against 2.9 s without the limit.
func raiseHeapLimit(capacity int) {
	if !heapLimited.Load() {
		return
	}
	if want := int64(heapLimit) + 3*int64(capacity); want > debug.SetMemoryLimit(-1) {
		debug.SetMemoryLimit(want)
	}
}

// jqExitCode picks the exit code of a finished run; see cli/exit.go for the
// order.
func jqExitCode(st filter.Stats, exitStatus bool) int {
	switch {
	case st.Halted:
		return st.HaltCode
	case st.Unread > 0:
		return ExitJQSystem
	case st.Bad > 0 || st.Errors > 0:
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
