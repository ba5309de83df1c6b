package zero

import (
	"math/big"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// Zero into Zero: each line passes through, as docs/mapping.md says
// (Zero → Zero): upgraded from version 1 (or downgraded for version 1
// output), with its run's runId, held to Zero's types unless Keep (the
// fields they cannot hold left out and counted: Dropped), redacted, in
// the run framing of the producer's own lines (Passed).

// PassOwn writes ev, an event of a Zero line (the source is the target).
func (e *Encoder) PassOwn(ev *event.Event, st event.Step) (mapped bool, err error) {
	v1 := e.opt.Version == 1
	vs := V1Renames()
	// Version 1 has no such type (reasoning): kept, its type prefixed,
	// or dropped.
	kept := v1 && vs.V2Only[ev.Type]
	mapped, err = e.Passed(ev, st, func(o *jsonl.Object, runID string) bool {
		if kept && !e.opt.Keep {
			return false
		}
		if d := unfitCount(ev); d != "" && !e.opt.Keep {
			// Written only with Keep.
			if e.opt.Report != nil {
				e.opt.Report(d)
			}
			return false
		}
		raw := ev.Raw
		if isV1(ev) {
			raw = upgradedV1(raw)
		}
		var members []gjson.Result // keys, values
		gjson.ParseBytes(raw).ForEach(func(k, v gjson.Result) bool {
			members = append(members, k, v)
			return true
		})
		get := func(key string) (gjson.Result, int) {
			for i := 0; i < len(members); i += 2 {
				if members[i].Str == key {
					return members[i+1], i
				}
			}
			return gjson.Result{}, -1
		}
		typ, sh := ev.Type, (*Shape)(nil)
		if !e.opt.Keep {
			sh = EventShape(e.opt.Version)
		}
		if kept {
			typ = ev.Dialect + "." + typ
		}
		o.Str("type", typ)
		if !kept {
			o.Str("runId", runID)
		}
		for i := 0; i < len(members); i += 2 {
			key, v := members[i].Str, members[i+1]
			switch {
			case key == "schemaVersion" || key == "type" || key == "runId" && !kept:
				continue
			case v1 && v1Name(key) != "":
				v = renameCode(v, invert(vs.BlockCodes))
				key = v1Name(key)
			case v1 && vs.Fields[key] != "":
				if _, j := get(vs.Fields[key]); j >= 0 {
					// A stray v1 field beside its v2 name: the v2 one
					// wins, as on the upgrade.
					e.dropped(typ + "." + key)
					continue
				}
			}
			e.putFitted(o, key, v, sh, typ)
		}
		return true
	})
	if kept {
		mapped = false
	}
	return mapped, err
}

// FrameOwn frames the run st places ev, an event of a Zero line, in
// (its start, the end of the run before it) and writes none of ev: the
// line is a bad one.
func (e *Encoder) FrameOwn(ev *event.Event, st event.Step) error {
	_, err := e.Passed(ev, st, func(*jsonl.Object, string) bool { return false })
	return err
}

// Restored is ev, a Zero line another stream kept (its type prefixed,
// Keep), as the event of type typ it was: an input event is Zero's
// input again (in no run), a run_start starts its run with its own
// runId.
func (e *Encoder) Restored(ev *event.Event, typ string) event.Event {
	o := *ev
	o.Dialect, o.Type = Name, typ
	switch {
	case inputType(typ):
		o.Kind = event.Prompt
	case typ == "run_start":
		o.Kind, o.Run = event.RunStart, gjson.GetBytes(ev.Raw, "runId").Str
	}
	return o
}

// dropped counts a field (TYPE.FIELD) left out: Zero's types cannot hold
// it.
func (e *Encoder) dropped(path string) {
	if e.opt.Dropped != nil {
		e.opt.Dropped(path)
	}
}

// upgrade is the Dialect's Upgrade: a version 1 line as version 2.
func upgrade(ev *event.Event) ([]byte, bool) {
	if !isV1(ev) {
		return nil, false
	}
	return upgradedV1(ev.Raw), true
}

// unfitCount is the diagnostic of ev, a Zero usage line, whose first
// token count Zero's 64-bit integers cannot hold; "" if they hold them.
func unfitCount(ev *event.Event) string {
	if ev.Kind != event.Usage || ev.Usage == nil || ev.Usage.Past == nil {
		return ""
	}
	p := ev.Usage.Past
	for _, c := range []struct {
		key string
		n   *big.Int
	}{{"promptTokens", p.Input}, {"completionTokens", p.Output}, {"totalTokens", p.Total}} {
		if c.n != nil && !c.n.IsInt64() {
			return ev.Type + "." + c.key + ": want an integer of at most 64 bits, as Zero's token counts (--unmapped keep writes it), got number " + clip(c.n.String())
		}
	}
	return ""
}

// isV1 reports an event of a Zero version 1 line: output (zero@1) or
// input (zero-input, of either version).
func isV1(ev *event.Event) bool {
	return ev.Variant == "zero@1" || ev.Variant == "zero-input" && gjson.GetBytes(ev.Raw, "schemaVersion").Raw == "1"
}

// upgradedV1 is raw, a Zero version 1 line, as version 2 (whatever the
// target, docs/mapping.md): schemaVersion 2, violation → block (a block
// already there wins, the violation is dropped), block codes renamed.
func upgradedV1(raw []byte) []byte {
	vs := V1Renames()
	var keys, vals []string
	gjson.ParseBytes(raw).ForEach(func(k, v gjson.Result) bool {
		keys, vals = append(keys, k.Raw), append(vals, v.Raw)
		if k.Str == "schemaVersion" {
			vals[len(vals)-1] = "2"
		}
		return true
	})
	has := func(key string) int {
		for i, k := range keys {
			if gjson.Parse(k).Str == key {
				return i
			}
		}
		return -1
	}
	for f1, f2 := range vs.Fields {
		i := has(f1)
		if i < 0 {
			continue
		}
		old := gjson.Parse(vals[i])
		keys, vals = append(keys[:i], keys[i+1:]...), append(vals[:i], vals[i+1:]...)
		if has(f2) < 0 {
			keys, vals = append(keys, string(jsonl.AppendString(nil, f2, jsonl.GoStyle))), append(vals, renameCode(old, vs.BlockCodes).Raw)
		}
	}
	out := []byte{'{'}
	for i := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(append(append(out, keys[i]...), ':'), vals[i]...)
	}
	return append(out, '}')
}

// putFitted adds key's value v to o, or, where Zero's types (sh, nil: all
// are kept) cannot hold it, leaves it out and counts it: an object whose
// members they hold only in part is written with those members.
func (e *Encoder) putFitted(o *jsonl.Object, key string, v gjson.Result, sh *Shape, path string) {
	if sh == nil {
		o.Raw(key, []byte(v.Raw))
		return
	}
	f, known := sh.Field(key)
	if !known || !f.Holds(v) {
		e.dropped(path + "." + key)
		return
	}
	if f.Sub() != nil && v.IsObject() && !f.Sub().Fits(v) {
		c := jsonl.Object{Style: jsonl.GoStyle, Redact: e.opt.Redactor, Sorted: true}
		v.ForEach(func(k, cv gjson.Result) bool {
			e.putFitted(&c, k.Str, cv, f.Sub(), path+"."+key)
			return true
		})
		o.Raw(key, c.AppendTo(nil))
		return
	}
	o.Raw(key, []byte(v.Raw))
}

// renameCode rewrites the "code" of a block object through names.
func renameCode(obj gjson.Result, names map[string]string) gjson.Result {
	code := obj.Get("code")
	to, ok := names[code.Str]
	if !ok || code.Type != gjson.String {
		return obj
	}
	var b []byte
	b = append(b, '{')
	first := true
	obj.ForEach(func(k, v gjson.Result) bool {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, k.Raw...)
		b = append(b, ':')
		if k.Str == "code" {
			b = jsonl.AppendString(b, to, jsonl.GoStyle)
		} else {
			b = append(b, v.Raw...)
		}
		return true
	})
	b = append(b, '}')
	return gjson.ParseBytes(b)
}

// v1Name is the v1 name of a v2 field that was renamed, or "".
func v1Name(v2 string) string {
	for a, b := range V1Renames().Fields {
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
