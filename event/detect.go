package event

import (
	"bytes"
	"math/bits"
	"strconv"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// Detector tells each line's dialect among a list, for one input: a line
// one dialect is sure of is that dialect's; a line several dialects may
// write belongs to the dialect of the input's lines before it, when that
// is one of them, else to the first in the list that says Maybe (the
// list's order is the registry's: the older dialects first).
type Detector struct {
	dialects []*Dialect
	last     *Dialect
	line     Line // the line being detected
}

// NewDetector detects among dialects, in their order of precedence.
func NewDetector(dialects []*Dialect) *Detector { return &Detector{dialects: dialects} }

// Detect returns line's dialect, or nil when no dialect writes it. The
// dialects share one Line: what it reads of the line, it reads once.
func (d *Detector) Detect(line []byte) *Dialect {
	d.line.Reset(line)
	return d.detect(&d.line)
}

// detect is Detect of a line read already (the Input's, which its
// decoder reads next).
func (d *Detector) detect(l *Line) *Dialect {
	var first *Dialect
	lastMaybe := false
	for _, dl := range d.dialects {
		switch dl.DetectLine(l) {
		case Sure:
			d.last = dl
			return dl
		case Maybe:
			if first == nil {
				first = dl
			}
			if dl == d.last {
				lastMaybe = true
			}
		}
	}
	if lastMaybe {
		return d.last
	}
	if first != nil {
		d.last = first
	}
	return first
}

// Line is one line as a Detector reads it for every dialect it asks,
// and as their decoders read it: its top-level fields, found in one pass
// that goes as far as the questions need. Every input asks every dialect
// about every line, and a lookup of a field a line lacks reads the whole
// line to find nothing: six dialects would read most lines several
// times, and a decoder's every field once more. Check reads the whole
// line once, checking it too. Every lookup answers as gjson does on the
// whole line (TestLineReadsAsGJSON holds it to that).
type Line struct {
	Bytes  []byte
	fields jsonl.Members // the fields read so far, in their order
	pos    int           // where the next field starts
	state  int8          // reading, done, or gjson's
	typed  int8          // 0: the type not read yet; 1: a string, typ; 2: not one
	typ    string
	valid  int8   // 0: not checked; 1: Check found a good object; 2: not one
	dup    int8   // 0: Dup not asked yet; 1: a key written twice; 2: none
	s      string // the line as a string, for the values read from it (str)
	// lens has a bit for each field's key length (mod 64) once all the
	// fields are read (done): a key whose bit is clear is not there.
	lens uint64
	// keys has a bit for each field's key by jsonl.KeyBit, once all the fields
	// are read: as many bits as fields tells Dup no key is written twice
	// without comparing keys (lens alone cannot: "type", "name" and
	// "args" share a length).
	keys uint64
	// owned: Bytes is never written again (Input.LineOwned), so the
	// strings read from the line share its memory, with no copy of
	// their own.
	owned bool
	// arena, when set (Input.AppendLine's), is where strings with
	// escapes are unescaped: blocks never written again once handed out.
	arena *[]byte
	// surrogates: see DecodeOptions.Surrogates.
	surrogates bool
}

// arenaBlock is the size of an arena's blocks; a longer string than a
// quarter of one takes memory of its own.
const arenaBlock = 32 << 10

const (
	reading int8 = iota // fields holds the fields up to pos
	done                // fields holds them all: the line is one object
	// gjsons: the line is not one well-formed object, or it escapes a
	// key: every lookup is gjson's on the line.
	gjsons
)

type field = jsonl.Member

// ReadLine starts reading line.
func ReadLine(line []byte) Line { return Line{Bytes: line} }

// PlainLine is line read the reference way, plain gjson: every lookup is
// gjson's on the whole line. Tests hold Line's one-pass reading to it.
func PlainLine(line []byte) Line { return Line{Bytes: line, state: gjsons} }

// Reset starts reading line, keeping the room of the last line's fields
// (unless a line of very many fields made it large).
func (l *Line) Reset(line []byte) {
	// Field by field, not *l = Line{...}: that clears the whole struct
	// through the runtime's pointer-aware clear, for every line read.
	// And fields in place, not through a copy: a struct copied is
	// written to the stack in words and read back in wider loads, which
	// wait for the words (no store forwarding), in every line's read.
	// TestResetForgets holds this to a new Line's zero value.
	if cap(l.fields.List) > 1<<12 {
		l.fields = jsonl.Members{}
	}
	l.fields.List = l.fields.List[:0]
	l.Bytes, l.pos, l.state, l.typed, l.typ = line, 0, reading, 0, ""
	l.valid, l.dup, l.s, l.lens, l.keys = 0, 0, "", 0, 0
	l.owned, l.arena, l.surrogates = false, nil, false
}

// ReadOwned is Reset for a line never written again (Input.AppendChecked):
// the strings read from it share its memory, with no copy of their own.
// The last line's fields are cleared, not only let go: a Line kept for
// a slot of lines holds on to its own line alone.
func (l *Line) ReadOwned(line []byte) {
	clear(l.fields.List) // Reset below forgets the rest
	l.Reset(line)
	l.owned = true
}

// Clear forgets the line, keeping the room of its fields, which hold on
// to none of it.
func (l *Line) Clear() {
	clear(l.fields.List)
	l.Reset(nil)
}

// Check reads the whole line, and reports whether it is one JSON object
// as every command takes one: valid JSON, UTF-8, nested at most
// jsonl.MaxDepth levels. Its fields are read in the same pass. A line
// read as it goes reads as gjson does when it is such an object; a
// checked one reads as gjson does whatever it is (a broken line's every
// lookup is then gjson's), which is what decoders need.
func (l *Line) Check() bool {
	if l.valid == 0 {
		l.valid = 2
		if l.fields.Read(l.Bytes) {
			l.valid = 1
		}
		l.pos = len(l.Bytes)
		if l.state != gjsons {
			l.state = gjsons
			if l.valid == 1 && !l.fields.EscapedKey {
				l.state, l.lens, l.keys = done, l.fields.Lens, l.fields.Keys
			}
		}
		if l.state == gjsons {
			// What was read of a broken line, or of one with an escaped
			// key, is not gjson's reading of it: gjson reads it all.
			l.fields.List, l.typed = l.fields.List[:0], 0
		}
	}
	return l.valid == 1
}

// IsObject reports a line that begins as an object, as
// gjson.ParseBytes(line).IsObject() does.
func (l *Line) IsObject() bool {
	for _, c := range l.Bytes {
		if c > ' ' {
			return c == '{'
		}
	}
	return false
}

// str is the line as a string: one copy for all the values read from it,
// which outlive the line's buffer.
func (l *Line) str() string {
	if l.s == "" && l.owned {
		l.s = unsafe.String(unsafe.SliceData(l.Bytes), len(l.Bytes))
	}
	if l.s == "" {
		l.s = string(l.Bytes)
	}
	return l.s
}

// value is a field's value, read from str. The strings of a checked line
// are valid JSON, and unescaped as gjson would without its slow path.
func (l *Line) value(f *field) gjson.Result {
	start := cap(l.Bytes) - cap(f.Value) // f.Value is a slice of Bytes
	raw := l.str()[start : start+len(f.Value)]
	if raw[0] == '"' && len(raw) >= 2 {
		body := raw[1 : len(raw)-1]
		if !l.hasEsc(f) {
			return gjson.Result{Type: gjson.String, Raw: raw, Str: body, Index: start}
		}
		if l.valid == 1 {
			return gjson.Result{Type: gjson.String, Raw: raw, Str: l.unescape(body), Index: start}
		}
	}
	if l.valid == 1 {
		// A checked line's value is valid JSON: its type is its first byte.
		v := gjson.Result{Raw: raw, Index: start}
		switch raw[0] {
		case '{', '[':
			v.Type = gjson.JSON
		case 't':
			v.Type = gjson.True
		case 'f':
			v.Type = gjson.False
		case 'n':
			v.Type = gjson.Null
		default:
			v.Type, v.Num = gjson.Number, number(raw)
		}
		return v
	}
	v := gjson.Parse(raw)
	v.Index = start
	return v
}

// unescape is the text of body, the inside of a valid JSON string with
// escapes, in memory never written again: the arena's, else its own.
func (l *Line) unescape(body string) string {
	a := l.arena
	unescape := jsonl.AppendUnescaped
	if l.surrogates {
		unescape = jsonl.AppendUnescapedKeep
	}
	if a == nil || len(body) > arenaBlock/4 {
		text := unescape(nil, body)
		return unsafe.String(unsafe.SliceData(text), len(text))
	}
	if cap(*a)-len(*a) < len(body) { // the text is never longer than body
		*a = make([]byte, 0, arenaBlock)
	}
	n := len(*a)
	*a = unescape(*a, body)
	return unsafe.String(unsafe.SliceData((*a)[n:]), len(*a)-n)
}

// number is the value of a valid JSON number, as gjson reads it: small
// integers (most) without strconv.
func number(raw string) float64 {
	if len(raw) < 16 {
		n := 0
		for i := 0; i < len(raw); i++ {
			if c := raw[i]; c >= '0' && c <= '9' {
				n = n*10 + int(c-'0')
			} else {
				f, _ := strconv.ParseFloat(raw, 64)
				return f
			}
		}
		return float64(n)
	}
	f, _ := strconv.ParseFloat(raw, 64)
	return f
}

// Type is the line's "type" field, ok when it is a JSON string (then the
// line is an object).
func (l *Line) Type() (typ string, ok bool) {
	if l.typed == 0 {
		l.typed = 2
		var f *field
		if l.checked() {
			// Check's reading found it: no field compared again.
			if i := l.fields.Type; i >= 0 {
				f = &l.fields.List[i]
			}
		} else {
			f = l.find("type")
		}
		if f != nil && len(f.Value) >= 2 && f.Value[0] == '"' && !l.hasEsc(f) {
			// A plain string: as it is, from the line's copy when a
			// checked line is to be decoded, else copied alone.
			if l.typed = 1; l.valid == 1 {
				start := cap(l.Bytes) - cap(f.Value)
				l.typ = l.str()[start+1 : start+len(f.Value)-1]
			} else {
				l.typ = string(f.Value[1 : len(f.Value)-1])
			}
		} else if t := l.Get("type"); t.Type == gjson.String {
			l.typ, l.typed = t.Str, 1
		}
	}
	return l.typ, l.typed == 1
}

// Fields are the line's top-level members as written, when Check has
// read them all and found the line one object with no key escaped (ok):
// for a caller that reads every member (validate's schemas) rather than
// looking each up.
func (l *Line) Fields() (fields []jsonl.Member, ok bool) {
	if !l.checked() {
		return nil, false
	}
	return l.fields.List, true
}

// Has reports a top-level field named key, as gjson.GetBytes(line,
// key).Exists() does of a plain key (no path: a detector's question).
func (l *Line) Has(key string) bool {
	if l.absent(key) { // most of the detectors' questions: told here
		return false
	}
	if l.checked() && l.keys&jsonl.KeyBit(key) == 0 {
		// Most of the others: fields a line lacks whose length some
		// field shares ("session_id", "tool_input").
		return false
	}
	if f := l.find(key); f != nil || l.state != gjsons {
		return f != nil
	}
	return gjson.Get(l.str(), key).Exists()
}

// Get is what gjson.GetBytes(line, path) gives: a path that starts with
// a plain key is read from that top-level field (the first, when the
// line writes it twice).
func (l *Line) Get(path string) gjson.Result {
	if l.checked() {
		// Most lookups: a plain key the line has.
		if f := l.find(path); f != nil && plainKey(path) {
			return l.value(f)
		}
	}
	// The plain key, up to the first '.' (if any).
	n := 0
	for n < len(path) && plainByte[path[n]] {
		n++
	}
	if l.state != gjsons && n > 0 && (n == len(path) || path[n] == '.' && n+1 < len(path)) {
		if f := l.find(path[:n]); f != nil {
			v := l.value(f)
			if n < len(path) {
				if v = v.Get(path[n+1:]); !v.Exists() {
					return gjson.Result{}
				}
			}
			return v
		}
		if l.state != gjsons {
			return gjson.Result{}
		}
	}
	return gjson.Get(l.str(), path)
}

// Str is Get(key)'s Str and Type, for the string fields a decoder reads
// most: a plain string of a checked line is cut from its copy, without
// building the whole Result.
func (l *Line) Str(key string) (string, gjson.Type) {
	if l.typed == 1 && key == "type" { // read for the detectors already
		return l.typ, gjson.String
	}
	if l.checked() { // the fields know their escapes
		if f := l.find(key); f != nil && f.Value[0] == '"' && !f.Esc && plainKey(key) {
			start := cap(l.Bytes) - cap(f.Value)
			return l.str()[start+1 : start+len(f.Value)-1], gjson.String
		}
	}
	v := l.Get(key)
	return v.Str, v.Type
}

// Spelled is the inside of the string field key as the line writes it,
// escapes kept, when the line is checked and that field (the first of
// the name, as Str reads) is a string with escapes (ok); a string
// without escapes is read as cheaply by Str.
func (l *Line) Spelled(key string) (body string, ok bool) {
	if !l.checked() || !plainKey(key) {
		return "", false
	}
	f := l.find(key)
	if f == nil || f.Value[0] != '"' || !f.Esc {
		return "", false
	}
	start := cap(l.Bytes) - cap(f.Value)
	return l.str()[start+1 : start+len(f.Value)-1], true
}

// Kind is Get(key).Type, without reading a string's text: a plain key of
// a checked line is told by its value's first byte.
func (l *Line) Kind(key string) gjson.Type {
	if l.checked() && plainKey(key) {
		f := l.find(key)
		if f == nil {
			return gjson.Null // Get's zero Result
		}
		return TypeOf(f.Value[0])
	}
	return l.Get(key).Type
}

// checked: Check found a good object, and its fields are to be read.
func (l *Line) checked() bool { return l.valid == 1 && l.state == done }

// plainKey: gjson reads path as a key, not as a path.
func plainKey(path string) bool {
	for i := 0; i < len(path); i++ {
		if !plainByte[path[i]] {
			return false
		}
	}
	return true
}

// plainByte are the bytes of a key that gjson reads as they are in a path:
// no wildcard, modifier, escape, query or separator.
var plainByte = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
	}
	return t
}()

// hasEsc reports a string field written with escapes: a checked line's
// fields know it.
func (l *Line) hasEsc(f *field) bool {
	if l.valid == 1 {
		return f.Esc
	}
	return bytes.IndexByte(f.Value, '\\') >= 0
}

// absent: all the fields are read, and none has key's length.
func (l *Line) absent(key string) bool {
	return l.lens&(1<<(len(key)&63)) == 0 && l.state == done
}

// find is the first field named key, reading on as far as it takes; nil
// when the line has none, or is gjson's to read.
func (l *Line) find(key string) *field {
	if l.absent(key) {
		return nil
	}
	fs := l.fields.List
	for i := range fs {
		if k := fs[i].Key; len(k) == len(key) && (len(k) == 0 || k[0] == key[0]) && string(k) == key {
			return &fs[i]
		}
	}
	for l.state == reading {
		if l.next() {
			if f := &l.fields.List[len(l.fields.List)-1]; string(f.Key) == key {
				return f
			}
		}
	}
	return nil
}

// scan reads all the fields; it reports whether the line is one
// well-formed object with no escaped key (its fields read by the Line).
func (l *Line) scan() bool {
	for l.state == reading {
		l.next()
	}
	return l.state == done
}

// next reads the next field, and reports whether there was one.
func (l *Line) next() bool {
	b, i := l.Bytes, l.pos
	if len(l.fields.List) == 0 {
		if i = skipSpace(b, i); i >= len(b) || b[i] != '{' {
			l.state = gjsons
			return false
		}
		i++
	} else if i = skipSpace(b, i); i < len(b) && b[i] == ',' {
		i++
	} else {
		return l.end(i)
	}
	if i = skipSpace(b, i); len(l.fields.List) == 0 && i < len(b) && b[i] == '}' {
		return l.end(i)
	}
	if i >= len(b) || b[i] != '"' {
		l.state = gjsons
		return false
	}
	end := stringEnd(b, i)
	if end < 0 {
		l.state = gjsons
		return false
	}
	key := b[i+1 : end-1]
	if bytes.IndexByte(key, '\\') >= 0 {
		l.state = gjsons // an escaped key: gjson reads it
		return false
	}
	if i = skipSpace(b, end); i >= len(b) || b[i] != ':' {
		l.state = gjsons
		return false
	}
	i = skipSpace(b, i+1)
	vend := valueEnd(b, i)
	if vend < 0 {
		l.state = gjsons
		return false
	}
	l.fields.List = append(l.fields.List, field{Key: key, Value: b[i:vend]})
	l.lens |= 1 << (len(key) & 63)
	l.pos = vend
	return true
}

// end ends the object at b[i], which must be its closing brace and the
// end of the line.
func (l *Line) end(i int) bool {
	b := l.Bytes
	l.state = gjsons
	if i < len(b) && b[i] == '}' && skipSpace(b, i+1) == len(b) {
		l.state = done
	}
	return false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index after the string starting at b[i] (a quote), -1
// when it does not end.
func stringEnd(b []byte, i int) int {
	start := i + 1
	for i = start; ; i++ {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		// The quote ends the string unless an odd number of backslashes
		// comes before it.
		n := 0
		for k := i - 1; k >= start && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return i + 1
		}
	}
}

// valueEnd is the index after the value starting at b[i], -1 when it
// does not end.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end := stringEnd(b, i)
				if end < 0 {
					return -1
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	start := i
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}

// Dup reports a checked line that writes a top-level key more than once.
// The answer is kept: validate and the decoder both ask it of each line.
func (l *Line) Dup() bool {
	if !l.checked() {
		return false
	}
	if l.dup == 0 {
		l.dup = 2
		if l.dupKey() {
			l.dup = 1
		}
	}
	return l.dup == 1
}

// dupKey is Dup's answer, found.
func (l *Line) dupKey() bool {
	fs := l.fields.List
	if bits.OnesCount64(l.keys) == len(fs) { // every key a bit of its own
		return false
	}
	if len(fs) > manyKeys {
		// A set, not every pair: a line of a million keys is read in
		// linear time.
		seen := make(map[string]struct{}, len(fs))
		for i := range fs {
			if _, ok := seen[string(fs[i].Key)]; ok {
				return true
			}
			seen[string(fs[i].Key)] = struct{}{}
		}
		return false
	}
	for i := 1; i < len(fs); i++ {
		for j := 0; j < i; j++ {
			if string(fs[i].Key) == string(fs[j].Key) {
				return true
			}
		}
	}
	return false
}

// manyKeys is the number of keys past which a line's keys are compared
// through a set rather than pair by pair.
const manyKeys = 32

// LastWins is a checked line written with each top-level key once, in
// the order of their first place, with its last value: the object the
// producers' own readers (Go's, Python's) read from a line that writes a
// key twice.
func (l *Line) LastWins() []byte {
	fs := l.fields.List
	b := make([]byte, 0, len(l.Bytes))
	b = append(b, '{')
	if len(fs) > manyKeys {
		// The last place of each key, found once.
		lastOf := make(map[string]int, len(fs))
		for i := range fs {
			lastOf[string(fs[i].Key)] = i
		}
		done := make(map[string]bool, len(lastOf))
		for i := range fs {
			k := string(fs[i].Key)
			if done[k] {
				continue
			}
			done[k] = true
			if len(b) > 1 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = append(b, fs[i].Key...)
			b = append(b, '"', ':')
			b = append(b, fs[lastOf[k]].Value...)
		}
		return append(b, '}')
	}
	for i := range fs {
		first, last := true, i
		for j := range fs {
			if string(fs[j].Key) == string(fs[i].Key) {
				if j < i {
					first = false
					break
				}
				last = j
			}
		}
		if !first {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, fs[i].Key...)
		b = append(b, '"', ':')
		b = append(b, fs[last].Value...)
	}
	return append(b, '}')
}

// TypeOf is the gjson type of a valid JSON value that begins with c
// (objects and arrays are JSON, as gjson says): jsonl's, which the line
// decoder there needs without this package.
func TypeOf(c byte) gjson.Type { return jsonl.TypeOf(c) }
