package translate

import (
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/internal/swar"
	"github.com/zevo/zevo/jsonl"
)

// scanner validates a line as UTF-8 JSON (accepting exactly what
// utf8.Valid and gjson.Valid both accept) and, when it is an object, records its top-level members, in
// one pass and without decoding strings: most values are only copied, and
// get decodes the others on demand.
type scanner struct {
	stack []byte // open containers below the top level
	deep  bool   // the last line nests close to jsonl.MaxDepth or deeper
}

// line scans raw. valid reports JSON; object that it is an object, whose
// members are then in ev.fields (the last of duplicate keys wins, as in Go
// and Python).
func (s *scanner) line(raw string, ev *event) (valid, object bool) {
	b := unsafe.Slice(unsafe.StringData(raw), len(raw))
	ev.fields, ev.lens, ev.index = ev.fields[:0], 0, nil
	s.deep = false
	i := skipSpace(b, 0)
	if i < len(b) && b[i] == '{' {
		i, valid = s.members(b, raw, i+1, ev)
		object = valid
	} else {
		i, valid = s.value(b, i)
	}
	if !valid || skipSpace(b, i) != len(b) {
		return false, false
	}
	return true, object
}

// members scans the top-level object from after its '{'.
func (s *scanner) members(b []byte, raw string, i int, ev *event) (int, bool) {
	i = skipSpace(b, i)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		end, esc, ok := stringEnd(b, i)
		if !ok {
			return end, false
		}
		var f field
		if esc {
			f.key = gjson.Parse(raw[i:end]).Str
		} else {
			f.key = raw[i+1 : end-1]
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		i = skipSpace(b, i+1)
		start := i
		if i >= len(b) {
			return i, false
		}
		c := b[i]
		if c == '"' {
			end, esc, ok = stringEnd(b, i)
			if !ok {
				return end, false
			}
			i = end
			f.val = gjson.Result{Type: gjson.String, Raw: raw[start:i]}
			if esc {
				f.pending = true
			} else {
				f.val.Str = raw[start+1 : i-1]
			}
		} else {
			if i, ok = s.value(b, i); !ok {
				return i, false
			}
			f.val.Raw = raw[start:i]
			switch c {
			case '{', '[':
				f.val.Type = gjson.JSON
			case 't':
				f.val.Type = gjson.True
			case 'f':
				f.val.Type = gjson.False
			case 'n':
				f.val.Type = gjson.Null
			default:
				f.val.Type = gjson.Number
				f.val.Num, _ = strconv.ParseFloat(f.val.Raw, 64)
			}
		}
		f.val.Index = start
		ev.setField(f)
		i = skipSpace(b, i)
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case '}':
			return i + 1, true
		case ',':
			i = skipSpace(b, i+1)
		default:
			return i, false
		}
	}
}

// value scans one JSON value starting at or after i (after white space)
// and returns the index just past it.
func (s *scanner) value(b []byte, i int) (int, bool) {
	stack := s.stack[:0]
	var ok bool
	for {
		// A value starts here.
		i = skipSpace(b, i)
		if i >= len(b) {
			return i, false
		}
		switch c := b[i]; c {
		case '{', '[':
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				i++
				break
			}
			stack = append(stack, c)
			if len(stack) >= jsonl.MaxDepth-2 {
				s.deep = true
			}
			if c == '{' {
				if i, ok = key(b, i); !ok {
					return i, false
				}
			}
			continue
		case '"':
			if i, _, ok = stringEnd(b, i); !ok {
				return i, false
			}
		case 't':
			if !hasAt(b, i, "true") {
				return i, false
			}
			i += 4
		case 'f':
			if !hasAt(b, i, "false") {
				return i, false
			}
			i += 5
		case 'n':
			if !hasAt(b, i, "null") {
				return i, false
			}
			i += 4
		default:
			if i, ok = number(b, i); !ok {
				return i, false
			}
		}
		// A value ended: close containers until one goes on.
		for {
			if len(stack) == 0 {
				s.stack = stack // keep what it grew to
				return i, true
			}
			i = skipSpace(b, i)
			if i >= len(b) {
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
			i++
			if top == '{' {
				if i, ok = key(b, skipSpace(b, i)); !ok {
					return i, false
				}
			}
			break
		}
	}
}

// key scans `"name" :` at i and returns the index after the colon.
func key(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	i, _, ok := stringEnd(b, i)
	if !ok {
		return i, false
	}
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	return i + 1, true
}

func hasAt(b []byte, i int, lit string) bool {
	return len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// stringEnd validates the JSON string opening at i and returns the index
// just past its closing quote, and whether it holds escapes.
func stringEnd(b []byte, i int) (end int, esc, ok bool) {
	i++
	for {
		i = swar.StringStopUTF8(b, i)
		if i >= len(b) || b[i] < 0x20 {
			return i, esc, false
		}
		if b[i] >= 0x80 {
			// Non-ASCII can only be valid inside strings: the line's
			// UTF-8 is checked here, in the same pass.
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				return i, esc, false
			}
			i += n
			continue
		}
		if b[i] == '"' {
			return i + 1, esc, true
		}
		esc = true
		if i+1 >= len(b) {
			return i, esc, false
		}
		switch b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if len(b)-i < 6 || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
				return i, esc, false
			}
			i += 6
		default:
			return i, esc, false
		}
	}
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// number scans a JSON number at i: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func number(b []byte, i int) (int, bool) {
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
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, false
		}
		i = digits(b, i)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, false
		}
		i = digits(b, i)
	}
	return i, true
}
