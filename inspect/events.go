package inspect

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// The one-line descriptions of events that zevo view and the transcript
// documents share.

// fields is an event's top-level fields: a *protocol.Object, or a
// gjson.Result of a JSON object.
type fields interface {
	Get(key string) gjson.Result
}

// permissionRequestMsg: "write_file (write, risk medium) — reason".
func permissionRequestMsg(ev fields) string {
	var detail []string
	if se := ev.Get("sideEffect").String(); se != "" {
		detail = append(detail, se)
	}
	if lvl := ev.Get("risk").Get("level").String(); lvl != "" {
		detail = append(detail, "risk "+lvl)
	}
	msg := ev.Get("name").String()
	if len(detail) > 0 {
		msg += " (" + strings.Join(detail, ", ") + ")"
	}
	return withReason(msg, ev.Get("reason").String())
}

// decisionMsg: "write_file — why", the decision's reason first.
func decisionMsg(ev fields) string {
	r := ev.Get("decisionReason").String()
	if r == "" {
		r = ev.Get("reason").String()
	}
	return withReason(ev.Get("name").String(), r)
}

// permissionMsg: Zero's plain permission event, "name action — reason".
func permissionMsgOld(ev fields) string {
	return withReason(ev.Get("name").String()+" "+ev.Get("action").String(), ev.Get("reason").String())
}

func withReason(msg, reason string) string {
	if reason != "" {
		msg += " — " + reason
	}
	return msg
}

// sandboxMsg describes a permission event's sandbox block (v2) or
// violation (v1); ok is false when it has none.
func sandboxMsg(ev fields) (msg string, ok bool) {
	b := ev.Get("block")
	if !b.Exists() {
		b = ev.Get("violation")
	}
	if !b.IsObject() {
		return "", false
	}
	msg = b.Get("code").String()
	if r := b.Get("reason").String(); r != "" {
		msg += ": " + r
	}
	if p := b.Get("path").String(); p != "" {
		msg += " (" + p + ")"
	}
	return msg, true
}

// checkpointMsg: "checkpoint 3", "write_file a.txt, b.txt".
func checkpointMsg(ev fields) (label, msg string) {
	c := ev.Get("checkpoint")
	files := []string{}
	for _, f := range c.Get("files").Array() {
		files = append(files, f.String())
	}
	return fmt.Sprintf("checkpoint %d", c.Get("sequence").Int()), c.Get("tool").String() + " " + strings.Join(files, ", ")
}

// actionMsg: one action request of an EvoScientist interrupt.
func actionMsg(a gjson.Result) string {
	return withReason(a.Get("name").String(), a.Get("description").String())
}

// questionMsg: one question of an EvoScientist ask_user, with its choices.
func questionMsgOld(q gjson.Result) string {
	msg := q.Get("question").String()
	var choices []string
	for _, c := range q.Get("choices").Array() {
		choices = append(choices, c.Get("value").String())
	}
	if len(choices) > 0 {
		msg += " [" + strings.Join(choices, " / ") + "]"
	}
	return msg
}

// subagentMsg: "researcher: look up papers".
func subagentMsg(ev fields) string {
	msg := ev.Get("name").String()
	if d := ev.Get("description").String(); d != "" {
		msg += ": " + d
	}
	return msg
}

// stringsOf is an array's members as strings.
func stringsOf(a gjson.Result) string {
	var s []string
	for _, t := range a.Array() {
		s = append(s, t.String())
	}
	return strings.Join(s, ", ")
}
