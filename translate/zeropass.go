package translate

import (
	"github.com/tidwall/gjson"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// Zero into Zero on the event path: each line passes through, as
// docs/mapping.md says (Zero → Zero): upgraded from version 1 (or
// downgraded for --to zero@1), with its run's runId, held to Zero's types
// unless --unmapped keep (the fields they cannot hold dropped and
// counted), redacted and written by the Zero encoder (Passed), which
// frames the run as the producer did.

// zeroPasser is the Zero encoder's writing of Zero's own lines.
type zeroPasser interface {
	Passed(ev *model.Event, st model.Step, fill func(o *jsonl.Object, runID string) bool) (mapped bool, err error)
}

// passZero writes ev, of a Zero line, into Zero output.
func (t *Translator) passZero(enc zeroPasser, ev *model.Event, st model.Step) (mapped bool, err error) {
	v1 := t.opt.To == Zero1
	vs := t.tables.Versions
	// Version 1 has no such type (reasoning): kept, its type prefixed,
	// or dropped.
	kept := v1 && vs.V2Only[ev.Type]
	mapped, err = enc.Passed(ev, st, func(o *jsonl.Object, runID string) bool {
		if kept && t.opt.Unmapped != Keep {
			return false
		}
		line := gjson.ParseBytes(ev.Raw)
		var members []gjson.Result // keys, values
		line.ForEach(func(k, v gjson.Result) bool {
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
		if sv, _ := get("schemaVersion"); sv.Raw == "1" {
			// The upgrade: violation → block (a block already there
			// wins), block codes renamed.
			for f1, f2 := range vs.Fields {
				old, i := get(f1)
				if i < 0 {
					continue
				}
				members = append(members[:i], members[i+2:]...)
				if _, j := get(f2); j < 0 {
					members = append(members, gjson.Result{Type: gjson.String, Str: f2}, renameCode(old, vs.BlockCodes))
				}
			}
		}
		typ, sh := ev.Type, t.shape
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
			case v1 && t.v1Name(key) != "":
				v = renameCode(v, invert(vs.BlockCodes))
				key = t.v1Name(key)
			case v1 && vs.Fields[key] != "":
				if _, j := get(vs.Fields[key]); j >= 0 {
					// A stray v1 field beside its v2 name: the v2 one
					// wins, as on the upgrade.
					t.dropZero(typ + "." + key)
					continue
				}
			}
			t.putFitted(o, key, v, sh, typ)
		}
		return true
	})
	if kept {
		mapped = false
	}
	return mapped, err
}

// putFitted adds key's value v to o, or, where Zero's types (sh, nil: all
// are kept) cannot hold it, leaves it out and counts it: an object whose
// members they hold only in part is written with those members.
func (t *Translator) putFitted(o *jsonl.Object, key string, v gjson.Result, sh *shape, path string) {
	if sh == nil {
		o.Raw(key, []byte(v.Raw))
		return
	}
	f, known := sh.fields[key]
	if sh.values != nil {
		f, known = *sh.values, true
	}
	if !known || !f.holds(v) {
		t.dropZero(path + "." + key)
		return
	}
	if f.sub != nil && v.IsObject() && !f.sub.fits(v) {
		c := jsonl.Object{Style: jsonl.GoStyle, Redact: t.opt.Redactor, Sorted: true}
		v.ForEach(func(k, cv gjson.Result) bool {
			t.putFitted(&c, k.Str, cv, f.sub, path+"."+key)
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
