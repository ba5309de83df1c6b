package zero

import (
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/redact"
)

// EncodeOptions configure an Encoder.
type EncodeOptions struct {
	Version int // 2 (the default) or 1
	// Plain builds every line member by member (Encoder.plain).
	Plain bool
	// Redactor redacts every value written; nil writes them as they are.
	Redactor *redact.Redactor
	// NewRunID names each run the encoder opens (Zero's format).
	NewRunID func() string
	// NewSessionID names each producer session the runs belong to, when
	// SessionID is not given (Zero's format).
	NewSessionID func() string
	// SessionID, Cwd and Model, when given, are written on every
	// run_start (Cwd and Model only where the stream does not say).
	SessionID, Cwd, Model string
	// Keep writes the lines the target has no event for, their type
	// prefixed with their dialect's name ("claude.rate_limit_event").
	Keep bool
	// Risk is the risk level of a permission request by side effect
	// ("medium" for one it does not list).
	Risk map[string]string
	// Effect is the side effect of the tool a permission is about.
	Effect func(tool string) event.Effect
	// Provider names the producer of a dialect's runs where they name
	// none (run_start's provider); nil: the dialect's name.
	Provider func(dialect string) string
	// Report: see event.EncodeOptions.
	Report func(msg string)
	// Dropped: see event.EncodeOptions.
	Dropped func(path string)
}

// Encoder writes events as Zero's stream-json: keys in alphabetical
// order, Go's escaping, empty fields left out, each run framed by
// run_start … run_end with a runId of its own.
type Encoder struct {
	opt  EncodeOptions
	emit func([]byte) error
	obj  jsonl.Object
	line []byte

	open    bool   // a run is being written
	runID   string // of the run being written, or of the last one
	session string
	lastSrc string          // the producer's session of the last run opened
	errored bool            // the run has an error event
	final   *string         // the run's final answer, held for its end
	pending []pendingCall   // calls without a result, oldest first
	perms   map[string]bool // permission request ids written
	used    map[string]bool
	// permAt and permN: the line of the last permission request and how
	// many requests of it came before (one line may ask several).
	permAt *byte
	permN  int
	// written is the run's usage written so far (wrote: some was).
	written event.Tokens
	wrote   bool
	// later is the start of the run being written, not written yet: its
	// first event was one Zero has no room for, dropped, and a run of
	// such events alone is not written at all. Its run_start is written
	// before the run's first line (head); laterErr is that write's error.
	later    *event.Event
	laterErr error
	// tails are the text and reasoning lines' members after the delta,
	// rendered for the run tailRun (runText).
	tails   [2][]byte
	tailRun string
	tailSet bool // tails are of tailRun
	tailOK  bool // and usable
	// plain builds every line member by member: the reference the
	// tests hold writeText to.
	plain bool
}

// NewEncoder writes to emit, one event a call without line end (the
// slice is reused after emit returns).
func NewEncoder(opt EncodeOptions, emit func([]byte) error) *Encoder {
	if opt.Version == 0 {
		opt.Version = 2
	}
	e := &Encoder{opt: opt, emit: emit, plain: opt.Plain}
	e.obj = jsonl.Object{Style: jsonl.GoStyle, Redact: opt.Redactor, Sorted: true}
	return e
}

func (e *Encoder) redacted(s string) string {
	if e.opt.Redactor == nil {
		return s
	}
	return e.opt.Redactor.String(s)
}

func (e *Encoder) head(typ string) {
	if l := e.later; l != nil {
		e.later = nil
		e.laterErr = e.writeStart(l)
	}
	e.obj.Reset()
	e.obj.Int("schemaVersion", int64(e.opt.Version))
	e.obj.Str("type", typ)
	e.obj.Str("runId", e.runID)
}

func (e *Encoder) write() error {
	if err := e.laterErr; err != nil {
		e.laterErr = nil
		return err
	}
	if err := e.obj.Err(); err != nil {
		return err
	}
	e.line = e.obj.AppendTo(e.line[:0])
	return e.emit(e.line)
}

// Encode writes ev, placed in its run by st (ev nil: st only closes a
// run). mapped is false for an event Zero has no room for: dropped, or
// with Keep written under its prefixed type (an Other event only: the
// other events of a line that gave some say what Zero can hold of it).
func (e *Encoder) Encode(ev *event.Event, st event.Step) (mapped bool, err error) {
	if st.Closed != nil && e.open {
		msg := event.CutMessage(st.Closed.Cut)
		if err := e.end(event.StatusIncomplete, nil, "incomplete", msg); err != nil {
			return false, err
		}
	}
	if ev == nil {
		return true, nil
	}
	if ev.Dialect == Name && (ev.Kind == event.Prompt || ev.Kind == event.RunEnd && ev.StatusWord == "input") {
		// Zero's input events (a client's messages to Zero) are never
		// its output, nor is a run of them alone.
		if ev.Kind == event.RunEnd {
			return true, nil
		}
		return false, e.keepInput(ev)
	}
	if st.Start {
		if ev.Kind.Own() && !e.opt.Keep && ev.Dialect != Name {
			// Dropped: the run is written from its first line on.
			e.begin()
			e.later = &event.Event{Dialect: ev.Dialect, Run: ev.Run, Session: ev.Session,
				Cwd: ev.Cwd, Model: ev.Model, Provider: ev.Provider}
		} else if err := e.start(ev); err != nil {
			return false, err
		}
	}
	if ev.Aside && ev.Kind == event.Other && st.Run != nil && !st.Run.Open() {
		// A late line of a run already ended (EvoScientist's done after
		// the error that ended its run): it belongs to that run, which
		// is written to its end.
		return true, nil
	}
	if !e.open || st.Run == nil {
		// A late line after its run's end (or before any run): Zero
		// writes nothing outside a run.
		return false, e.keep(ev)
	}
	sub := ev.Sub != ""
	switch ev.Kind {
	case event.RunStart:
		return true, nil // written by start
	case event.Text, event.Reasoning:
		typ := "text"
		if ev.Kind == event.Reasoning {
			typ = "reasoning"
		}
		if sub || ev.Text == "" || e.opt.Version == 1 && V1Renames().V2Only[typ] {
			// A sub-agent's words are not the run's answer.
			return false, e.keep(ev)
		}
		if e.later == nil && e.laterErr == nil && !e.plain {
			return true, e.writeText(ev.Kind == event.Reasoning, typ, ev.Text)
		}
		e.head(typ)
		e.obj.Str("delta", ev.Text)
		return true, e.write()
	case event.ToolCall:
		if ev.Tool.Again {
			return true, nil // one call, written once
		}
		e.head("tool_call")
		e.obj.StrOmit("id", e.callID(ev.Tool.ID, ev.Tool.Name))
		e.obj.StrOmit("name", ev.Tool.Name)
		if a := ev.Tool.Args; len(a) > 0 && string(a) != "null" {
			e.obj.Raw("args", a)
		}
		e.obj.Str("sideEffect", string(effectOr(ev.Tool.Effect)))
		return true, e.write()
	case event.ToolResult:
		e.head("tool_result")
		e.obj.StrOmit("id", e.resultID(ev.Tool.ID, ev.Tool.Name))
		e.obj.StrOmit("name", ev.Tool.Name)
		status := "ok"
		if ev.Tool.Failed {
			status = "error"
		}
		e.obj.Str("status", status)
		e.obj.StrOmit("output", ev.Tool.Output)
		e.obj.Bool("truncated", ev.Tool.Truncated)
		return true, e.write()
	case event.PermissionRequest, event.PermissionDecision:
		if ev.Permission == nil {
			return false, e.keep(ev)
		}
		if p := ev.Permission; ev.Kind == event.PermissionRequest && p.Tool == "" && p.Interrupt != "" && p.Questions == nil {
			// An interrupt with no action requests asks nothing a
			// permission request can say: its line is kept as it is.
			return false, e.keepLine(ev)
		}
		return true, e.permission(ev)
	case event.Usage:
		if ev.Usage == nil {
			return false, e.keep(ev)
		}
		if u := ev.Usage; u.Past != nil || !fits(u) {
			// Counts that are no counts (and -0) are written as stated, but a
			// count Zero's 64-bit integers cannot hold (or their total)
			// only with Keep: otherwise the line is reported.
			prompt, completion := statedCounts(u)
			total := new(big.Int).Add(prompt, completion)
			if !e.opt.Keep {
				switch {
				case !prompt.IsInt64():
					return e.unfit(ev, "promptTokens", prompt)
				case !completion.IsInt64():
					return e.unfit(ev, "completionTokens", completion)
				case !total.IsInt64():
					return e.unfit(ev, "totalTokens", total)
				}
			}
			var inRaw, outRaw string
			if u.Past != nil {
				inRaw, outRaw = u.Past.InputRaw, u.Past.OutputRaw
			}
			e.wrote = true
			e.head("usage")
			e.obj.Raw("promptTokens", spelled(prompt, inRaw))
			e.obj.Raw("completionTokens", spelled(completion, outRaw))
			e.obj.Raw("totalTokens", total.Append(nil, 10))
			return true, e.write()
		}
		return true, e.usage(ev.Usage)
	case event.Final:
		// Written at the run's end, after its usage, as Zero orders them.
		s := ev.Text
		e.final = &s
		return true, nil
	case event.Warning:
		e.head("warning")
		e.obj.StrOmit("message", ev.Text)
		return true, e.write()
	case event.Error:
		code := ev.Code
		if code == "" {
			code = "agent_error"
		}
		return true, e.fail(code, ev.Text)
	case event.RunEnd:
		if sub {
			return false, e.keep(ev)
		}
		return true, e.end(ev.Status, ev.ExitCode, string(ev.Status), "the run ended with status "+string(ev.Status))
	}
	// Prompt (Zero's input, not its output), Checkpoint (Zero's needs
	// the files), Other.
	return false, e.keep(ev)
}

// writeText writes a text or reasoning line (typ) of the run being
// written, as head, Str("delta", text) and write would: the delta, then
// the members after it (runId, schemaVersion, type), rendered once a run
// (most lines of a stream are these).
func (e *Encoder) writeText(reasoning bool, typ, text string) error {
	if !e.tailSet || e.tailRun != e.runID {
		e.tailOK, e.tailSet = e.renderTails(), true
	}
	if !e.tailOK {
		e.head(typ)
		e.obj.Str("delta", text)
		return e.write()
	}
	tail := e.tails[0]
	if reasoning {
		tail = e.tails[1]
	}
	e.line = append(e.line[:0], `{"delta":`...)
	e.line = e.obj.AppendTextValue(e.line, text)
	e.line = append(e.line, tail...)
	return e.emit(e.line)
}

// renderTails renders the text and reasoning lines of the run with an
// empty delta, and keeps what follows it; false if a line does not start
// with the delta, or the delta is redacted whole (writeText then builds
// each line).
func (e *Encoder) renderTails() bool {
	e.tailRun = e.runID
	if e.obj.Sensitive("delta") {
		return false
	}
	for i, typ := range [2]string{"text", "reasoning"} {
		e.head(typ)
		e.obj.Str("delta", "")
		if e.obj.Err() != nil {
			return false
		}
		head := e.obj.AppendStrValue([]byte(`{"delta":`), "delta", "")
		line := e.obj.AppendTo(nil)
		if len(line) < len(head) || string(line[:len(head)]) != string(head) {
			return false
		}
		e.tails[i] = append(e.tails[i][:0], line[len(head):]...)
	}
	return true
}

// Rendered writes, in the run st places ev in, one line of type typ
// whose members fill adds: a line a user's mapping rule renders from
// ev's. The run is framed, and the line identified and redacted, as the
// encoder's own lines; a line that ends its run (st.End) ends it as the
// rule writes it, with no end of the encoder's. fill returns false when
// the line is not to be written (its run is still framed).
func (e *Encoder) Rendered(ev *event.Event, st event.Step, typ string, fill func(o *jsonl.Object) bool) error {
	if _, err := e.Encode(nil, event.Step{Closed: st.Closed}); err != nil {
		return err
	}
	if st.Start {
		if err := e.start(ev); err != nil {
			return err
		}
	}
	if !e.open || st.Run == nil {
		return nil // Zero writes nothing outside a run
	}
	if st.End {
		e.open = false
	}
	e.head(typ)
	if !fill(&e.obj) {
		return nil
	}
	return e.write()
}

// Passed writes the line of ev, an event of Zero's own (the source is
// the target), as fill renders it from the line after schemaVersion (the
// target's version), given the runId of the run it is written in: the
// run is the producer's, its run_start and run_end its own lines (none
// is made for a run without them); a run cut short ends as Zero ends an
// incomplete run. Zero's input events are not its output (Encode).
// fill returns false when the line is not to be written.
func (e *Encoder) Passed(ev *event.Event, st event.Step, fill func(o *jsonl.Object, runID string) bool) (mapped bool, err error) {
	if ev.Kind == event.Prompt || ev.Kind == event.RunEnd && ev.StatusWord == "input" {
		return e.Encode(ev, st)
	}
	if _, err := e.Encode(nil, event.Step{Closed: st.Closed}); err != nil {
		return false, err
	}
	if st.Start {
		e.open, e.errored, e.final, e.later = true, false, nil, nil
		e.runID = ev.Run
		if !IsID(e.runID) {
			e.runID = e.opt.NewRunID()
			e.renamed(ev)
		}
		e.pending, e.used, e.perms = e.pending[:0], map[string]bool{}, map[string]bool{}
	}
	if st.End {
		e.open = false
	}
	e.obj.Reset()
	e.obj.Int("schemaVersion", int64(e.opt.Version))
	if !fill(&e.obj, e.runID) {
		return true, nil
	}
	return true, e.write()
}

// renamed reports the runId of ev, a Zero line starting its run, that
// Zero cannot write: its run is written as e.runID.
func (e *Encoder) renamed(ev *event.Event) {
	if e.opt.Report == nil {
		return
	}
	got := "missing"
	if r := gjson.GetBytes(ev.Raw, "runId"); r.Exists() {
		got = clip(r.Raw) + " does not match " + IDPattern
	}
	e.opt.Report("runId " + got + ": its run is written as " + e.runID)
}

// clip shortens s for a diagnostic to at most 32 bytes, "..." included,
// cut between characters, as translate's diagnostics clip values.
func clip(s string) string {
	if len(s) <= 32 {
		return s
	}
	n := 29
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// start writes run_start for the run ev starts.
func (e *Encoder) start(ev *event.Event) error {
	e.begin()
	return e.writeStart(ev)
}

// begin opens a run: the state of the last one is let go.
func (e *Encoder) begin() {
	e.open, e.errored, e.final, e.later = true, false, nil, nil
	e.pending, e.used, e.perms = e.pending[:0], map[string]bool{}, map[string]bool{}
	e.permAt, e.written, e.wrote = nil, event.Tokens{}, false
}

// writeStart writes the run_start of the run begin opened, with ev, the
// event that started it.
func (e *Encoder) writeStart(ev *event.Event) error {
	e.runID = ev.Run
	if ev.Dialect != Name || !IsID(e.runID) {
		// Zero's own runs keep their ids; another producer's run or
		// session id may name several runs.
		e.runID = e.opt.NewRunID()
		if ev.Dialect == Name {
			e.renamed(ev)
		}
	}
	switch src := ev.Session; {
	case e.opt.SessionID != "":
		e.session = e.opt.SessionID
	case ev.Dialect == Name || src == "":
		// Zero's own, or none: a producer that names no session
		// (EvoScientist) has none to carry over.
		e.session, e.lastSrc = src, ""
	case e.session == "" || src != e.lastSrc:
		// One Zero session per producer session.
		e.session = e.opt.NewSessionID()
		e.lastSrc = src
	}
	e.head("run_start")
	e.obj.StrOmit("sessionId", e.session)
	cwd, model, provider := ev.Cwd, ev.Model, ev.Provider
	if cwd == "" {
		cwd = e.opt.Cwd
	}
	if model == "" {
		model = e.opt.Model
	}
	if provider == "" {
		provider = ev.Dialect // the producer, as zevo names it
		if e.opt.Provider != nil {
			provider = e.opt.Provider(ev.Dialect)
		}
	}
	e.obj.StrOmit("cwd", cwd)
	e.obj.StrOmit("provider", provider)
	e.obj.StrOmit("model", model)
	e.obj.StrOmit("apiModel", model)
	return e.write()
}

// fail writes an error event.
func (e *Encoder) fail(code, msg string) error {
	e.errored = true
	e.head("error")
	e.obj.Str("code", code)
	e.obj.StrOmit("message", msg)
	e.obj.Bool("recoverable", false)
	return e.write()
}

// zeroEnd is the run_end status and exit code Zero gives a run of
// status s (4 incomplete and 130 interrupted, as Zero's). A failure Zero
// has no status for is an error.
func zeroEnd(s event.Status) (string, int64) {
	// A failure exits 1, as the agents' own CLIs (Claude Code, Codex,
	// OpenCode, Cursor, EvoScientist) exit when their run fails.
	switch s {
	case event.StatusSuccess, event.StatusEnded, event.StatusOpen:
		return "success", 0
	case event.StatusIncomplete:
		return "incomplete", 4
	case event.StatusInterrupted:
		// Paused for an answer: the producer ended its run, and its CLI
		// exits 0 (EvoScientist's done after a question).
		return "success", 0
	case event.StatusCancelled:
		return "interrupted", 130
	}
	return "error", 1
}

// end writes the run's final answer, an error (code, msg) when the run
// failed without one, and run_end.
func (e *Encoder) end(s event.Status, exit *int, code, msg string) error {
	if e.later != nil && e.final == nil {
		// Nothing of the run was written: nor is its end.
		e.later, e.open = nil, false
		return nil
	}
	if e.final != nil {
		e.head("final")
		e.obj.StrOmit("text", *e.final)
		e.final = nil
		if err := e.write(); err != nil {
			return err
		}
	}
	status, exitCode := zeroEnd(s)
	if exit != nil {
		exitCode = int64(*exit)
	}
	if status != "success" && !e.errored {
		if err := e.fail(code, msg); err != nil {
			return err
		}
	}
	e.head("run_end")
	e.obj.Str("status", status)
	e.obj.Int("exitCode", exitCode)
	e.open = false
	return e.write()
}

// usage writes a usage event as it comes: promptTokens is every token
// the model read (cache reads and writes included), costUsd the
// producer's own cost when it states one. A message's usage is written
// as it is; a run's total (Claude's result) as what it adds to the
// usage written in the run, none when it adds nothing.
func (e *Encoder) usage(t *event.Tokens) error {
	w := &e.written
	prompt, completion, cost := t.Input+t.CacheRead+t.CacheWrite, t.Output, t.CostUSD
	if t.Scope == event.ScopeRun {
		prompt -= w.Input + w.CacheRead + w.CacheWrite
		completion -= w.Output
		if cost != nil && w.CostUSD != nil {
			c := max(*cost-*w.CostUSD, 0)
			cost = &c
		}
		// The total may count less than the messages did: what was
		// written stays written.
		prompt, completion = max(prompt, 0), max(completion, 0)
		if prompt == 0 && completion == 0 && (cost == nil || *cost <= 0) && e.wrote {
			return nil
		}
		*w = *t
	} else {
		w.Add(t)
	}
	e.wrote = true
	e.head("usage")
	e.obj.Int("promptTokens", prompt)
	e.obj.Int("completionTokens", completion)
	e.obj.Int("totalTokens", prompt+completion)
	if cost != nil {
		e.obj.Float("costUsd", *cost)
	}
	return e.write()
}

// statedCounts is the prompt and completion counts of t as its producer
// states them, those that are no int64 counts (t.Past) included.
func statedCounts(t *event.Tokens) (prompt, completion *big.Int) {
	in, out := big.NewInt(t.Input), big.NewInt(t.Output)
	if p := t.Past; p != nil && p.Input != nil {
		in.Set(p.Input)
	}
	if p := t.Past; p != nil && p.Output != nil {
		out.Set(p.Output)
	}
	in.Add(in, big.NewInt(t.CacheRead))
	return in.Add(in, big.NewInt(t.CacheWrite)), out
}

// spelled is n in decimal, or raw, the producer's spelling of it (-0),
// when n is 0 and it has one.
func spelled(n *big.Int, raw string) []byte {
	if raw != "" && n.Sign() == 0 {
		return []byte(raw)
	}
	return n.Append(nil, 10)
}

// unfit reports ev, a usage whose field Zero's 64-bit integers cannot
// hold (n), and writes nothing of it: --unmapped keep writes it.
func (e *Encoder) unfit(ev *event.Event, field string, n *big.Int) (bool, error) {
	if e.opt.Report != nil {
		e.opt.Report(ev.Type + ": " + clip(n.String()) + " does not fit Zero's " + field + " (64-bit integers; --unmapped keep writes it)")
	}
	return true, nil
}

// fits reports whether the counts Zero writes of t, its prompt tokens
// (cache reads and writes included) and their total with the completion
// tokens, fit Zero's 64-bit integers.
func fits(t *event.Tokens) bool {
	sum := int64(0)
	for _, n := range []int64{t.Input, t.CacheRead, t.CacheWrite, t.Output} {
		if n > 0 && sum > math.MaxInt64-n {
			return false
		}
		sum += n
	}
	return true
}

// pendingCall is a call of the run without a result yet.
type pendingCall struct {
	id, name, out string // its id, its tool, the id written for it
	claimed       bool   // a permission request is about it
}

// callID is the id written for a tool call: its own, unless redaction
// changes it and an earlier call of the run already wrote that, then
// with the first free ":2", ":3", … so that the ids a client keys on stay
// distinct.
func (e *Encoder) callID(id, name string) string {
	if id == "" {
		return ""
	}
	out := e.distinct(e.redacted(id), e.redacted(id), e.used)
	if len(e.pending) >= maxCalls {
		e.pending = append(e.pending[:0], e.pending[1:]...)
	}
	e.pending = append(e.pending, pendingCall{id: id, name: name, out: out})
	return out
}

// distinct returns id, or the first of stem:2, stem:3, … not in used,
// and adds it to used.
func (e *Encoder) distinct(id, stem string, used map[string]bool) string {
	out := id
	for n := 2; used[out]; n++ {
		out = stem + ":" + itoa(n)
	}
	e.remember(out, used)
	return out
}

// remember adds id to used (bounded, as the ids of the rest of translate
// are: past maxCalls the oldest ids may be written again).
func (e *Encoder) remember(id string, used map[string]bool) {
	if len(used) >= maxCalls {
		clear(used)
	}
	used[id] = true
}

// maxCalls bounds the ids remembered in a run.
const maxCalls = 4096

// resultID is the id written for the result of the call id (without
// id, of a call of tool name): that of its earliest call without a
// result.
func (e *Encoder) resultID(id, name string) string {
	for i, p := range e.pending {
		if id != "" && p.id == id || id == "" && p.name == name {
			e.pending = append(e.pending[:i], e.pending[i+1:]...)
			return p.out
		}
	}
	return e.redacted(id)
}

// permissionID is the id of the nth permission request of one line (n
// from 0), about the call id of tool name: the call's id as written,
// else that of the earliest call of that tool no request of the line
// has claimed, else its own (id:N for the Nth request, "permission"
// without one); distinct in the run, as written.
func (e *Encoder) permissionID(id, name string, n int) string {
	at := -1
	for i, p := range e.pending {
		if !p.claimed && p.id == id && p.name == name && id != "" {
			at = i
			break
		}
	}
	for i, p := range e.pending {
		if at < 0 && !p.claimed && p.name == name && p.id != "" {
			at = i
		}
	}
	if at >= 0 {
		e.pending[at].claimed = true
		out := e.pending[at].out
		return e.distinct(out, out, e.perms)
	}
	stem := id
	if stem == "" {
		stem = "permission"
	}
	out := stem
	if n > 0 {
		out = stem + ":" + itoa(n+1)
	}
	return e.distinct(e.redacted(out), e.redacted(stem), e.perms)
}

// answerID is the id of a permission decision: that of the call it is
// about, as written.
func (e *Encoder) answerID(id, name string) string {
	for _, p := range e.pending {
		if p.id == id && id != "" || id == "" && p.name == name {
			return p.out
		}
	}
	return e.redacted(id)
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for n > 0 || i == len(b) {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

func effectOr(f event.Effect) event.Effect {
	if f == "" {
		return event.EffectUnknown
	}
	return f
}

// permission writes a permission_request, or a permission_decision.
func (e *Encoder) permission(ev *event.Event) error {
	p := ev.Permission
	name := p.Tool
	var id string
	if ev.Kind == event.PermissionRequest {
		// The requests of one line (an EvoScientist interrupt) claim
		// the calls they are about among themselves.
		if len(ev.Raw) > 0 && &ev.Raw[0] == e.permAt {
			e.permN++
		} else {
			e.permN = 0
			if len(ev.Raw) > 0 {
				e.permAt = &ev.Raw[0]
			}
			for i := range e.pending {
				e.pending[i].claimed = false
			}
		}
		id = e.permissionID(p.ID, name, e.permN)
	} else {
		// a decision answers a request: the same id
		id = e.answerID(p.ID, name)
	}
	typ, action, perm, granted := "permission_request", "prompt", "prompt", false
	if ev.Kind == event.PermissionDecision {
		typ = "permission_decision"
		switch p.Decision {
		case event.Allowed:
			action, perm, granted = "allow", "allow", true
		case event.Cancelled:
			action, perm = "cancel", "deny"
		default:
			action, perm = "deny", "deny"
		}
	}
	se := event.EffectUnknown
	if e.opt.Effect != nil {
		se = effectOr(e.opt.Effect(name))
	}
	level := e.opt.Risk[string(se)]
	if level == "" {
		level = "medium"
	}
	e.head(typ)
	e.obj.StrOmit("sessionId", e.session)
	e.obj.StrOmit("id", id)
	e.obj.StrOmit("name", name)
	e.obj.Str("action", action)
	e.obj.Str("permission", perm)
	e.obj.Bool("permissionGranted", granted)
	e.obj.Str("permissionMode", "ask")
	e.obj.Str("sideEffect", string(se))
	var risk jsonl.Object
	risk.Str("level", level)
	e.obj.Raw("risk", risk.AppendTo(nil))
	if ev.Kind == event.PermissionDecision {
		e.obj.StrOmit("decisionReason", p.Why())
	} else {
		e.obj.StrOmit("reason", p.Why())
	}
	return e.write()
}

// keep writes, with Keep, an event Zero has no room for: its line's
// fields under the type DIALECT.TYPE, in the run being written (or the
// last one).
func (e *Encoder) keep(ev *event.Event) error {
	if !ev.Kind.Own() {
		return nil // its line gave other events too: those say it
	}
	return e.keepLine(ev)
}

// keepInput writes, with Keep, a line of Zero's input as it is, its
// type prefixed, in the target's version: it belongs to no run.
func (e *Encoder) keepInput(ev *event.Event) error {
	if !e.opt.Keep {
		return nil
	}
	e.obj.Reset()
	e.obj.Int("schemaVersion", int64(e.opt.Version))
	e.obj.Str("type", Name+"."+ev.Type)
	gjson.ParseBytes(ev.Raw).ForEach(func(k, v gjson.Result) bool {
		if k.Str != "type" && k.Str != "schemaVersion" {
			e.obj.Raw(k.Str, []byte(v.Raw))
		}
		return true
	})
	return e.write()
}

// keepLine writes, with Keep, ev's line as keep does, whatever its kind.
func (e *Encoder) keepLine(ev *event.Event) error {
	if !e.opt.Keep || e.runID == "" {
		return nil
	}
	e.head(ev.Dialect + "." + ev.Type)
	gjson.ParseBytes(ev.Raw).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "type", "schemaVersion", "runId":
		default:
			e.obj.Raw(k.Str, []byte(v.Raw))
		}
		return true
	})
	return e.write()
}

// Interrupt ends the run being written as Zero ends a run stopped by a
// signal: error "interrupted", then run_end "interrupted" (exit 130).
func (e *Encoder) Interrupt() error {
	if !e.open {
		return nil
	}
	e.errored = false // the signal is why it ended
	return e.end(event.StatusCancelled, nil, "interrupted", "run cancelled by signal")
}

// outcome: a run_start opens a run, a run_end ends it with its
// exitCode, else 0 for success and 1 for any other status, as Zero's CLI
// exits.
func outcome(line []byte) event.Outcome {
	switch gjson.GetBytes(line, "type").Str {
	case "run_start":
		return event.Outcome{Start: true, Exit: -1}
	case "run_end":
		o := event.Outcome{End: true, Exit: 1}
		code := gjson.GetBytes(line, "exitCode")
		switch {
		case code.Type == gjson.Number && code.Int() >= 0 && code.Int() <= 255 && code.Num == float64(code.Int()):
			o.Exit = int(code.Int())
		case gjson.GetBytes(line, "status").Str == "success":
			o.Exit = 0
		}
		return o
	}
	return event.Outcome{Exit: -1}
}

// newEncoder is the Dialect's NewEncoder.
func newEncoder(o event.EncodeOptions, emit func([]byte) error) event.Encoder {
	dec := event.DecodeOptions{Effects: o.Effects}
	return NewEncoder(EncodeOptions{
		Version: o.Version, Redactor: o.Redactor,
		NewRunID: o.NewRunID, NewSessionID: o.NewSessionID,
		SessionID: o.SessionID, Cwd: o.Cwd, Model: o.Model,
		Keep: o.Keep, Risk: o.Risk, Effect: dec.EffectOf, Provider: o.Provider,
		Report: o.Report, Dropped: o.Dropped, Plain: o.Plain,
	}, emit)
}
