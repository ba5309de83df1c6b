package translate

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// evoProvider is the provider of the Zero runs zevo synthesizes.
const evoProvider = "evoscientist"

// zeroState is the run being written as Zero.
type zeroState struct {
	active  bool
	runID   string
	runs    int           // runs synthesized so far, for --run-id suffixes
	pending []pendingCall // tool calls without a result yet, oldest first
}

type pendingCall struct {
	id, name string
	claimed  bool // already named by a permission_request of this interrupt
}

// maxPending bounds the calls remembered for correlation, so a stream of
// calls that never get results cannot grow memory.
const maxPending = 4096

// EvoScientist's and Zero's markers of a cut tool output.
const (
	evoTruncated  = "\n... (truncated)"
	zeroTruncated = "\n[truncated]"
)

func (t *Translator) zeroVersion() string {
	if t.opt.To == Zero1 {
		return "1"
	}
	return "2"
}

// startZero begins a Zero event of type typ in the current run, starting a
// run first when none is open.
func (t *Translator) startZero(typ string) error {
	if !t.toZero.active {
		if err := t.openZeroRun(); err != nil {
			return err
		}
	}
	t.headZero(typ)
	return nil
}

func (t *Translator) headZero(typ string) {
	t.ob.reset(jsonl.GoStyle, t.opt.Redactor, true)
	t.ob.lit("schemaVersion", t.zeroVersion())
	t.ob.str("type", typ)
	t.ob.str("runId", t.toZero.runID)
}

func (t *Translator) openZeroRun() error {
	z := &t.toZero
	z.active = true
	z.runID = t.newRunID()
	z.pending = z.pending[:0]
	t.headZero("run_start")
	t.ob.strOmit("sessionId", t.opt.SessionID)
	t.ob.strOmit("cwd", t.opt.Cwd)
	t.ob.str("provider", evoProvider)
	t.ob.strOmit("model", t.opt.Model)
	t.ob.strOmit("apiModel", t.opt.Model)
	return t.write()
}

// closeZeroRun writes run_end and forgets the run.
func (t *Translator) closeZeroRun(status string, exit int) error {
	t.headZero("run_end")
	t.ob.str("status", status)
	t.ob.int("exitCode", int64(exit))
	t.toZero.active = false
	t.toZero.pending = t.toZero.pending[:0]
	return t.write()
}

// endZeroRun closes a run the input left open, as Zero closes an
// incomplete run.
func (t *Translator) endZeroRun() error {
	if !t.toZero.active {
		return nil
	}
	t.headZero("error")
	t.ob.str("code", "incomplete")
	t.ob.str("message", "the input ended before the run finished")
	t.ob.lit("recoverable", "false")
	if err := t.write(); err != nil {
		return err
	}
	return t.closeZeroRun("incomplete", 4)
}

func (t *Translator) addPending(id, name string) {
	z := &t.toZero
	if len(z.pending) >= maxPending {
		z.pending = append(z.pending[:0], z.pending[1:]...)
	}
	z.pending = append(z.pending, pendingCall{id: strings.Clone(id), name: strings.Clone(name)})
}

// takePending removes and returns the call with id, or, without id, the
// earliest of that name.
func (t *Translator) takePending(id, name string) (string, bool) {
	z := &t.toZero
	for i, p := range z.pending {
		if (id != "" && p.id == id) || (id == "" && p.name == name) {
			z.pending = append(z.pending[:i], z.pending[i+1:]...)
			return p.id, true
		}
	}
	return "", false
}

// evoToZero translates one EvoScientist event.
func (t *Translator) evoToZero(ev *event) (bool, error) {
	rule := t.tables.EvosciToZero.Events[ev.typ]
	if rule == nil || rule.Unmapped || (t.opt.To == Zero1 && t.tables.Versions.V2Only[rule.To]) {
		return true, t.keepEvoInZero(ev)
	}
	switch rule.Handler {
	case "":
		if err := t.startZero(rule.To); err != nil {
			return false, err
		}
		if err := t.applyRule(ev, rule, true); err != nil {
			return false, err
		}
		return false, t.write()
	case "tool_call":
		return false, t.evoToolCall(ev, rule.To)
	case "tool_result":
		return false, t.evoToolResult(ev, rule.To)
	case "usage":
		return false, t.evoUsage(ev, rule.To)
	case "interrupt":
		return false, t.evoInterrupt(ev, rule.To)
	case "done":
		return false, t.evoDone(ev)
	case "error":
		return false, t.evoError(ev)
	}
	return true, t.keepEvoInZero(ev)
}

// keepEvoInZero writes an unmapped EvoScientist event under --unmapped keep.
func (t *Translator) keepEvoInZero(ev *event) error {
	if t.opt.Unmapped != Keep {
		return nil
	}
	if err := t.startZero("evosci." + ev.typ); err != nil {
		return err
	}
	t.keepFields(ev, "type", "schemaVersion", "runId")
	return t.write()
}

func (t *Translator) evoToolCall(ev *event, to string) error {
	if d := check(ev, "name", "string", "id", "string"); d != nil {
		return d
	}
	name, id := ev.get("name").Str, ev.get("id").Str
	if err := t.startZero(to); err != nil {
		return err
	}
	t.ob.strOmit("id", id)
	t.ob.strOmit("name", name)
	t.ob.rawOmit("args", ev.get("args"))
	t.ob.str("sideEffect", t.tables.EvosciToZero.SideEffect(name))
	t.addPending(id, name)
	return t.write()
}

func (t *Translator) evoToolResult(ev *event, to string) error {
	if d := check(ev, "name", "string", "id", "string", "content", "string", "success", "boolean"); d != nil {
		return d
	}
	name, id := ev.get("name").Str, ev.get("id").Str
	if !ev.get("success").Exists() {
		return ev.diag(`tool_result without "success"`)
	}
	if got, ok := t.takePending(id, name); ok {
		id = got
	}
	if err := t.startZero(to); err != nil {
		return err
	}
	content := ev.get("content")
	t.ob.strOmit("id", id)
	t.ob.strOmit("name", name)
	if ev.get("success").Type == gjson.True {
		t.ob.str("status", "ok")
	} else {
		t.ob.str("status", "error")
	}
	t.ob.rawOmit("output", content)
	t.ob.bool("truncated", stringHasSuffix(content, evoTruncated) || stringHasSuffix(content, zeroTruncated))
	return t.write()
}

// stringHasSuffix reports whether the JSON string v ends with suffix.
func stringHasSuffix(v gjson.Result, suffix string) bool {
	if v.Type != gjson.String {
		return false
	}
	if !strings.Contains(v.Raw, `\u`) {
		// Both markers hold one newline, written \n by every encoder.
		esc := strings.ReplaceAll(suffix, "\n", `\n`) + `"`
		return strings.HasSuffix(v.Raw, esc)
	}
	return strings.HasSuffix(v.Str, suffix)
}

func (t *Translator) evoUsage(ev *event, to string) error {
	if d := check(ev, "input_tokens", "integer", "output_tokens", "integer"); d != nil {
		return d
	}
	in, out := ev.get("input_tokens"), ev.get("output_tokens")
	if err := t.startZero(to); err != nil {
		return err
	}
	t.ob.lit("promptTokens", intOrZero(in))
	t.ob.lit("completionTokens", intOrZero(out))
	t.ob.lit("totalTokens", addInts(intOrZero(in), intOrZero(out)))
	return t.write()
}

func intOrZero(v gjson.Result) string {
	if v.Type != gjson.Number {
		return "0"
	}
	return v.Raw
}

// addInts adds two JSON integers exactly, however large.
func addInts(a, b string) string {
	x, err1 := strconv.ParseInt(a, 10, 64)
	y, err2 := strconv.ParseInt(b, 10, 64)
	if err1 == nil && err2 == nil && (x >= 0) == (y >= 0) && (x+y >= 0) == (x >= 0) {
		return strconv.FormatInt(x+y, 10)
	}
	if err1 == nil && err2 == nil && (x >= 0) != (y >= 0) {
		return strconv.FormatInt(x+y, 10)
	}
	bx, _ := new(big.Int).SetString(a, 10)
	by, _ := new(big.Int).SetString(b, 10)
	if bx == nil || by == nil {
		return "0"
	}
	return bx.Add(bx, by).String()
}

func (t *Translator) evoInterrupt(ev *event, to string) error {
	if d := check(ev, "interrupt_id", "string", "action_requests", "array"); d != nil {
		return d
	}
	reqs := ev.get("action_requests").Array()
	for i, r := range reqs {
		if !r.IsObject() {
			return ev.diag("interrupt.action_requests[%d]: want object, got %s", i, jsonType(r))
		}
		if d := typeErr(ev, "action_requests["+strconv.Itoa(i)+"].name", r.Get("name"), "string"); d != nil {
			return d
		}
		if d := typeErr(ev, "action_requests["+strconv.Itoa(i)+"].description", r.Get("description"), "string"); d != nil {
			return d
		}
	}
	iid := ev.get("interrupt_id").Str
	pending := t.toZero.pending
	for i := range pending {
		pending[i].claimed = false
	}
	for i, r := range reqs {
		name := r.Get("name").Str
		id := ""
		for j := range pending {
			if !pending[j].claimed && pending[j].name == name {
				pending[j].claimed = true
				id = pending[j].id
				break
			}
		}
		if id == "" {
			id = iid
			if i > 0 {
				id = iid + ":" + strconv.Itoa(i+1)
			}
		}
		if err := t.startZero(to); err != nil {
			return err
		}
		se := t.tables.EvosciToZero.SideEffect(name)
		t.ob.strOmit("sessionId", t.opt.SessionID) // Zero writes it on permission events
		t.ob.strOmit("id", id)
		t.ob.strOmit("name", name)
		t.ob.str("action", "prompt")
		t.ob.str("permission", "prompt")
		t.ob.lit("permissionGranted", "false")
		t.ob.str("permissionMode", "ask")
		t.ob.str("sideEffect", se)
		level := t.tables.EvosciToZero.Risk[se]
		if level == "" {
			level = "medium"
		}
		start := len(t.ob.arena)
		t.ob.arena = append(t.ob.arena, `{"level":`...)
		t.ob.arena = jsonl.AppendString(t.ob.arena, level, jsonl.GoStyle)
		t.ob.arena = append(t.ob.arena, '}')
		t.ob.put("risk", start)
		t.ob.rawOmit("reason", r.Get("description"))
		if err := t.write(); err != nil {
			return err
		}
	}
	return nil
}

func (t *Translator) evoDone(ev *event) error {
	if d := check(ev, "content", "string", "response", "string"); d != nil {
		return d
	}
	text := ev.get("response")
	if !text.Exists() || text.Type == gjson.Null {
		text = ev.get("content")
	}
	if err := t.startZero("final"); err != nil {
		return err
	}
	t.ob.rawOmit("text", text)
	if err := t.write(); err != nil {
		return err
	}
	return t.closeZeroRun("success", 0)
}

func (t *Translator) evoError(ev *event) error {
	if d := check(ev, "message", "string"); d != nil {
		return d
	}
	if err := t.startZero("error"); err != nil {
		return err
	}
	t.ob.str("code", "agent_error")
	t.ob.rawOmit("message", ev.get("message"))
	t.ob.lit("recoverable", "false")
	if err := t.write(); err != nil {
		return err
	}
	return t.closeZeroRun("error", 1)
}

// zeroToZero passes a Zero event on: upgraded (already, on decode),
// downgraded for --to zero@1, redacted, and tracked for run framing.
func (t *Translator) zeroToZero(ev *event) (bool, error) {
	if t.opt.To == Zero1 && t.tables.Versions.V2Only[ev.typ] {
		return true, t.keepZeroV2Only(ev)
	}
	z := &t.toZero
	switch ev.typ {
	case "run_start":
		if z.active {
			if err := t.endZeroRun(); err != nil {
				return false, err
			}
		}
		z.active = true
		z.runID = strings.Clone(ev.get("runId").Str)
		z.pending = z.pending[:0]
	case "run_end":
		z.active = false
		z.pending = z.pending[:0]
	case "tool_call":
		t.addPending(ev.get("id").Str, ev.get("name").Str)
	case "tool_result":
		t.takePending(ev.get("id").Str, ev.get("name").Str)
	}
	t.ob.reset(jsonl.GoStyle, t.opt.Redactor, true)
	typ := ev.typ
	if ev.prefix && ev.typ != "run_start" && ev.get("runId").Type != gjson.String && z.active {
		t.ob.str("runId", z.runID)
	}
	t.zeroFields(ev, typ)
	return false, t.write()
}

// zeroFields writes a Zero event's fields in the target schema version.
func (t *Translator) zeroFields(ev *event, typ string) {
	v1 := t.opt.To == Zero1
	for _, f := range ev.fields {
		switch {
		case f.key == "schemaVersion":
			t.ob.lit("schemaVersion", t.zeroVersion())
		case f.key == "type":
			t.ob.str("type", typ)
		case v1 && t.v1Name(f.key) != "":
			if t.ob.has(t.v1Name(f.key)) {
				continue
			}
			t.ob.raw(t.v1Name(f.key), renameCode(f.val, invert(t.tables.Versions.BlockCodes)).Raw)
		default:
			t.ob.raw(f.key, f.val.Raw)
		}
	}
	if !t.ob.has("schemaVersion") {
		t.ob.lit("schemaVersion", t.zeroVersion())
	}
}

// v1Name is the v1 name of a v2 field that was renamed, or "".
func (t *Translator) v1Name(v2 string) string {
	for a, b := range t.tables.Versions.Fields {
		if b == v2 {
			return a
		}
	}
	return ""
}

func invert(m map[string]string) map[string]string {
	r := make(map[string]string, len(m))
	for k, v := range m {
		r[v] = k
	}
	return r
}

// keepZeroV2Only handles a v2-only event under --to zero@1: unmapped.
func (t *Translator) keepZeroV2Only(ev *event) error {
	if t.opt.Unmapped != Keep {
		return nil
	}
	t.ob.reset(jsonl.GoStyle, t.opt.Redactor, true)
	t.zeroFields(ev, "zero."+ev.typ)
	return t.write()
}
