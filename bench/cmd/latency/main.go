// Command latency measures how long a translated line takes to reach the
// reader of zevo's output when a producer writes one line every interval
// into zevo through a pipe, as a live agent does.
//
// The lines are a dialect's own, from its corpus generator (bench/corpus),
// translated into each other dialect that has one and that zevo writes.
// Every line is written at the producer's pace; those of one text delta
// with a text of plain words, not repeated, are timed: the delta's text
// is how its output line is told, read back through the registry's
// decoders.
//
// A process reads nothing before it has started (the Go runtime, package
// initialisation): lines written in its first milliseconds wait for that,
// once. So the first lines are written at once and their output awaited
// before the timed lines begin; the time from the start of the process
// to that output is reported apart, as "first line".
//
//	go build -o /tmp/zevo ./cmd/zevo && go run ./bench/cmd/latency -zevo /tmp/zevo
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/zevo/zevo/bench/corpus"
	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

func main() {
	zevo := flag.String("zevo", "zevo", "the zevo binary")
	n := flag.Int("n", 500, "lines per direction")
	every := flag.Duration("every", 10*time.Millisecond, "the producer's pace")
	target := flag.Duration("target", 2*time.Millisecond, "the p99 to meet")
	floor := flag.Bool("floor", true, "also measure cat on the same lines: the machine's own pipe latency")
	seed := flag.Uint64("seed", 1, "the corpora's seed")
	flag.Parse()
	ok := true
	for _, dir := range directions() {
		ls, err := sample(dir.from, *n, *seed)
		if err != nil {
			fmt.Fprintln(os.Stderr, "latency:", err)
			os.Exit(2)
		}
		if *floor {
			lat, first, err := measure(exec.Command("cat"), ls, *every)
			if err != nil {
				fmt.Fprintln(os.Stderr, "latency:", err)
				os.Exit(2)
			}
			slices.Sort(lat)
			p := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
			fmt.Printf("cat (floor, %s lines)   %d of %d lines every %v: p50 %v  p90 %v  p99 %v  max %v  first line %v\n",
				dir.from.Name, len(lat), len(ls.lines), *every, p(0.50).Round(time.Microsecond), p(0.90).Round(time.Microsecond),
				p(0.99).Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond), first.Round(time.Microsecond))
		}
		lat, first, err := measure(exec.Command(*zevo, "translate", "--to", dir.to.Name, "--run-id", "lat", "--cwd", "/w"), ls, *every)
		if err != nil {
			fmt.Fprintln(os.Stderr, "latency:", err)
			os.Exit(2)
		}
		slices.Sort(lat)
		p := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
		verdict := "meets"
		if p(0.99) > *target {
			verdict, ok = "MISSES", false
		}
		fmt.Printf("translate --to %-6s  %d of %d lines every %v: p50 %v  p90 %v  p99 %v  max %v  (%s p99 <= %v)  first line %v\n",
			dir.to.Name, len(lat), len(ls.lines), *every, p(0.50).Round(time.Microsecond), p(0.90).Round(time.Microsecond),
			p(0.99).Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond), verdict, *target, first.Round(time.Microsecond))
	}
	if !ok {
		os.Exit(1)
	}
}

// direction is a translation whose latency is measured.
type direction struct{ from, to *event.Dialect }

// directions are each dialect with a corpus generator into each other one
// that has one and that zevo writes, in the registry's order.
func directions() []direction {
	var out []direction
	for _, from := range dialects.All {
		for _, to := range dialects.All {
			if from != to && from.Corpus != nil && to.Corpus != nil && dialects.Writes(to) {
				out = append(out, direction{from, to})
			}
		}
	}
	return out
}

// lines are the lines written in one direction, each with its line end.
type lines struct {
	lines [][]byte
	// timed maps the text of a timed line's delta to the line; warm is
	// how many lines are written at once, the last of them timed.
	timed map[string]int
	warm  int
}

// sample is the first n lines of d's corpus of seed. A line is timed when
// it holds one event, a text or reasoning delta whose text no other line
// of the sample has.
func sample(d *event.Dialect, n int, seed uint64) (*lines, error) {
	var buf bytes.Buffer
	for size := int64(64 << 10); ; size *= 2 {
		buf.Reset()
		if _, err := corpus.Write(&buf, corpus.Options{Protocol: d, Size: size, Seed: seed}); err != nil {
			return nil, err
		}
		if bytes.Count(buf.Bytes(), []byte("\n")) >= n {
			break
		}
	}
	ls := &lines{timed: map[string]int{}}
	seen := map[string]int{} // a delta's text → how many lines hold it
	in := dialects.NewInput(event.DecodeOptions{})
	for _, l := range bytes.SplitAfterN(buf.Bytes(), []byte("\n"), n+1)[:n] {
		var evs []event.Event
		_ = in.Line(bytes.TrimSuffix(l, []byte("\n")), len(ls.lines)+1, func(ev *event.Event, _ event.Step) { evs = append(evs, *ev) })
		if len(evs) == 1 && delta(&evs[0]) {
			seen[evs[0].Text]++
			ls.timed[evs[0].Text] = len(ls.lines)
		}
		ls.lines = append(ls.lines, l)
	}
	at := make([]bool, len(ls.lines))
	for text, i := range ls.timed {
		if seen[text] > 1 {
			delete(ls.timed, text)
		} else {
			at[i] = true
		}
	}
	// Written at once: up to the second timed line, the first that every
	// direction translates into a line of its own.
	for i, one := 0, false; i < len(at) && ls.warm == 0; i++ {
		if at[i] && one {
			ls.warm = i + 1
		}
		one = one || at[i]
	}
	if ls.warm == 0 || len(ls.timed) < 3 {
		return nil, fmt.Errorf("%s: %d lines of its corpus hold %d deltas to time, too few", d.Name, len(ls.lines), len(ls.timed))
	}
	return ls, nil
}

// delta reports a text or reasoning delta with a text.
func delta(ev *event.Event) bool {
	return (ev.Kind == event.Text || ev.Kind == event.Reasoning) && ev.Sub == "" && ev.Text != ""
}

// measure runs cmd and writes ls's lines into it: the first ls.warm at
// once, the others one every interval. It returns, for each timed line
// after them, the time from just before its write to the moment its
// output line was read; and the time from the start of cmd to the output
// of the last warm line.
func measure(cmd *exec.Cmd, ls *lines, every time.Duration) (lat []time.Duration, first time.Duration, err error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, 0, err
	}
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, 0, err
	}
	n := len(ls.lines)
	sent := make([]time.Time, n)
	got := make([]time.Time, n)
	done := make(chan error, 1)
	ready := make(chan struct{}) // the last warm line came out
	go func() {
		r := jsonl.NewReader(out, "zevo", nil)
		dec := dialects.NewInput(event.DecodeOptions{})
		for {
			l, err := r.Next()
			if err == io.EOF {
				done <- nil
				return
			}
			if err != nil {
				done <- err
				return
			}
			now := time.Now()
			_ = dec.Line(l.Bytes, l.Num, func(ev *event.Event, _ event.Step) {
				if !delta(ev) {
					return
				}
				if k, ok := ls.timed[ev.Text]; ok && got[k].IsZero() {
					got[k] = now
					if k == ls.warm-1 {
						close(ready)
					}
				}
			})
		}
	}()
	for i := range ls.warm {
		if _, err := in.Write(ls.lines[i]); err != nil {
			return nil, 0, err
		}
	}
	select {
	case <-ready:
		first = time.Since(start)
	case err := <-done:
		return nil, 0, fmt.Errorf("%s: output ended before the first lines: %v", cmd, err)
	}
	tick := time.NewTicker(every)
	for i := ls.warm; i < n; i++ {
		<-tick.C
		sent[i] = time.Now()
		if _, err := in.Write(ls.lines[i]); err != nil {
			return nil, 0, err
		}
	}
	tick.Stop()
	time.Sleep(50 * time.Millisecond)
	in.Close()
	if err := <-done; err != nil {
		return nil, 0, err
	}
	if err := cmd.Wait(); err != nil {
		return nil, 0, fmt.Errorf("%s: %v", cmd.Path, err)
	}
	want := 0
	for _, i := range ls.timed {
		if i < ls.warm {
			continue
		}
		want++
		if !got[i].IsZero() {
			lat = append(lat, got[i].Sub(sent[i]))
		}
	}
	if len(lat) < want {
		return nil, 0, fmt.Errorf("%s: only %d of %d timed lines came back", cmd, len(lat), want)
	}
	return lat, first, nil
}
