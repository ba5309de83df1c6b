package translate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/dialects/evosci"
)

// evosciStreams are the EvoScientist streams of testdata: the files of
// its sample folders, golden inputs and hostile streams whose lines are
// EvoScientist's (none of them Zero's).
func evosciStreams(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"../testdata/translate/*.jsonl", "../testdata/inspect/*.jsonl",
		"../testdata/hostile/*.jsonl", "../testdata/golden/*/*.jsonl"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		evo, zero := false, false
		for _, l := range bytes.Split(data, []byte("\n")) {
			l = bytes.TrimSpace(bytes.TrimPrefix(l, []byte("\uFEFF")))
			if !gjson.ValidBytes(l) {
				continue
			}
			if bytes.Contains(l, []byte(`"schemaVersion"`)) {
				zero = true
			}
			if evosci.Dialect.Detect(l) != 0 {
				evo = true
			}
		}
		if evo && !zero {
			out = append(out, f)
		}
	}
	if len(out) < 20 {
		t.Fatalf("only %d EvoScientist streams: %s", len(out), strings.Join(out, " "))
	}
	return out
}

// TestEventPathWritesTodaysZeroFromEvoScientist holds the event path (the
// EvoScientist decoder, then Zero's encoder) to today's translation of
// every EvoScientist stream of testdata into Zero, both versions, byte
// for byte, but for the streams differs lists, each with why (a stream
// that comes out the same must leave the list).
func TestEventPathWritesTodaysZeroFromEvoScientist(t *testing.T) {
	differs := map[string]string{
		// The event path knows "bash" as a shell (every dialect's
		// tools' effects); today's, with EvoScientist's table alone,
		// as unknown.
		"inspect/secrets.evosci.jsonl": "sideEffect of bash",
		// A line the decoder reports still gives the events it could
		// read; today's writes nothing for it (but its run's framing).
		"hostile/wrong-types.evosci.jsonl":              "fields of the wrong type",
		"golden/bad-input-validate-evosci/stream.jsonl": "fields of the wrong type",
	}
	// and a generated corpus: every shape of line the benchmarks read
	var gen bytes.Buffer
	if _, err := corpus.Write(&gen, corpus.Options{Protocol: corpus.EvoSci, Size: 256 << 10, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	for _, f := range append(evosciStreams(t), "generated") {
		why, known := differs[strings.TrimPrefix(f, "../testdata/")]
		data, err := os.ReadFile(f)
		if f == "generated" {
			data, err = gen.Bytes(), nil
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, to := range []Format{Zero, Zero1} {
			opt := Options{To: to, RunID: "R", Cwd: "/work", Redact: true}
			today, _, _ := run(t, opt, data)
			opt.Now, opt.Rand = fixedNow, zeroReader{}
			events := eventPathOutput(t, opt, data)
			switch same := bytes.Equal(today, events); {
			case same && known:
				t.Errorf("%s -> %s: the event path now writes what today's translate does: take it off differs (%s)", f, to, why)
			case !same && !known:
				t.Errorf("%s -> %s: the event path writes\n%s\ntoday's translate writes\n%s", f, to, events, today)
			}
		}
	}
}
