package inspect

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/zevo/zevo/dialects"
	evt "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// This file is the one place where stats chooses between its two
// summarizers, per input. The dialects today's protocol package reads
// (Zero's and EvoScientist's) go through Summarizer, as every other
// command reads them (otel, transcripts), with its words and its speed;
// every other dialect goes through EventSummarizer. Zero and EvoScientist
// move to the event path once the model closes the differences that
// TestEventStatsGapsForZeroAndEvoSci (evstats_gaps_test.go) lists
// (statuses, stated totals, permissions, sub-agent tools, counts past
// int64) and it is as fast (BenchmarkStats).

// todays tells the dialects whose lines Summarizer reads: those whose
// name the protocol package knows.
var todays = func() map[*evt.Dialect]bool {
	m := map[*evt.Dialect]bool{}
	for _, d := range dialects.All {
		if _, err := protocol.Lookup(d.Name); err == nil {
			m[d] = true
		}
	}
	return m
}()

// The problems of a line of the other family, as stats names them.
var (
	errEventLine = errors.New("a line of another agent's stream in a Zero/EvoScientist input")
	errTodayLine = errors.New("a line of a Zero/EvoScientist stream in another agent's input")
)

// IsOtherAgentLine tells the problem of a line of the other family, as
// StatsSummarizer gives it to Invalid.
func IsOtherAgentLine(err error) bool { return err == errEventLine || err == errTodayLine }

// StatsAs is how stats reads its inputs (--as): each by the dialect of its
// first line (the zero value, "auto"), or every line as one protocol or
// dialect.
type StatsAs struct {
	proto   *protocol.Protocol // one of Summarizer's protocols
	dialect *evt.Dialect       // another dialect
}

// ParseStatsAs reads --as: "auto", or the name of a dialect (or of one of
// its protocols, zero@1 for instance).
func ParseStatsAs(s string) (StatsAs, error) {
	if s == "auto" {
		return StatsAs{}, nil
	}
	if p, err := protocol.Lookup(s); err == nil {
		return StatsAs{proto: p}, nil
	}
	if d, ok := dialects.ByName(s); ok {
		return StatsAs{dialect: d}, nil
	}
	return StatsAs{}, fmt.Errorf("unknown dialect %q: want auto or one of %s", s, DialectNames())
}

// DialectNames lists the dialects' names and aliases, for help and errors.
func DialectNames() string {
	var names []string
	for _, d := range dialects.All {
		names = append(names, d.Name)
		names = append(names, d.Aliases...)
	}
	return strings.Join(names, ", ")
}

// StatsSummarizer builds the statistics of one input with the summarizer
// its first JSON line's dialect calls for. A later line of the other
// family (a Claude Code line in a Zero input, a Zero line in a Codex
// input) is a bad line: named through Invalid, counted in
// FileStats.Invalid and nowhere else.
type StatsSummarizer struct {
	// Invalid, when set, is called for each bad line, with its number and
	// what is wrong with it.
	Invalid func(line int, err error)

	name  string
	as    StatsAs
	today *Summarizer
	ev    *EventSummarizer
	fs    *FileStats // the one of today or ev, once chosen
	check bool       // lines of the other family are looked for
	// claimer: of each family, the dialect that claimed its last line.
	claimer map[bool]*evt.Dialect

	// Before the first JSON line: the lines read, and the bad ones.
	lines, invalid int
	dec            protocol.Decoder
	cur            decoded
}

// New returns the summarizer of the input named name.
func (a StatsAs) New(name string) *StatsSummarizer {
	return &StatsSummarizer{name: name, as: a}
}

// Line adds one line.
func (s *StatsSummarizer) Line(l jsonl.Line) {
	switch {
	case s.fs == nil:
		if s.choose(l) {
			s.Line(l)
		}
	case s.today != nil:
		// Today's decoding of the line says cheaply whether Zero's or
		// EvoScientist's dialect claims it; the others are asked only
		// when neither does.
		ls := &s.today.lines
		decode(&ls.dec, ls.as, l, &ls.cur)
		if s.check && !ls.cur.blank && ls.cur.err == nil && !todayClaims(&ls.cur) && s.claimed(l.Bytes, false) {
			s.other(l.Num, errEventLine)
			return
		}
		s.today.readDecoded()
	default:
		if s.check && s.claimed(l.Bytes, true) && !s.claimed(l.Bytes, false) && gjson.ValidBytes(l.Bytes) {
			s.other(l.Num, errTodayLine)
			return
		}
		s.ev.Line(l)
	}
}

// other counts a line of the other family as a bad line.
func (s *StatsSummarizer) other(num int, err error) {
	s.fs.Lines++
	s.fs.Invalid++
	if s.Invalid != nil {
		s.Invalid(num, err)
	}
}

// choose picks the summarizer at the input's first JSON line (or at once,
// given --as), and says whether l is still to be read by it. The blank and
// bad lines before it are counted here, as Summarizer counts them.
func (s *StatsSummarizer) choose(l jsonl.Line) bool {
	switch {
	case s.as.proto != nil:
		s.start(true, s.as.proto)
		return true
	case s.as.dialect != nil:
		s.start(false, nil)
		return true
	}
	decode(&s.dec, nil, l, &s.cur)
	if s.cur.blank || s.cur.err != nil {
		s.lines++
		if s.cur.err != nil {
			s.invalid++
			if s.Invalid != nil {
				s.Invalid(l.Num, s.cur.err)
			}
		}
		return false
	}
	// A line no dialect claims is the fallback's, as the dialects read it.
	d := evt.NewDetector(dialects.All).Detect(l.Bytes)
	if d == nil {
		d = dialects.Fallback
	}
	s.start(todays[d], nil)
	s.check, s.claimer = true, map[bool]*evt.Dialect{}
	return true
}

func (s *StatsSummarizer) start(today bool, as *protocol.Protocol) {
	if today {
		s.today = NewSummarizer(s.name, as)
		s.today.Invalid = s.Invalid
		s.fs = &s.today.fs
	} else {
		in := dialects.NewInput(evt.DecodeOptions{})
		if d := s.as.dialect; d != nil {
			in = evt.NewInput([]*evt.Dialect{d}, d, dialects.DecodeOptions())
		}
		s.ev = NewEventSummarizer(s.name, in)
		s.ev.Invalid = s.Invalid
		s.fs = &s.ev.fs
	}
	s.fs.Lines += s.lines
	s.fs.Invalid += s.invalid
}

// A line is of the other family than the input's when only dialects of
// that family claim it (Sure or Maybe): a line both families may have
// written is the input's, as the dialects' own detection gives a line
// several may write to the input's dialect. A line no dialect claims, or
// that is not JSON, is left to the summarizer.

// todayClaims tells, from today's decoding of a JSON line, whether Zero's
// or EvoScientist's dialect claims it, as their Detect says: Zero's every
// line with a schemaVersion, EvoScientist's a line without one whose type
// is one of its own (TestStatsTodayClaimsAsTheDialects holds them to it).
func todayClaims(d *decoded) bool {
	if d.proto.Family != protocol.FamilyEvoSci {
		return true
	}
	t := d.obj.Get("type")
	return t.Type == gjson.String && protocol.EvoSci.Event(t.Str) != nil
}

// claimed tells whether a dialect of today's family (or of the other)
// claims line. The dialect that claimed the last line is asked first: in
// most inputs it is the one that claims them all.
func (s *StatsSummarizer) claimed(line []byte, today bool) bool {
	if d := s.claimer[today]; d != nil && d.Detect(line) != evt.No {
		return true
	}
	for _, d := range dialects.All {
		if todays[d] == today && d != s.claimer[today] && d.Detect(line) != evt.No {
			s.claimer[today] = d
			return true
		}
	}
	return false
}

// End returns the statistics of the input.
func (s *StatsSummarizer) End() *FileStats {
	if s.fs == nil { // no JSON line: as Summarizer says of it
		s.start(true, nil)
	}
	if s.today != nil {
		return s.today.End()
	}
	return s.ev.End()
}
