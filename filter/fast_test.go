package filter

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

func TestCompileFast(t *testing.T) {
	eq := func(path []string, lit string) *fastCond { return &fastCond{op: gojq.OpEq, path: path, lit: lit} }
	p := func(k ...string) []string { return k }
	for expr, want := range map[string]*fast{
		`select(.type=="tool_call")`:  {op: fastSelect, cond: eq(p("type"), "tool_call")},
		`select("x\u00e9" != ."a b")`: {op: fastSelect, cond: &fastCond{op: gojq.OpNe, path: p("a b"), lit: "xé"}},
		`select(.a=="x") | .b`:        {op: fastSelect, cond: eq(p("a"), "x"), path: p("b")},
		`select(.a.b=="x") | .c."d"`:  {op: fastSelect, cond: eq(p("a", "b"), "x"), path: p("c", "d")},
		`select(.a=="x" and .b=="y" or "z"==.c)`: {op: fastSelect, cond: &fastCond{op: gojq.OpOr,
			l: &fastCond{op: gojq.OpAnd, l: eq(p("a"), "x"), r: eq(p("b"), "y")}, r: eq(p("c"), "z")}},
		`.content`:                            {op: fastPath, path: p("content")},
		`."type"`:                             {op: fastPath, path: p("type")},
		`.usage.input_tokens`:                 {op: fastPath, path: p("usage", "input_tokens")},
		`.content // empty`:                   {op: fastOrEmpty, path: p("content")},
		`.a.b // empty`:                       {op: fastOrEmpty, path: p("a", "b")},
		`.a?`:                                 nil,
		`.a.b?`:                               nil,
		`.a[]`:                                nil,
		`.a[0]`:                               nil,
		`.["a"]`:                              nil,
		`.`:                                   nil,
		`..`:                                  nil,
		`select(.a=="x"|not)`:                 nil,
		`select((.a)=="x")`:                   nil,
		`select((.a=="x") and .b=="y")`:       nil,
		`select(.a=="x" and .b)`:              nil,
		`select(.a=="\(.b)")`:                 nil,
		`select(.a==1)`:                       nil,
		`select(.a=="x"?)`:                    nil,
		`select(.a=="x") | .b | .c`:           nil,
		`select(.a=="x") | .b?`:               nil,
		`select(.a=="x") | .b // empty`:       nil,
		`.b | select(.a=="x")`:                nil,
		`select(.a=="x") | select(.b=="y")`:   nil,
		`select(.a=="x", .b=="y")`:            nil,
		`select(.a < "x")`:                    nil,
		`select(.a == @base64 "x")`:           nil,
		`select(.a=="x")?`:                    nil,
		`.a // empty // 1`:                    nil,
		`(.a // empty)`:                       nil,
		`.a // empty?`:                        nil,
		`.a // "none"`:                        nil,
		`def f: 1; .a`:                        nil,
		`def select(f): 1; select(.a == "x")`: nil,
		`.a as $x | $x`:                       nil,
		`empty`:                               nil,
	} {
		q, err := gojq.Parse(expr)
		if err != nil {
			t.Fatal(expr, err)
		}
		if got := compileFast(q); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %s, want %s", expr, describeFast(got), describeFast(want))
		}
	}
}

func describeFast(f *fast) string {
	if f == nil {
		return "nil"
	}
	var cond func(c *fastCond) string
	cond = func(c *fastCond) string {
		if c == nil {
			return ""
		}
		if c.l != nil {
			return fmt.Sprintf("(%s %v %s)", cond(c.l), c.op, cond(c.r))
		}
		return fmt.Sprintf("%q %v %q", c.path, c.op, c.lit)
	}
	return fmt.Sprintf("{op %d cond %s path %q}", f.op, cond(f.cond), f.path)
}

// fastInputs are values of every kind under the keys the expressions of
// TestFastAsGojq read, and values that are not objects.
func fastInputs(rng *rand.Rand, n int) string {
	vals := []string{`null`, `false`, `true`, `0`, `-0`, `1.50`, `1e2`, `100000000000000000000001`, `NaN`,
		`"x"`, `"tool_call"`, `"tool_call "`, `"Tool_call"`, `"tool\u005fcall"`, `"xé"`, `"x\u00e9"`, `""`,
		"\"\xff\"", `"a\"b"`, `[]`, `["x"]`, `{}`, `{"type":"x"}`, `{"b":"y","type":"tool_call","a":null}`,
		`{"a":{"type":"x"},"b":[1]}`, `{"type":1.0}`}
	keys := []string{"type", "a", "a b", "content", "b"}
	var b strings.Builder
	for range n {
		switch rng.IntN(12) {
		case 0:
			b.WriteString(vals[rng.IntN(len(vals))] + "\n")
		case 1:
			b.WriteString(`{"type": "x", ` + "\n") // a bad line
		default:
			b.WriteString("{")
			for i := range rng.IntN(5) {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%q: %s", keys[rng.IntN(len(keys))], vals[rng.IntN(len(vals))])
			}
			b.WriteString("}\n")
		}
	}
	return b.String()
}

// fastDiff runs expr on input with and without its fast form and
// describes any difference in output, messages or counts.
func fastDiff(t *testing.T, expr string, layout Output, workers int, input string) string {
	t.Helper()
	var outs, errs [2]string
	for i, on := range []bool{true, false} {
		f, err := Compile(Options{Expr: expr, Workers: workers, Output: layout})
		if err != nil {
			t.Fatal(expr, err)
		}
		if f.fast == nil {
			t.Fatalf("%s: no fast form", expr)
		}
		if !on {
			f.fast = nil
		}
		var out, ew strings.Builder
		st, err := f.Run([]Input{strInput("in", input)}, &out, &ew)
		if err != nil {
			t.Fatal(err)
		}
		outs[i], errs[i] = out.String()+fmt.Sprintf("%+v", st), ew.String()
	}
	if outs[0] != outs[1] || errs[0] != errs[1] {
		return fmt.Sprintf("%s, %+v, %d workers, on\n%s\nfast:\n%s\n%s\ngojq:\n%s\n%s", expr, layout, workers, input, outs[0], errs[0], outs[1], errs[1])
	}
	return ""
}

var fastExprs = []string{
	`select(.type=="tool_call")`, `select(.type!="tool_call")`, `select("x" == .a)`, `select(.a == "xé")`,
	`select(."a b" == "")`, `select(.content != "x")`, `select(.type == "x") | .content`, `select(.a != "") | .a`, `.type`,
	`.content`, `."a b"`, `.a // empty`, `.type//empty`, `.a.type`, `.content.a // empty`, `select(.a.type == "x")`,
	`select(.type == "x" and .a.b != "y") | .content.type`, `select(.type == "tool_call" or .a == "x" and .content == "")`,
}

// TestFastAsGojq runs each expression fast knows with and without it, in
// every output layout, serially and in parallel: the output, the messages
// and the counts must be the same.
func TestFastAsGojq(t *testing.T) {
	layouts := []Output{{}, {Compact: true}, {Pretty: true, Indent: 2}, {Pretty: true, Tab: true, Colors: &DefaultPalette},
		{Raw: true}, {Join: true}, {Raw0: true}, {Seq: true}, {ASCII: true}, {SortKeys: true}, {Raw: true, ASCII: true}}
	rng := rand.New(rand.NewPCG(7, 8))
	rounds := 6
	if testing.Short() {
		rounds = 2
	}
	for _, expr := range fastExprs {
		for _, layout := range layouts {
			for _, workers := range []int{1, 2} {
				for range rounds {
					if d := fastDiff(t, expr, layout, workers, fastInputs(rng, 40)); d != "" {
						t.Fatal(d)
					}
				}
			}
		}
	}
}

// FuzzFastAsGojq holds the fast forms to gojq on any input.
func FuzzFastAsGojq(f *testing.F) {
	f.Add(`{"type": "tool_call", "a": "x", "content": false}`+"\n"+`[1]`, uint8(0), false)
	f.Add(`{"type": "x", "content": "\u00e9", "type": "y"}`, uint8(6), true)
	f.Fuzz(func(t *testing.T, input string, which uint8, raw bool) {
		if len(input) > 4096 {
			return
		}
		if d := fastDiff(t, fastExprs[int(which)%len(fastExprs)], Output{Raw: raw}, 2, input); d != "" {
			t.Fatal(d)
		}
	})
}

// An init module (~/.jq) may define select anew: the expression is then
// gojq's alone.
func TestFastNotWithInitModule(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".jq"), []byte(`def select(f): "mine";`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	f, err := Compile(Options{Expr: `select(.type == "x")`, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if f.fast != nil {
		t.Fatal("fast form despite ~/.jq")
	}
	var out, ew strings.Builder
	if _, err := f.Run([]Input{strInput("in", `{"type":"y"}`+"\n")}, &out, &ew); err != nil {
		t.Fatal(err)
	}
	if out.String() != "\"mine\"\n" {
		t.Fatalf("output %q, stderr %q: ~/.jq's select not used", out.String(), ew.String())
	}
}
