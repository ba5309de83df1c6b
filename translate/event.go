package translate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

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
