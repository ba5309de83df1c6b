// Package zero is the dialect of Zero's stream-json: its output events
// (schemaVersion 1 and 2) and its input events (message, prompt). See
// doc.md for what each line becomes.
package zero

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
)

// Name is the dialect's name.
const Name = "zero"

// Dialect is Zero's stream-json.
var Dialect = &event.Dialect{
	Name:       Name,
	Aliases:    []string{"zero@2", "zero@1", "zero-input"},
	Title:      "Zero",
	Versions:   versions,
	Tables:     map[string][]byte{"evosci": toEvosci},
	OmitsEmpty: true, // Go's omitempty on Zero's event struct
	Targets:    targets,
	Source:     true,
	Foreign:    `no "schemaVersion": not a Zero event (--from zero)`,
	Prepare:    prepare,
	Layouts:    Layouts,
	Upgrade:    upgrade,
	RunIDs:     runIDs,
	Failed:     failed,
	DetectLine: detectLine,
	Marked:     true, // schemaVersion on every line
	NewEncoder: newEncoder,
	Outcome:    outcome,
	Prompt:     Prompt,
	// Zero's codes (exitIncomplete, exitInterrupted): it cancels its run
	// on SIGINT and SIGTERM alike and ends it interrupted, 130.
	Exits:      event.Exits{Open: 4, Interrupt: 130, Terminate: 130},
	NewDecoder: func(opt event.DecodeOptions) event.Decoder { return &Decoder{opt: opt} },
	NewRules:   newRules,
	// A Zero line is one event: one tool call at most.
	OneCallPerLine: true,
	// A runId (run_YYYYMMDDhhmmss_xxxxxx) holds the UTC second its run began.
	RunTime: RunIDTime,
	Corpus:  corpus,
}

// detectLine: every Zero line, input or output, carries schemaVersion, and no
// other producer writes it (whatever its value: a wrong version is still
// a Zero line, for validation to report); but a Zero event kept in
// another stream, its type prefixed "zero.", is that stream's.
func detectLine(l *event.Line) event.Certainty {
	if !l.HasKey(keySchemaVersion) {
		return event.No
	}
	if typ, ok := l.Type(); ok && len(typ) > len(Name) && typ[len(Name)] == '.' && typ[:len(Name)] == Name {
		// A Zero event another stream kept (zevo translate --unmapped
		// keep: "zero.checkpoint"): it belongs to the stream around it.
		return event.No
	}
	return event.Sure
}

// The fields of the lines most common, looked up by Key: prepared once,
// not at each lookup of each line.
var (
	keySchemaVersion, keyRunID, keyDelta   = event.NewKey("schemaVersion"), event.NewKey("runId"), event.NewKey("delta")
	keyID, keyName, keyArgs, keySideEffect = event.NewKey("id"), event.NewKey("name"), event.NewKey("args"), event.NewKey("sideEffect")
	keyStatus, keyTruncated, keyOutput     = event.NewKey("status"), event.NewKey("truncated"), event.NewKey("output")
	keyPermissionGranted                   = event.NewKey("permissionGranted")
)

// Decoder decodes one input's Zero lines.
type Decoder struct {
	opt  event.DecodeOptions
	line event.Line // the line Decode reads
	// input is the last Zero input line (message, prompt) of a run of
	// them not closed yet: input events are the user's side of a run and
	// form a run of their own, ended (StatusEnded) where the output starts
	// or the input ends.
	input *event.Event
	// open: an output run has begun and has had no run_end; an input
	// event then steers it (a Prompt of that run), it starts no run.
	open bool
}

// Decode appends the events of one line.
func (d *Decoder) Decode(dst []event.Event, line []byte, num int) ([]event.Event, error) {
	d.line.Reset(line)
	d.line.Check()
	return d.DecodeLine(dst, &d.line, num)
}

// DecodeLine is Decode of a line read already (event.LineDecoder), and
// checked (event.Line.Check): its fields are read once, for all the
// lookups below, and read as gjson reads them.
func (d *Decoder) DecodeLine(dst []event.Event, v *event.Line, num int) ([]event.Event, error) {
	line := v.Bytes
	if !v.IsObject() {
		return append(dst, event.Event{Kind: event.Other, Dialect: Name, Line: num, Raw: line}),
			fmt.Errorf("zero: the line is not a JSON object")
	}
	var p event.Problems
	typ := p.Str(v, "type")
	if _, t := v.Str("type"); t == gjson.Null {
		p.Missing("type")
	}
	variant := "zero@2"
	// The version as written, read whole (its value as gjson reads it)
	// only when it is not 1 or 2.
	raw, ok := v.RawKey(keySchemaVersion)
	if !ok || raw != "1" && raw != "2" {
		sv := v.GetKey(keySchemaVersion)
		switch raw = sv.Raw; {
		case raw == "1" || raw == "2":
		case !sv.Exists():
			p.Missing("schemaVersion")
		case sv.Type != gjson.Number:
			p.WrongType("schemaVersion", "integer", sv)
		default:
			p.Add("schemaVersion", event.Clip(sv.Raw)+" is not 1 or 2")
		}
	}
	if raw == "1" {
		variant = "zero@1"
	}
	if typ == "message" || typ == "prompt" {
		ev := event.Event{Dialect: Name, Type: typ, Line: num, Raw: line, Variant: "zero-input"}
		ev.Kind, ev.Text = event.Prompt, p.Str(v, "content")
		if !d.open {
			last := ev
			d.input = &last
		}
		return append(dst, ev), p.Err(typ)
	}
	dst = d.endInput(dst)
	d.open = typ != "run_end"
	run := p.StrKey(v, keyRunID)
	if run == "" && !v.GetKey(keyRunID).Exists() {
		p.MissingLenient("runId")
	}
	// The event is filled where it is returned: an Event is large, and
	// one per line is copied enough after this.
	dst = append(dst, event.Event{})
	ev := &dst[len(dst)-1]
	ev.Dialect, ev.Type, ev.Line, ev.Raw, ev.Variant, ev.Run = Name, typ, num, line, variant, run
	switch typ {
	case "run_start":
		ev.Kind = event.RunStart
		ev.Session, ev.Cwd, ev.Provider = p.Str(v, "sessionId"), p.Str(v, "cwd"), p.Str(v, "provider")
		ev.Model, ev.APIModel = p.Str(v, "model"), p.Str(v, "apiModel")
		if ev.Model == "" {
			ev.Model = ev.APIModel
		}
	case "text", "reasoning":
		ev.Kind = event.Text
		if typ == "reasoning" {
			ev.Kind = event.Reasoning
		}
		ev.Text = p.TextKey(v, keyDelta, d.opt.SkipText) // Zero's rules read no delta
	case "tool_call":
		ev.Kind = event.ToolCall
		name := p.StrKey(v, keyName)
		ev.Tool = &event.Tool{ID: p.StrKey(v, keyID), Name: name, Effect: d.effect(&p, v, name)}
		if a := v.GetKey(keyArgs); a.Exists() {
			ev.Tool.Args = []byte(a.Raw)
		}
	case "tool_result":
		ev.Kind = event.ToolResult
		st := p.StrKey(v, keyStatus)
		if st != "" && st != "ok" && st != "error" {
			p.Add("status", strconv.Quote(st)+" is not ok or error")
		}
		ev.Tool = &event.Tool{ID: p.StrKey(v, keyID), Name: p.StrKey(v, keyName), Failed: st == "error",
			Truncated: boolean(&p, v, keyTruncated)}
		if s, ok := v.SpelledKey(keyOutput); ok && d.opt.Spelled {
			ev.Tool.OutputJSON = s
		} else {
			ev.Tool.Output = p.TextKey(v, keyOutput, d.opt.SkipText)
		}
	case "permission_request", "permission_decision", "permission":
		ev.Kind, ev.Permission = permission(&p, v, typ)
	case "usage":
		ev.Kind = event.Usage
		ev.Usage = &event.Tokens{}
		ev.Usage.Input = p.Count(v, "promptTokens", &ev.Usage.Has, event.HasInput)
		in, inRaw := p.TakePast(), p.TakeRaw()
		ev.Usage.Output = p.Count(v, "completionTokens", &ev.Usage.Has, event.HasOutput)
		out, outRaw := p.TakePast(), p.TakeRaw()
		ev.Usage.StatedTotal = p.Count(v, "totalTokens", &ev.Usage.Has, event.HasTotal)
		if tot := p.TakePast(); in != nil || out != nil || tot != nil || inRaw != "" || outRaw != "" {
			ev.Usage.Past = &event.PastCounts{Input: in, Output: out, Total: tot, InputRaw: inRaw, OutputRaw: outRaw}
		}
		if c := v.Get("costUsd"); c.Exists() {
			if f, ok := cost(c); ok {
				ev.Usage.CostUSD = &f
			} else if c.Type != gjson.Number {
				p.WrongType("costUsd", "number", c)
			} else {
				p.Add("costUsd", event.Clip(c.Raw)+" is not a cost in USD")
			}
		}
	case "final":
		ev.Kind, ev.Text = event.Final, p.Text(v, "text", d.opt.SkipText)
	case "warning":
		ev.Kind, ev.Text = event.Warning, p.Str(v, "message")
	case "error":
		ev.Kind, ev.Text, ev.Code = event.Error, p.Str(v, "message"), p.Str(v, "code")
	case "checkpoint":
		ev.Kind = event.Checkpoint
		ev.Label, ev.Text = checkpoint(v.Get("checkpoint"))
	case "run_end":
		ev.Kind = event.RunEnd
		ev.StatusWord, ev.StatusStated = p.Str(v, "status"), true
		ev.Status = Status(ev.StatusWord)
		if c := v.Get("exitCode"); c.Exists() {
			if n, err := strconv.Atoi(c.Raw); err == nil && c.Type == gjson.Number {
				ev.ExitCode = &n
			} else {
				p.WrongType("exitCode", "integer", c)
			}
		}
	default: // restore (reserved), and types newer than this decoder
		ev.Kind = event.Other
	}
	return dst, p.Err(typ)
}

// End ends a run of input events still open; Zero's output runs are
// closed by event.Runs.
func (d *Decoder) End(dst []event.Event) []event.Event {
	d.open = false
	return d.endInput(dst)
}

// endInput ends the open run of input events, on its last line.
func (d *Decoder) endInput(dst []event.Event) []event.Event {
	if d.input == nil {
		return dst
	}
	ev := *d.input
	d.input = nil
	ev.Kind, ev.Text, ev.Status, ev.StatusWord = event.RunEnd, "", event.StatusEnded, "input"
	return append(dst, ev)
}

// Status is the model's status of a run_end status. Zero's own: success
// (exit 0), error (2, 3), incomplete (4), interrupted (130: a signal),
// spec_review_required (0: the run stopped for the user to review a
// spec). A status Zero does not write, or none, is StatusEnded.
func Status(s string) event.Status {
	switch s {
	case "success":
		return event.StatusSuccess
	case "error":
		return event.StatusError
	case "incomplete":
		return event.StatusIncomplete
	case "interrupted", "cancelled":
		return event.StatusCancelled
	case "spec_review_required":
		return event.StatusInterrupted
	}
	return event.StatusEnded
}

// effect is the tool call's sideEffect as Zero states it; the tool's name
// through the effects table when it states none.
func (d *Decoder) effect(p *event.Problems, v *event.Line, name string) event.Effect {
	switch se := p.StrKey(v, keySideEffect); se {
	case "":
		return d.opt.EffectOf(name)
	case "read", "write", "shell", "network", "none", "unknown":
		return event.Effect(se)
	default:
		p.Add("sideEffect", strconv.Quote(se)+" is not read, write, shell, network, none or unknown")
		return event.EffectUnknown
	}
}

// permission decodes the three permission events. Zero names the type by
// action: prompt gives permission_request; allow, deny and cancel give
// permission_decision; any other action gives permission, which is read
// as a decision by permissionGranted (its action kept as Action). The
// sandbox's block (v2) or violation (v1) is Block; its reason is the
// request's reason when the event has none of its own (Permission.Why).
func permission(p *event.Problems, v *event.Line, typ string) (event.Kind, *event.Permission) {
	pm := &event.Permission{ID: p.Str(v, "id"), Tool: p.Str(v, "name"), Reason: p.Str(v, "reason"), Auto: typ == "permission"}
	pm.RequestReason = pm.Reason
	// Stated as the producer writes them, when it does: read for what
	// they say (a trace's attributes, the view), never checked here.
	pm.Mode, pm.Risk = stated(v, "permissionMode"), v.Get("risk.level").String()
	if g := v.Get("permissionGranted"); g.IsBool() {
		b := g.Bool()
		pm.Granted = &b
	}
	if typ == "permission_request" {
		// Its values are zevo validate's to check.
		if se := v.Get("sideEffect"); se.Type == gjson.String {
			pm.Effect = event.Effect(se.Str)
		}
	}
	b := v.Get("block")
	if n := V1Renames().block; !b.Exists() && n != "" {
		b = v.Get(n) // v1's name of it (violation)
	}
	if b.IsObject() {
		pm.Block = &event.Block{Code: b.Get("code").String(), Reason: b.Get("reason").String(), Path: b.Get("path").String()}
	}
	if typ == "permission_decision" {
		if r := p.Str(v, "decisionReason"); r != "" {
			pm.Reason, pm.DecisionReason = r, r
		}
	} else {
		pm.DecisionReason = stated(v, "decisionReason")
	}
	pm.Action = p.Str(v, "action")
	switch action := pm.Action; {
	case typ == "permission_request" || action == "prompt":
		return event.PermissionRequest, pm
	case action == "allow":
		pm.Decision = event.Allowed
	case action == "deny":
		pm.Decision = event.Denied
	case action == "cancel":
		pm.Decision = event.Cancelled
	case boolean(p, v, keyPermissionGranted):
		pm.Decision = event.Allowed
	default:
		pm.Decision = event.Denied
	}
	return event.PermissionDecision, pm
}

// stated is a string field, "" when it is absent or of another type.
func stated(v *event.Line, key string) string {
	if f := v.Get(key); f.Type == gjson.String {
		return f.Str
	}
	return ""
}

// checkpoint is a checkpoint's label, "checkpoint SEQUENCE", and what
// it says: the tool it was taken before and the files it keeps.
func checkpoint(c gjson.Result) (label, text string) {
	var files []string
	for _, f := range c.Get("files").Array() {
		files = append(files, f.String())
	}
	return fmt.Sprintf("checkpoint %d", c.Get("sequence").Int()), c.Get("tool").String() + " " + strings.Join(files, ", ")
}

// cost is a stated cost: a finite number, not negative.
func cost(c gjson.Result) (float64, bool) {
	if c.Type != gjson.Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(c.Raw, 64)
	return f, err == nil && f >= 0
}

// boolean is a boolean field; false when absent or null.
func boolean(p *event.Problems, v *event.Line, key *event.Key) bool {
	f := v.GetKey(key)
	switch f.Type {
	case gjson.True:
		return true
	case gjson.False, gjson.Null:
		return false
	}
	p.WrongType(key.Name(), "boolean", f)
	return false
}
