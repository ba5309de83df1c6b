package inspect

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteStatsTable writes files' statistics as tables for people: one row
// per run, then per-file totals, events by type, tools and errors, and a
// grand total when there are several files.
func WriteStatsTable(w io.Writer, files []*FileStats) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for i, f := range files {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		proto := f.Protocol
		if proto == "" {
			proto = "no events"
		}
		fmt.Fprintf(tw, "%s · %s · %s · %s", Safe(f.File), proto, Plural(f.Lines, "line"), Plural(len(f.Runs), "run"))
		if f.Invalid > 0 {
			fmt.Fprintf(tw, " · %s not JSON objects (not counted)", Plural(f.Invalid, "line"))
		}
		fmt.Fprintln(tw)
		if len(f.Runs) > 0 {
			fmt.Fprintln(tw, tableHeader)
			for n, r := range f.Runs {
				name := r.ID
				if name == "" {
					name = "#" + strconv.Itoa(n+1)
				}
				status := r.Status
				if r.ExitCode != nil {
					status += " (" + strconv.Itoa(*r.ExitCode) + ")"
				}
				final := "-"
				if r.FinalLength >= 0 {
					final = strconv.Itoa(r.FinalLength)
				}
				fmt.Fprintf(tw, "%s\t%d-%d\t%s\t%s\t%s\n", Safe(name), r.FirstLine, r.LastLine, Safe(status), countCols(&r.Counts), final)
			}
			if len(f.Runs) > 1 {
				fmt.Fprintf(tw, "total\t\t\t%s\t\n", countCols(&f.Total))
			}
		}
		details(tw, "  ", &f.Total)
		for _, r := range f.Runs {
			for _, e := range r.ErrorEvents {
				code := ""
				if e.Code != "" {
					code = "[" + Safe(e.Code) + "] "
				}
				fmt.Fprintf(tw, "  error at line %d: %s%s\n", e.Line, code, Safe(clipRunes(e.Message, 200)))
			}
		}
	}
	if len(files) > 1 {
		total := SumFiles(files)
		fmt.Fprintf(tw, "\n%s\nall %d files\t\t\t%s\t\n", tableHeader, len(files), countCols(&total))
		details(tw, "  ", &total)
	}
	return tw.Flush()
}

// countHeader names the columns of countCols.
const countHeader = "EVENTS\tTOKENS IN\tOUT\tTOTAL\tCOST USD\tTOOL CALLS\tFAILED\tPERMISSIONS\tERRORS"

const tableHeader = "RUN\tLINES\tSTATUS\t" + countHeader + "\tFINAL CHARS"

func countCols(c *Counts) string {
	calls, failed := 0, 0
	for _, t := range c.Tools {
		calls += t.Calls
		failed += t.Errors
	}
	p := c.Permissions
	perm := "-"
	if p.Requests+p.Allowed+p.Denied+p.Cancelled+p.Other+p.Questions > 0 {
		var parts []string
		for _, x := range []struct {
			n    int
			name string
		}{{p.Requests, "asked"}, {p.Allowed, "allowed"}, {p.Denied, "denied"}, {p.Cancelled, "cancelled"}, {p.Other, "other"}, {p.Questions, "questions"}} {
			if x.n > 0 {
				parts = append(parts, strconv.Itoa(x.n)+" "+x.name)
			}
		}
		perm = strings.Join(parts, ", ")
	}
	return fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%d", c.Events, c.Tokens.Input, c.Tokens.Output, c.Tokens.Total, costCol(&c.RunCost), calls, failed, perm, c.Errors)
}

func details(w io.Writer, indent string, c *Counts) {
	if t := c.Tokens; t.CacheRead != nil {
		// No room in the table: the cache is said under it, where stated.
		fmt.Fprintf(w, "%stokens: %s input (cache not included), %s cache read, %s cache written, %s output of which %s reasoning\n",
			indent, t.Input, t.CacheRead, t.CacheWrite, t.Output, t.Reasoning)
	}
	if len(c.Types) > 0 {
		fmt.Fprintf(w, "%sevents: %s\n", indent, joinCounts(c.Types, nil))
	}
	if len(c.Tools) > 0 {
		counts := map[string]int{}
		failed := map[string]int{}
		for name, t := range c.Tools {
			counts[name] = t.Calls
			failed[name] = t.Errors
		}
		fmt.Fprintf(w, "%stools: %s\n", indent, joinCounts(counts, failed))
	}
	unpriced(w, indent, &c.RunCost)
}

// unpriced names the models that had no price, and how to price them.
func unpriced(w io.Writer, indent string, c *RunCost) {
	if len(c.UnpricedModels) > 0 {
		names := make([]string, len(c.UnpricedModels))
		for i, m := range c.UnpricedModels {
			names[i] = Safe(m)
		}
		fmt.Fprintf(w, "%sunpriced models: %s (price them with --pricing FILE; name the model of runs without one with --model)\n", indent, strings.Join(names, ", "))
	}
}

// costCol shows a cost, or says that runs had no price: never a silent 0.
func costCol(c *RunCost) string {
	switch {
	case c.UnpricedRuns == 0 && c.Cost == nil:
		return "-"
	case c.UnpricedRuns == 0:
		return formatUSD(*c.Cost)
	case c.PricedCost == nil:
		return "unpriced"
	}
	return fmt.Sprintf("%s + %d unpriced", formatUSD(*c.PricedCost), c.UnpricedRuns)
}

// formatUSD shows a cost to a hundredth of a cent.
func formatUSD(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }

// joinCounts writes "name n" pairs, most frequent first, with failures.
func joinCounts(m map[string]int, failed map[string]int) string {
	names := sortedKeys(m)
	sort.SliceStable(names, func(i, j int) bool { return m[names[i]] > m[names[j]] })
	parts := make([]string, len(names))
	for i, n := range names {
		label := n
		if label == "" {
			label = `""`
		}
		parts[i] = Safe(label) + " " + strconv.Itoa(m[n])
		if failed[n] > 0 {
			parts[i] += " (" + strconv.Itoa(failed[n]) + " failed)"
		}
	}
	return strings.Join(parts, ", ")
}

// WriteStatsTotals writes only the totals: one row per file, their sum
// when there are several, then events by type and tools over all.
func WriteStatsTotals(w io.Writer, files []*FileStats) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FILE\tLINES\tRUNS\t"+countHeader)
	lines, runs := 0, 0
	for _, f := range files {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", Safe(f.File), f.Lines, len(f.Runs), countCols(&f.Total))
		lines += f.Lines
		runs += len(f.Runs)
	}
	total := SumFiles(files)
	if len(files) > 1 {
		fmt.Fprintf(tw, "all %d files\t%d\t%d\t%s\n", len(files), lines, runs, countCols(&total))
	}
	details(tw, "  ", &total)
	return tw.Flush()
}

// Plural is n and the noun, with an s unless n is 1: "1 run", "3 runs".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
