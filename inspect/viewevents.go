package inspect

import (
	"fmt"

	"github.com/tidwall/gjson"
	model "github.com/zevo/zevo/event"
)

// zevo view's events: every dialect's lines read through the event
// model (Viewer.Line), shown here.

// openEventRun heads the run ev starts: the producer's run id and what
// its start says, else the run's number.
func (v *Viewer) openEventRun(ev *model.Event, r *model.Run) {
	title := fmt.Sprintf("run %d", v.runs+1)
	if r != nil && r.ID != "" {
		title = "run " + r.ID
		if ev.Kind == model.RunStart {
			for _, s := range []string{ev.Provider, ev.Model, ev.Cwd} {
				if s != "" {
					title += " · " + s
				}
			}
		}
	}
	v.openRun(title)
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
			v.openEventRun(ev, st.Run)
		}
	} else if v.headless && ev.Kind != model.Prompt && ev.Kind != model.RunEnd {
		v.headless = false
		v.openEventRun(ev, st.Run)
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
			name := subName(ev)
			v.stream("sub:"+name, Safe(name)+" │ ", sCyan, ev.Text)
		} else {
			v.stream("text", "", sNone, ev.Text)
		}
	case model.ToolCall:
		t := ev.Tool
		if sub {
			v.toolCall("  ", subName(ev)+"/"+t.Name, gjson.ParseBytes(t.Args))
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
			name, indent = subName(ev)+"/"+name, "    "
		}
		note := ""
		if t.Truncated {
			note = " (cut by " + producer(ev.Dialect) + ")"
		}
		v.toolResult(indent, name, !t.Failed, t.Output, note)
	case model.PermissionRequest, model.PermissionDecision:
		v.permission(ev)
	case model.Checkpoint:
		v.say(sDim, "  ", "· "+labelOr(ev, "checkpoint")+": ", ev.Text)
	case model.SubStart:
		v.say(sCyan, "", "⇢ subagent ", withTask(subName(ev), ev.Text))
	case model.SubEnd:
		v.say(sCyan, "", "⇠ subagent done: ", subName(ev))
	case model.Notice:
		v.say(sDim, "", "· "+Safe(ev.Label)+": ", ev.Text)
	case model.Compaction:
		if ev.Text == "" {
			v.say(sDim, "", "· summarizing the context…", "")
			break
		}
		v.say(sDim, "", "· context summary:", "")
		v.lines(sDim, "    ", ev.Text)
	case model.Usage:
		v.etokens.addUsage(ev.Usage)
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
		v.otherEvent(ev)
	}
	if st.End {
		v.headless = false
	}
}

// permission shows a permission request or decision: the questions
// asked, one a line; else what is asked or answered, then the arguments
// of the call asked for and the sandbox's refusal, when stated.
func (v *Viewer) permission(ev *model.Event) {
	p := ev.Permission
	if p.Questions != nil {
		for _, q := range p.Questions {
			v.say(sYellow, "  ", "? "+labelOr(ev, "question")+": ", questionMsg(q))
		}
		return
	}
	msg := permissionMsg(p)
	switch {
	case p.Auto && p.Action != "":
		v.say(sYellow, "  ", "⚠ permission: ", msg)
	case ev.Kind == model.PermissionRequest:
		v.say(sYellow, "  ", "⚠ "+labelOr(ev, "permission requested")+": ", msg)
	case p.Decision == model.Allowed:
		v.say(sGreen, "  ", "✓ permission allowed: ", msg)
	case p.Decision == model.Cancelled:
		v.say(sYellow, "  ", "✗ permission cancelled: ", msg)
	default:
		v.say(sRed, "  ", "✗ permission denied: ", msg)
	}
	if p.Args != nil {
		v.say(sYellow, "    ", "", v.summary(gjson.ParseBytes(p.Args)))
	}
	if p.Block != nil {
		v.say(sYellow, "    ", "sandbox: ", blockMsg(p.Block))
	}
}

// endWords says how a run ended: the producer's own word for it and its
// exit code, when it states them; else plainly, for the two common ends.
func endWords(ev *model.Event) string {
	if ev.StatusStated && ev.StatusWord != "" {
		how := "run ended: " + Safe(ev.StatusWord)
		if ev.ExitCode != nil {
			how += fmt.Sprintf(" (exit %d)", *ev.ExitCode)
		}
		return how
	}
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

// otherEvent shows an event the model does not name: its type and line.
func (v *Viewer) otherEvent(ev *model.Event) {
	raw := compact(string(ev.Raw))
	if !v.opt.Full {
		raw = clipRunes(raw, 160)
	}
	v.say(sDim, "", "· "+Safe(ev.Type)+" ", raw)
}
