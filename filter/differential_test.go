package filter

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// The projection oracle: an expression run with projection (only the
// top-level keys it sees decoded) and without must give the same
// results, the same diagnostics and the same counts, on any input.

// projected runs expr on input with projection on and off. skip is true
// when the expression does not compile, has no projection, or ran out of
// time; diff describes a difference.
func projected(expr, input string, layout ...Output) (skip bool, diff string) {
	if strings.Contains(expr, "now") || strings.Contains(expr, "$__prog") {
		return true, "" // not the same from one run to the next
	}
	var outs, errs [2]string
	for i, project := range []bool{true, false} {
		opt := Options{Expr: expr, Workers: 1}
		if len(layout) > 0 {
			opt.Output = layout[0]
		}
		f, err := Compile(opt)
		if err != nil {
			return true, ""
		}
		if f.want == nil {
			return true, ""
		}
		if !project {
			f.want = nil
		}
		ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
		f.ctx = ctx
		var out, ew strings.Builder
		st, err := f.Run([]Input{strInput("in", input)}, &out, &ew)
		timedOut := ctx.Err() != nil
		cancel()
		if err != nil || timedOut {
			return true, ""
		}
		outs[i], errs[i] = out.String()+fmt.Sprintf("%+v", st), ew.String()
	}
	if outs[0] != outs[1] || errs[0] != errs[1] {
		return false, fmt.Sprintf("projected:\n%s\n%s\nfull:\n%s\n%s", outs[0], errs[0], outs[1], errs[1])
	}
	return false, ""
}

// suiteCase is an expression of jq's or gojq's own tests with its input
// (testdata/suites; see the README there).
type suiteCase struct {
	Src, Expr, Input string
}

func suiteCases(t testing.TB) []suiteCase {
	f, err := os.Open("testdata/suites/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []suiteCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c suiteCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	if len(cs) < 1000 {
		t.Fatalf("only %d suite cases", len(cs))
	}
	return cs
}

// genInputs is a stream of objects with the keys the generated
// expressions read, values that are keys of each other, repeated keys,
// and a few lines that are not objects or not JSON.
func genInputs(rng *rand.Rand, n int) string {
	keys := []string{"a", "b", "c", "k", "type", "x"}
	var val func(depth int) string
	val = func(depth int) string {
		switch rng.IntN(10) {
		case 0:
			return "null"
		case 1:
			return fmt.Sprint(rng.IntN(5) - 1)
		case 2:
			return "true"
		case 3, 4:
			return fmt.Sprintf("%q", keys[rng.IntN(len(keys))])
		case 5:
			return `"bc"`
		case 6:
			if depth < 2 {
				return "[" + val(depth+1) + ", " + val(depth+1) + "]"
			}
			return "[]"
		default:
			if depth < 2 {
				var b strings.Builder
				b.WriteString("{")
				for i := range rng.IntN(4) {
					if i > 0 {
						b.WriteString(", ")
					}
					fmt.Fprintf(&b, "%q: %s", keys[rng.IntN(len(keys))], val(depth+1))
				}
				b.WriteString("}")
				return b.String()
			}
			return "{}"
		}
	}
	var b strings.Builder
	for range n {
		switch rng.IntN(20) {
		case 0:
			b.WriteString(val(1) + "\n")
		case 1:
			b.WriteString(`{"a": 1, "b": ` + "\n")
		default:
			b.WriteString("{")
			for i := range 1 + rng.IntN(5) {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%q: %s", keys[rng.IntN(len(keys))], val(1))
			}
			b.WriteString("}\n")
		}
	}
	return b.String()
}

// genExpr makes a random expression over the keys of genInputs, mixing
// what projection understands with what it must give up on.
func genExpr(rng *rand.Rand, depth int) string {
	keys := []string{"a", "b", "c", "k", "type", "x"}
	key := func() string { return keys[rng.IntN(len(keys))] }
	if depth <= 0 {
		switch rng.IntN(8) {
		case 0:
			return "."
		case 1:
			return `"` + key() + `"`
		case 2:
			return fmt.Sprint(rng.IntN(3))
		case 3:
			return "$x"
		case 4:
			return "$__loc__"
		default:
			return "." + key()
		}
	}
	e := func() string { return genExpr(rng, depth-1) }
	forms := []func() string{
		func() string { return "." + key() },
		func() string { return e() + " | " + e() },
		func() string { return e() + ", " + e() },
		func() string { return "select(" + e() + ")" },
		func() string { return e() + " as $x | " + e() },
		func() string { return e() + " // " + e() },
		func() string { return "(" + e() + " + " + e() + ")" },
		func() string { return "(" + e() + " == " + e() + ")" },
		func() string { return "{" + key() + ": " + e() + "}" },
		func() string { return "{" + key() + "}" },
		func() string { return "{(" + e() + "): " + e() + "}" },
		func() string { return "[" + e() + "]" },
		func() string { return "if " + e() + " then " + e() + " else " + e() + " end" },
		func() string { return "if " + e() + " then " + e() + " end" },
		func() string { return "try " + e() + " catch " + e() },
		func() string { return "reduce " + e() + " as $x (" + e() + "; " + e() + ")" },
		func() string { return "foreach " + e() + " as $x (" + e() + "; " + e() + "; " + e() + ")" },
		func() string { return "." + key() + "[" + e() + "]" },
		func() string { return "(" + e() + ")[" + e() + "]" },
		func() string { return "." + key() + "[" + e() + ":" + e() + "]" },
		func() string { return `"\(` + e() + `)"` },
		func() string { return "(" + e() + ")?" },
		func() string { return "label $l | " + e() + " | ., break $l" },
		func() string { return "select(" + e() + ")." + key() },
		func() string { return e() + " as [$x, $y] | " + e() },
		func() string { return e() + " as {a: $x} ?// [$x] | " + e() },
		func() string { return "def f: " + e() + "; f" },
		func() string { return "first(" + e() + ")" },
		func() string { return "error(" + e() + ")" },
		func() string { return "." + key() + " = " + e() },
		func() string { return "." + key() + " |= " + e() },
		func() string { return "del(." + key() + ")" },
		func() string { return "path(" + e() + ")" },
		func() string { return "getpath([" + e() + "])" },
		func() string { return "has(" + e() + ")" },
		func() string { return e() + " | keys" },
		func() string { return e() + " | length" },
		func() string { return e() + " | tojson" },
		func() string { return e() + " | to_entries" },
		func() string { return "[" + e() + " | .[]?]" },
		func() string { return "[.. | numbers]" },
		func() string { return e() + " | @json" },
		func() string { return "." + key() + "?" },
		func() string { return `."` + key() + `"` },
		func() string { return `.["` + key() + `"]` },
		func() string { return `.["\(` + e() + `)"]` },
		func() string { return "-(" + e() + ")" },
		func() string { return "input_line_number" },
		func() string { return "(" + e() + " | not)" },
		func() string { return "error" },
		func() string { return "{$__loc__}" },
	}
	return forms[rng.IntN(len(forms))]()
}

// objectsFor is the generated input every suite expression also runs on.
var objectsFor = genInputs(rand.New(rand.NewPCG(1, 2)), 40)

func TestProjectionSuites(t *testing.T) {
	cases := suiteCases(t)
	step := 1
	if testing.Short() {
		step = 5
	}
	compared := 0
	for i := 0; i < len(cases); i += step {
		c := cases[i]
		skip, diff := projected(c.Expr, c.Input+"\n"+objectsFor)
		if diff != "" {
			t.Errorf("%s: %s: %s", c.Src, c.Expr, diff)
		}
		if !skip {
			compared++
		}
	}
	t.Logf("%d of %d suite expressions projected and compared", compared, len(cases)/step)
	if compared < len(cases)/step/20 {
		t.Errorf("only %d expressions were compared", compared)
	}
}

func TestProjectionGenerated(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 600
	}
	rng := rand.New(rand.NewPCG(3, 4))
	compared := 0
	// every layout, as passed-through values are written from their text
	layouts := []Output{{}, {Compact: true}, {Pretty: true, Indent: 2}, {Pretty: true, Tab: true, Colors: &DefaultPalette}, {Raw: true, Seq: true}}
	for i := range n {
		expr := genExpr(rng, 1+rng.IntN(3))
		skip, diff := projected(expr, genInputs(rng, 8), layouts[i%len(layouts)])
		if diff != "" {
			t.Errorf("%s: %s", expr, diff)
		}
		if !skip {
			compared++
		}
	}
	t.Logf("%d of %d generated expressions projected and compared", compared, n)
	if compared < n/10 {
		t.Errorf("only %d expressions were compared", compared)
	}
}

func FuzzProjection(f *testing.F) {
	for _, c := range suiteCases(f)[:200] {
		f.Add(c.Expr, c.Input)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		f.Add(genExpr(rng, 2), genInputs(rng, 3))
	}
	f.Fuzz(func(t *testing.T, expr, input string) {
		if len(expr) > 300 || len(input) > 4096 {
			return
		}
		if _, diff := projected(expr, input+"\n"+objectsFor); diff != "" {
			t.Errorf("%s: %s", expr, diff)
		}
	})
}
