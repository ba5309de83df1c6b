package filter

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

func TestProject(t *testing.T) {
	for expr, want := range map[string]string{
		`select(.type=="tool_call")`: "type",
		`.content // empty`:          "content",
		`select(.type == "x" and .success == false) | {id, name, content}`: "content id name success type",
		`select(.a) | .b.c[0]`:          "a b",
		`.type | select(. == "x")`:      "type",
		`if .a then . else .b end`:      "a b",
		`."k", .["k"]`:                  "ALL",
		`{x: .a, "y": .b, (.c): 1}`:     "a b c",
		`"\(.a) \(.b)"`:                 "a b",
		`.a as $x | $x`:                 "a",
		`. as $x | $x`:                  "ALL",
		`.a as $x | .`:                  "a",
		`.c[.k // "y"]`:                 "c k",
		`.c[.a + .b]`:                   "a b c",
		`.c[.a:.b]`:                     "a b c",
		`select(.a).b`:                  "a b",
		`select(.a)[]`:                  "ALL",
		`.a as {(.k): $v} | $v`:         "ALL",
		`reduce . as $x (0; 1)`:         "ALL",
		`reduce .a as $x (.; 1)`:        "ALL",
		`label $f | select(.a)`:         "a",
		`try error catch .`:             "ALL",
		`try error(.a) catch .`:         "a",
		`.a | .[.b]`:                    "a",
		`{"\(.k)"}`:                     "ALL",
		`[.]`:                           "ALL",
		`{a: .}`:                        "ALL",
		`keys`:                          "ALL",
		`select(.a) | keys`:             "ALL",
		`select(.a) | tojson`:           "ALL",
		`.[]`:                           "ALL",
		`.. | numbers`:                  "ALL",
		`. + {x: 1}`:                    "ALL",
		`.a = 1`:                        "ALL",
		`del(.a)`:                       "ALL",
		`def f: .; f`:                   "ALL",
		`select(.a)?`:                   "a",
		`"\(.)"`:                        "ALL",
		`@json`:                         "ALL",
		`if . then 1 else 2 end`:        "ALL",
		`reduce .a[] as $x (0; . + $x)`: "a",
		`try .a`:                        "a",
		`.a | length, (.b | keys)`:      "a",
		`select(.a) | input_line_number, $__loc__`: "a",
		`[.a, .b] | @csv`:                          "a b",
		`.a |= 1`:                                  "ALL",
		`to_entries`:                               "ALL",
		`if .a then . end | tojson`:                "ALL",
		`select(.a) | .`:                           "a",
	} {
		q, err := gojq.Parse(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		got := "ALL"
		if keys := project(q); keys != nil {
			var ks []string
			for k := range keys {
				ks = append(ks, k)
			}
			slices.Sort(ks)
			got = strings.Join(ks, " ")
		}
		if got != want {
			t.Errorf("%s: keys %q, want %q", expr, got, want)
		}
	}
}

// Decoding only the keys an expression sees must not change any output,
// diagnostic or count: compared with decoding everything.
func TestProjectionChangesNothing(t *testing.T) {
	var b strings.Builder
	if err := writeCorpus(&b, 256<<10, 5); err != nil {
		t.Fatal(err)
	}
	b.WriteString(`{"type": "tool_call", "x": 1, "x": 2, "name": "dup skipped key"}` + "\n")
	b.WriteString(`{"type": "tool_call", "x": NaN, "name": "NaN in a skipped value"}` + "\n")
	b.WriteString("{\"type\": \"tool_call\", \"x\": \"\xff\", \"name\": \"invalid UTF-8 skipped\"}\n")
	b.WriteString(`{"type": "tool_call", "x": "\ud800", "name": "lone surrogate skipped"}` + "\n")
	b.WriteString(`{"type": "tool_call", "x": {"a": [1, {"b": 2, "b": 3}]}, "name": "nested dup"}` + "\n")
	b.WriteString(`{"type": "tool_call", "x": "bad \q escape", "name": "bad skipped string"}` + "\n")
	b.WriteString(`{"type": "tool_call", "x": 01, "name": "bad skipped number"}` + "\n")
	b.WriteString(`{"type": "tool_call", "x": [1, 2, "name": "bad skipped array"}` + "\n")
	b.WriteString(`{"type": "text", "content": "ok"} {"type": "tool_call"} [1] "s" 2 null` + "\n")
	b.WriteString(`{"type": 1, "type": "tool_call", "content": "dup kept key"}` + "\n")
	b.WriteString(`{"type": "tool_call", "x": -Infinity, "y": -1.5e3}` + "\n")
	in := b.String()
	for _, expr := range []string{
		`select(.type=="tool_call")`, `.content // empty`, `select(.success == false) | {id, name}`,
		`select(.type == "tool_result") | "\(.id): \(.content | length)"`, `if .type == "done" then . else .type end`,
		`select(.x) | .name`, `.args.path // empty`,
	} {
		var outs, errs [2]string
		for i, project := range []bool{true, false} {
			f, err := Compile(Options{Expr: expr, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if f.want == nil {
				t.Fatalf("%s: no projection", expr)
			}
			if !project {
				f.want = nil
			}
			var out, ew strings.Builder
			st, err := f.Run([]Input{strInput("in", in)}, &out, &ew)
			if err != nil {
				t.Fatal(err)
			}
			outs[i], errs[i] = out.String()+fmt.Sprintf("%+v", st), ew.String()
		}
		if outs[0] != outs[1] || errs[0] != errs[1] {
			t.Errorf("%s: projected run differs:\n%s\n%s\nvs\n%s\n%s", expr, outs[0][max(0, len(outs[0])-600):], errs[0], outs[1][max(0, len(outs[1])-600):], errs[1])
		}
	}
}
