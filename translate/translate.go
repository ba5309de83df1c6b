// Package translate converts one agent's stream into another's, one line
// at a time: each line is decoded into events by its dialect's decoder
// (package event, dialects/), the user's mapping rules are applied to
// them (pathrules.go), and the target's encoder writes them with the run
// framing, id correlation and redaction its clients expect (events.go).
package translate

import (
	"bufio"
	"crypto/rand"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/internal/pipeline"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
	"github.com/zevo/zevo/redact"
)

// Format is a dialect of the registry at one version, as --to and
// --from name it (ParseTarget, ParseSource); the nil Auto reads each
// line's dialect from the line.
type Format = *Form

// Auto detects each line's dialect.
var Auto Format

// Unmapped says what happens to an event that has no counterpart.
type Unmapped int

const (
	Drop  Unmapped = iota // not written, counted in the summary
	Keep                  // written with its type prefixed by its protocol
	Error                 // a diagnostic
)

// ParseUnmapped reads an --unmapped value.
func ParseUnmapped(s string) (Unmapped, error) {
	switch s {
	case "drop":
		return Drop, nil
	case "keep":
		return Keep, nil
	case "error":
		return Error, nil
	}
	return Drop, fmt.Errorf("unknown --unmapped policy %q (want drop, keep or error)", s)
}

// RedactsByDefault reports whether a translation to `to` is redacted when
// no option says (zevo translate without --redact or --no-redact, the
// Benthos processor without redact): unless its dialect is Unredacted
// (its output the stream as its producer writes it), for any reader.
func RedactsByDefault(to Format) bool { return !to.Dialect.Unredacted }

// Options configure a Translator.
type Options struct {
	To        Format // as ParseTarget reads it
	From      Format // Auto detects each line
	RunID     string // run id of synthesized runs; later runs get .2, .3, …
	SessionID string
	Cwd       string
	Model     string
	// Unmapped is the policy for events with no counterpart. Keep also
	// keeps the fields a target's types have no room for (Target.Holds),
	// which are otherwise dropped (and counted in Stats.Dropped).
	Unmapped Unmapped
	// Redact applies the redaction rules to every output event. zevo
	// translate and the Benthos processor turn it on where
	// RedactsByDefault says, unless told otherwise.
	Redact   bool
	Redactor *redact.Redactor // nil: the default rules
	Tables   *mappings.Set    // nil: the embedded defaults
	Now      func() time.Time // for run ids; nil: time.Now
	Rand     io.Reader        // for run ids; nil: crypto/rand
	// Plain turns off every shortcut taken for speed: each line is
	// checked member by member (not by its producer's layout,
	// zerotest.PairLayouts) and decoded where it is written, as the other
	// commands read lines (none decoded ahead by Stream's goroutines),
	// and the target's encoder writes every line the general way
	// (event.EncodeOptions.Plain). The output is the same, byte for byte: Plain is the reference
	// that the differential tests compare the shortcuts with.
	Plain bool

	// bigValue is the size from which a value is checked for being
	// copied as it is (out.raw); 0: 1 MiB. Tests lower it.
	bigValue int
}

// Translator translates lines of one or more inputs. It is not safe for
// concurrent use; a stream processor keeps one per stream (per key) and
// calls Line for each message and End when the stream ends or goes idle.
type Translator struct {
	opt    Options
	tables *mappings.Set
	emit   func([]byte) error
	stats  Stats
	// holds reports the fields the target's clients read (Target.Holds):
	// nil when it writes all it is given.
	holds func(key string, v gjson.Result) bool
	// upgrade is the Dialect.Upgrade of the dialect upDialect, the last
	// event's (upgraded).
	upDialect string
	upgrade   func(ev *model.Event) ([]byte, bool)

	pre        preparer
	placeName  string
	placeNum   int
	cur        prepared              // the line being translated by Line, reused
	pipe       *pipeline.Pipe[batch] // Stream's, its batches reused from one input to the next
	runsOpened int                   // runs named by newRunID
	ep         eventPath             // the lines of the other dialects: events.go
	// oneBatch: Stream reads a regular file of at most these bytes on
	// one goroutine (pipeline.Pipe.Inline); batchBytes, which tests
	// raise to read any file so.
	oneBatch int64

	// Stream's reader, and the lines of its input translated: for Pending.
	reader      atomic.Pointer[jsonl.Reader]
	streamLines int
	// fixedLevel, when not -1, is the share of the lines Stream's reading
	// goroutine prepares, whatever the goroutines' waits say (tests; see
	// preparer.balance).
	fixedLevel int
	// decodeOn, when set, says which of Stream's batches the reading
	// goroutine decodes, whatever the stages' times say (tests; see
	// decodeTurns).
	decodeOn func(seq uint64) bool
}

// New returns a Translator that passes each output event, without line end,
// to emit. The slice is reused after emit returns.
func New(opt Options, emit func([]byte) error) *Translator {
	if opt.Tables == nil {
		opt.Tables = mappings.Default()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Rand == nil {
		opt.Rand = rand.Reader
	}
	if opt.Redact && opt.Redactor == nil {
		opt.Redactor = &redact.Redactor{}
	}
	if !opt.Redact {
		opt.Redactor = nil
	}
	if opt.bigValue == 0 {
		opt.bigValue = 1 << 20
	}
	t := &Translator{opt: opt, tables: opt.Tables, emit: emit, fixedLevel: -1, oneBatch: batchBytes}
	t.ep.turn.L = &t.ep.mu
	t.ep.plain = opt.Plain
	t.pre = preparer{from: opt.From, tables: opt.Tables, plain: opt.Plain, srcs: sources()}
	t.stats.UnmappedTypes = map[string]int{}
	t.stats.Dropped = map[string]int{}
	t.holds = t.targetHolds()
	if opt.To != nil {
		t.stats.holder = opt.To.Dialect.Title
	}
	return t
}

// Translate translates all of r (named name in diagnostics) into w, one
// event a line, and closes what r leaves open, as the translate command
// does for one input. Bad lines do not stop it: the error is the first
// one's *jsonl.Diagnostic (Stats counts them all), or a *ReadError, or the error
// writing w.
func Translate(r io.Reader, name string, opt Options, w io.Writer) (Stats, error) {
	bw := bufio.NewWriter(w)
	t := New(opt, func(b []byte) error {
		bw.Write(b)
		return bw.WriteByte('\n')
	})
	var first *jsonl.Diagnostic
	err := t.Stream(r, name, nil, func() error { return nil }, func(d *jsonl.Diagnostic) error {
		if first == nil {
			first = d
		}
		return nil
	})
	if err == nil {
		err = t.End(name)
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if err == nil && first != nil {
		err = first
	}
	return t.stats, err
}

// Stats returns the accounting so far.
func (t *Translator) Stats() *Stats { return &t.stats }

// Line translates one input line. It returns a *jsonl.Diagnostic for a bad line
// (the caller reports it and goes on, or stops), or the error of emit.
func (t *Translator) Line(l jsonl.Line) error {
	t.pre.prepare(l, &t.cur)
	return t.apply(&t.cur)
}

// Place returns the input name and line number of the line being
// translated (the last one, during End).
func (t *Translator) Place() (name string, num int) { return t.placeName, t.placeNum }

// apply translates a prepared line: the rest of Line.
func (t *Translator) apply(p *prepared) error {
	t.stats.Lines++
	t.placeName, t.placeNum = p.name, p.num
	if p.blank {
		t.stats.Blank++
		return nil
	}
	return t.eventLine(p)
}

// End closes what the input left open (a run without its end). Call it at
// the end of each input file, or when a stream goes idle.
func (t *Translator) End(name string) error {
	return t.endEventPath()
}
