// Command startup times whole short commands, start-up included: each of
// the commands given runs -n times in turn (A B A B ...), so that a drift
// in the machine's speed touches them alike, and the median wall time of
// each is printed with its ratio to the last command's (the yardstick).
//
//	go run ./bench/cmd/startup -n 20 'zevo translate --to zero F' 'gojq . F'
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 20, "runs of each command")
	flag.Parse()
	cmds := flag.Args()
	if len(cmds) < 2 || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: startup [-n RUNS] 'COMMAND' ... 'YARDSTICK'")
		os.Exit(2)
	}
	times := make([][]time.Duration, len(cmds))
	for range *n + 1 { // the first round warms the page cache and is not counted
		for i, c := range cmds {
			d, err := run(c)
			if err != nil {
				fmt.Fprintf(os.Stderr, "startup: %s: %v\n", c, err)
				os.Exit(1)
			}
			times[i] = append(times[i], d)
		}
	}
	med := make([]time.Duration, len(cmds))
	for i := range cmds {
		t := times[i][1:]
		slices.Sort(t)
		med[i] = t[len(t)/2]
	}
	last := med[len(med)-1]
	for i, c := range cmds {
		fmt.Printf("%-60s median %6.2f ms  %5.2fx the last\n", c, float64(med[i])/1e6, float64(med[i])/float64(last))
	}
}

// run starts one command, its output thrown away, and times it to its exit.
func run(cmd string) (time.Duration, error) {
	f := strings.Fields(cmd)
	c := exec.Command(f[0], f[1:]...)
	c.Stdout, c.Stderr = io.Discard, io.Discard
	start := time.Now()
	err := c.Run()
	return time.Since(start), err
}
