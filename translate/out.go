package translate

import (
	"slices"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/redact"
)

// out builds one output event: fields are rendered into an arena as they
// are added, then written sorted by key (Zero) or in the order added
// (EvoScientist, whose producer writes "type" first).
type out struct {
	st     jsonl.Style
	rd     *redact.Redactor
	sorted bool
	kv     []kvPos
	arena  []byte
	err    error
}

type kvPos struct {
	key        string
	start, end int
	ext        string // the value when it is copied as it is from the input
}

func (o *out) reset(st jsonl.Style, rd *redact.Redactor, sorted bool) {
	o.st, o.rd, o.sorted = st, rd, sorted
	o.kv = o.kv[:0]
	o.arena = o.arena[:0]
	o.err = nil
}

func (o *out) put(key string, start int) {
	o.kv = append(o.kv, kvPos{key: key, start: start, end: len(o.arena)})
}

// bigValue is the size from which a value is checked for being copied as
// it is: the check is one more pass over the value.
var bigValue = 1 << 20 // a variable for tests

// raw adds a JSON value copied from the input, restyled and redacted.
func (o *out) raw(key string, raw string) {
	if raw == "" { // an absent gjson value: nothing to copy
		return
	}
	b := unsafe.Slice(unsafe.StringData(raw), len(raw))
	if len(raw) >= bigValue && jsonl.Unchanged(b, o.st, o.rd) {
		// A large value the output keeps as it is: refer to it, so that
		// memory holds it twice (input, output line), not three times.
		o.kv = append(o.kv, kvPos{key: key, ext: raw})
		return
	}
	start := len(o.arena)
	// Room for the value as it is, so that a large one is not copied
	// again and again while the arena grows.
	o.arena = slices.Grow(o.arena, len(raw)+16)
	var err error
	// AppendValue only reads raw: no copy of what may be a large value.
	o.arena, err = jsonl.AppendValue(o.arena, b, o.st, o.rd)
	if err != nil {
		if o.err == nil {
			o.err = err
		}
		o.arena = o.arena[:start]
		return
	}
	o.put(key, start)
}

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
	if o.rd != nil {
		s = o.rd.String(s)
	}
	start := len(o.arena)
	o.arena = jsonl.AppendString(o.arena, s, o.st)
	o.put(key, start)
}

// strOmit adds s unless it is empty.
func (o *out) strOmit(key, s string) {
	if s != "" {
		o.str(key, s)
	}
}

// lit adds a JSON literal written by zevo itself (numbers, booleans).
func (o *out) lit(key, lit string) {
	start := len(o.arena)
	o.arena = append(o.arena, lit...)
	o.put(key, start)
}

func (o *out) int(key string, n int64) {
	start := len(o.arena)
	o.arena = jsonl.AppendInt(o.arena, n)
	o.put(key, start)
}

func (o *out) bool(key string, b bool) {
	if b {
		o.lit(key, "true")
	} else {
		o.lit(key, "false")
	}
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
	switch {
	case o.sorted && len(o.kv) > 16:
		// an event passed through may have any number of fields
		slices.SortStableFunc(o.kv, func(a, b kvPos) int { return strings.Compare(a.key, b.key) })
	case o.sorted:
		// insertion sort: a dozen keys as a rule, and no allocation
		for i := 1; i < len(o.kv); i++ {
			for j := i; j > 0 && o.kv[j].key < o.kv[j-1].key; j-- {
				o.kv[j], o.kv[j-1] = o.kv[j-1], o.kv[j]
			}
		}
	}
	sep, colon := ",", ":"
	if o.st == jsonl.PythonStyle {
		sep, colon = ", ", ": "
	}
	dst = append(dst, '{')
	for i, kv := range o.kv {
		if i > 0 {
			dst = append(dst, sep...)
		}
		dst = jsonl.AppendString(dst, kv.key, o.st)
		dst = append(dst, colon...)
		if kv.ext != "" {
			dst = append(dst, kv.ext...)
		} else {
			dst = append(dst, o.arena[kv.start:kv.end]...)
		}
	}
	return append(dst, '}')
}
