package translate

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// splitObject records the top-level members of raw, which must be valid
// JSON, in ev.fields, and reports whether raw is an object. It does what
// gjson's ForEach does in one pass, without decoding string values, which
// are mostly only copied (get decodes them on demand).
func splitObject(raw string, ev *event) bool {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	i++
	for {
		i = skipSpace(raw, i)
		if i >= len(raw) {
			return false
		}
		switch raw[i] {
		case '}':
			return true
		case ',':
			i++
			continue
		case '"':
		default:
			return false
		}
		end, esc := stringEnd(raw, i)
		var f field
		if esc {
			f.key = gjson.Parse(raw[i : end+1]).Str
		} else {
			f.key = raw[i+1 : end]
		}
		i = skipSpace(raw, end+1)
		if i >= len(raw) || raw[i] != ':' {
			return false
		}
		i = skipSpace(raw, i+1)
		if i >= len(raw) {
			return false
		}
		start := i
		switch c := raw[i]; {
		case c == '"':
			end, esc := stringEnd(raw, i)
			i = end + 1
			f.val = gjson.Result{Type: gjson.String, Raw: raw[start:i]}
			if esc {
				f.pending = true
			} else {
				f.val.Str = raw[start+1 : end]
			}
		case c == '{' || c == '[':
			i = containerEnd(raw, i)
			f.val = gjson.Result{Type: gjson.JSON, Raw: raw[start:i]}
		case c == 't':
			i += 4
			f.val = gjson.Result{Type: gjson.True, Raw: raw[start:i]}
		case c == 'f':
			i += 5
			f.val = gjson.Result{Type: gjson.False, Raw: raw[start:i]}
		case c == 'n':
			i += 4
			f.val = gjson.Result{Type: gjson.Null, Raw: raw[start:i]}
		default:
			for i < len(raw) && !strings.ContainsRune(" \t\r\n,}", rune(raw[i])) {
				i++
			}
			f.val = gjson.Result{Type: gjson.Number, Raw: raw[start:i]}
			f.val.Num, _ = strconv.ParseFloat(f.val.Raw, 64)
		}
		f.val.Index = start
		// The last of duplicate keys wins, as in Go and Python.
		ev.setField(f)
	}
}

func skipSpace(raw string, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index of the closing quote of the valid JSON
// string opening at i, and whether the string holds escapes.
func stringEnd(raw string, i int) (end int, esc bool) {
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			esc = true
			j++
		case '"':
			return j, esc
		}
	}
	return len(raw) - 1, esc
}

// containerEnd returns the index just past the valid JSON object or array
// opening at i.
func containerEnd(raw string, i int) int {
	depth := 0
	for ; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			i, _ = stringEnd(raw, i)
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(raw)
}
