// Command gen writes a deterministic stream of a dialect that has a
// generator (bench/corpus).
//
//	go run ./bench/cmd/gen -protocol evosci -size 100MB -seed 1 > corpus.evosci.jsonl
//	go run ./bench/cmd/gen -protocol zero -huge 200MB > huge.zero.jsonl
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/dialects"
)

func main() {
	// The default is the registry's fallback, the dialect it reads a line
	// no dialect claims as: the corpus this command always wrote unasked.
	name := flag.String("protocol", dialects.Fallback.Name, "the `DIALECT` to write (one with a generator)")
	size := flag.String("size", "10MB", "bytes to write at least (suffixes KB, MB, GB: powers of 1024)")
	seed := flag.Uint64("seed", 1, "random seed; the same seed gives the same corpus")
	huge := flag.String("huge", "", "write instead one tool_result line holding an output of this size")
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	p, err := corpus.Lookup(*name)
	switch {
	case err != nil:
	case *huge != "":
		var n int64
		if n, err = parseSize(*huge); err == nil {
			err = corpus.WriteHuge(w, p, int(n))
		}
	default:
		var n int64
		if n, err = parseSize(*size); err == nil {
			_, err = corpus.Write(w, corpus.Options{Protocol: p, Size: n, Seed: *seed})
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	u := strings.ToUpper(s)
	for _, x := range []struct {
		suf string
		m   int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(u, x.suf) {
			mult, u = x.m, strings.TrimSuffix(u, x.suf)
			break
		}
	}
	n, err := strconv.ParseInt(u, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad size %q (want e.g. 100MB)", s)
	}
	return n * mult, nil
}
