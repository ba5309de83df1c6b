package inspect

import (
	"github.com/tidwall/gjson"
	model "github.com/zevo/zevo/event"
)

// How a transcript document shows each event of the model: every
// dialect's lines read through it (Document.Line).

// show writes one event of any dialect, placed in its run by st.
func (d *Document) show(ev *model.Event, st model.Step) {
	if st.Closed != nil {
		d.endRun() // cut short by this event, or by the end of the input
	}
	if ev == nil {
		return
	}
	if ev.Aside && ev.Kind == model.Other && (st.Run == nil || !st.Run.Open()) {
		return // a late line of a run already closed: nothing to show
	}
	if !st.Start && d.overPage() {
		return
	}
	if st.Start {
		id := ""
		if st.Run != nil {
			id = st.Run.ID
		}
		d.startRun(id, ev.Kind == model.RunStart, ev.Provider, ev.Cwd)
	}
	if !d.overPage() {
		d.event(ev)
	}
	if st.End {
		d.endRun()
	}
}

// event writes what ev says.
func (d *Document) event(ev *model.Event) {
	sub := ev.Sub != ""
	switch ev.Kind {
	case model.RunStart, model.Usage:
	case model.Prompt:
		d.whole(kPrompt, "", ev.Text)
	case model.Reasoning:
		d.stream(kReasoning, "", ev.Text)
	case model.Text:
		if sub {
			d.stream(kSubagent, subName(ev), ev.Text)
		} else {
			d.stream(kText, "", ev.Text)
		}
	case model.ToolCall:
		t := ev.Tool
		name := t.Name
		if sub {
			name = subName(ev) + "/" + name
		}
		d.toolCall(name, t.ID, gjson.ParseBytes(t.Args), sub)
	case model.ToolResult:
		t := ev.Tool
		name := t.Name
		if sub {
			name = subName(ev) + "/" + name
		}
		note := ""
		if t.Truncated {
			note = "cut by " + producer(ev.Dialect)
		}
		d.toolResult(name, t.ID, !t.Failed, t.Output, note)
	case model.PermissionRequest, model.PermissionDecision:
		d.permission(ev)
	case model.Checkpoint:
		d.notice(nInfo, labelOr(ev, "checkpoint"), ev.Text)
	case model.SubStart:
		d.notice(nInfo, "sub-agent started", withTask(subName(ev), ev.Text))
	case model.SubEnd:
		d.notice(nInfo, "sub-agent done", subName(ev))
	case model.Notice:
		d.notice(nInfo, ev.Label, ev.Text)
	case model.Compaction:
		if ev.Text == "" {
			d.notice(nInfo, "summarizing the context", "")
		} else {
			d.whole(kSummary, "", ev.Text)
		}
	case model.Final:
		if !sub {
			d.final(ev.Text)
		}
	case model.Warning:
		d.notice(nWarning, "warning", ev.Text)
	case model.Error:
		label := "error"
		if ev.Code != "" {
			label += " [" + ev.Code + "]"
		}
		d.notice(nError, label, ev.Text)
	case model.RunEnd:
		d.settle()
	default:
		d.otherEvent(ev)
	}
}

// permission writes a permission request or decision: the questions
// asked, one a notice each; else what is asked or answered (with the
// arguments of the call asked for), then the sandbox's refusal.
func (d *Document) permission(ev *model.Event) {
	p := ev.Permission
	if p.Questions != nil {
		for _, q := range p.Questions {
			d.notice(nPermission, labelOr(ev, "question"), questionMsg(q))
		}
		return
	}
	msg := permissionMsg(p)
	kind, label := nDenied, "permission denied"
	switch {
	case p.Auto && p.Action != "":
		kind, label = nPermission, "permission"
	case ev.Kind == model.PermissionRequest:
		kind, label = nPermission, labelOr(ev, "permission requested")
	case p.Decision == model.Allowed:
		kind, label = nAllowed, "permission allowed"
	case p.Decision == model.Cancelled:
		kind, label = nPermission, "permission cancelled"
	}
	if p.Args != nil {
		msg += " · " + argSummary(gjson.ParseBytes(p.Args))
	}
	d.permissionEvent(p.ID, kind, label, msg)
	if p.Block != nil {
		d.buf = d.r.notice(d.buf, nDenied, "sandbox", blockMsg(p.Block))
	}
}

// permissionEvent writes a permission event. One about the tool call
// still waiting for its result comes before the call, so the call and its
// result stay one block: asked, answered, ran.
func (d *Document) permissionEvent(id string, kind noticeKind, label, msg string) {
	if d.pending == nil || d.pending.ID != id {
		d.settle()
	}
	d.endBlock()
	d.buf = d.r.notice(d.buf, kind, label, msg)
}

// otherEvent shows an event the model does not name: its type and line.
// The type is redacted as the line is (the known ones hold no secret).
func (d *Document) otherEvent(ev *model.Event) {
	raw := compact(string(ev.Raw))
	if !d.opt.Full {
		raw = clipRunes(raw, 300)
	}
	d.notice(nInfo, d.str(ev.Type), raw)
}
