// Package translate converts EvoScientist and Zero stream-json into each
// other, one line at a time, with the run framing, id correlation and
// redaction the target's clients expect.
package translate

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
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

	pre       preparer
	placeName string
	placeNum  int
	cur       prepared           // the line being translated by Line, reused
	names     map[typeKey]string // see unmappedName
	batches   []*batch           // Stream's, reused from one input to the next
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
	t.pre = preparer{from: opt.From, tables: opt.Tables}
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
	lens   uint64         // a bit per key length (mod 64): a key whose bit is clear is absent
	index  map[string]int // key → position in fields, once there are many
	raw    string         // the line (valid until the next line)
	name   string         // input name and line number, for diagnostics
	num    int
}

// field is one top-level member. A string value with escapes is decoded
// (val.Str) only when get asks for it: values that are only copied to the
// output never need it.
type field struct {
	key     string
	val     gjson.Result
	pending bool // val.Str not decoded yet
}

func (e *event) where() string { return e.name + ":" + strconv.Itoa(e.num) }

// indexAfter is the number of fields from which an event indexes its
// keys: a line may hold a million of them, and finding each by a scan
// would take quadratic time.
const indexAfter = 32

// find returns the position of key in fields, or -1.
func (e *event) find(key string) int {
	if e.lens&(1<<(len(key)&63)) == 0 {
		return -1
	}
	if e.index != nil {
		if i, ok := e.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range e.fields {
		if e.fields[i].key == key {
			return i
		}
	}
	return -1
}

// get returns the value of a top-level key, decoded.
func (e *event) get(key string) gjson.Result {
	i := e.find(key)
	if i < 0 {
		return gjson.Result{}
	}
	f := &e.fields[i]
	if f.pending {
		f.val.Str = gjson.Parse(f.val.Raw).Str
		f.pending = false
	}
	return f.val
}

// peek returns the value of a top-level key for its Type and Raw only: the
// Str of a string with escapes may be missing.
func (e *event) peek(key string) gjson.Result {
	if i := e.find(key); i >= 0 {
		return e.fields[i].val
	}
	return gjson.Result{}
}

// lookup resolves a table's source path, a top-level name or gjson syntax,
// for its Type and Raw (as peek).
func (e *event) lookup(path string) gjson.Result {
	if strings.ContainsAny(path, ".*?|#@\\") {
		return gjson.Get(e.raw, path)
	}
	return e.peek(path)
}

func (e *event) set(key string, v gjson.Result) {
	e.setField(field{key: key, val: v})
}

func (e *event) setField(f field) {
	if i := e.find(f.key); i >= 0 {
		e.fields[i] = f
		return
	}
	e.lens |= 1 << (len(f.key) & 63)
	e.fields = append(e.fields, f)
	switch {
	case e.index != nil:
		e.index[f.key] = len(e.fields) - 1
	case len(e.fields) > indexAfter:
		e.reindex()
	}
}

func (e *event) reindex() {
	e.index = make(map[string]int, len(e.fields))
	for i, f := range e.fields {
		e.index[f.key] = i
	}
}

func (e *event) del(key string) {
	if i := e.find(key); i >= 0 {
		e.fields = append(e.fields[:i], e.fields[i+1:]...)
		if e.index != nil {
			e.reindex()
		}
	}
}

func (e *event) diag(format string, a ...any) *Diagnostic {
	return &Diagnostic{Where: e.where(), Msg: fmt.Sprintf(format, a...)}
}

// Line translates one input line. It returns a *Diagnostic for a bad line
// (the caller reports it and goes on, or stops), or the error of emit.
func (t *Translator) Line(l jsonl.Line) error {
	t.pre.prepare(l, &t.cur)
	return t.apply(&t.cur)
}

// decode prepares a line as Line does, for tests.
func (t *Translator) decode(l jsonl.Line) (*event, *Diagnostic, *Diagnostic) {
	return t.pre.decode(l, &t.cur.ev)
}

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

// Place returns the input name and line number of the line being
// translated (the last one, during End).
func (t *Translator) Place() (name string, num int) { return t.placeName, t.placeNum }

// apply translates a prepared line: the rest of Line.
func (t *Translator) apply(p *prepared) error {
	t.stats.Lines++
	t.placeName, t.placeNum = p.name, p.num
	if p.blank {
		t.stats.Blank++
		return nil
	}
	ev, warn, bad := &p.ev, p.warn, p.bad
	if bad != nil {
		t.stats.Diagnosed++
		return bad
	}
	unmapped, err := t.dispatch(ev)
	if err != nil {
		var d *Diagnostic // declared here: it escapes, and costs an allocation
		if errors.As(err, &d) {
			t.stats.Diagnosed++
		}
		return err
	}
	switch {
	case warn != nil:
		t.stats.Diagnosed++
		return warn
	case unmapped:
		if t.opt.Unmapped == Error {
			t.stats.Diagnosed++
			return ev.diag("%s event %s has no %s counterpart (--unmapped error)", ev.kind, clip(strconv.Quote(ev.typ)), t.opt.To)
		}
		t.stats.Unmapped++
		t.countUnmapped(t.unmappedName(ev))
	default:
		t.stats.Mapped++
	}
	return nil
}

// typeKey names a source event type.
type typeKey struct {
	kind Format
	typ  string
}

// unmappedName is "zero.TYPE" or "evosci.TYPE", made once per type.
func (t *Translator) unmappedName(ev *event) string {
	if n, ok := t.names[typeKey{ev.kind, ev.typ}]; ok {
		return n
	}
	name := "evosci." + ev.typ
	if ev.kind == Zero {
		name = "zero." + ev.typ
	}
	if t.names == nil {
		t.names = map[typeKey]string{}
	}
	if len(t.names) < 1024 {
		t.names[typeKey{ev.kind, strings.Clone(ev.typ)}] = name
	}
	return name
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
	t.line = t.ob.appendTo(slices.Grow(t.line[:0], t.ob.size()))
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

func clip(s string) string { return clipTo(s, 32) }

// clipTo shortens s to at most max bytes, "..." included, cutting between
// characters.
func clipTo(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max - 3
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// maxUnmappedTypes bounds the types the summary names one by one, so that a
// stream of ever new types cannot grow memory or the summary line; the
// rest are counted together.
const (
	maxUnmappedTypes = 100
	otherTypes       = "(other types)"
)

func (t *Translator) countUnmapped(name string) {
	name = clipTo(name, 80)
	if _, ok := t.stats.UnmappedTypes[name]; !ok && len(t.stats.UnmappedTypes) >= maxUnmappedTypes {
		name = otherTypes
	}
	t.stats.UnmappedTypes[name]++
}

// check validates several fields at once.
func check(ev *event, spec ...string) *Diagnostic {
	for i := 0; i+1 < len(spec); i += 2 {
		if d := typeErr(ev, spec[i], ev.peek(spec[i]), spec[i+1]); d != nil {
			return d
		}
	}
	return nil
}

// zeroValues are the JSON zero values of the table's field types.
var zeroValues = map[string]string{"string": `""`, "integer": "0", "number": "0", "boolean": "false", "array": "[]", "object": "{}"}

// applyRule writes a table rule's renamed fields and constants.
func (t *Translator) applyRule(ev *event, r *mappings.Rule, omitEmpty bool) error {
	for _, f := range r.Fields {
		v := ev.lookup(f.From)
		if d := typeErr(ev, f.From, v, f.Type); d != nil {
			return d
		}
		switch {
		case omitEmpty:
			t.ob.rawOmit(f.To, v)
		case v.Exists() && v.Type != gjson.Null:
			t.ob.raw(f.To, v.Raw)
		case zeroValues[f.Type] != "":
			// Zero omits empty fields (omitempty): absent means the zero
			// value, which the target's clients expect to find.
			t.ob.raw(f.To, zeroValues[f.Type])
		case v.Exists():
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

// Interrupt ends the output of an interrupted translation as the target's
// producer ends an interrupted run: a Zero run still open gets Zero's
// error "interrupted" and run_end "interrupted" (exit code 130); an
// EvoScientist run cancelled by Ctrl-C ends with nothing, so nothing is
// written.
func (t *Translator) Interrupt() error {
	if t.opt.To == EvoSci || !t.toZero.active {
		return nil
	}
	t.headZero("error")
	t.ob.str("code", "interrupted")
	t.ob.str("message", "run cancelled by signal")
	t.ob.lit("recoverable", "false")
	if err := t.write(); err != nil {
		return err
	}
	return t.closeZeroRun("interrupted", 130)
}
