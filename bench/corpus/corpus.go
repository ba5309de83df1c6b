// Package corpus writes deterministic, realistic streams of any size, as
// their producers serialize them, for benchmarks and comparisons: each
// dialect with a generator (event.Dialect.Corpus) writes its own.
package corpus

import (
	"fmt"
	"io"
	"strings"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/event"
)

// Protocol is the dialect a corpus imitates.
type Protocol = *event.Dialect

// Options describe a corpus.
type Options struct {
	Protocol Protocol
	Size     int64  // bytes to write at least; whole runs are finished past it, the last one cut
	Seed     uint64 // the same seed gives the same bytes
}

// Write writes a corpus to w and returns the number of bytes written.
func Write(w io.Writer, opt Options) (int64, error) {
	c, err := generator(opt.Protocol)
	if err != nil {
		return 0, err
	}
	return c.Write(w, opt.Size, opt.Seed)
}

// WriteHuge writes one line of the dialect holding a single string of
// size bytes: a tool result with a huge output.
func WriteHuge(w io.Writer, p Protocol, size int) error {
	c, err := generator(p)
	if err != nil {
		return err
	}
	return c.Huge(w, size)
}

// Lookup is the dialect named name (or an alias) that has a generator.
func Lookup(name string) (Protocol, error) {
	d, ok := dialects.ByName(name)
	if !ok {
		return nil, fmt.Errorf("corpus: no dialect %q (%s)", name, withCorpus())
	}
	_, err := generator(d)
	return d, err
}

func generator(p Protocol) (*event.Corpus, error) {
	if p == nil {
		return nil, fmt.Errorf("corpus: no dialect given (%s)", withCorpus())
	}
	if p.Corpus == nil {
		return nil, fmt.Errorf("corpus: no generator for %s (%s)", p.Name, withCorpus())
	}
	return p.Corpus, nil
}

// withCorpus names the dialects that have a generator.
func withCorpus() string {
	var names []string
	for _, d := range dialects.All {
		if d.Corpus != nil {
			names = append(names, d.Name)
		}
	}
	return "dialects with a generator: " + strings.Join(names, ", ")
}
