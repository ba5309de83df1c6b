package translate

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
)

// prepared is a line validated and split, ready for apply.
type prepared struct {
	name      string
	num       int
	ev        event
	warn, bad *Diagnostic
	blank     bool
}

// preparer does the part of translation that needs no state of the run:
// validation, splitting, classification and the v1 upgrade. It may run on
// its own goroutine, ahead of the Translator.
type preparer struct {
	from   Format
	tables *mappings.Set
	scan   scanner
}

func (p *preparer) prepare(l jsonl.Line, out *prepared) {
	out.warn, out.bad = nil, nil
	out.name, out.num = l.Name, l.Num
	out.blank = jsonl.IsBlank(l.Bytes)
	if !out.blank {
		_, out.warn, out.bad = p.decode(l, &out.ev)
	}
}

// decode validates a line and splits its top-level fields. warn is a
// diagnostic for a line that is still translated (NaN replaced by null).
func (p *preparer) decode(l jsonl.Line, ev *event) (_ *event, warn, bad *Diagnostic) {
	*ev = event{fields: ev.fields[:0], name: l.Name, num: l.Num}
	b := l.Bytes
	raw := unsafe.String(unsafe.SliceData(b), len(b))
	valid, object := p.scan.line(raw, ev) // checks UTF-8 too
	if !valid || p.scan.deep {
		if !utf8.Valid(b) {
			return nil, nil, &Diagnostic{ev.where(), "invalid UTF-8"}
		}
		if jsonl.TooDeep(b) {
			return nil, nil, &Diagnostic{ev.where(), "not valid JSON (nested deeper than 10000 levels)"}
		}
	}
	if !valid {
		fixed, n := jsonl.ReplaceNonFinite(b, func(dst []byte, _ string, _ int) []byte { return append(dst, "null"...) })
		ok := n > 0
		if ok {
			raw = string(fixed)
			valid, object = p.scan.line(raw, ev)
		}
		if !valid {
			return nil, nil, &Diagnostic{ev.where(), "not valid JSON" + jsonHint(b)}
		}
		warn = &Diagnostic{ev.where(), "NaN or Infinity is not JSON; translated with null in its place"}
	}
	ev.raw = raw
	if !object {
		return nil, nil, &Diagnostic{ev.where(), "not a JSON object"}
	}
	typ := ev.get("type")
	if typ.Type != gjson.String {
		return nil, nil, &Diagnostic{ev.where(), `no string "type" field`}
	}
	ev.typ = typ.Str
	sv := ev.get("schemaVersion")
	switch {
	case strings.HasPrefix(ev.typ, "zero."):
		ev.kind, ev.typ, ev.prefix = Zero, ev.typ[len("zero."):], true
	case strings.HasPrefix(ev.typ, "evosci."):
		ev.kind, ev.typ, ev.prefix = EvoSci, ev.typ[len("evosci."):], true
		ev.del("schemaVersion")
		ev.del("runId")
		sv = gjson.Result{}
	case sv.Exists():
		ev.kind = Zero
	default:
		ev.kind = EvoSci
	}
	if p.from != Auto && !ev.prefix && ev.kind != p.from && !(p.from == Zero1 && ev.kind == Zero) {
		if p.from == Zero {
			return nil, nil, &Diagnostic{ev.where(), `no "schemaVersion": not a Zero event (--from zero)`}
		}
		return nil, nil, &Diagnostic{ev.where(), `has "schemaVersion": a Zero event, not EvoScientist (--from evosci)`}
	}
	if ev.kind == Zero {
		if d := checkZeroFields(ev); d != nil {
			return nil, nil, d
		}
		switch sv.Raw {
		case "2":
		case "1":
			upgrade(ev, p.tables)
		default:
			if !sv.Exists() {
				return nil, nil, &Diagnostic{ev.where(), `Zero event without "schemaVersion"`}
			}
			return nil, nil, &Diagnostic{ev.where(), fmt.Sprintf("unknown schemaVersion %s (zevo knows 1 and 2)", clip(sv.Raw))}
		}
	}
	return ev, warn, nil
}

// checkZeroFields checks the JSON types of the Zero fields zevo knows, so
// that no target gets a field its decoder would refuse.
func checkZeroFields(ev *event) *Diagnostic {
	for _, f := range ev.fields {
		want := ""
		switch f.key {
		case "runId", "sessionId", "cwd", "provider", "model", "apiModel", "delta", "id", "name", "action",
			"permission", "permissionMode", "autonomy", "sideEffect", "reason", "decisionReason", "status",
			"output", "text", "message", "code", "role", "content":
			want = "string"
		case "permissionGranted", "grantMatched", "truncated", "redacted", "recoverable":
			want = "boolean"
		case "promptTokens", "completionTokens", "totalTokens", "exitCode":
			want = "integer"
		case "costUsd":
			want = "number"
		case "risk", "block", "violation", "grant", "display", "checkpoint", "meta":
			want = "object"
		case "changedFiles", "images":
			want = "array"
		}
		if d := typeErr(ev, f.key, f.val, want); d != nil {
			return d
		}
	}
	return nil
}

// jsonHint says what is wrong with a line that is not JSON, briefly. It
// runs only on bad lines, so it may be slow.
func jsonHint(b []byte) string {
	if len(b) > 0 && b[0] != '{' && b[0] != '[' && b[0] != '"' && b[0] != '-' && (b[0] < '0' || b[0] > '9') {
		s := b
		if len(s) > 40 {
			s = s[:40]
		}
		return fmt.Sprintf(" (starts %q)", s)
	}
	var v json.RawMessage
	err := json.Unmarshal(b, &v)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf(" (at byte %d: %s)", se.Offset, strings.TrimPrefix(se.Error(), "invalid character "))
	case err != nil:
		return " (" + err.Error() + ")"
	}
	return ""
}

// upgrade turns a Zero v1 event into v2: violation → block (a block already
// there wins), block codes renamed.
func upgrade(ev *event, tables *mappings.Set) {
	v := tables.Versions
	for v1, v2 := range v.Fields {
		old := ev.get(v1)
		if !old.Exists() {
			continue
		}
		ev.del(v1)
		if !ev.get(v2).Exists() {
			ev.set(v2, renameCode(old, v.BlockCodes))
		}
	}
	ev.set("schemaVersion", gjson.Parse("2"))
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

// dispatch routes an event to its direction. unmapped reports an event with
