package jsonl

import "github.com/tidwall/gjson"

// TypeOf is the gjson type of a valid JSON value that begins with c
// (objects and arrays are JSON, as gjson says).
func TypeOf(c byte) gjson.Type {
	switch c {
	case '"':
		return gjson.String
	case '{', '[':
		return gjson.JSON
	case 't':
		return gjson.True
	case 'f':
		return gjson.False
	case 'n':
		return gjson.Null
	}
	return gjson.Number
}
