// Package filter runs a jq expression (gojq) on every value of JSONL
// input, in input order, using every core when the expression allows it.
package filter

import (
	"context"
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/itchyny/gojq"

	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/redact"
)

// Var is a named variable for the expression ($name), as --arg and
// --argjson give them.
type Var struct {
	Name  string // without the $
	Value any
}

// Options configure a Filter.
type Options struct {
	Expr     string // the jq program
	ExprName string // where Expr came from, for compile errors ("" for the command line)
	Vars     []Var  // named variables, also in $ARGS.named
	// Positional values are $ARGS.positional.
	Positional []any

	NullInput bool // run once with null as input; input/inputs read the values (-n)
	Slurp     bool // run once on an array of all values (-s)
	RawInput  bool // each line is a string, not JSON (-R)
	Stream    bool // run on the [path, leaf] events of each value (--stream)
	// LibPaths are where import and include find modules (-L); none:
	// jq's ~/.jq, $ORIGIN/../lib/jq, $ORIGIN/../lib.
	LibPaths []string

	Output // how results are written

	FailFast bool // stop at the first bad line or error
	Workers  int  // goroutines for per-line expressions; 0: one per CPU
	// Environ gives $ENV and env; nil: empty.
	Environ func() []string
	// LineGrows, when set, is called by the goroutine that reads with the
	// new capacity of the buffer of a line longer than jsonl.ReaderSize
	// each time it grows (jsonl.Reader.OnGrow): a program that limits
	// its heap can raise the limit for a huge line.
	LineGrows func(capacity int)
	// Redactor, when set, redacts the messages of errors and of lines
	// that are not JSON (which may quote a value); results, debug and
	// stderr output are the program's own and are written as they are.
	Redactor *redact.Redactor
	// Lock, when set, is held while Run writes results out, so that
	// whoever holds it sees the output end at a result's end and can
	// write out the rest with Flush (an interruption).
	Lock sync.Locker
}

// CompileError is an expression that does not parse or compile. It names
// the place in the expression.
type CompileError struct {
	Name   string // ExprName
	Line   int    // 1-based line in the expression
	Column int    // 1-based column, in characters
	Msg    string
	Source string // the expression's line, for showing the place
}

func (e *CompileError) Error() string {
	var b strings.Builder
	where := ""
	if e.Name != "" {
		where = e.Name + ":"
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "compile error at %s%d:%d: %s", where, e.Line, e.Column, e.Msg)
		fmt.Fprintf(&b, "\n    %s\n    %s^", e.Source, strings.Repeat(" ", e.Column-1))
	} else {
		fmt.Fprintf(&b, "compile error: %s%s", where, e.Msg)
	}
	return b.String()
}

// Filter is a compiled expression with its options. A Filter runs once
// (Run) or is fed values one at a time (Eval); it is not safe for
// concurrent use, but Run uses several goroutines inside.
type Filter struct {
	opt      Options
	code     *gojq.Code
	parallel bool
	places   bool  // the parallel path passes each line's place in variables
	vals     []any // variable values: Vars, $ARGS, then the place (parallel)
	src      *source
	seq      *runner // the runner of the sequential path and of Eval
	// want are the only top-level keys the expression sees (nil: all).
	want map[string]bool
	// fast evaluates the expression on objects without gojq (nil: it
	// cannot); see fast.go.
	fast *fast
	// ctx bounds every run of the expression (tests give it a deadline).
	ctx context.Context
	// w is the output of the running Run, set and read with opt.Lock held.
	w *jsonl.Writer
	// reading are the units of the input Run reads, for Pending.
	reading atomic.Pointer[units]
}

// Names of the hidden variables that carry a line's place to the
// expression in the parallel path.
const (
	lineVar = "$__zevo_input_line_number"
	fileVar = "$__zevo_input_filename"
)

// serialWords are the functions that tie one input to another or to the
// order of side effects, so an expression naming them runs on one
// goroutine. The test is on the text: a false alarm costs only speed.
// Compiled on first use, as package-level work is paid by every command.
var serialWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[^A-Za-z0-9_$.])(input|inputs|debug|stderr)([^A-Za-z0-9_]|$)`)
})

// Compile parses and compiles opt.Expr once.
func Compile(opt Options) (*Filter, error) {
	q, err := gojq.Parse(withLoc(opt.Expr, "<top-level>")) // jq's name for the program
	if err != nil {
		ce := &CompileError{Name: opt.ExprName, Msg: err.Error()}
		if pe, ok := err.(*gojq.ParseError); ok {
			off := pe.Offset - len(pe.Token)
			if off < 0 {
				off = 0
			}
			ce.place(opt.Expr, off)
		}
		return nil, ce
	}
	f := &Filter{opt: opt, ctx: context.Background()}
	if f.opt.Workers <= 0 {
		f.opt.Workers = runtime.GOMAXPROCS(0)
	}
	f.parallel = !opt.NullInput && !opt.Slurp && !serialWords().MatchString(opt.Expr)
	f.places = f.parallel && strings.Contains(opt.Expr, "input_")
	if f.parallel && !opt.SortKeys && !opt.ASCII && !opt.RawInput && !opt.Stream {
		f.want = project(q)
	}
	fq := compileFast(q)
	q.FuncDefs = append(missing(opt.Expr), q.FuncDefs...)

	names := make([]string, 0, len(opt.Vars)+3)
	named := make(map[string]any, len(opt.Vars))
	for _, v := range opt.Vars {
		names = append(names, "$"+v.Name)
		f.vals = append(f.vals, v.Value)
		named[v.Name] = v.Value
	}
	pos := opt.Positional
	if pos == nil {
		pos = []any{}
	}
	names = append(names, "$ARGS")
	f.vals = append(f.vals, map[string]any{"positional": pos, "named": named})

	f.src = &source{f: f}
	f.seq = f.newRunner()
	copts := []gojq.CompilerOption{gojq.WithVariables(nil)}
	environ := opt.Environ
	if environ == nil {
		environ = func() []string { return nil }
	}
	copts = append(copts, gojq.WithEnvironLoader(environ))
	paths := opt.LibPaths
	if len(paths) == 0 {
		paths = []string{"~/.jq", "$ORIGIN/../lib/jq", "$ORIGIN/../lib"}
	}
	loader := gojq.NewModuleLoader(paths)
	watch, watched := loader.(moduleLoader)
	if watched {
		watch = &initWatch{moduleLoader: watch}
		loader = watch
	}
	copts = append(copts, gojq.WithModuleLoader(loader))
	if f.places {
		// The place of a line reaches the expression as variables, since a
		// function registered with the compiler cannot tell which
		// goroutine calls it.
		defs, err := gojq.Parse("def input_line_number: " + lineVar + "; def input_filename: " + fileVar + "; .")
		if err != nil {
			panic(err)
		}
		q.FuncDefs = append(defs.FuncDefs, q.FuncDefs...)
		names = append(names, lineVar, fileVar)
	} else if !f.parallel {
		src := f.src
		copts = append(copts,
			gojq.WithFunction("input_line_number", 0, 0, func(any, []any) any {
				if src.num == 0 {
					return 0
				}
				return src.num
			}),
			gojq.WithFunction("input_filename", 0, 0, func(any, []any) any {
				if src.name == "" {
					return nil
				}
				return src.name
			}),
			gojq.WithFunction("debug", 0, 0, func(v any, _ []any) any {
				f.seq.debug(v)
				return v
			}),
			gojq.WithFunction("stderr", 0, 0, func(v any, _ []any) any {
				f.seq.stderr(v)
				return v
			}),
			gojq.WithInputIter(src),
		)
	}
	copts[0] = gojq.WithVariables(names)
	code, err := gojq.Compile(q, copts...)
	if err != nil {
		ce := &CompileError{Name: opt.ExprName, Msg: err.Error()}
		if off := findName(opt.Expr, err.Error()); off >= 0 {
			ce.place(opt.Expr, off)
		}
		return nil, ce
	}
	f.code = code
	// An init module (~/.jq) may define select or empty anew: then the
	// expression is not what fast knows.
	if watched && !watch.(*initWatch).loaded {
		f.fast = fq
	}
	return f, nil
}

// moduleLoader is what gojq's module loader does.
type moduleLoader interface {
	LoadInitModules() ([]*gojq.Query, error)
	LoadModuleWithMeta(name string, meta map[string]any) (*gojq.Query, error)
	LoadJSONWithMeta(name string, meta map[string]any) (any, error)
}

// initWatch is gojq's module loader, noting whether it loaded init modules.
type initWatch struct {
	moduleLoader
	loaded bool
}

func (w *initWatch) LoadInitModules() ([]*gojq.Query, error) {
	qs, err := w.moduleLoader.LoadInitModules()
	w.loaded = w.loaded || len(qs) > 0 || err != nil
	return qs, err
}

// jqOnly are definitions of jq builtins that gojq lacks, as far as gojq
// can give them: it keeps no key order, so keys_unsorted is keys; it
// keeps number literals but has no decimal numbers.
var jqOnly = map[string]string{
	"keys_unsorted":        "def keys_unsorted: keys;",
	"have_literal_numbers": "def have_literal_numbers: true;",
	"have_decnum":          "def have_decnum: false;",
}

// missing returns the definitions of jqOnly that expr names (a false
// alarm costs nothing: a user's own definition comes later and wins).
func missing(expr string) []*gojq.FuncDef {
	var defs []*gojq.FuncDef
	for name, def := range jqOnly {
		if strings.Contains(expr, name) {
			q, err := gojq.Parse(def + " .")
			if err != nil {
				panic(err)
			}
			defs = append(defs, q.FuncDefs...)
		}
	}
	return defs
}

// Parallel reports whether Run filters lines independently on Workers
// goroutines (the per-line path), rather than on one in turn.
func (f *Filter) Parallel() bool { return f.parallel }

// place sets the line and column of byte offset off of src.
func (e *CompileError) place(src string, off int) {
	if off > len(src) {
		off = len(src)
	}
	line := 1 + strings.Count(src[:off], "\n")
	ls := strings.LastIndexByte(src[:off], '\n') + 1
	le := strings.IndexByte(src[ls:], '\n')
	if le < 0 {
		le = len(src) - ls
	}
	e.Line = line
	e.Column = utf8.RuneCountInString(src[ls:off]) + 1
	e.Source = src[ls : ls+le]
}

// notFound matches gojq's messages about an undefined name, to point at
// the name in the expression.
var notFound = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`not defined: (\$?[A-Za-z_][A-Za-z0-9_:]*)`)
})

// findName returns the offset of the first use of the name a compile
// error message mentions, or -1.
func findName(src, msg string) int {
	m := notFound().FindStringSubmatch(msg)
	if m == nil {
		return -1
	}
	name := m[1]
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_$])` + regexp.QuoteMeta(name) + `([^A-Za-z0-9_]|$)`)
	loc := re.FindStringIndex(src)
	if loc == nil {
		return -1
	}
	if loc[0] < len(src) && !strings.HasPrefix(src[loc[0]:], name) {
		return loc[0] + 1
	}
	return loc[0]
}
