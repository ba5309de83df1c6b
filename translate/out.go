package translate

import (
	"encoding/binary"
	"slices"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
	"github.com/zevo/zevo/redact"
)

// out builds one output event. Every key and value goes through it: each
// is written in the target producer's style and through redaction (a
// sensitive key's value becomes the marker whatever wrote it), and, when
// shape is set, only what the target's own types can hold is kept. Fields
// are rendered into an arena as they are added, then written sorted by key
// (Zero, whose producer re-marshals a map) or in the order added
// (EvoScientist, whose producer writes "type" first).
type out struct {
	st     jsonl.Style
	rd     *redact.Redactor
	sorted bool
	kv     []kvPos
	arena  []byte
	err    error
	kid    *out // the builder of nested objects, reused
	lst    list // the builder of an array, reused: a list made per array escaped to the heap
	inList bool // lst is in use (an array filled while another of o's is)

	// shape, when not nil, holds the fields the target's event type may
	// carry: any other is dropped and reported to drop.
	shape *shape
	path  string // the event type (and field path, nested), for drop
	drop  func(path string)
	// keys, when not nil, remembers what shape and the redactor say of
	// each key (the top level of an event only).
	keys *keyCache
	// ahead are the values of the event being translated that were
	// rendered ahead (ahead.go); reset leaves them, dispatch sets them.
	ahead    []ahead
	aheadBuf []byte
	// bigValue is the size from which a value is checked for being
	// copied as it is: the check is one more pass over the value.
	bigValue int
}

// keyInfo is what the builder needs to know of a key.
type keyInfo struct {
	sensitive bool // redaction replaces its value
	plain     bool // written as it is between quotes, in both styles
	known     bool // the shape has it
	field     fieldShape
}

// keyCache remembers the keyInfo of the keys of one translator's events:
// a handful of names as a rule, each looked up on every event, first in
// slots by a cheap hash, then in m.
type keyCache struct {
	slots [64]keySlot
	m     map[string]keySlot
	shape *shape
	rd    bool
}

type keySlot struct {
	key string // a copy: keys may be views of a line
	ki  keyInfo
}

// maxKeyCache bounds the cache: events with ever new keys cannot grow it.
const maxKeyCache = 4096

func (c *keyCache) get(key string) keyInfo {
	h := nameHash(key)
	// An empty slot answers for the empty key, rightly: no shape or
	// redaction rule names it.
	if s := &c.slots[h]; s.key == key {
		return s.ki
	}
	s, ok := c.m[key]
	if !ok {
		s = keySlot{key, lookupKey(key, c.shape, c.rd)}
		if len(c.m) >= maxKeyCache {
			return s.ki
		}
		if c.m == nil {
			c.m = map[string]keySlot{}
		}
		s.key = strings.Clone(key)
		c.m[s.key] = s
	}
	c.slots[h] = s
	return s.ki
}

func lookupKey(key string, sh *shape, rd bool) keyInfo {
	var ki keyInfo
	ki.sensitive = rd && redact.SensitiveKey(key)
	// Not for "": keyCache's empty slots answer for it.
	ki.plain = key != "" && jsonl.PlainString(key)
	if sh != nil {
		ki.field, ki.known = sh.fields[key]
		if sh.values != nil {
			ki.field, ki.known = *sh.values, true
		}
	}
	return ki
}

func (o *out) info(key string) keyInfo {
	switch {
	case o.rd == nil && o.shape == nil:
		return keyInfo{}
	case o.keys != nil:
		return o.keys.get(key)
	}
	return lookupKey(key, o.shape, o.rd != nil)
}

type kvPos struct {
	key        string
	start, end int
	plain      bool   // key needs no escape: see keyInfo
	ext        string // the value when it is referred to, not copied: a large one as it is in the input
}

func (o *out) reset(st jsonl.Style, rd *redact.Redactor, sorted bool) {
	o.st, o.rd, o.sorted = st, rd, sorted
	o.kv = o.kv[:0]
	o.arena = o.arena[:0]
	o.err = nil
	o.shape, o.path, o.drop, o.keys = nil, "", nil, nil
}

// child returns the builder of a nested object, in o's style.
func (o *out) child() *out {
	if o.kid == nil {
		o.kid = &out{}
	}
	o.kid.reset(o.st, o.rd, o.sorted)
	o.kid.bigValue = o.bigValue
	return o.kid
}

func (o *out) fail(err error) {
	if o.err == nil {
		o.err = err
	}
}

// put records the value rendered from start as key's. A sensitive key's
// value is replaced by the marker, as Zero does.
func (o *out) put(key string, ki keyInfo, start int) {
	if ki.sensitive {
		o.arena = append(o.arena[:start], `"`+redact.Marker+`"`...)
	}
	o.kv = append(o.kv, kvPos{key: key, plain: ki.plain, start: start, end: len(o.arena)})
}

// refer records v, a rendered value that outlives the event's writing,
// as key's without copying it into the arena (key not sensitive).
func (o *out) refer(key string, ki keyInfo, v string) {
	o.kv = append(o.kv, kvPos{key: key, plain: ki.plain, ext: v})
}

// admit reports whether the target may hold v under key, counting what it
// drops.
func (o *out) admit(key string, ki keyInfo, v gjson.Result) bool {
	if o.shape == nil {
		return true
	}
	if !ki.known || !ki.field.holds(v) {
		o.drop(o.path + "." + key)
		return false
	}
	return true
}

// raw adds a JSON value copied from the input, restyled and redacted.
func (o *out) raw(key string, raw string) {
	if raw == "" { // an absent gjson value: nothing to copy
		return
	}
	ki := o.info(key)
	if o.shape != nil {
		if !o.admit(key, ki, gjson.Result{Type: rawType(raw), Raw: raw}) {
			return
		}
		if sub := ki.field.sub; sub != nil && raw[0] == '{' && !sub.fits(gjson.Parse(raw)) {
			o.object(key, func(c *out) { c.fitted(gjson.Parse(raw), sub, o.path+"."+key, o.drop) })
			return
		}
	}
	if r, ok := o.renderedAhead(raw); ok {
		if ki.sensitive {
			o.put(key, ki, len(o.arena))
		} else {
			o.refer(key, ki, unsafe.String(unsafe.SliceData(r), len(r))) // it lasts as long as the event
		}
		return
	}
	b := unsafe.Slice(unsafe.StringData(raw), len(raw))
	if len(raw) >= o.bigValue && !ki.sensitive && jsonl.Unchanged(b, o.st, o.rd) {
		// A large value the output keeps as it is: refer to it, so that
		// memory holds it twice (input, output line), not three times.
		o.refer(key, ki, raw)
		return
	}
	start := len(o.arena)
	if err := o.appendRaw(b); err != nil {
		o.fail(err)
		return
	}
	o.put(key, ki, start)
}

// appendRaw renders a JSON value copied from the input onto the arena.
func (o *out) appendRaw(b []byte) error {
	start := len(o.arena)
	// Room for the value as it is, so that a large one is not copied
	// again and again while the arena grows.
	o.arena = slices.Grow(o.arena, len(b)+16)
	var err error
	// AppendValue only reads b: no copy of what may be a large value.
	o.arena, err = jsonl.AppendValue(o.arena, b, o.st, o.rd)
	if err != nil {
		o.arena = o.arena[:start]
	}
	return err
}

// fitted adds the members of obj that sh admits, dropping the others.
func (o *out) fitted(obj gjson.Result, sh *shape, path string, drop func(string)) {
	o.shape, o.path, o.drop = sh, path, drop
	obj.ForEach(func(k, v gjson.Result) bool {
		o.raw(k.Str, v.Raw)
		return true
	})
}

// rawType is the gjson type of a raw JSON value, from its first byte.
func rawType(raw string) gjson.Type { return protocol.TypeOf(raw[0]) }

// rawOmit adds raw unless it is an empty string, false or null: Zero's
// omitempty.
func (o *out) rawOmit(key string, v gjson.Result) {
	if !v.Exists() || v.Type == gjson.Null || v.Type == gjson.False || (v.Type == gjson.String && v.Raw == `""`) {
		return
	}
	o.raw(key, v.Raw)
}

// str adds a string value (redacted when the output is).
func (o *out) str(key, s string) {
	ki := o.info(key)
	if !o.admit(key, ki, gjson.Result{Type: gjson.String}) {
		return
	}
	start := len(o.arena)
	o.arena = o.appendStr(o.arena, s)
	o.put(key, ki, start)
}

func (o *out) appendStr(dst []byte, s string) []byte {
	if o.rd != nil {
		s = o.rd.String(s)
	}
	return jsonl.AppendString(dst, s, o.st)
}

// rendered adds a string value already written in o's style and redacted.
func (o *out) rendered(key string, r []byte) {
	ki := o.info(key)
	if !o.admit(key, ki, gjson.Result{Type: gjson.String}) {
		return
	}
	start := len(o.arena)
	o.arena = append(o.arena, r...)
	o.put(key, ki, start)
}

// strOmit adds s unless it is empty.
func (o *out) strOmit(key, s string) {
	if s != "" {
		o.str(key, s)
	}
}

func (o *out) int(key string, n int64) {
	ki := o.info(key)
	if !o.admit(key, ki, gjson.Result{Type: gjson.Number, Raw: "0"}) {
		return
	}
	start := len(o.arena)
	o.arena = jsonl.AppendInt(o.arena, n)
	o.put(key, ki, start)
}

func (o *out) bool(key string, b bool) {
	ki := o.info(key)
	if !o.admit(key, ki, gjson.Result{Type: gjson.False}) {
		return
	}
	start := len(o.arena)
	if b {
		o.arena = append(o.arena, "true"...)
	} else {
		o.arena = append(o.arena, "false"...)
	}
	o.put(key, ki, start)
}

// object adds a nested object that fill builds, keys and values written
// as the top level's.
func (o *out) object(key string, fill func(c *out)) {
	ki := o.info(key)
	if !o.admit(key, ki, gjson.Result{Type: gjson.JSON, Raw: "{}"}) {
		return
	}
	c := o.child()
	fill(c)
	if c.err != nil {
		o.fail(c.err)
		return
	}
	start := len(o.arena)
	o.arena = c.appendTo(o.arena)
	o.put(key, ki, start)
}

// array adds a JSON array whose elements fill adds.
func (o *out) array(key string, fill func(l *list)) {
	ki := o.info(key)
	if !o.admit(key, ki, gjson.Result{Type: gjson.JSON, Raw: "[]"}) {
		return
	}
	start := len(o.arena)
	o.arena = append(o.arena, '[')
	l := &o.lst
	if o.inList {
		l = &list{}
	} else {
		o.inList = true
		defer func() { o.inList = false }()
	}
	*l = list{o: o}
	fill(l)
	o.arena = append(o.arena, ']')
	o.put(key, ki, start)
}

// list adds the elements of an array being built by out.array.
type list struct {
	o *out
	n int
}

func (l *list) next() {
	if l.n > 0 {
		l.o.arena = append(l.o.arena, ',')
		if l.o.st == jsonl.PythonStyle {
			l.o.arena = append(l.o.arena, ' ')
		}
	}
	l.n++
}

func (l *list) str(s string) {
	l.next()
	l.o.arena = l.o.appendStr(l.o.arena, s)
}

func (l *list) object(fill func(c *out)) {
	l.next()
	c := l.o.child()
	fill(c)
	if c.err != nil {
		l.o.fail(c.err)
		l.o.arena = append(l.o.arena, "{}"...)
		return
	}
	l.o.arena = c.appendTo(l.o.arena)
}

// has reports whether key was added.
func (o *out) has(key string) bool {
	for _, kv := range o.kv {
		if kv.key == key {
			return true
		}
	}
	return false
}

// size is about the length of the event written by appendTo.
func (o *out) size() int {
	n := len(o.arena) + 2
	for _, kv := range o.kv {
		n += len(kv.key) + len(kv.ext) + 6
	}
	return n
}

// appendTo writes the event as one JSON object.
func (o *out) appendTo(dst []byte) []byte {
	// The order to write the fields in: as added, or sorted by key.
	var ordBuf [16]uint8
	ord := ordBuf[:0]
	for i := range min(len(o.kv), len(ordBuf)) {
		ord = append(ord, uint8(i))
	}
	switch {
	case o.sorted && len(o.kv) > len(ordBuf):
		// an event passed through may have any number of fields
		slices.SortStableFunc(o.kv, func(a, b kvPos) int { return strings.Compare(a.key, b.key) })
	case o.sorted:
		// insertion sort of positions: a dozen keys as a rule, no
		// allocation, and a byte moved for each step, not a field;
		// keys compared by their first 8 bytes as a number first
		var pfx [16]uint64
		for i := range ord {
			pfx[i] = keyPrefix(o.kv[i].key)
		}
		less := func(a, b uint8) bool {
			if pfx[a] != pfx[b] {
				return pfx[a] < pfx[b]
			}
			return o.kv[a].key < o.kv[b].key
		}
		for i := 1; i < len(ord); i++ {
			for j := i; j > 0 && less(ord[j], ord[j-1]); j-- {
				ord[j], ord[j-1] = ord[j-1], ord[j]
			}
		}
	}
	sep, colon := ",", ":"
	if o.st == jsonl.PythonStyle {
		sep, colon = ", ", ": "
	}
	dst = append(dst, '{')
	for i := range o.kv {
		kv := &o.kv[i]
		if len(o.kv) <= len(ordBuf) {
			kv = &o.kv[ord[i]]
		}
		if i > 0 {
			dst = append(dst, sep...)
		}
		if kv.plain {
			dst = append(dst, '"')
			dst = append(dst, kv.key...)
			dst = append(dst, '"')
		} else {
			dst = jsonl.AppendString(dst, kv.key, o.st)
		}
		dst = append(dst, colon...)
		if kv.ext != "" {
			dst = append(dst, kv.ext...)
		} else {
			dst = append(dst, o.arena[kv.start:kv.end]...)
		}
	}
	return append(dst, '}')
}

// keyPrefix is the first 8 bytes of key as a big-endian number, zeros
// after a shorter key: keys whose prefixes differ sort as their prefixes.
func keyPrefix(key string) uint64 {
	var b [8]byte
	copy(b[:], key)
	return binary.BigEndian.Uint64(b[:])
}

// typeOut is typ as written in style st, redacted: rendered once for each
// of the few event types a stream has.
func (t *Translator) typeOut(typ string, st jsonl.Style) []byte {
	m := &t.typesOut[st]
	if r, ok := (*m)[typ]; ok {
		return r
	}
	r := jsonl.AppendString(nil, t.redacted(typ), st)
	if len(*m) < maxTypesOut {
		if *m == nil {
			*m = map[string][]byte{}
		}
		(*m)[strings.Clone(typ)] = r
	}
	return r
}

// maxTypesOut bounds typeOut's memory: kept events of ever new types
// cannot grow it.
const maxTypesOut = 256
