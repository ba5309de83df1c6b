package inspect

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// argSummary is the arguments on one line: key=value pairs, clipped.
func argSummary(args gjson.Result) string {
	if !args.IsObject() {
		return clipRunes(shownValue(args), 120)
	}
	var parts []string
	args.ForEach(func(k, val gjson.Result) bool {
		parts = append(parts, k.String()+"="+clipRunes(shownValue(val), 60))
		return len(parts) < 8
	})
	return clipRunes(strings.Join(parts, "  "), 120)
}

// shownValue is a string as it is, another value as compact JSON.
func shownValue(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.String()
	}
	return string(appendJSON(nil, v, "", "", 0))
}

// prettyJSON writes a value for people to read: a string as it is, a small
// value on one line, a larger one indented.
func prettyJSON(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.String()
	}
	b := appendJSON(nil, v, "", "", 0)
	if len(b) <= 80 {
		return string(b)
	}
	return string(appendJSON(b[:0], v, "  ", "\n", 0))
}

// appendJSON writes a JSON value with ", " and ": " between items, or one
// item a line when indent is not empty; strings carry only the escapes JSON
// needs (no \u0026 for &, as the producers' styles have), numbers keep
// their spelling.
func appendJSON(dst []byte, v gjson.Result, indent, nl string, depth int) []byte {
	var open, close byte
	switch {
	case v.IsObject():
		open, close = '{', '}'
	case v.IsArray():
		open, close = '[', ']'
	case v.Type == gjson.String:
		return appendJSONString(dst, v.String())
	default:
		return append(dst, v.Raw...)
	}
	if depth > maxDepthShown {
		return append(dst, v.Raw...) // as written: output stays linear in the input
	}
	dst = append(dst, open)
	inner := nl + indent
	n := 0
	v.ForEach(func(k, val gjson.Result) bool {
		if n > 0 {
			dst = append(dst, ',')
			if indent == "" {
				dst = append(dst, ' ')
			}
		}
		dst = append(dst, inner...)
		if open == '{' {
			dst = appendJSONString(dst, k.String())
			dst = append(dst, ": "...)
		}
		dst = appendJSON(dst, val, indent, inner, depth+1)
		n++
		return true
	})
	if n > 0 {
		dst = append(dst, nl...)
	}
	return append(dst, close)
}

// maxDepthShown is the deepest level appendJSON lays out; deeper values are
// written as they came.
const maxDepthShown = 16

func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, `\n`...)
		case c == '\t':
			dst = append(dst, `\t`...)
		case c < 0x20:
			dst = fmt.Appendf(dst, `\u%04x`, c)
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}
