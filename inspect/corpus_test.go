package inspect

import (
	"bytes"
	"strings"
	"testing"

	gen "github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/jsonl"
)

// The streams the corpus generator writes, as the real producers would,
// validate clean: the only thing said is that the last run is cut short,
// which the generator does on purpose: an error for Zero (which always
// writes run_end), a warning for EvoScientist (a cancelled run ends so).
func TestGeneratedStreamsValidate(t *testing.T) {
	// Zero's generator writes schema version 2.
	reported := map[gen.Protocol]string{gen.Zero: "zero@2", gen.EvoSci: "evosci"}
	for _, p := range []gen.Protocol{gen.Zero, gen.EvoSci} {
		for seed := uint64(1); seed <= 3; seed++ {
			var b bytes.Buffer
			if _, err := gen.Write(&b, gen.Options{Protocol: p, Size: 512 << 10, Seed: seed}); err != nil {
				t.Fatal(err)
			}
			var diags []string
			rep, err := Validate(&b, "gen", ValidateOptions{}, func(d jsonl.Diagnostic) { diags = append(diags, d.String()) })
			if err != nil {
				t.Fatal(err)
			}
			errs, warns := 1, 0
			if p == gen.EvoSci {
				errs, warns = 0, 1
			}
			if rep.Errors != errs || rep.Warnings != warns || len(diags) != 1 || !strings.Contains(diags[0], "the input ends inside") {
				t.Errorf("%s seed %d: %d errors, %d warnings:\n%s", p, seed, rep.Errors, rep.Warnings, strings.Join(diags[:min(len(diags), 20)], "\n"))
			}
			if rep.Runs < 10 || rep.Protocol != reported[p] {
				t.Errorf("%s seed %d: report %+v", p, seed, rep)
			}
		}
	}
}
