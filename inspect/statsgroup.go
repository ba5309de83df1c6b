package inspect

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"text/tabwriter"
)

// What stats rows can be grouped by.
const (
	ByModel = "model"
	ByTool  = "tool"
	ByFile  = "file"
)

// Group is one row of a grouped summary: the runs of one model or one
// file (with their counts and cost), or the calls of one tool across all
// runs (tokens and cost belong to runs, not to tools).
type Group struct {
	Key  string    `json:"key"`
	Runs int       `json:"runs"`
	Tool *ToolStat `json:"tool,omitempty"`
	*Counts
}

// GroupRuns groups the runs of files by ByModel, ByTool or ByFile. Models
// and tools come in name order (runs without a model as NoModel), files in
// the order given.
func GroupRuns(files []*FileStats, by string) ([]Group, error) {
	var groups []Group
	index := map[string]int{}
	group := func(key string) *Group {
		i, ok := index[key]
		if !ok {
			i = len(groups)
			index[key] = i
			g := Group{Key: key}
			if by == ByTool {
				g.Tool = &ToolStat{}
			} else {
				c := newCounts()
				g.Counts = &c
			}
			groups = append(groups, g)
		}
		return &groups[i]
	}
	switch by {
	case ByFile:
		for _, f := range files {
			g := group(f.File)
			g.Runs += len(f.Runs)
			g.Counts.add(&f.Total)
		}
		return groups, nil
	case ByModel:
		for _, f := range files {
			for _, r := range f.Runs {
				key := r.Model
				if key == "" {
					key = NoModel
				}
				g := group(key)
				g.Runs++
				g.Counts.add(&r.Counts)
			}
		}
	case ByTool:
		for _, f := range files {
			for _, r := range f.Runs {
				for name, t := range r.Tools {
					g := group(name)
					g.Runs++
					g.Tool.Calls += t.Calls
					g.Tool.Results += t.Results
					g.Tool.Errors += t.Errors
				}
			}
		}
	default:
		return nil, fmt.Errorf("unknown grouping %q: want %s, %s or %s", by, ByModel, ByTool, ByFile)
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].Key < groups[j].Key })
	return groups, nil
}

// WriteGroupTable writes grouped rows as a table for people, with a total
// row for models and files.
func WriteGroupTable(w io.Writer, by string, groups []Group) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if by == ByTool {
		fmt.Fprintln(tw, "TOOL\tRUNS\tCALLS\tRESULTS\tFAILED")
		for _, g := range groups {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\n", Safe(groupLabel(g.Key)), g.Runs, g.Tool.Calls, g.Tool.Results, g.Tool.Errors)
		}
		return tw.Flush()
	}
	header := "MODEL"
	if by == ByFile {
		header = "FILE"
	}
	fmt.Fprintf(tw, "%s\tRUNS\t%s\n", header, countHeader)
	total, runs := newCounts(), 0
	for _, g := range groups {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", Safe(groupLabel(g.Key)), g.Runs, countCols(g.Counts))
		total.add(g.Counts)
		runs += g.Runs
	}
	if len(groups) > 1 {
		fmt.Fprintf(tw, "total\t%d\t%s\n", runs, countCols(&total))
	}
	unpriced(tw, "  ", &total.RunCost)
	return tw.Flush()
}

func groupLabel(key string) string {
	if key == "" {
		return strconv.Quote(key)
	}
	return key
}
