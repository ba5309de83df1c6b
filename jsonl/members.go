package jsonl

import (
	"unicode/utf8"

	"github.com/zevo/zevo/internal/swar"
)

// Member is one top-level member of a line's object: its key as written
// between its quotes (escapes and all) and its value's JSON text, both
// slices of the line.
type Member struct {
	Key, Value []byte
	Esc        bool // Value is a string with escapes
}

// Members reads the top-level members of a line's object in one pass that
// also checks the whole line as every command takes one: a JSON object,
// valid JSON as gjson.Valid says, valid UTF-8, nested at most MaxDepth
// levels (the object is level 1). Reading the members and checking the
// line are one scan, not two. Its zero value is ready; it keeps its
// memory from line to line.
type Members struct {
	List []Member
	// EscapedKey: a key is written with escapes (its Key is as written),
	// so a lookup by name has to unescape the keys.
	EscapedKey bool
	// Lens has a bit for each key's length (mod 64), Keys one for each
	// key by KeyBit, read in the same pass: a lookup tells most keys a
	// line lacks by them, comparing none.
	Lens, Keys uint64
	// Type is the place in List of the first member whose key is
	// written "type", the field every dialect's lines are told by; -1
	// when there is none.
	Type  int
	stack []byte // the containers open inside a member's value
}

// Read reads line b, and reports whether it is such an object. When it
// is not, List holds the members read before the problem.
func (m *Members) Read(b []byte) bool {
	m.List, m.EscapedKey, m.Lens, m.Keys, m.Type = m.List[:0], false, 0, 0, -1
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	if i = skipWS(b, i+1); i < len(b) && b[i] == '}' {
		return skipWS(b, i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		end, esc, ok := validString(b, i)
		if !ok {
			return false
		}
		key := b[i+1 : end-1]
		m.EscapedKey = m.EscapedKey || esc
		m.Lens |= 1 << (len(key) & 63)
		m.Keys |= KeyBit(key)
		if i = skipWS(b, end); i >= len(b) || b[i] != ':' {
			return false
		}
		start := skipWS(b, i+1)
		esc = false
		// Most values are scalars, checked here: value's loop and the
		// deferred store of its stack are for containers (a line's
		// schemaVersion cost more there than its text).
		switch {
		case start >= len(b):
			return false
		case b[start] == '"':
			i, esc, ok = validString(b, start)
		case b[start] == '{' || b[start] == '[':
			i, ok = m.value(b, start)
		case b[start] == 't':
			i, ok = literal(b, start, "true")
		case b[start] == 'f':
			i, ok = literal(b, start, "false")
		case b[start] == 'n':
			i, ok = literal(b, start, "null")
		default:
			i, ok = validNumber(b, start)
		}
		if !ok {
			return false
		}
		if len(key) == 4 && m.Type < 0 && string(key) == "type" {
			m.Type = len(m.List)
		}
		// Written field by field into its place: a Member made whole and
		// then copied is written to the stack in words and read back in
		// wider loads, which stall (no store forwarding), and that was
		// most of Read's own time.
		n := len(m.List)
		if n == cap(m.List) {
			m.List = append(m.List, Member{})
		} else {
			m.List = m.List[:n+1]
		}
		f := &m.List[n]
		f.Key, f.Value, f.Esc = key, b[start:i], esc
		if i = skipWS(b, i); i >= len(b) {
			return false
		}
		switch b[i] {
		case '}':
			return skipWS(b, i+1) == len(b)
		case ',':
			i = skipWS(b, i+1)
		default:
			return false
		}
	}
}

// value checks the value of a member starting at b[i] and returns the
// index just past it.
func (m *Members) value(b []byte, i int) (int, bool) {
	stack := m.stack[:0]
	defer func() { m.stack = stack }()
	ok := true
	for {
		// A value starts at i.
		if i >= len(b) {
			return i, false
		}
		switch c := b[i]; c {
		case '{', '[':
			if len(stack)+2 > MaxDepth { // the object, its open containers, this one
				return i, false
			}
			if i = skipWS(b, i+1); i < len(b) && b[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				i++
				break
			}
			stack = append(stack, c)
			if c == '{' {
				if i, ok = memberKey(b, i); !ok {
					return i, false
				}
			}
			continue
		case '"':
			if i, _, ok = validString(b, i); !ok {
				return i, false
			}
		case 't':
			if i, ok = literal(b, i, "true"); !ok {
				return i, false
			}
		case 'f':
			if i, ok = literal(b, i, "false"); !ok {
				return i, false
			}
		case 'n':
			if i, ok = literal(b, i, "null"); !ok {
				return i, false
			}
		default:
			if i, ok = validNumber(b, i); !ok {
				return i, false
			}
		}
		// A value ended: close the containers it ends.
		for {
			if len(stack) == 0 {
				return i, true
			}
			if i = skipWS(b, i); i >= len(b) {
				return i, false
			}
			top := stack[len(stack)-1]
			if b[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if b[i] != ',' {
				return i, false
			}
			i = skipWS(b, i+1)
			if top == '{' {
				if i, ok = memberKey(b, i); !ok {
					return i, false
				}
			}
			break
		}
	}
}

// memberKey checks `"key" :` at b[i] and returns the index of the value
// after it.
func memberKey(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	i, _, ok := validString(b, i)
	if !ok {
		return i, false
	}
	if i = skipWS(b, i); i >= len(b) || b[i] != ':' {
		return i, false
	}
	return skipWS(b, i+1), true
}

// validString checks the JSON string that opens at b[i] and returns the
// index just past its closing quote, and whether it holds escapes.
func validString(b []byte, i int) (end int, esc, ok bool) {
	i++
	for {
		j, e, _ := swar.StringStopEsc(b, i)
		i, esc = j, esc || e
		if i >= len(b) || b[i] < 0x20 {
			return i, esc, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, esc, true
		case c >= 0x80:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				return i, esc, false
			}
			i += n
		default: // a '\\' the scanner leaves to its caller
			esc = true
			if i+1 >= len(b) {
				return i, esc, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := i + 2; k < i+6; k++ {
					if k >= len(b) || !isHex(b[k]) {
						return k, esc, false
					}
				}
				i += 6
			default:
				return i, esc, false
			}
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func literal(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// validNumber checks a JSON number at b[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	if i >= len(b) || b[i] < '0' || b[i] > '9' {
		return i, false
	}
	if b[i] == '0' {
		i++
	} else {
		i = digits(b, i)
	}
	if i < len(b) && b[i] == '.' {
		if i++; i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, false
		}
		i = digits(b, i)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		if i++; i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, false
		}
		i = digits(b, i)
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

func skipWS(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// KeyBit is a key's bit in Members.Keys: a hash of its length and of its
// bytes at both ends and in the middle (no key is empty's bit but "").
func KeyBit[K string | []byte](k K) uint64 {
	if len(k) == 0 {
		return 1
	}
	h := uint(len(k))*0x9e3779b1 ^ uint(k[0])*0x85ebca6b ^ uint(k[len(k)-1])*0xc2b2ae35 ^ uint(k[len(k)/2])*0x27d4eb2f
	return 1 << ((h ^ h>>29) & 63)
}
