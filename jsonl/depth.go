package jsonl

import "bytes"

// TooDeep reports whether the JSON text b nests arrays and objects deeper
// than MaxDepth. Parsers that recurse per level (gjson's validator among
// them) need this answered first: a line of a hundred million '[' would
// otherwise exhaust the stack. Counting brackets first keeps the common
// case to one fast pass.
func TooDeep(b []byte) bool {
	if bytes.Count(b, []byte{'['})+bytes.Count(b, []byte{'{'}) <= MaxDepth {
		return false
	}
	depth := 0
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '[', '{':
			depth++
			if depth > MaxDepth {
				return true
			}
		case ']', '}':
			depth--
		}
	}
	return false
}
