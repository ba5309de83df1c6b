package inspect

import (
	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/protocol"
)

// How a transcript document shows each event of each protocol.

func (d *Document) zero(ev gjson.Result, typ string) {
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
		d.permissionOld(ev, nPermission, "permission requested", permissionRequestMsg(ev))
	case "permission_decision":
		kind, label := nDenied, "permission denied"
		switch get("action") {
		case "allow":
			kind, label = nAllowed, "permission allowed"
		case "cancel":
			kind, label = nPermission, "permission cancelled"
		}
		d.permissionOld(ev, kind, label, decisionMsg(ev))
	case "permission":
		d.permissionOld(ev, nPermission, "permission", permissionMsgOld(ev))
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
func (d *Document) permissionOld(ev gjson.Result, kind noticeKind, label, msg string) {
	if d.pending == nil || d.pending.ID != ev.Get("id").String() {
		d.settle()
	}
	d.endBlock()
	d.buf = d.r.notice(d.buf, kind, label, msg)
	if msg, ok := sandboxMsg(ev); ok {
		d.buf = d.r.notice(d.buf, nDenied, "sandbox", msg)
	}
}

func (d *Document) input(ev gjson.Result, typ string) {
	if typ == "message" || typ == "prompt" {
		d.whole(kPrompt, "", ev.Get("content").String())
		return
	}
	d.other(ev, typ)
}

func (d *Document) evo(ev gjson.Result, typ string) {
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
			d.notice(nPermission, "question", questionMsgOld(q))
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
func (d *Document) other(ev gjson.Result, typ string) {
	raw := compact(ev.Raw)
	if !d.opt.Full {
		raw = clipRunes(raw, 300)
	}
	d.notice(nInfo, typ, raw)
}
