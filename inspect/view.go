package inspect

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// ViewOptions configure the transcript.
type ViewOptions struct {
	Full  bool // whole tool results and arguments
	Color bool // ANSI colours (only for a terminal)
	// ResultLines is how many lines of a tool result are shown without
	// Full; 0 means 5.
	ResultLines int
}

// LineError is a line the transcript could not show.
type LineError struct {
	Where string
	Msg   string
}

func (e *LineError) Error() string { return e.Where + ": " + e.Msg }

const (
	sNone   = ""
	sDim    = "\x1b[2m"
	sBold   = "\x1b[1m"
	sRed    = "\x1b[1;31m"
	sGreen  = "\x1b[32m"
	sYellow = "\x1b[1;33m"
	sCyan   = "\x1b[36m"
	sReset  = "\x1b[0m"
)

// Viewer renders events as a transcript for people. Everything taken from
// the input goes through AppendSafe, so no control sequence in it reaches
// the terminal.
type Viewer struct {
	w   io.Writer
	opt ViewOptions
	buf []byte

	route router // each line to today's renderers or the event path
	rd    lines  // today's: Zero's and EvoScientist's lines
	// The event path's (viewevents.go).
	dec protocol.Decoder
	obj protocol.Object
	// headless: the open run started with the user's prompt, and its
	// heading waits for the agent's first event (a run of prompts
	// alone gets none).
	headless bool
	evRun    bool         // the open run is the event path's: its tokens are etokens
	etokens  model.Tokens // the open run's, on the event path

	inRun   bool // a run heading was written and not closed
	runs    int
	tokens  Tokens
	final   *string
	calls   map[string]string // tool call id → name
	block   string            // the stream being written: "text", "reasoning", "sub:NAME", ""
	prefix  string            // written at each line start of the block
	style   string            // style of the block
	midLine bool              // the last byte written was not a newline
	wrote   bool              // something was written before
}

// NewViewer returns a Viewer writing to w. The caller flushes w.
func NewViewer(w io.Writer, opt ViewOptions) *Viewer {
	if opt.ResultLines <= 0 {
		opt.ResultLines = 5
	}
	return &Viewer{w: w, opt: opt}
}

func (v *Viewer) flush() error {
	if len(v.buf) == 0 {
		return nil
	}
	v.wrote = true
	_, err := v.w.Write(v.buf)
	v.buf = v.buf[:0]
	return err
}

func (v *Viewer) on(style string) {
	if v.opt.Color && style != "" {
		v.buf = append(v.buf, style...)
	}
}

func (v *Viewer) off(style string) {
	if v.opt.Color && style != "" {
		v.buf = append(v.buf, sReset...)
	}
}

// mark shows an escape in reverse video, so it stands out from text that
// happens to contain a backslash.
func (v *Viewer) mark() func([]byte, string) []byte {
	if !v.opt.Color {
		return nil
	}
	return func(dst []byte, esc string) []byte {
		dst = append(dst, "\x1b[7m"...)
		dst = append(dst, esc...)
		return append(dst, "\x1b[27m"...)
	}
}

// endBlock ends a streamed block so the next output starts a line.
func (v *Viewer) endBlock() {
	if v.midLine {
		v.off(v.style)
		v.buf = append(v.buf, '\n')
		v.midLine = false
	}
	v.block, v.prefix, v.style = "", "", ""
}

// say writes one line: fixed text (zevo's own) then content from the input.
func (v *Viewer) say(style, indent, label, content string) {
	v.endBlock()
	v.on(style)
	v.buf = append(v.buf, indent...)
	v.buf = append(v.buf, label...)
	v.buf = AppendSafe(v.buf, content, false, v.mark())
	v.off(style)
	v.buf = append(v.buf, '\n')
}

// stream writes a delta of a block of running text; consecutive deltas of
// the same block join up as the producer streamed them.
func (v *Viewer) stream(block, prefix, style, text string) {
	if block != v.block {
		v.endBlock()
		v.block, v.prefix, v.style = block, prefix, style
	}
	for len(text) > 0 {
		if !v.midLine {
			v.on(v.style)
			v.buf = append(v.buf, v.prefix...)
			v.midLine = true
		}
		line, rest, nl := strings.Cut(text, "\n")
		line = strings.TrimSuffix(line, "\r")
		v.buf = AppendSafe(v.buf, line, true, v.mark())
		if nl {
			v.off(v.style)
			v.buf = append(v.buf, '\n')
			v.midLine = false
		}
		text = rest
	}
}

// lines writes a multi-line content, cut to ResultLines lines unless Full.
func (v *Viewer) lines(style, indent, content string) {
	v.endBlock()
	content = strings.TrimRight(content, "\r\n")
	all := strings.Split(content, "\n")
	show := all
	if !v.opt.Full && len(all) > v.opt.ResultLines {
		show = all[:v.opt.ResultLines]
	}
	for _, l := range show {
		l = strings.TrimSuffix(l, "\r")
		if !v.opt.Full {
			l = clipRunes(l, 240)
		}
		v.on(style)
		v.buf = append(v.buf, indent...)
		v.buf = AppendSafe(v.buf, l, false, v.mark())
		v.off(style)
		v.buf = append(v.buf, '\n')
	}
	if n := len(all) - len(show); n > 0 {
		v.say(sDim, indent, fmt.Sprintf("… %d more line(s) (--full shows all)", n), "")
	}
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// File starts a new input. With several inputs each gets a heading.
func (v *Viewer) File(name string, several bool) error {
	v.runs = 0
	if several {
		v.endBlock()
		if v.wrote {
			v.buf = append(v.buf, '\n')
		}
		v.say(sBold, "", "═══ ", name+" ═══")
	}
	return v.flush()
}

// Line renders one line. A line that is not a JSON object is returned as
// a *LineError (and not shown); other errors are write errors.
func (v *Viewer) Line(l jsonl.Line) error {
	if jsonl.IsBlank(l.Bytes) {
		return nil
	}
	// Today's decoding first: it tells most Zero and EvoScientist lines
	// without the registry (route.go's decodedToday).
	decode(&v.rd.dec, v.rd.as, l, &v.rd.cur)
	if !v.route.decodedToday(&v.rd) && !v.route.today(l.Bytes) {
		v.endToday()
		return v.eventLine(l)
	}
	v.endEvents(model.CutOtherDialect)
	return v.todayLine(l)
}

// todayLine renders a Zero or EvoScientist line, decoded into v.rd.cur,
// with today's renderers.
func (v *Viewer) todayLine(l jsonl.Line) error {
	ev, lerr := v.rd.place(&v.rd.cur)
	if lerr != nil {
		return &LineError{l.Where(), lerr.Error()}
	}
	if ev == nil {
		return nil
	}
	if c := ev.step.Closed; c != nil && v.inRun {
		v.closeRun("run incomplete: "+c.Cut.String(), sYellow)
	}
	if ev.step.Late { // a done after the error that ended its run
		return v.flush()
	}
	if ev.step.Start && ev.proto.Family != protocol.FamilyZeroInput {
		v.openRun(v.title(ev))
	}
	switch ev.proto.Family {
	case protocol.FamilyZeroInput:
		v.say(sBold, "", "> ", ev.obj.Str("content"))
	case protocol.FamilyZero:
		v.zero(ev.obj, ev.typ)
	default:
		v.evo(ev.obj, ev.typ)
	}
	return v.flush()
}

// title is the heading of the run ev starts.
func (v *Viewer) title(ev *event) string {
	if ev.proto.Family != protocol.FamilyZero {
		return fmt.Sprintf("run %d", v.runs+1)
	}
	title := "run " + ev.step.Run.ID
	if ev.typ == "run_start" {
		for _, k := range []string{"provider", "model", "cwd"} {
			if s := ev.obj.Str(k); s != "" {
				title += " · " + s
			}
		}
	}
	return title
}

// End closes what the input left open.
func (v *Viewer) End() error {
	if r := v.rd.runs.End(); r != nil && v.inRun {
		v.closeRun("run incomplete: "+r.Cut.String(), sYellow)
	}
	v.endEvents(model.CutEndOfInput)
	v.endBlock()
	v.rd = lines{as: v.rd.as}
	v.route.reset()
	return v.flush()
}

// endToday closes the run today's renderers left open, for a line of
// another dialect.
func (v *Viewer) endToday() {
	if r := v.rd.runs.End(); r != nil {
		if v.inRun {
			v.closeRun("run incomplete: "+model.CutOtherDialect.String(), sYellow)
		}
		v.rd = lines{as: v.rd.as}
	}
}

func (v *Viewer) openRun(title string) {
	v.endBlock()
	if v.wrote || len(v.buf) > 0 {
		v.buf = append(v.buf, '\n')
	}
	v.runs++
	v.inRun = true
	v.evRun = false
	v.tokens = newTokens()
	v.final = nil
	v.calls = map[string]string{}
	v.say(sBold, "", "── ", title+" ──")
}

func (v *Viewer) closeRun(how, style string) {
	if v.final != nil {
		v.say(sBold, "", "── final answer ──", "")
		if *v.final != "" {
			v.stream("final", "", sNone, *v.final)
		}
		v.endBlock()
	}
	counts := v.tokens.Input.String() + " in · " + v.tokens.Output.String() + " out · " + v.tokens.Total.String() + " total"
	if v.evRun {
		counts = tokenCounts(&v.etokens)
	}
	v.say(style, "", "── "+how, " · tokens: "+counts+" ──")
	v.inRun = false
}

func (v *Viewer) zero(ev *protocol.Object, typ string) {
	get := func(k string) string { return ev.Get(k).String() }
	switch typ {
	case "reasoning":
		v.stream("reasoning", "┊ ", sDim, get("delta"))
	case "text":
		v.stream("text", "", sNone, get("delta"))
	case "tool_call":
		v.calls[get("id")] = get("name")
		v.toolCall("", get("name"), ev.Get("args"))
	case "run_start":
	case "tool_result":
		name := get("name")
		if name == "" {
			name = v.calls[get("id")]
		}
		note := ""
		if ev.Get("truncated").Bool() {
			note = " (cut by Zero)"
		}
		v.toolResult("  ", name, get("status") != "error", get("output"), note)
	case "permission_request":
		v.say(sYellow, "  ", "⚠ permission requested: ", permissionRequestMsg(ev))
		v.block2(ev)
	case "permission_decision":
		msg := decisionMsg(ev)
		switch get("action") {
		case "allow":
			v.say(sGreen, "  ", "✓ permission allowed: ", msg)
		case "cancel":
			v.say(sYellow, "  ", "✗ permission cancelled: ", msg)
		default:
			v.say(sRed, "  ", "✗ permission denied: ", msg)
		}
		v.block2(ev)
	case "permission":
		v.say(sYellow, "  ", "⚠ permission: ", permissionMsgOld(ev))
		v.block2(ev)
	case "checkpoint":
		label, msg := checkpointMsg(ev)
		v.say(sDim, "  ", "· "+label+": ", msg)
	case "usage":
		v.tokens.addZero(ev)
	case "final":
		s := get("text")
		v.final = &s
	case "warning":
		v.say(sYellow, "", "! warning: ", get("message"))
	case "error":
		label := "✗ error: "
		if c := get("code"); c != "" {
			label = "✗ error [" + Safe(c) + "]: "
		}
		v.say(sRed, "", label, get("message"))
	case "run_end":
		how := "run ended: " + Safe(get("status"))
		if c := ev.Get("exitCode"); c.Exists() {
			how += " (exit " + Safe(c.Raw) + ")"
		}
		style := sGreen
		if get("status") != "success" {
			style = sRed
		}
		v.closeRun(how, style)
	default:
		v.other(ev, typ)
	}
}

// block2 shows a permission event's sandbox block (v2) or violation (v1).
func (v *Viewer) block2(ev *protocol.Object) {
	if msg, ok := sandboxMsg(ev); ok {
		v.say(sYellow, "    ", "sandbox: ", msg)
	}
}

func (v *Viewer) evo(ev *protocol.Object, typ string) {
	get := func(k string) string { return ev.Get(k).String() }
	switch typ {
	case "thinking":
		v.stream("reasoning", "┊ ", sDim, get("content"))
	case "text":
		v.stream("text", "", sNone, get("content"))
	case "tool_call":
		v.calls[get("id")] = get("name")
		v.toolCall("", get("name"), ev.Get("args"))
	case "tool_result":
		note := ""
		if protocol.EvoSci.IsTruncated(get("content")) {
			note = " (cut by EvoScientist)"
		}
		v.toolResult("  ", get("name"), ev.Get("success").Bool(), get("content"), note)
	case "subagent_start":
		v.say(sCyan, "", "⇢ subagent ", subagentMsg(ev))
	case "subagent_text":
		sub := get("subagent")
		v.stream("sub:"+sub, Safe(sub)+" │ ", sCyan, get("content"))
	case "subagent_tool_call":
		v.toolCall("  ", get("subagent")+"/"+get("name"), ev.Get("args"))
	case "subagent_tool_result":
		v.toolResult("    ", get("subagent")+"/"+get("name"), ev.Get("success").Bool(), get("content"), "")
	case "subagent_end":
		v.say(sCyan, "", "⇠ subagent done: ", get("name"))
	case "tool_selection":
		v.say(sDim, "", "· tools selected: ", stringsOf(ev.Get("tools")))
	case "summarization_start":
		v.say(sDim, "", "· summarizing the context…", "")
	case "summarization":
		v.say(sDim, "", "· context summary:", "")
		v.lines(sDim, "    ", get("content"))
	case "usage_stats":
		v.tokens.addEvoSci(ev)
	case "interrupt":
		for _, a := range ev.Get("action_requests").Array() {
			v.say(sYellow, "  ", "⚠ approval needed: ", actionMsg(a))
			if args := a.Get("args"); args.Exists() {
				v.say(sYellow, "    ", "", v.summary(args))
			}
		}
	case "ask_user":
		for _, q := range ev.Get("questions").Array() {
			v.say(sYellow, "  ", "? question: ", questionMsgOld(q))
		}
	case "error":
		v.say(sRed, "", "✗ error: ", get("message"))
		v.closeRun("run ended with an error", sRed)
	case "done":
		s := get("response")
		v.final = &s
		v.closeRun("run done", sGreen)
	default:
		v.other(ev, typ)
	}
}

// other shows an event of a type zevo does not render specially.
func (v *Viewer) other(ev *protocol.Object, typ string) {
	raw := compact(ev.Raw)
	if !v.opt.Full {
		raw = clipRunes(raw, 160)
	}
	v.say(sDim, "", "· "+Safe(typ)+" ", raw)
}

func (v *Viewer) toolCall(indent, name string, args gjson.Result) {
	v.endBlock()
	v.on(sBold)
	v.buf = append(v.buf, indent+"▶ "...)
	v.buf = AppendSafe(v.buf, name, false, v.mark())
	v.off(sBold)
	if args.Exists() && args.Raw != "{}" && args.Raw != "null" {
		v.buf = append(v.buf, "  "...)
		v.on(sDim)
		v.buf = AppendSafe(v.buf, v.summary(args), false, v.mark())
		v.off(sDim)
	}
	v.buf = append(v.buf, '\n')
}

func (v *Viewer) toolResult(indent, name string, ok bool, content, note string) {
	if ok {
		v.say(sGreen, indent, "✓ ", name+" ok"+note)
	} else {
		v.say(sRed, indent, "✗ ", name+" failed"+note)
	}
	if content != "" {
		v.lines(sNone, indent+"  ", content)
	}
}

// summary renders arguments as key=value pairs, values clipped unless Full.
func (v *Viewer) summary(args gjson.Result) string {
	if !args.IsObject() {
		return v.clip(compactValue(args))
	}
	var parts []string
	args.ForEach(func(k, val gjson.Result) bool {
		parts = append(parts, k.String()+"="+v.clip(compactValue(val)))
		return true
	})
	s := strings.Join(parts, "  ")
	if !v.opt.Full {
		s = clipRunes(s, 200)
	}
	return s
}

func (v *Viewer) clip(s string) string {
	if v.opt.Full {
		return s
	}
	return clipRunes(s, 80)
}

// compactValue shows a string as it is and other values as compact JSON.
func compactValue(val gjson.Result) string {
	if val.Type == gjson.String {
		return val.String()
	}
	return compact(val.Raw)
}

func compact(raw string) string {
	var b []byte
	b, err := jsonl.AppendValue(b, []byte(raw), jsonl.GoStyle, nil)
	if err != nil {
		return raw
	}
	return string(b)
}
