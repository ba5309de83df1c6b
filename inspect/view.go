package inspect

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects"
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

	dec   protocol.Decoder
	obj   protocol.Object
	in    *model.Input // the current input's events, placed in runs
	inRun bool         // a run heading was written and not closed
	// headless: the open run started with the user's prompt, and its
	// heading waits for the agent's first event (a run of prompts
	// alone, Zero's input side, gets none).
	headless bool
	runs     int
	tokens   model.Tokens
	final    *string
	calls    map[string]string // tool call id → name
	block    string            // the stream being written: "text", "reasoning", "sub:NAME", ""
	prefix   string            // written at each line start of the block
	style    string            // style of the block
	midLine  bool              // the last byte written was not a newline
	wrote    bool              // something was written before
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
	line, lerr := objectLine(&v.dec, &v.obj, l)
	if lerr != nil {
		return &LineError{l.Where(), lerr.Error()}
	}
	if line == nil {
		return nil
	}
	if v.in == nil {
		v.in = dialects.NewInput(model.DecodeOptions{})
	}
	// The decoder's diagnostics about fields are zevo validate's to
	// report; the view shows what the line's events hold.
	v.in.Line(line, l.Num, v.show)
	return v.flush()
}

// title is the heading of the run ev starts: the producer's run id and
// what its start says, else the run's number.
func (v *Viewer) title(ev *model.Event, r *model.Run) string {
	if r == nil || r.ID == "" {
		return fmt.Sprintf("run %d", v.runs+1)
	}
	title := "run " + r.ID
	if ev.Kind == model.RunStart {
		for _, s := range []string{ev.Provider, ev.Model, ev.Cwd} {
			if s != "" {
				title += " · " + s
			}
		}
	}
	return title
}

// End closes what the input left open.
func (v *Viewer) End() error {
	if v.in != nil {
		v.in.End(v.show)
		v.in = nil
	}
	if v.inRun { // a run of the decoder's held events, never closed
		v.closeRun("run incomplete: "+model.CutEndOfInput.String(), sYellow)
	}
	v.headless = false
	v.endBlock()
	return v.flush()
}

func (v *Viewer) openRun(title string) {
	v.endBlock()
	if v.wrote || len(v.buf) > 0 {
		v.buf = append(v.buf, '\n')
	}
	v.runs++
	v.inRun = true
	v.tokens = model.Tokens{}
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
	v.say(style, "", "── "+how, " · tokens: "+tokenCounts(&v.tokens)+" ──")
	v.inRun = false
}

// show renders one event of any dialect, placed in its run by st.
func (v *Viewer) show(ev *model.Event, st model.Step) {
	if st.Closed != nil && v.inRun {
		v.closeRun("run incomplete: "+st.Closed.Cut.String(), sYellow)
	}
	if st.Closed != nil {
		v.headless = false
	}
	if ev == nil {
		return
	}
	if ev.Aside && ev.Kind == model.Other && (st.Run == nil || !st.Run.Open()) {
		return // a late line of a run already closed: nothing to show
	}
	if st.Start {
		v.headless = ev.Kind == model.Prompt
		if !v.headless {
			v.openRun(v.title(ev, st.Run))
		}
	} else if v.headless && ev.Kind != model.Prompt && ev.Kind != model.RunEnd {
		v.headless = false
		v.openRun(v.title(ev, st.Run))
	}
	sub := ev.Sub != ""
	switch ev.Kind {
	case model.RunStart:
	case model.Prompt:
		v.say(sBold, "", "> ", ev.Text)
	case model.Reasoning:
		v.stream("reasoning", "┊ ", sDim, ev.Text)
	case model.Text:
		if sub {
			v.stream("sub:"+ev.Sub, Safe(ev.Sub)+" │ ", sCyan, ev.Text)
		} else {
			v.stream("text", "", sNone, ev.Text)
		}
	case model.ToolCall:
		t := ev.Tool
		if sub {
			v.toolCall("  ", ev.Sub+"/"+t.Name, gjson.ParseBytes(t.Args))
			break
		}
		v.calls[t.ID] = t.Name
		v.toolCall("", t.Name, gjson.ParseBytes(t.Args))
	case model.ToolResult:
		t := ev.Tool
		name, indent := t.Name, "  "
		if name == "" && !sub {
			name = v.calls[t.ID]
		}
		if sub {
			name, indent = ev.Sub+"/"+name, "    "
		}
		note := ""
		if t.Truncated {
			note = " (cut by " + producer(ev.Dialect) + ")"
		}
		v.toolResult(indent, name, !t.Failed, t.Output, note)
	case model.PermissionRequest:
		p := ev.Permission
		v.say(sYellow, "  ", "⚠ permission requested: ", withReason(p.Tool, p.Reason))
	case model.PermissionDecision:
		p := ev.Permission
		msg := withReason(p.Tool, p.Reason)
		switch p.Decision {
		case model.Allowed:
			v.say(sGreen, "  ", "✓ permission allowed: ", msg)
		case model.Cancelled:
			v.say(sYellow, "  ", "✗ permission cancelled: ", msg)
		default:
			v.say(sRed, "  ", "✗ permission denied: ", msg)
		}
	case model.Checkpoint:
		v.say(sDim, "  ", "· ", ev.Text)
	case model.Usage:
		addUsage(&v.tokens, ev.Usage)
	case model.Final:
		if !sub {
			s := ev.Text
			v.final = &s
		}
	case model.Warning:
		v.say(sYellow, "", "! warning: ", ev.Text)
	case model.Error:
		label := "✗ error: "
		if ev.Code != "" {
			label = "✗ error [" + Safe(ev.Code) + "]: "
		}
		v.say(sRed, "", label, ev.Text)
	case model.RunEnd:
		if !st.End || !v.inRun {
			break // a sub-agent's end, or a run with no heading
		}
		how := endWords(ev)
		style := sGreen
		if ev.Status != model.StatusSuccess {
			style = sRed
		}
		v.closeRun(how, style)
	default:
		v.other(ev)
	}
	if st.End {
		v.headless = false
	}
}

// endWords says how a run ended: its status and exit code, when the
// producer states one; else plainly, for the two common ends.
func endWords(ev *model.Event) string {
	switch {
	case ev.ExitCode != nil:
		return fmt.Sprintf("run ended: %s (exit %d)", ev.Status, *ev.ExitCode)
	case ev.Status == model.StatusSuccess:
		return "run done"
	case ev.Status == model.StatusError:
		return "run ended with an error"
	}
	return "run ended: " + string(ev.Status)
}

// other shows an event the model does not name: its type and line.
func (v *Viewer) other(ev *model.Event) {
	raw := compact(string(ev.Raw))
	if !v.opt.Full {
		raw = clipRunes(raw, 160)
	}
	v.say(sDim, "", "· "+Safe(ev.Type)+" ", raw)
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
