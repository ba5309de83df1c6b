package inspect

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var updateStats = flag.Bool("update", false, "rewrite testdata/stats-samples.golden")

// TestStatsOfSamples holds stats' reading of every Zero and EvoScientist
// stream of testdata, and of the mixed inputs of mixedStats, to
// testdata/stats-samples.golden: its --json (priced with the snapshot)
// and the bad lines it names. It is what the protocol package's reading
// (the summarizer stats and otel had before they read events) made of
// them, but for these changes:
//   - fix: a usage event without a valid totalTokens (a bad line, validate
//     reports it) counts the tokens it states in the total, as every usage
//     that states no total does (golden/bad-input-zero);
//   - fix: a sub-agent is counted once per run when its first event comes,
//     not only on a subagent_start line (golden/evosci-runs);
//   - rules of docs/runs.md: a Zero input event inside an output run
//     steers that run (before: it cut it and formed one of its own); an
//     event without runId belongs to the open run (before: it cut it).
//
// go test ./inspect -run TestStatsOfSamples -update rewrites it.
func TestStatsOfSamples(t *testing.T) {
	var b bytes.Buffer
	add := func(name string, data []byte) {
		f, bad := eventStats(t, data, name)
		j, err := json.MarshalIndent(statsJSON(t, f), "", " ")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "== %s\n%s\nbad lines: %q\n", name, j, bad)
	}
	for _, file := range statsStreams(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		add(filepath.ToSlash(strings.TrimPrefix(file, filepath.Join("..", "testdata")+string(filepath.Separator))), data)
	}
	var names []string
	for name := range mixedStats {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		add(name, []byte(mixedStats[name]))
	}
	const file = "testdata/stats-samples.golden"
	if *updateStats {
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("stats differ from %s (-update rewrites it) from its line %d:\ngot  %s\nwant %s", file, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("stats differ from %s in length (%d lines, want %d)", file, len(gl), len(wl))
	}
}

// mixedStats are inputs of both dialects and edge cases of docs/runs.md.
var mixedStats = map[string]string{
	"evosci error then zero": `{"type": "text", "content": "a"}
{"type": "error", "message": "boom"}
{"schemaVersion":2,"type":"run_start","runId":"z1"}
{"schemaVersion":2,"type":"run_end","runId":"z1","status":"success","exitCode":0}
{"type": "done", "content": "", "response": ""}
`,
	"zero input inside an output run": `{"schemaVersion":2,"type":"run_start","runId":"z1"}
{"schemaVersion":2,"type":"prompt","content":"a"}
{"schemaVersion":2,"type":"run_end","runId":"z1","status":"success","exitCode":0}
`,
	"zero events without runId": `{"schemaVersion":2,"type":"run_start","runId":"z1"}
{"schemaVersion":2,"type":"text","delta":"a"}
{"schemaVersion":2,"type":"run_end","runId":"z1","status":"success","exitCode":0}
`,
}
