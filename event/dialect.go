package event

import (
	"io"
	"time"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// Dialect is one agent's stream format: everything zevo knows of it lives
// in its folder under dialects/, and the registry (dialects/registry.go)
// lists it.
type Dialect struct {
	Name    string   // as users write it: --from NAME, --to NAME
	Aliases []string // other names users may write
	Title   string   // its producer, in text shown to people ("cut by Claude Code")
	// Provider names the producer where a target writes who made a run
	// (a run's start that names its provider) and its lines do not say;
	// "" is Name.
	Provider string
	// Schema is the JSON Schema (draft 2020-12) of its lines, from the
	// producer's own types, embedded from its folder: zevo schema prints
	// it and validate checks the dialect's lines against it. Nil: none.
	Schema []byte
	// Versions, for a dialect whose lines follow several schemas (one a
	// version, or its input's and its output's), lists them instead of
	// Schema: a line's schema is the one its events' Variant names.
	Versions []*Schema
	// Effects names what running each of the producer's own tools does.
	// Decoders read a tool's effect through DecodeOptions, whose table is
	// every registered dialect's Effects (EffectsOf), so a tool keeps its
	// effect in another dialect's stream (a translation's).
	Effects map[string]Effect
	// Tables are its mapping tables, embedded from its folder: the table
	// from it into another dialect (to-NAME.json) by that dialect's name.
	// translate reads one only when it translates between the two.
	Tables map[string][]byte
	// Style is how its producer writes JSON (separators, escapes): how
	// a line its encoder wrote is edited.
	Style jsonl.Style
	// OmitsEmpty: its encoder leaves out a field whose value is empty
	// (the producer's types say omitempty), and so does a line a mapping
	// rule renders into it.
	OmitsEmpty bool
	// NewEncoder, for a dialect zevo writes, starts writing events as
	// its lines to emit (one line a call, without its end). Nil: zevo
	// reads the dialect and does not write it.
	NewEncoder func(opt EncodeOptions, emit func([]byte) error) Encoder
	// Targets, for a dialect zevo writes in several versions, are the
	// versions translate --to names, its default first; nil: its one,
	// by the dialect's name and aliases.
	Targets []Target
	// Unredacted: a translation into it is not redacted unless asked
	// (--redact): its output is the stream as its producer writes it.
	// Any other target's output is redacted by default.
	Unredacted bool
	// Source: translate --from NAME reads its lines alone, telling them
	// from the other sources' before decoding them; Foreign is the
	// diagnostic of a line it tells is another's.
	Source  bool
	Foreign string
	// Prepare, for a source whose producer reads its lines into typed
	// fields, is what translate checks of them before it decodes them.
	Prepare *Prepare
	// Layouts are the layouts of the lines a source's producer writes
	// most: translate splits a line in one of them without a full
	// decode (jsonl.Decoder.DecodeLayouts).
	Layouts []jsonl.TypeLayout
	// Upgrade, when set, is the line of ev, one of the dialect's, as
	// its default version writes it, when ev's line is of an older
	// version (ok false: it is not): what a translation keeps of the
	// line is the line as that version.
	Upgrade func(ev *Event) (raw []byte, ok bool)
	// RunIDs, for the dialect whose ids name the runs zevo opens in any
	// target (dialects.Runs), makes and checks them.
	RunIDs *RunIDs
	// Failed, for that dialect, is the lines its producer writes for a
	// run that failed before it began: an error (code, msg, not
	// recoverable) and the end of the run (status, exitCode).
	Failed func(runID, code, msg, status string, exitCode int) [][]byte
	// Host, for a dialect zevo writes whose producer is driven by clients
	// through its own stream-json input, lets exec stand in for it there.
	Host *Host
	// Outcome, for a dialect zevo writes, reads one line of its output as
	// exec does to exit as the producer's own CLI would (exec.md).
	Outcome func(line []byte) Outcome
	// Prompt, for a dialect whose producer takes its prompt as input
	// events on its standard input, reads them into one prompt as the
	// producer does; an *InputError is input the producer would refuse.
	Prompt func(data []byte) (string, error)
	// Exits, for a dialect zevo writes, are how its producer's CLI ends
	// where its lines tell no exit status: exec ends so (exec.md).
	Exits Exits
	// DetectLine tells from one line alone whether it is this dialect's,
	// given the line as a Detector reads it once for all the dialects it
	// asks (its type, and what it lacks). Detect asks it of a line's bytes.
	DetectLine func(l *Line) Certainty
	// Marked: DetectLine is Sure of every line the dialect writes (Zero's
	// schemaVersion), so a line no dialect claims is not its even after
	// its lines: an Input gives it to its fallback.
	Marked bool
	// NewDecoder starts decoding one input. A decoder keeps the state the
	// dialect's lines need (open messages, items, calls) for that input
	// only.
	NewDecoder func(opt DecodeOptions) Decoder
	// NewRules, when set, starts checking one input's stream rules of
	// the dialect (Rules) for validate.
	NewRules func() Rules

	// Agent is the name the producer goes by as an agent (a trace's
	// service.name), when it is not Name.
	Agent string
	// OneCallPerLine: a line holds at most one tool call, so its number
	// alone tells the call apart (a synthetic trace's span ids hash it).
	OneCallPerLine bool
	// Respells: its encoder writes a tool's output from the spelling a
	// decoder kept (Tool.OutputJSON) when it redacts nothing, so a
	// translation into it asks the decoders to keep it
	// (DecodeOptions.Spelled).
	Respells bool
	// RunTime, when set, is the time a run began as its id states it
	// (ok false when the id states none).
	RunTime func(run string) (at time.Time, ok bool)

	// Corpus, optional, generates streams of the dialect for benchmarks
	// and tests (bench/corpus, bench/cmd/gen).
	Corpus *Corpus
}

// Target is one version of a dialect's lines that zevo writes, as
// translate --to names it.
type Target struct {
	Name    string   // as zevo prints it ("zero@2")
	Aliases []string // other names users may write
	Version int      // its encoder's EncodeOptions.Version
	// Lacks, when set, is the event types of the dialect's default
	// version this one has not: a rule into one is unmapped.
	Lacks func() map[string]bool
	// Holds, when set, reports whether the producer's clients read a
	// top-level field key of value v: a field a mapping rule renders
	// that they cannot is left out (and counted), unless --unmapped
	// keep. Nil: every field is written.
	Holds func(key string, v gjson.Result) bool
}

// Prepare is what translate checks of a source dialect's lines before it
// decodes them, so that no target gets a line the producer's own readers
// would refuse.
type Prepare struct {
	// Kinds are the JSON kinds the producer gives the top-level fields
	// it knows.
	Kinds *FieldKinds
	// VersionKey is the field that states a line's version (of a Marked
	// dialect, the field that marks its lines: a line with it is the
	// dialect's, as its DetectLine tells); Version is
	// the problem of a line whose VersionKey is sv (not Exists: absent),
	// "" for a version the producer reads.
	VersionKey string
	Version    func(sv gjson.Result) string
	// Plain reports a line of type typ, its VersionKey's value sv (nil:
	// absent), whose fields' kinds alone are left to check: a line of
	// the producer's output at its current version.
	Plain func(typ string, sv []byte) bool
}

// FieldKinds are fields' JSON kinds by name, a table made once and
// looked up for every field of every line: buckets by a cheap hash of
// the name.
type FieldKinds struct{ b [64][]fieldKind }

type fieldKind struct {
	name string
	kind jsonl.Kind
}

func kindHash(s string) int {
	if s == "" {
		return 0
	}
	return (len(s)*31 + int(s[0])*7 + int(s[len(s)-1])) & 63
}

// Add gives field name kind k, unless it has one.
func (t *FieldKinds) Add(name string, k jsonl.Kind) {
	if t.Kind(name) != jsonl.KindAny || k == jsonl.KindAny {
		return
	}
	h := kindHash(name)
	t.b[h] = append(t.b[h], fieldKind{name, k})
}

// Kind is the kind of field name, KindAny for one the table does not
// know.
func (t *FieldKinds) Kind(name string) jsonl.Kind {
	for _, e := range t.b[kindHash(name)] {
		if e.name == name {
			return e.kind
		}
	}
	return jsonl.KindAny
}

// RunIDs are a dialect's run ids, as zevo gives them to the runs it
// opens.
type RunIDs struct {
	// New is a new id of the producer's format, for the time at, its
	// random part read from random.
	New func(at time.Time, random io.Reader) string
	// Check reports an id a user gives (--run-id) that the producer
	// could not write with the suffixes of later runs (.2, .3, …).
	Check func(id string) error
	// Session is the n-th session id made at time at, in the
	// producer's format.
	Session func(at time.Time, n int) string
}

// Corpus generates realistic streams of a dialect, serialized exactly as
// its producer writes them.
type Corpus struct {
	// Write writes whole runs until at least size bytes are written, the
	// last run cut short (the producer died), and returns the number of
	// bytes written; the same seed gives the same bytes.
	Write func(w io.Writer, size int64, seed uint64) (int64, error)
	// Huge writes one line holding a tool's output of size bytes.
	Huge func(w io.Writer, size int) error
}

// Detect tells from line alone whether it is the dialect's: DetectLine
// of the line read afresh, for a caller without a Detector.
func (d *Dialect) Detect(line []byte) Certainty {
	l := ReadLine(line)
	return d.DetectLine(&l)
}

// String is the dialect's name.
func (d *Dialect) String() string { return d.Name }

// AgentName is the name the dialect's producer goes by as an agent.
func (d *Dialect) AgentName() string {
	if d.Agent != "" {
		return d.Agent
	}
	return d.Name
}

// Outcome is what one output line says of its run: that it opens one,
// ends one, and the exit status the producer's CLI has after it (Exit
// -1: the line says none).
type Outcome struct {
	Start, End bool
	Exit       int
}

// Exits are the exit statuses of a producer's CLI that its lines do not
// carry, and what it writes when a signal stops it.
type Exits struct {
	// Open is the status after a run that did not finish: its output
	// ends no run, or zevo ends the one it left open.
	Open int
	// Interrupt and Terminate are the statuses after SIGINT and SIGTERM
	// stopped it.
	Interrupt, Terminate int
	// Quiet: a signal stops it without a word more, its status the
	// signal's even after a run that had ended. Otherwise it ends the
	// run it was writing as Encoder.Interrupt does, writes a run
	// cancelled before it began, and keeps the status of one that ended.
	Quiet bool
}

// InputError is input a producer would refuse (Dialect.Prompt): Line is
// the line at fault (0: the input as a whole), Reason what is wrong with
// it, Message the producer's own words for it.
type InputError struct {
	Line    int
	Reason  string
	Message string
}

func (e *InputError) Error() string { return e.Message }

// Certainty is how sure a dialect is that a line is its own.
type Certainty uint8

const (
	No Certainty = iota
	// Maybe: the line's shape is this dialect's and also another's (a
	// bare {"type":"error","message":…} is written by two producers).
	// Such a line belongs to the dialect of the input's lines before it.
	Maybe
	// Sure: no other dialect writes this line.
	Sure
)

// DecodeOptions are what every decoder is given.
type DecodeOptions struct {
	Effects *Effects // tool name → effect; nil knows no tool (every effect unknown)
	// Spelled: a tool's output that its line writes with escapes is kept
	// as spelled (Tool.OutputJSON), not unescaped, for an encoder that
	// respells it (Dialect.Respells). A decoder may ignore it.
	Spelled bool
	// Surrogates keeps a lone surrogate escape (\ud800) of a string in
	// its text, as WTF-8 bytes that jsonl.AppendString writes back as
	// the escape (a translation); without it, it reads as U+FFFD, as
	// every JSON reader reads it.
	Surrogates bool
	// SkipText: the events are read by their dialect's Rules alone
	// (validate), so a decoder may leave empty the texts those rules do
	// not read (a reasoning delta, a tool's output, and what it tells
	// of them) rather than unescape them (Problems.Text). Everything
	// else, and every problem of the line, is as without it.
	SkipText bool
}

// EffectOf is the effect of the tool called name under these options.
func (o DecodeOptions) EffectOf(name string) Effect {
	return o.Effects.Of(name)
}

// Decoder turns one input's lines into events.
type Decoder interface {
	// Decode appends the events of one line (numbered num in its input)
	// to dst and returns it. line is a JSON object the dialect detected as
	// its own; the events' Raw is line itself, so a caller that reuses
	// its buffer copies it first. An error is a diagnostic about this
	// line; the events decoded before it are still returned.
	Decode(dst []Event, line []byte, num int) ([]Event, error)
	// End appends the events that the end of the input implies: runs it
	// cut short end as StatusIncomplete, calls without results are left
	// as they are.
	End(dst []Event) []Event
}

// LineDecoder is a Decoder that reads a line as the Input's detector read
// it: the fields found for detecting it are not looked for again.
type LineDecoder interface {
	Decoder
	// DecodeLine is Decode of l.Bytes, which l.Check has read.
	DecodeLine(dst []Event, l *Line, num int) ([]Event, error)
}
