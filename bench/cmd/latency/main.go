// Command latency measures how long a translated line takes to reach the
// reader of zevo's output when a producer writes one line every interval
// into zevo through a pipe, as a live agent does.
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
	"strconv"
	"time"

	"github.com/zevo/zevo/jsonl"
)

func main() {
	zevo := flag.String("zevo", "zevo", "the zevo binary")
	n := flag.Int("n", 500, "lines per direction")
	every := flag.Duration("every", 10*time.Millisecond, "the producer's pace")
	target := flag.Duration("target", 2*time.Millisecond, "the p99 to meet")
	floor := flag.Bool("floor", true, "also measure cat on the same lines: the machine's own pipe latency")
	flag.Parse()
	if *n <= warm {
		fmt.Fprintf(os.Stderr, "latency: -n must be more than %d\n", warm)
		os.Exit(2)
	}
	ok := true
	for _, dir := range []struct {
		to   string
		line func(i int) string
	}{
		{"zero", func(i int) string { return fmt.Sprintf(`{"type": "text", "content": "lat %d"}`, i) }},
		{"evosci", func(i int) string {
			if i == 0 {
				return `{"apiModel":"m","cwd":"/w","model":"m","provider":"openai","runId":"run_20260603100000_abc123","schemaVersion":2,"type":"run_start"}`
			}
			return fmt.Sprintf(`{"delta":"lat %d","runId":"run_20260603100000_abc123","schemaVersion":2,"type":"text"}`, i)
		}},
	} {
		if *floor {
			lat, first, err := measure(exec.Command("cat"), *n, *every, dir.line)
			if err != nil {
				fmt.Fprintln(os.Stderr, "latency:", err)
				os.Exit(2)
			}
			slices.Sort(lat)
			p := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
			fmt.Printf("cat (floor, %s lines)   %d lines every %v: p50 %v  p90 %v  p99 %v  max %v  first line %v\n",
				dir.to, len(lat), *every, p(0.50).Round(time.Microsecond), p(0.90).Round(time.Microsecond),
				p(0.99).Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond), first.Round(time.Microsecond))
		}
		lat, first, err := measure(exec.Command(*zevo, "translate", "--to", dir.to, "--run-id", "lat", "--cwd", "/w"), *n, *every, dir.line)
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
		fmt.Printf("translate --to %-6s  %d lines every %v: p50 %v  p90 %v  p99 %v  max %v  (%s p99 <= %v)  first line %v\n",
			dir.to, len(lat), *every, p(0.50).Round(time.Microsecond), p(0.90).Round(time.Microsecond),
			p(0.99).Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond), verdict, *target, first.Round(time.Microsecond))
	}
	if !ok {
		os.Exit(1)
	}
}

// measure runs cmd and writes n lines into it: the first warm at once, the
// others one every interval. It returns, for each of the others whose
// output carries "lat <i>", the time from just before its write to the
// moment its output line was read; and the time from the start of cmd to
// the output of the last warm line.
func measure(cmd *exec.Cmd, n int, every time.Duration, line func(int) string) (lat []time.Duration, first time.Duration, err error) {
	if n <= warm {
		return nil, 0, fmt.Errorf("%d lines: more than %d are needed", n, warm)
	}
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
	sent := make([]time.Time, n)
	got := make([]time.Time, n)
	done := make(chan error, 1)
	ready := make(chan struct{}) // the last warm line came out
	go func() {
		r := jsonl.NewReader(out, "zevo", nil)
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
			if i := bytes.Index(l.Bytes, []byte(`"lat `)); i >= 0 {
				rest := l.Bytes[i+5:]
				if j := bytes.IndexByte(rest, '"'); j > 0 {
					if k, err := strconv.Atoi(string(rest[:j])); err == nil && k < n {
						got[k] = now
						if k == warm-1 {
							close(ready)
						}
					}
				}
			}
		}
	}()
	for i := range warm {
		if _, err := io.WriteString(in, line(i)+"\n"); err != nil {
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
	for i := warm; i < n; i++ {
		<-tick.C
		sent[i] = time.Now()
		if _, err := io.WriteString(in, line(i)+"\n"); err != nil {
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
	for i := warm; i < n; i++ {
		if !got[i].IsZero() {
			lat = append(lat, got[i].Sub(sent[i]))
		}
	}
	if len(lat) < n-warm {
		return nil, 0, fmt.Errorf("%s: only %d of %d lines came back", cmd, len(lat), n-warm)
	}
	return lat, first, nil
}

// warm is how many lines are written at once when the process starts: the
// second is the first that both directions translate into a line.
const warm = 2
