// Package translate converts EvoScientist and Zero stream-json into each
// other, one line at a time, with the run framing, id correlation and
// redaction the target's clients expect.
package translate

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
	"github.com/zevo/zevo/redact"
)

// Format names a protocol.
type Format int

const (
	Auto   Format = iota
	Zero          // Zero stream-json, schema version 2
	Zero1         // Zero stream-json, schema version 1 (output only)
	EvoSci        // EvoScientist stream-json
)

func (f Format) String() string {
	return [...]string{"auto", "zero", "zero@1", "evosci"}[f]
}

// ParseFormat reads a format name as the CLI spells it.
func ParseFormat(s string) (Format, error) {
	switch s {
	case "auto":
		return Auto, nil
	case "zero", "zero@2":
		return Zero, nil
	case "zero@1":
		return Zero1, nil
	case "evosci", "evoscientist":
		return EvoSci, nil
	}
	return Auto, fmt.Errorf("unknown format %q (want zero, zero@1 or evosci)", s)
}

// Unmapped says what happens to an event that has no counterpart.
type Unmapped int

const (
	Drop  Unmapped = iota // not written, counted in the summary
	Keep                  // written with its type prefixed by its protocol
	Error                 // a diagnostic
)

// ParseUnmapped reads an --unmapped value.
func ParseUnmapped(s string) (Unmapped, error) {
	switch s {
	case "drop":
		return Drop, nil
	case "keep":
		return Keep, nil
	case "error":
		return Error, nil
	}
	return Drop, fmt.Errorf("unknown --unmapped policy %q (want drop, keep or error)", s)
}

// Options configure a Translator.
type Options struct {
	To        Format // Zero, Zero1 or EvoSci
	From      Format // Auto detects each line
	RunID     string // run id of synthesized runs; later runs get .2, .3, …
	SessionID string
	Cwd       string
	Model     string
	Unmapped  Unmapped
	// Redact applies Zero's redaction to every output event. The CLI turns
	// it on for Zero output unless --no-redact.
	Redact   bool
	Redactor *redact.Redactor // nil: Zero's rules
	Tables   *mappings.Set    // nil: the embedded defaults
	Now      func() time.Time // for run ids; nil: time.Now
	Rand     io.Reader        // for run ids; nil: crypto/rand
}

// Diagnostic is a problem with one input line. The line's place comes first.
type Diagnostic struct {
	Where string
	Msg   string
}

func (d *Diagnostic) Error() string { return d.Where + ": " + d.Msg }

// Stats accounts for every input line: Lines = Blank + Mapped + Unmapped + Diagnosed.
type Stats struct {
	Lines     int
	Blank     int
	Mapped    int // translated, or absorbed by the run framing
	Unmapped  int // no counterpart: dropped or kept per policy
	Diagnosed int // reported as a diagnostic
	Written   int // output events
	// UnmappedTypes counts unmapped lines by source type ("evosci.subagent_text").
	UnmappedTypes map[string]int
}

// Summary is the stderr line about unmapped events, or "" when there were none.
func (s *Stats) Summary(policy Unmapped) string {
	if s.Unmapped == 0 {
		return ""
	}
	names := make([]string, 0, len(s.UnmappedTypes))
	for n := range s.UnmappedTypes {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	verb := "dropped"
	if policy == Keep {
		verb = "kept"
	}
	fmt.Fprintf(&b, "zevo: %d unmapped event(s) %s:", s.Unmapped, verb)
	for _, n := range names {
		fmt.Fprintf(&b, " %s=%d", n, s.UnmappedTypes[n])
	}
	return b.String()
}

// Translator translates lines of one or more inputs. It is not safe for
// concurrent use.
type Translator struct {
	opt    Options
	tables *mappings.Set
	emit   func([]byte) error
	stats  Stats

	ob   out
	line []byte // output scratch

	toZero zeroState
	toEvo  evoState

	where func() string
}

// New returns a Translator that passes each output event, without line end,
// to emit. The slice is reused after emit returns.
func New(opt Options, emit func([]byte) error) *Translator {
	if opt.Tables == nil {
		opt.Tables = mappings.Default()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Rand == nil {
		opt.Rand = rand.Reader
	}
	if opt.Redact && opt.Redactor == nil {
		opt.Redactor = &redact.Redactor{}
	}
	if !opt.Redact {
		opt.Redactor = nil
	}
	t := &Translator{opt: opt, tables: opt.Tables, emit: emit}
	t.stats.UnmappedTypes = map[string]int{}
	return t
}

// Stats returns the accounting so far.
func (t *Translator) Stats() *Stats { return &t.stats }

// event is one decoded input line.
type event struct {
	kind   Format // Zero or EvoSci, after undoing a kept prefix
	typ    string // without the "zero." / "evosci." prefix
	prefix bool   // the line was a kept event of the other protocol
	fields []field
	raw    string // the line (valid until the next line)
	where  string
}

type field struct {
	key string
	val gjson.Result
}

func (e *event) get(key string) gjson.Result {
	for i := range e.fields {
		if e.fields[i].key == key {
			return e.fields[i].val
		}
	}
	return gjson.Result{}
}

// lookup resolves a table's source path: a top-level name, or gjson syntax.
func (e *event) lookup(path string) gjson.Result {
	if strings.ContainsAny(path, ".*?|#@\\") {
		return gjson.Get(e.raw, path)
	}
	return e.get(path)
}

func (e *event) set(key string, v gjson.Result) {
	for i := range e.fields {
		if e.fields[i].key == key {
			e.fields[i].val = v
			return
		}
	}
	e.fields = append(e.fields, field{key, v})
}

func (e *event) del(key string) {
	for i := range e.fields {
		if e.fields[i].key == key {
			e.fields = append(e.fields[:i], e.fields[i+1:]...)
			return
		}
	}
}

func (e *event) diag(format string, a ...any) *Diagnostic {
	return &Diagnostic{Where: e.where, Msg: fmt.Sprintf(format, a...)}
}

// Line translates one input line. It returns a *Diagnostic for a bad line
// (the caller reports it and goes on, or stops), or the error of emit.
func (t *Translator) Line(l jsonl.Line) error {
	t.stats.Lines++
	if jsonl.IsBlank(l.Bytes) {
		t.stats.Blank++
		return nil
	}
	ev, warn, bad := t.decode(l)
	if bad != nil {
		t.stats.Diagnosed++
		return bad
	}
	unmapped, err := t.dispatch(ev)
	var d *Diagnostic
	switch {
	case errors.As(err, &d):
		t.stats.Diagnosed++
		return err
	case err != nil:
		return err
	case warn != nil:
		t.stats.Diagnosed++
		return warn
	case unmapped:
		t.stats.Unmapped++
		name := ev.typ
		if ev.kind == Zero {
			name = "zero." + name
		} else {
			name = "evosci." + name
		}
		t.stats.UnmappedTypes[name]++
		if t.opt.Unmapped == Error {
			t.stats.Unmapped--
			t.stats.UnmappedTypes[name]--
			if t.stats.UnmappedTypes[name] == 0 {
				delete(t.stats.UnmappedTypes, name)
			}
			t.stats.Diagnosed++
			return ev.diag("%s event %q has no %s counterpart (--unmapped error)", ev.kind, ev.typ, t.opt.To)
		}
	default:
		t.stats.Mapped++
	}
	return nil
}

// decode validates a line and splits its top-level fields. warn is a
// diagnostic for a line that is still translated (NaN replaced by null).
func (t *Translator) decode(l jsonl.Line) (ev *event, warn, bad *Diagnostic) {
	where := l.Where()
	b := l.Bytes
	if !utf8.Valid(b) {
		return nil, nil, &Diagnostic{where, "invalid UTF-8"}
	}
	raw := unsafe.String(unsafe.SliceData(b), len(b))
	if !gjson.Valid(raw) {
		fixed, ok := replaceNonFinite(b)
		if !ok || !gjson.ValidBytes(fixed) {
			return nil, nil, &Diagnostic{where, "not valid JSON" + jsonHint(b)}
		}
		raw = string(fixed)
		warn = &Diagnostic{where, "NaN or Infinity is not JSON; translated with null in its place"}
	}
	root := gjson.Parse(raw)
	if !root.IsObject() {
		return nil, nil, &Diagnostic{where, "not a JSON object"}
	}
	ev = &event{raw: raw, where: where}
	root.ForEach(func(k, v gjson.Result) bool {
		ev.set(k.Str, v) // the last of duplicate keys wins, as in Go and Python
		return true
	})
	typ := ev.get("type")
	if typ.Type != gjson.String {
		return nil, nil, &Diagnostic{where, `no string "type" field`}
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
	if t.opt.From != Auto && !ev.prefix && ev.kind != t.opt.From && !(t.opt.From == Zero1 && ev.kind == Zero) {
		if t.opt.From == Zero {
			return nil, nil, &Diagnostic{where, `no "schemaVersion": not a Zero event (--from zero)`}
		}
		return nil, nil, &Diagnostic{where, `has "schemaVersion": a Zero event, not EvoScientist (--from evosci)`}
	}
	if ev.kind == Zero {
		if d := checkZeroFields(ev); d != nil {
			return nil, nil, d
		}
		switch sv.Raw {
		case "2":
		case "1":
			t.upgrade(ev)
		default:
			if !sv.Exists() {
				return nil, nil, &Diagnostic{where, `Zero event without "schemaVersion"`}
			}
			return nil, nil, &Diagnostic{where, fmt.Sprintf("unknown schemaVersion %s (zevo knows 1 and 2)", sv.Raw)}
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

// replaceNonFinite replaces Python's bare NaN, Infinity and -Infinity
// outside strings with null. ok is false when there were none.
func replaceNonFinite(b []byte) (out []byte, ok bool) {
	last := 0
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
			continue
		}
		for _, tok := range nonFinite {
			if bytes.HasPrefix(b[i:], tok) {
				out = append(out, b[last:i]...)
				out = append(out, "null"...)
				last = i + len(tok)
				i = last - 1
				break
			}
		}
	}
	if last == 0 {
		return nil, false
	}
	return append(out, b[last:]...), true
}

var nonFinite = [][]byte{[]byte("NaN"), []byte("-Infinity"), []byte("Infinity")}

// upgrade turns a Zero v1 event into v2: violation → block (a block already
// there wins), block codes renamed.
func (t *Translator) upgrade(ev *event) {
	v := t.tables.Versions
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
// no counterpart (written or not per policy).
func (t *Translator) dispatch(ev *event) (unmapped bool, err error) {
	switch {
	case t.opt.To == EvoSci && ev.kind == Zero:
		return t.zeroToEvo(ev)
	case t.opt.To == EvoSci:
		return false, t.evoToEvo(ev)
	case ev.kind == EvoSci:
		return t.evoToZero(ev)
	default:
		return t.zeroToZero(ev)
	}
}

// End closes what the input left open (a run without its end). Call it at
// the end of each input file.
func (t *Translator) End(name string) error {
	if t.opt.To == EvoSci {
		return t.endEvoRun(true)
	}
	return t.endZeroRun()
}

// write emits the event built in t.ob.
func (t *Translator) write() error {
	if t.ob.err != nil {
		return t.ob.err
	}
	t.line = t.ob.appendTo(t.line[:0])
	t.stats.Written++
	return t.emit(t.line)
}

func (t *Translator) newRunID() string {
	t.toZero.runs++
	if t.opt.RunID != "" {
		if t.toZero.runs == 1 {
			return t.opt.RunID
		}
		return fmt.Sprintf("%s.%d", t.opt.RunID, t.toZero.runs)
	}
	var r [3]byte
	_, _ = io.ReadFull(t.opt.Rand, r[:])
	return "run_" + t.opt.Now().UTC().Format("20060102150405") + "_" + hex.EncodeToString(r[:])
}

// typeErr checks that v, when present and not null, has the JSON type want.
func typeErr(ev *event, key string, v gjson.Result, want string) *Diagnostic {
	if !v.Exists() || v.Type == gjson.Null || want == "" {
		return nil
	}
	ok := false
	switch want {
	case "string":
		ok = v.Type == gjson.String
	case "boolean":
		ok = v.Type == gjson.True || v.Type == gjson.False
	case "number":
		ok = v.Type == gjson.Number
	case "integer":
		ok = v.Type == gjson.Number && isInteger(v.Raw)
	case "object":
		ok = v.IsObject()
	case "array":
		ok = v.IsArray()
	}
	if ok {
		return nil
	}
	return ev.diag("%s.%s: want %s, got %s", ev.typ, key, want, jsonType(v))
}

func isInteger(raw string) bool {
	return raw != "" && !strings.ContainsAny(raw, ".eE")
}

func jsonType(v gjson.Result) string {
	switch {
	case v.Type == gjson.String:
		return "string " + clip(v.Raw)
	case v.Type == gjson.Number:
		return "number " + clip(v.Raw)
	case v.Type == gjson.True || v.Type == gjson.False:
		return "boolean " + v.Raw
	case v.IsArray():
		return "array"
	case v.IsObject():
		return "object"
	}
	return "null"
}

func clip(s string) string {
	if len(s) > 32 {
		return s[:29] + "..."
	}
	return s
}

// check validates several fields at once.
func check(ev *event, spec ...string) *Diagnostic {
	for i := 0; i+1 < len(spec); i += 2 {
		if d := typeErr(ev, spec[i], ev.get(spec[i]), spec[i+1]); d != nil {
			return d
		}
	}
	return nil
}

// applyRule writes a table rule's renamed fields and constants.
func (t *Translator) applyRule(ev *event, r *mappings.Rule, omitEmpty bool) error {
	for _, f := range r.Fields {
		v := ev.lookup(f.From)
		if d := typeErr(ev, f.From, v, f.Type); d != nil {
			return d
		}
		if omitEmpty {
			t.ob.rawOmit(f.To, v)
		} else if v.Exists() {
			t.ob.raw(f.To, v.Raw)
		}
	}
	for _, c := range r.Const {
		t.ob.raw(c.Key, c.Raw)
	}
	return nil
}

// keepFields writes every field of ev but those named.
func (t *Translator) keepFields(ev *event, skip ...string) {
next:
	for _, f := range ev.fields {
		for _, s := range skip {
			if f.key == s {
				continue next
			}
		}
		t.ob.raw(f.key, f.val.Raw)
	}
}
