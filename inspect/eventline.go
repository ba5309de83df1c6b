package inspect

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/zevo/zevo/dialects"

	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// What zevo view and the transcript documents share to read events.

// objectLine checks that l is one JSON object, as every inspect command
// reads a line, and returns a copy of it for the decoders (non-finite
// numbers, which Python's json writes, read as null). A blank line is nil
// and no problem.
func objectLine(dec *jsonl.Decoder, o *jsonl.LineObject, l jsonl.Line) ([]byte, *jsonl.LineError) {
	if jsonl.IsBlank(l.Bytes) {
		return nil, nil
	}
	b := bytes.Clone(l.Bytes)
	if err := dec.Decode(b, o); err != nil {
		return nil, err
	}
	if len(o.NonFinite) > 0 {
		b = []byte(o.Raw)
	}
	return b, nil
}

// producer names a dialect's producer in text shown to people ("cut by
// ..."), as the dialect does (Dialect.Title); one it does not know by
// its name.
func producer(name string) string {
	if d, ok := dialects.ByName(name); ok && d.Title != "" {
		return d.Title
	}
	return name
}

// subName names the sub-agent that made ev: its name, else its id.
func subName(ev *model.Event) string {
	if ev.SubName != "" {
		return ev.SubName
	}
	return ev.Sub
}

// labelOr is ev's label, def when the producer gives none.
func labelOr(ev *model.Event, def string) string {
	if ev.Label != "" {
		return ev.Label
	}
	return def
}

// withTask: "researcher: look up papers".
func withTask(name, task string) string {
	if task != "" {
		name += ": " + task
	}
	return name
}

// permissionMsg: "write_file (write, risk medium) — reason"; a request
// or decision its producer names by an action: "name action — reason".
func permissionMsg(p *model.Permission) string {
	msg := p.Tool
	if p.Auto && p.Action != "" {
		msg += " " + p.Action
	}
	var detail []string
	if p.Effect != "" {
		detail = append(detail, string(p.Effect))
	}
	if p.Risk != "" && p.Decision == model.Pending && !p.Auto { // the risk rated when asking
		detail = append(detail, "risk "+p.Risk)
	}
	if len(detail) > 0 {
		msg += " (" + strings.Join(detail, ", ") + ")"
	}
	return withReason(msg, p.Reason)
}

// blockMsg: "code: reason (path)".
func blockMsg(b *model.Block) string {
	msg := b.Code
	if b.Reason != "" {
		msg += ": " + b.Reason
	}
	if b.Path != "" {
		msg += " (" + b.Path + ")"
	}
	return msg
}

// questionMsg: a question with the answers offered, "Which? [a / b]".
func questionMsg(q model.Question) string {
	if len(q.Choices) == 0 {
		return q.Text
	}
	return q.Text + " [" + strings.Join(q.Choices, " / ") + "]"
}

// runTokens are a run's tokens as the view sums them: the counts, and the
// total, which takes a usage's own stated total where it states one (as
// stats does) and its counts' sum elsewhere.
type runTokens struct {
	model.Tokens
	total int64
}

// addUsage adds one usage event: a message's counts are added, a run's
// (the producer's own total of the run) replace what came before.
func (t *runTokens) addUsage(u *model.Tokens) {
	if u == nil {
		return
	}
	total := u.Total()
	if u.Has&model.HasTotal != 0 {
		total = u.StatedTotal
	}
	if u.Scope == model.ScopeRun {
		t.Tokens, t.total = *u, total
		t.Scope = model.ScopeMessage
		return
	}
	t.Add(u)
	t.total += total
}

// counts is "IN in · OUT out · TOTAL total", the prompt's tokens counted
// with its cache reads and writes.
func (t *runTokens) counts() string {
	in := t.Input + t.CacheRead + t.CacheWrite
	return strconv.FormatInt(in, 10) + " in · " + strconv.FormatInt(t.Output, 10) + " out · " + strconv.FormatInt(t.total, 10) + " total"
}

// withReason: "msg — reason".
func withReason(msg, reason string) string {
	if reason != "" {
		msg += " — " + reason
	}
	return msg
}
