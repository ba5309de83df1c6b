package inspect

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/redact"
)

// DocFormat is the format of a transcript document.
type DocFormat int

const (
	Markdown DocFormat = iota + 1 // GitHub-flavoured Markdown
	HTML                          // one self-contained HTML page
)

// DocOptions configure a transcript document.
type DocOptions struct {
	Format DocFormat
	Full   bool // no clipping of long outputs, arguments and text
	// Redact applies the redaction to every value shown (Redactor, or
	// the default rules when it is nil).
	Redact   bool
	Redactor *redact.Redactor
	Version  string // zevo's version, named in the document
}

// DocFile is what a document knows of one input before rendering it: the
// summary of each of its runs, as zevo stats counts them. It keeps no
// more than that, so it stays small however long the runs were.
type DocFile struct {
	Name string
	runs []*runHead
}

// ScanDocFile reads one input to the end for the summaries a document
// shows before each run's events, each run priced as zevo stats prices it.
func ScanDocFile(r io.Reader, name string, prices Pricing) (*DocFile, error) {
	// The summarizer stats uses.
	s := StatsAs{}.New(name)
	df := &DocFile{Name: name}
	runs := func() []*Run { return s.fs.Runs }
	// done summarizes the first n runs the summarizer holds, which have
	// ended, and lets it forget them.
	done := func(n int) {
		rs := runs()
		for _, r := range rs[:n] {
			prices.PriceRun(r)
			df.runs = append(df.runs, summarize(r))
		}
		s.forget(rs[:n])
		s.fs.Runs = append(rs[:0], rs[n:]...)
	}
	lr := jsonl.NewReader(r, name, nil)
	var err error
	for {
		var l jsonl.Line
		if l, err = lr.Next(); err != nil {
			break
		}
		n := len(runs())
		s.Line(l)
		if len(runs()) > n {
			done(len(runs()) - 1)
		}
	}
	s.End()
	done(len(runs()))
	if err == io.EOF {
		err = nil
	}
	return df, err
}

// Clipping limits per format. page is the size past which events are no
// longer shown (each run still gets its heading and summary): a browser
// opens an HTML page of a few MiB in a moment and one of 80 MiB in minutes,
// and GitHub renders Markdown files of about a MiB.
type clipLimits struct {
	result, args, text, reasoning int // bytes
	resultLines                   int
	page                          int64
}

var (
	markdownLimits = clipLimits{result: 4 << 10, args: 2 << 10, text: 16 << 10, reasoning: 4 << 10, resultLines: 40, page: 1 << 20}
	htmlLimits     = clipLimits{result: 16 << 10, args: 4 << 10, text: 32 << 10, reasoning: 16 << 10, resultLines: 200, page: 8 << 20}
)

// textKind is the kind of a block of running text.
type textKind int

const (
	noText     textKind = iota
	kText               // the agent's answer
	kReasoning          // thinking, folded
	kSubagent           // a sub-agent's text, folded
	kFinal              // the final answer, when it is not the text above
	kPrompt             // the user's message
	kSummary            // the producer's summary of its context, folded
)

// noticeKind is the kind of a one-line event worth seeing at a glance.
type noticeKind int

const (
	nInfo noticeKind = iota
	nPermission
	nAllowed
	nDenied
	nWarning
	nError
)

// noticeMark starts a notice, as zevo view marks it.
var noticeMark = map[noticeKind]string{nInfo: "·", nPermission: "⚠", nAllowed: "✓", nDenied: "✗", nWarning: "⚠", nError: "✗"}

// foldTitle names a folded block of text.
var foldTitle = map[textKind]string{kReasoning: "Reasoning", kSubagent: "Sub-agent ", kSummary: "Context summary"}

// docCall is a tool call; docResult its result.
type docCall struct {
	Name, ID string
	Sub      bool // a sub-agent's call
	Summary  string
	Args     clipText // the arguments as indented JSON
	HasArgs  bool
}

type docResult struct {
	Name, ID string
	OK       bool
	Note     string // the producer cut the output
	Output   clipText
}

// runHead is what a run's heading and summary show.
type runHead struct {
	Num                   int    // 1-based in the document
	ID                    string // the producer's run id
	Provider, Model, Cwd  string
	Status, Tokens, Cost  string
	CostShort             string // for the table of runs
	TotalTokens           string
	ErrorCount            int
	StatusClass           string // ok, bad or warn
	Tools                 string
	ToolCalls, ToolErrors int
	Permissions           string
	Errors                string // "1 error, 2 warnings"; "" when none
}

// docHead is what the top of a document shows.
type docHead struct {
	Title    string
	Version  string
	Files    []*DocFile
	Redacted bool
	Runs     []*runHead // every run of every file, in order
}

// docRenderer writes one format. Every string it gets comes from the
// input (redacted when asked) and must be escaped by it.
type docRenderer interface {
	begin(dst []byte, h *docHead) []byte
	file(dst []byte, name string) []byte
	runStart(dst []byte, r *runHead) []byte
	text(dst []byte, kind textKind, label string, c *clipText) []byte
	tool(dst []byte, call *docCall, res *docResult) []byte
	notice(dst []byte, kind noticeKind, label, msg string) []byte
	runEnd(dst []byte, r *runHead) []byte
	end(dst []byte) []byte
}

// Document renders inputs as a Markdown or HTML transcript. It needs each
// input's DocFile (ScanDocFile) first, so every run's heading can show how
// it ended; then it streams: memory follows the longest line and the clip
// limits, not the length of the input.
type Document struct {
	w       io.Writer
	opt     DocOptions
	r       docRenderer
	lim     clipLimits
	rd      *redact.Redactor
	head    docHead
	buf     []byte
	rbuf    []byte // the redacted line
	begun   bool
	written int64 // bytes written so far
	fileNo  int   // index of the current file in head.Files, -1 before the first

	in      *model.Input // the current input's lines read through every dialect; nil before its first
	dec     jsonl.Decoder
	obj     jsonl.LineObject
	run     *runHead
	runNo   int // runs begun in the current file
	runBase int // runs of earlier files

	calls    map[string]string // tool call id → name, in the open run
	block    textKind
	label    string
	clip     clipText
	lastText string // the last answer text block, when not clipped
	pending  *docCall
	cutNoted bool // the current run says its events are not shown
}

// NewDocument returns a Document for the inputs files, in the order they
// will be given to File. The caller flushes w.
func NewDocument(w io.Writer, opt DocOptions, files []*DocFile) *Document {
	d := &Document{w: w, opt: opt, fileNo: -1}
	switch opt.Format {
	case HTML:
		d.r, d.lim = &htmlDoc{}, htmlLimits
	default:
		d.r, d.lim = &markdownDoc{}, markdownLimits
	}
	if opt.Full {
		d.lim = clipLimits{}
	}
	if opt.Redact {
		d.rd = opt.Redactor
		if d.rd == nil {
			d.rd = &redact.Redactor{}
		}
	}
	d.head = docHead{Version: opt.Version, Files: files, Redacted: opt.Redact}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
		for _, h := range f.runs {
			d.head.Runs = append(d.head.Runs, d.redacted(h, len(d.head.Runs)+1))
		}
	}
	d.head.Title = "zevo transcript: " + d.str(strings.Join(names, ", "))
	return d
}

// str redacts a string taken from the input, when redaction is on.
func (d *Document) str(s string) string {
	if d.rd == nil {
		return s
	}
	return d.rd.String(s)
}

// redacted numbers a run's summary and redacts what came from the input.
func (d *Document) redacted(h *runHead, num int) *runHead {
	h.Num = num
	h.ID, h.Model, h.Status, h.Tools, h.Cost = d.str(h.ID), d.str(h.Model), d.str(h.Status), d.str(h.Tools), d.str(h.Cost)
	h.ID, h.Model = d.clipName(h.ID), d.clipName(h.Model)
	return h
}

// summarize writes down what a run's heading and summary show.
func summarize(r *Run) *runHead {
	// Clones: the run's strings may point into its whole line.
	h := &runHead{ID: strings.Clone(r.ID), Model: strings.Clone(r.Model), Status: strings.Clone(r.Status), TotalTokens: r.Tokens.Total.String(), ErrorCount: r.Errors}
	switch r.Status {
	case "success", "done", "input":
		h.StatusClass = "ok"
	case "incomplete", "ended", "cancelled", "interrupted":
		h.StatusClass = "warn"
	default:
		h.StatusClass = "bad"
	}
	if r.ExitCode != nil {
		h.Status += fmt.Sprintf(" (exit %d)", *r.ExitCode)
	}
	if r.Cut != "" {
		h.Status += ": " + r.Cut
	}
	h.Tokens = r.Tokens.Input.String() + " in · " + r.Tokens.Output.String() + " out · " + r.Tokens.Total.String() + " total"
	h.Cost, h.CostShort = runCost(r)
	names := make([]string, 0, len(r.Tools))
	for name, t := range r.Tools {
		names = append(names, name)
		h.ToolCalls += t.Calls
		h.ToolErrors += t.Errors
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := r.Tools[names[i]], r.Tools[names[j]]
		if a.Calls != b.Calls {
			return a.Calls > b.Calls
		}
		return names[i] < names[j]
	})
	var parts []string
	for i, name := range names {
		if i == 12 {
			parts = append(parts, fmt.Sprintf("%d more", len(names)-i))
			break
		}
		t := r.Tools[name]
		p := fmt.Sprintf("%s ×%d", clipRunes(name, nameRunes), t.Calls) // an overview: clipped even with --full
		if t.Errors > 0 {
			p += fmt.Sprintf(" (%d failed)", t.Errors)
		}
		parts = append(parts, p)
	}
	h.Tools = strings.Join(parts, ", ")
	p := r.Permissions
	var perms []string
	for _, c := range []struct {
		n    int
		what string
	}{{p.Requests, "requested"}, {p.Allowed, "allowed"}, {p.Denied, "denied"}, {p.Cancelled, "cancelled"}, {p.Other, "other"}, {p.Questions, "questions"}} {
		if c.n > 0 {
			perms = append(perms, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	h.Permissions = strings.Join(perms, ", ")
	var errs []string
	for _, c := range []struct {
		n    int
		what string
	}{{r.Errors, "error"}, {r.Warnings, "warning"}} {
		if c.n == 1 {
			errs = append(errs, "1 "+c.what)
		} else if c.n > 1 {
			errs = append(errs, fmt.Sprintf("%d %ss", c.n, c.what))
		}
	}
	h.Errors = strings.Join(errs, ", ")
	return h
}

// runCost is a run's cost as zevo stats prices it, with where the price
// came from, and in short for the table of runs. A run without a price
// says so and names its model, never $0.
func runCost(r *Run) (long, short string) {
	if r.Cost != nil {
		short = "$" + formatUSD(*r.Cost)
		long = short
		if r.CostSource != "no tokens" {
			long += " (" + r.CostSource
			if r.PricedAs != "" {
				long += ": " + r.PricedAs
			}
			long += ")"
		}
		return long, short
	}
	model := NoModel
	if len(r.UnpricedModels) > 0 {
		model = r.UnpricedModels[0]
	}
	return "unpriced: no price for " + model + " (--pricing FILE, --model NAME)", "unpriced"
}

func (d *Document) flush() error {
	if len(d.buf) == 0 {
		return nil
	}
	_, err := d.w.Write(d.buf)
	d.written += int64(len(d.buf))
	d.buf = d.buf[:0]
	return err
}

func (d *Document) begin() {
	if !d.begun {
		d.begun = true
		d.buf = d.r.begin(d.buf, &d.head)
	}
}

// File starts the next input (in the order of NewDocument's files).
func (d *Document) File() error {
	d.begin()
	d.fileNo++
	if d.fileNo > 0 {
		d.runBase += len(d.head.Files[d.fileNo-1].runs)
	}
	f := d.head.Files[d.fileNo]
	if len(d.head.Files) > 1 {
		d.buf = d.r.file(d.buf, d.str(f.Name))
	}
	d.in = nil
	d.runNo = 0
	d.run = nil
	return d.flush()
}

// Line renders one line of the current input. A line that is not a JSON
// object is returned as a *jsonl.Diagnostic (and not shown).
func (d *Document) Line(l jsonl.Line) error {
	line, lerr := objectLine(&d.dec, &d.obj, l)
	if lerr != nil {
		return l.Diag(lerr.Error())
	}
	if line == nil {
		return nil
	}
	if d.rd != nil {
		// Redacted before it is decoded: every value shown is, and the
		// runs are placed as the scan placed them (redaction keeps the
		// line's shape).
		red, err := jsonl.AppendValue(d.rbuf[:0], line, jsonl.GoStyle, d.rd)
		if err != nil {
			return l.Diag("could not be redacted: not shown")
		}
		d.rbuf = red
		line = bytes.Clone(red)
	}
	if d.in == nil {
		d.in = dialects.NewInput(model.DecodeOptions{})
	}
	// The decoder's diagnostics about fields are zevo validate's.
	d.in.Line(line, l.Num, d.show)
	return d.flush()
}

// EndFile closes what the current input left open.
func (d *Document) EndFile() error {
	if d.in != nil {
		d.in.End(d.show)
		d.in = nil
	}
	d.endRun()
	return d.flush()
}

// Interrupt ends the document where it stands, for a reader stopped by a
// signal: the open run says the rest of its events are not shown (its
// heading says how it ended, from the scan), then the document is ended
// as a finished one is.
func (d *Document) Interrupt() error {
	if d.run != nil {
		d.settle()
		d.buf = d.r.notice(d.buf, nWarning, "interrupted", "zevo was stopped here: the rest of this input is not shown")
	}
	d.EndFile()
	return d.Close()
}

// Close ends the document.
func (d *Document) Close() error {
	d.begin()
	d.buf = d.r.end(d.buf)
	return d.flush()
}

// overPage reports that the page has reached its size: the rest of the
// events are not shown, which the run says once.
func (d *Document) overPage() bool {
	if d.lim.page == 0 || d.written+int64(len(d.buf)) < d.lim.page {
		return false
	}
	if !d.cutNoted && d.run != nil {
		d.settle()
		d.cutNoted = true
		d.buf = d.r.notice(d.buf, nWarning, "events not shown", fmt.Sprintf("this document reached %s; the rest of its events are left out (each run keeps its summary); --full shows all", byteSize(d.lim.page)))
	}
	return true
}

// startRun heads the run of id; start: its first event is its start,
// which names its provider and working directory.
func (d *Document) startRun(id string, start bool, provider, cwd string) {
	d.endRun()
	d.runNo++
	i := d.runBase + d.runNo - 1
	var h *runHead
	if i < len(d.head.Runs) && d.runNo <= len(d.head.Files[d.fileNo].runs) {
		h = d.head.Runs[i]
	} else { // the input grew since it was scanned: a summary so far
		h = d.redacted(&runHead{ID: id, Status: "not known: the input changed while it was read", StatusClass: "warn", TotalTokens: "?"}, i+1)
	}
	if start {
		h.Provider = d.clipName(d.str(provider))
		h.Cwd = d.clipBytes(d.str(cwd), 4<<10)
	}
	d.run = h
	d.calls = map[string]string{}
	d.lastText = ""
	d.cutNoted = false
	d.buf = d.r.runStart(d.buf, h)
}

func (d *Document) endRun() {
	if d.run == nil {
		return
	}
	d.settle()
	d.buf = d.r.runEnd(d.buf, d.run)
	d.run = nil
}

// settle writes what is held: a block of text, a tool call waiting for its
// result.
func (d *Document) settle() {
	d.endBlock()
	if d.pending != nil {
		d.buf = d.r.tool(d.buf, d.pending, nil)
		d.pending = nil
	}
}

func (d *Document) endBlock() {
	if d.block == noText {
		return
	}
	if d.block == kText {
		d.lastText = ""
		if !d.clip.clipped() {
			d.lastText = strings.TrimSpace(string(d.clip.buf))
		}
	}
	d.buf = d.r.text(d.buf, d.block, d.label, &d.clip)
	d.block = noText
}

// stream adds a delta to a block of running text; consecutive deltas of
// one block join up as the producer streamed them.
func (d *Document) stream(kind textKind, label, delta string) {
	if d.pending != nil {
		d.settle()
	}
	if kind != d.block || label != d.label {
		d.endBlock()
		d.block, d.label = kind, label
		max := d.lim.text
		if kind != kText && kind != kFinal && kind != kPrompt {
			max = d.lim.reasoning
		}
		d.clip.maxBytes, d.clip.maxLines = max, 0
		d.clip.reset()
	}
	d.clip.add(delta)
}

// whole writes a block that comes in one event.
func (d *Document) whole(kind textKind, label, text string) {
	d.settle()
	d.stream(kind, label, text)
	d.endBlock()
}

func (d *Document) notice(kind noticeKind, label, msg string) {
	d.settle()
	d.buf = d.r.notice(d.buf, kind, d.clipName(label), d.clipBytes(msg, d.lim.result))
}

// nameRunes is the most of a name, id or label a clipped document shows.
const nameRunes = 120

// clipName clips a tool's name, a call's id or an event's label.
func (d *Document) clipName(s string) string {
	if d.opt.Full || len(s) <= nameRunes {
		return s
	}
	return clipRunes(s, nameRunes)
}

// clipBytes clips a message to about max bytes, at a character's start.
func (d *Document) clipBytes(s string, max int) string {
	if d.opt.Full || max <= 0 || len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max] + "…"
}

func (d *Document) final(text string) {
	d.settle()
	if strings.TrimSpace(text) == d.lastText && text != "" {
		return // the answer was just shown as text
	}
	if text != "" {
		d.whole(kFinal, "", text)
	}
}

func (d *Document) toolCall(name, id string, args gjson.Result, sub bool) {
	d.settle()
	c := &docCall{Name: d.clipName(name), ID: d.clipName(id), Sub: sub, Args: newClip(d.lim.args, 0)}
	if args.Exists() && args.Raw != "{}" && args.Raw != "null" {
		c.HasArgs = true
		c.Summary = argSummary(args)
		c.Args.add(prettyJSON(args))
	}
	if len(d.calls) >= 4096 {
		clear(d.calls) // bounded: a very old call's result shows its id only
	}
	d.calls[id] = name
	d.pending = c
}

func (d *Document) toolResult(name, id string, ok bool, output, note string) {
	d.endBlock()
	if name == "" {
		name = d.calls[id]
	}
	r := &docResult{Name: d.clipName(name), ID: d.clipName(id), OK: ok, Note: note, Output: newClip(d.lim.result, d.lim.resultLines)}
	r.Output.add(output)
	call := d.pending
	d.pending = nil
	if call != nil && !(call.ID == id || id == "" && call.Name == name) {
		d.buf = d.r.tool(d.buf, call, nil)
		call = nil
	}
	d.buf = d.r.tool(d.buf, call, r)
}
