package translate

import (
	"github.com/zevo/zevo/dialects/zero"
	"math/big"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
	"github.com/zevo/zevo/protocol"
)

// evoProvider is the provider of the Zero runs zevo synthesizes.
const evoProvider = "evoscientist"

// zeroState is the run being written as Zero.
type zeroState struct {
	active   bool
	runID    string
	runIDOut []byte        // runID as written: redacted, quoted
	runs     int           // runs synthesized so far, for --run-id suffixes
	pending  []pendingCall // tool calls without a result yet, oldest first
	answered idSet         // ids of the calls whose result came
	perms    idSet         // ids of the permission_requests written (redacted)
	calls    idSet         // ids of the tool calls written (redacted)
}

func (t *Translator) zeroVersion() int64 {
	if t.opt.To == Zero1 {
		return 1
	}
	return 2
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

// headZero begins a Zero event, held to Zero's types (unless kept).
func (t *Translator) headZero(typ string) {
	t.beginZero()
	t.ob.path = typ
	t.ob.int("schemaVersion", t.zeroVersion())
	t.ob.rendered("type", t.typeOut(typ, jsonl.GoStyle))
	t.ob.rendered("runId", t.toZero.runIDOut)
}

func (t *Translator) redacted(s string) string {
	if t.opt.Redactor == nil {
		return s
	}
	return t.opt.Redactor.String(s)
}

func (t *Translator) beginZero() {
	t.ob.reset(jsonl.GoStyle, t.opt.Redactor, true)
	t.ob.shape, t.ob.drop, t.ob.keys = t.shape, t.dropFn, &t.keys
}

// beginZeroRun starts tracking a run.
func (t *Translator) beginZeroRun(id string) {
	z := &t.toZero
	z.active, z.runID = true, id
	z.runIDOut = jsonl.AppendString(z.runIDOut[:0], t.redacted(id), jsonl.GoStyle)
	t.forgetZeroRun()
}

func (t *Translator) forgetZeroRun() {
	z := &t.toZero
	z.pending = z.pending[:0]
	z.answered.reset()
	z.perms.reset()
	z.calls.reset()
}

func (t *Translator) openZeroRun() error {
	t.beginZeroRun(t.newRunID())
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
	t.forgetZeroRun()
	return t.write()
}

// endZeroRun closes a run the input left open, as Zero closes an
// incomplete run; msg says why.
func (t *Translator) endZeroRun(msg string) error {
	if !t.toZero.active {
		return nil
	}
	t.headZero("error")
	t.ob.str("code", "incomplete")
	t.ob.str("message", msg)
	t.ob.bool("recoverable", false)
	if err := t.write(); err != nil {
		return err
	}
	return t.closeZeroRun("incomplete", 4)
}

// Interrupt ends the output of an interrupted translation as the target's
// producer ends an interrupted run: a Zero run still open gets Zero's
// error "interrupted" and run_end "interrupted" (exit code 130); an
// EvoScientist run cancelled by Ctrl-C ends with nothing, so nothing is
// written.
func (t *Translator) Interrupt() error {
	if t.ep.in != nil {
		return t.ep.enc.Interrupt()
	}
	if t.opt.To == EvoSci || !t.toZero.active {
		return nil
	}
	t.headZero("error")
	t.ob.str("code", "interrupted")
	t.ob.str("message", "run cancelled by signal")
	t.ob.bool("recoverable", false)
	if err := t.write(); err != nil {
		return err
	}
	return t.closeZeroRun("interrupted", 130)
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

// evoRule writes an EvoScientist event through a table rule.
func (t *Translator) evoRule(ev *event, rule *mappings.Rule, to string) (bool, error) {
	if err := t.startZero(to); err != nil {
		return false, err
	}
	if err := t.applyRule(ev, rule, true); err != nil {
		return false, err
	}
	return false, t.write()
}

func (t *Translator) evoToolCall(ev *event, rule *mappings.Rule, to string) (bool, error) {
	if d := check(ev, "name", "string", "id", "string"); d != nil {
		return false, d
	}
	name, id := ev.Get("name").Str, ev.Get("id").Str
	if err := t.startZero(to); err != nil {
		return false, err
	}
	out, ok := t.addPending(id, name)
	if !ok {
		return false, nil // announced again: one call, written once
	}
	t.ob.strOmit("id", out)
	t.ob.strOmit("name", name)
	t.ob.rawOmit("args", ev.Get("args"))
	t.ob.str("sideEffect", t.tables.Between("evosci", "zero").SideEffect(name))
	return false, t.write()
}

func (t *Translator) evoToolResult(ev *event, rule *mappings.Rule, to string) (bool, error) {
	if d := check(ev, "name", "string", "id", "string", "content", "string", "success", "boolean"); d != nil {
		return false, d
	}
	name, id := ev.Get("name").Str, ev.Get("id").Str
	if !ev.Get("success").Exists() {
		return false, ev.diag(`tool_result without "success"`)
	}
	if err := t.startZero(to); err != nil {
		return false, err
	}
	if got, ok := t.takePending(id, name); ok {
		id = got
	}
	content := ev.Peek("content")
	t.ob.strOmit("id", id)
	t.ob.strOmit("name", name)
	if ev.Get("success").Type == gjson.True {
		t.ob.str("status", "ok")
	} else {
		t.ob.str("status", "error")
	}
	t.ob.rawOmit("output", content)
	t.ob.bool("truncated", truncated(content))
	return false, t.write()
}

func (t *Translator) evoUsage(ev *event, rule *mappings.Rule, to string) (bool, error) {
	if d := check(ev, "input_tokens", "integer", "output_tokens", "integer"); d != nil {
		return false, d
	}
	in, out := intOrZero(ev.Get("input_tokens")), intOrZero(ev.Get("output_tokens"))
	total := addInts(in, out)
	if t.shape != nil {
		if d := tokenRange(ev, "input_tokens", in); d != nil {
			return false, d
		}
		if d := tokenRange(ev, "output_tokens", out); d != nil {
			return false, d
		}
		if d := tokenRange(ev, "the sum of input_tokens and output_tokens", total); d != nil {
			return false, d
		}
	}
	if err := t.startZero(to); err != nil {
		return false, err
	}
	t.ob.raw("promptTokens", in)
	t.ob.raw("completionTokens", out)
	t.ob.raw("totalTokens", total)
	return false, t.write()
}

// tokenRange diagnoses a token count Zero's int cannot hold.
func tokenRange(ev *event, what, n string) *jsonl.Diagnostic {
	if holds(jsonl.KindInteger, gjson.Result{Type: gjson.Number, Raw: n}) {
		return nil
	}
	return ev.diag("usage_stats: %s %s does not fit Zero's token counts (64-bit integers; --unmapped keep writes it)", what, clip(n))
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

func (t *Translator) evoInterrupt(ev *event, rule *mappings.Rule, to string) (bool, error) {
	if d := check(ev, "interrupt_id", "string", "action_requests", "array"); d != nil {
		return false, d
	}
	reqs := ev.Get("action_requests").Array()
	if len(reqs) == 0 {
		// It asks nothing: no permission_request to write.
		return true, t.keepEvoInZero(ev)
	}
	for i, r := range reqs {
		if !r.IsObject() {
			return false, ev.diag("interrupt.action_requests[%d]: want object, got %s", i, jsonType(r))
		}
		if d := typeErr(ev, "action_requests["+strconv.Itoa(i)+"].name", r.Get("name"), jsonl.KindString); d != nil {
			return false, d
		}
		if d := typeErr(ev, "action_requests["+strconv.Itoa(i)+"].description", r.Get("description"), jsonl.KindString); d != nil {
			return false, d
		}
	}
	iid := ev.Get("interrupt_id").Str
	for i := range t.toZero.pending {
		t.toZero.pending[i].claimed = false
	}
	for i, req := range reqs {
		name := req.Get("name").Str
		if err := t.startZero(to); err != nil {
			return false, err
		}
		id := t.permissionID(iid, i, name)
		se := t.tables.Between("evosci", "zero").SideEffect(name)
		t.ob.strOmit("sessionId", t.opt.SessionID) // Zero writes it on permission events
		t.ob.strOmit("id", id)
		t.ob.strOmit("name", name)
		t.ob.str("action", "prompt")
		t.ob.str("permission", "prompt")
		t.ob.bool("permissionGranted", false)
		t.ob.str("permissionMode", "ask")
		t.ob.str("sideEffect", se)
		level := t.tables.Between("evosci", "zero").Risk[se]
		if level == "" {
			level = "medium"
		}
		t.ob.object("risk", func(c *out) { c.str("level", level) })
		t.ob.rawOmit("reason", req.Get("description"))
		if err := t.write(); err != nil {
			return false, err
		}
	}
	return false, nil
}

func (t *Translator) evoDone(ev *event, rule *mappings.Rule, to string) (bool, error) {
	if d := check(ev, "content", "string", "response", "string"); d != nil {
		return false, d
	}
	text := ev.Get("response")
	if !text.Exists() || text.Type == gjson.Null {
		text = ev.Get("content")
	}
	if err := t.startZero(to); err != nil {
		return false, err
	}
	t.ob.rawOmit("text", text)
	if err := t.write(); err != nil {
		return false, err
	}
	return false, t.closeZeroRun("success", 0)
}

func (t *Translator) evoError(ev *event, rule *mappings.Rule, to string) (bool, error) {
	if d := check(ev, "message", "string"); d != nil {
		return false, d
	}
	if err := t.startZero(to); err != nil {
		return false, err
	}
	t.ob.str("code", "agent_error")
	t.ob.rawOmit("message", ev.Get("message"))
	t.ob.bool("recoverable", false)
	if err := t.write(); err != nil {
		return false, err
	}
	return false, t.closeZeroRun("error", 1)
}

// zeroToZero passes a Zero event on: upgraded (already, on decode),
// downgraded for --to zero@1, held to Zero's types, redacted, and tracked
// for run framing.
func (t *Translator) zeroToZero(ev *event) (bool, error) {
	if isZeroInput(ev.typ) || (t.opt.To == Zero1 && zero.V1Renames().V2Only[ev.typ]) {
		// Zero's input events are no output; v1 has no reasoning.
		return true, t.keepZeroInZero(ev)
	}
	if t.shape != nil && ev.typ == "usage" {
		if d := check(ev, "promptTokens", "int64", "completionTokens", "int64", "totalTokens", "int64"); d != nil {
			return false, d
		}
	}
	z := &t.toZero
	if !ev.prefix && z.active && !protocol.IsZeroID(ev.Get("runId").Str) {
		// a run whose runId Zero could not write: see place
		ev.Set("runId", gjson.Result{Type: gjson.String, Str: z.runID, Raw: strconv.Quote(z.runID)})
	}
	switch ev.typ {
	case "run_start":
		if ev.prefix {
			// a run kept inside EvoScientist input: its events follow
			if err := t.endZeroRun(cutMessage(protocol.CutRunStart)); err != nil {
				return false, err
			}
			t.beginZeroRun(strings.Clone(ev.Get("runId").Str))
		}
	case "run_end":
		z.active = false
		t.forgetZeroRun()
	case "tool_call":
		t.addPending(ev.Get("id").Str, ev.Get("name").Str)
	case "tool_result":
		t.takePending(ev.Get("id").Str, ev.Get("name").Str)
	}
	t.beginZero()
	t.ob.path = ev.typ
	if ev.prefix && ev.typ != "run_start" && ev.Get("runId").Type != gjson.String && z.active {
		t.ob.str("runId", z.runID)
	}
	t.zeroFields(ev, ev.typ)
	return false, t.write()
}

// zeroFields writes a Zero event's fields in the target schema version.
func (t *Translator) zeroFields(ev *event, typ string) {
	v1 := t.opt.To == Zero1
	for _, f := range ev.Members() {
		switch {
		case f.Key == "schemaVersion":
			t.ob.int("schemaVersion", t.zeroVersion())
		case f.Key == "type":
			t.ob.str("type", typ)
		case v1 && t.v1Name(f.Key) != "":
			t.ob.raw(t.v1Name(f.Key), renameCode(f.Value(), invert(zero.V1Renames().BlockCodes)).Raw)
		case v1 && t.v2Name(f.Key) != "" && ev.Has(t.v2Name(f.Key)):
			// A stray v1 field beside its v2 name: the v2 one wins, as
			// on the upgrade.
			t.dropZero(typ + "." + f.Key)
		default:
			t.ob.raw(f.Key, f.Raw())
		}
	}
	if !t.ob.has("schemaVersion") {
		t.ob.int("schemaVersion", t.zeroVersion())
	}
}

// v2Name is the v2 name of a v1 field that was renamed, or "".
func (t *Translator) v2Name(v1 string) string { return zero.V1Renames().Fields[v1] }

// keepZeroInZero writes, under --unmapped keep, a Zero event Zero output
// has no room for, its type prefixed.
func (t *Translator) keepZeroInZero(ev *event) error {
	if t.opt.Unmapped != Keep {
		return nil
	}
	t.beginZero()
	t.zeroFields(ev, "zero."+ev.typ)
	return t.write()
}

// dropZero counts a field left out of Zero output.
func (t *Translator) dropZero(path string) { t.countDropped("zero." + path) }
