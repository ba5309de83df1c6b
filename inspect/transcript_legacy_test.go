package inspect

// Today's transcript documents, kept as the reference of the differential
// test (event_view_test.go): each protocol read by its own twin function.

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
	"github.com/zevo/zevo/redact"
)

// Document renders inputs as a Markdown or HTML transcript. It needs each
// input's DocFile (ScanDocFile) first, so every run's heading can show how
// it ended; then it streams: memory follows the longest line and the clip
// limits, not the length of the input.
type legacyDocument struct {
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

	in      lines // cuts the current file into runs as ScanDocFile did
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
func newLegacyDocument(w io.Writer, opt DocOptions, files []*DocFile) *legacyDocument {
	d := &legacyDocument{w: w, opt: opt, fileNo: -1}
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
func (d *legacyDocument) str(s string) string {
	if d.rd == nil {
		return s
	}
	return d.rd.String(s)
}

// redacted numbers a run's summary and redacts what came from the input.
func (d *legacyDocument) redacted(h *runHead, num int) *runHead {
	h.Num = num
	h.ID, h.Model, h.Status, h.Tools, h.Cost = d.str(h.ID), d.str(h.Model), d.str(h.Status), d.str(h.Tools), d.str(h.Cost)
	h.ID, h.Model = d.clipName(h.ID), d.clipName(h.Model)
	return h
}

func (d *legacyDocument) flush() error {
	if len(d.buf) == 0 {
		return nil
	}
	_, err := d.w.Write(d.buf)
	d.written += int64(len(d.buf))
	d.buf = d.buf[:0]
	return err
}

func (d *legacyDocument) begin() {
	if !d.begun {
		d.begun = true
		d.buf = d.r.begin(d.buf, &d.head)
	}
}

// File starts the next input (in the order of NewDocument's files).
func (d *legacyDocument) File() error {
	d.begin()
	d.fileNo++
	if d.fileNo > 0 {
		d.runBase += len(d.head.Files[d.fileNo-1].runs)
	}
	f := d.head.Files[d.fileNo]
	if len(d.head.Files) > 1 {
		d.buf = d.r.file(d.buf, d.str(f.Name))
	}
	d.in = lines{}
	d.runNo = 0
	d.run = nil
	return d.flush()
}

// Line renders one line of the current input. A line that is not a JSON
// object is returned as a *LineError (and not shown).
func (d *legacyDocument) Line(l jsonl.Line) error {
	ev, lerr := d.in.read(l)
	if lerr != nil {
		return &LineError{l.Where(), lerr.Error()}
	}
	if ev == nil {
		return nil
	}
	if ev.step.Closed != nil {
		d.endRun() // cut short by this event
	}
	if ev.step.Late { // a done after the error that ended its run
		return d.flush()
	}
	if !ev.step.Start && d.overPage() {
		return d.flush() // not shown: not worth redacting
	}
	obj := gjson.Parse(ev.obj.Raw)
	if d.rd != nil {
		red, err := jsonl.AppendValue(d.rbuf[:0], []byte(ev.obj.Raw), jsonl.GoStyle, d.rd)
		if err != nil {
			return &LineError{l.Where(), "could not be redacted: not shown"}
		}
		d.rbuf = red
		obj = gjson.ParseBytes(red)
	}
	if ev.step.Start {
		d.startRun(obj, ev)
	}
	if !d.overPage() {
		// The type is shown as the label of an event of a type zevo
		// does not know: redacted as the event is (the known ones
		// hold no secret and are kept).
		typ := d.str(ev.typ)
		switch ev.proto.Family {
		case protocol.FamilyEvoSci:
			d.evo(obj, typ)
		case protocol.FamilyZeroInput:
			d.input(obj, typ)
		default:
			d.zero(obj, typ)
		}
	}
	if ev.step.End {
		d.endRun()
	}
	return d.flush()
}

// EndFile closes what the current input left open.
func (d *legacyDocument) EndFile() error {
	d.endRun()
	return d.flush()
}

// Interrupt ends the document where it stands, for a reader stopped by a
// signal: the open run says the rest of its events are not shown (its
// heading says how it ended, from the scan), then the document is ended
// as a finished one is.
func (d *legacyDocument) Interrupt() error {
	if d.run != nil {
		d.settle()
		d.buf = d.r.notice(d.buf, nWarning, "interrupted", "zevo was stopped here: the rest of this input is not shown")
	}
	d.EndFile()
	return d.Close()
}

// Close ends the document.
func (d *legacyDocument) Close() error {
	d.begin()
	d.buf = d.r.end(d.buf)
	return d.flush()
}

// overPage reports that the page has reached its size: the rest of the
// events are not shown, which the run says once.
func (d *legacyDocument) overPage() bool {
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

func (d *legacyDocument) startRun(obj gjson.Result, ev *event) {
	d.endRun()
	d.runNo++
	i := d.runBase + d.runNo - 1
	var h *runHead
	if i < len(d.head.Runs) && d.runNo <= len(d.head.Files[d.fileNo].runs) {
		h = d.head.Runs[i]
	} else { // the input grew since it was scanned: a summary so far
		h = d.redacted(&runHead{ID: ev.step.Run.ID, Status: "not known: the input changed while it was read", StatusClass: "warn", TotalTokens: "?"}, i+1)
	}
	if ev.typ == "run_start" {
		h.Provider = d.clipName(d.str(obj.Get("provider").String()))
		h.Cwd = d.clipBytes(d.str(obj.Get("cwd").String()), 4<<10)
	}
	d.run = h
	d.calls = map[string]string{}
	d.lastText = ""
	d.cutNoted = false
	d.buf = d.r.runStart(d.buf, h)
}

func (d *legacyDocument) endRun() {
	if d.run == nil {
		return
	}
	d.settle()
	d.buf = d.r.runEnd(d.buf, d.run)
	d.run = nil
}

// settle writes what is held: a block of text, a tool call waiting for its
// result.
func (d *legacyDocument) settle() {
	d.endBlock()
	if d.pending != nil {
		d.buf = d.r.tool(d.buf, d.pending, nil)
		d.pending = nil
	}
}

func (d *legacyDocument) endBlock() {
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
func (d *legacyDocument) stream(kind textKind, label, delta string) {
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
func (d *legacyDocument) whole(kind textKind, label, text string) {
	d.settle()
	d.stream(kind, label, text)
	d.endBlock()
}

func (d *legacyDocument) notice(kind noticeKind, label, msg string) {
	d.settle()
	d.buf = d.r.notice(d.buf, kind, d.clipName(label), d.clipBytes(msg, d.lim.result))
}

// clipName clips a tool's name, a call's id or an event's label.
func (d *legacyDocument) clipName(s string) string {
	if d.opt.Full || len(s) <= nameRunes {
		return s
	}
	return clipRunes(s, nameRunes)
}

// clipBytes clips a message to about max bytes, at a character's start.
func (d *legacyDocument) clipBytes(s string, max int) string {
	if d.opt.Full || max <= 0 || len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max] + "…"
}

func (d *legacyDocument) final(text string) {
	d.settle()
	if strings.TrimSpace(text) == d.lastText && text != "" {
		return // the answer was just shown as text
	}
	if text != "" {
		d.whole(kFinal, "", text)
	}
}

func (d *legacyDocument) toolCall(name, id string, args gjson.Result, sub bool) {
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

func (d *legacyDocument) toolResult(name, id string, ok bool, output, note string) {
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

func (d *legacyDocument) zero(ev gjson.Result, typ string) {
	get := func(k string) string { return ev.Get(k).String() }
	switch typ {
	case "run_start":
	case "message", "prompt":
		d.whole(kPrompt, "", get("content"))
	case "reasoning":
		d.stream(kReasoning, "", get("delta"))
	case "text":
		d.stream(kText, "", get("delta"))
	case "tool_call":
		d.toolCall(get("name"), get("id"), ev.Get("args"), false)
	case "tool_result":
		note := ""
		if ev.Get("truncated").Bool() {
			note = "cut by Zero"
		}
		d.toolResult(get("name"), get("id"), get("status") != "error", get("output"), note)
	case "permission_request":
		d.permission(ev, nPermission, "permission requested", permissionRequestMsg(ev))
	case "permission_decision":
		kind, label := nDenied, "permission denied"
		switch get("action") {
		case "allow":
			kind, label = nAllowed, "permission allowed"
		case "cancel":
			kind, label = nPermission, "permission cancelled"
		}
		d.permission(ev, kind, label, decisionMsg(ev))
	case "permission":
		d.permission(ev, nPermission, "permission", permissionMsg(ev))
	case "checkpoint":
		label, msg := checkpointMsg(ev)
		d.notice(nInfo, label, msg)
	case "usage":
	case "final":
		d.final(get("text"))
	case "warning":
		d.notice(nWarning, "warning", get("message"))
	case "error":
		label := "error"
		if c := get("code"); c != "" {
			label += " [" + c + "]"
		}
		d.notice(nError, label, get("message"))
	case "run_end":
		d.settle()
	default:
		d.other(ev, typ)
	}
}

// permission writes a permission event and its sandbox block. One about
// the tool call still waiting for its result comes before the call, so the
// call and its result stay one block: asked, answered, ran.
func (d *legacyDocument) permission(ev gjson.Result, kind noticeKind, label, msg string) {
	if d.pending == nil || d.pending.ID != ev.Get("id").String() {
		d.settle()
	}
	d.endBlock()
	d.buf = d.r.notice(d.buf, kind, label, msg)
	if msg, ok := sandboxMsg(ev); ok {
		d.buf = d.r.notice(d.buf, nDenied, "sandbox", msg)
	}
}

func (d *legacyDocument) input(ev gjson.Result, typ string) {
	if typ == "message" || typ == "prompt" {
		d.whole(kPrompt, "", ev.Get("content").String())
		return
	}
	d.other(ev, typ)
}

func (d *legacyDocument) evo(ev gjson.Result, typ string) {
	get := func(k string) string { return ev.Get(k).String() }
	switch typ {
	case "thinking":
		d.stream(kReasoning, "", get("content"))
	case "text":
		d.stream(kText, "", get("content"))
	case "tool_call":
		d.toolCall(get("name"), get("id"), ev.Get("args"), false)
	case "tool_result":
		note := ""
		if protocol.EvoSci.IsTruncated(get("content")) {
			note = "cut by EvoScientist"
		}
		d.toolResult(get("name"), get("id"), ev.Get("success").Bool(), get("content"), note)
	case "subagent_start":
		d.notice(nInfo, "sub-agent started", subagentMsg(ev))
	case "subagent_text":
		d.stream(kSubagent, get("subagent"), get("content"))
	case "subagent_tool_call":
		d.toolCall(get("subagent")+"/"+get("name"), get("id"), ev.Get("args"), true)
	case "subagent_tool_result":
		d.toolResult(get("subagent")+"/"+get("name"), get("id"), ev.Get("success").Bool(), get("content"), "")
	case "subagent_end":
		d.notice(nInfo, "sub-agent done", get("name"))
	case "tool_selection":
		d.notice(nInfo, "tools selected", stringsOf(ev.Get("tools")))
	case "summarization_start":
		d.notice(nInfo, "summarizing the context", "")
	case "summarization":
		d.whole(kSummary, "", get("content"))
	case "usage_stats":
	case "interrupt":
		for _, a := range ev.Get("action_requests").Array() {
			msg := actionMsg(a)
			if args := a.Get("args"); args.Exists() {
				msg += " · " + argSummary(args)
			}
			d.notice(nPermission, "approval needed", msg)
		}
	case "ask_user":
		for _, q := range ev.Get("questions").Array() {
			d.notice(nPermission, "question", questionMsg(q))
		}
	case "error":
		d.notice(nError, "error", get("message"))
	case "done":
		d.final(get("response"))
	default:
		d.other(ev, typ)
	}
}

// other shows an event of a type zevo does not render specially.
func (d *legacyDocument) other(ev gjson.Result, typ string) {
	raw := compact(ev.Raw)
	if !d.opt.Full {
		raw = clipRunes(raw, 300)
	}
	d.notice(nInfo, typ, raw)
}
