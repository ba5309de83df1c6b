package corpusgen

import (
	"sort"
	"strconv"
	"unicode/utf8"
)

// Obj is a JSON object as its keys and values in turn (a key a string; a
// value a string, int, int64, bool, nil, Obj or []any). Python's style
// keeps its key order (Python dicts keep insertion order); Go's sorts its
// keys at every level, as encoding/json writes a map.
type Obj []any

// encoder writes values in one of the two styles.
type encoder struct {
	python bool // json.dumps defaults; else Go's encoding/json of a map
}

func (e encoder) value(dst []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		return strconv.AppendBool(dst, v)
	case int:
		return strconv.AppendInt(dst, int64(v), 10)
	case int64:
		return strconv.AppendInt(dst, v, 10)
	case string:
		return e.str(dst, v)
	case []any:
		dst = append(dst, '[')
		for i, x := range v {
			if i > 0 {
				dst = e.sep(dst)
			}
			dst = e.value(dst, x)
		}
		return append(dst, ']')
	case Obj:
		type kv struct {
			k string
			v any
		}
		fs := make([]kv, 0, len(v)/2)
		for i := 0; i+1 < len(v); i += 2 {
			fs = append(fs, kv{v[i].(string), v[i+1]})
		}
		if !e.python {
			// encoding/json sorts a map's keys.
			sort.SliceStable(fs, func(i, j int) bool { return fs[i].k < fs[j].k })
		}
		dst = append(dst, '{')
		for i, f := range fs {
			if i > 0 {
				dst = e.sep(dst)
			}
			dst = e.str(dst, f.k)
			if e.python {
				dst = append(dst, ':', ' ')
			} else {
				dst = append(dst, ':')
			}
			dst = e.value(dst, f.v)
		}
		return append(dst, '}')
	}
	panic("corpusgen: unsupported value")
}

func (e encoder) sep(dst []byte) []byte {
	if e.python {
		return append(dst, ',', ' ')
	}
	return append(dst, ',')
}

const hexd = "0123456789abcdef"

func u4(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexd[r>>12&15], hexd[r>>8&15], hexd[r>>4&15], hexd[r&15])
}

// str writes s as Python's json.dumps (ensure_ascii) or Go's encoding/json
// (HTML-safe) would.
func (e encoder) str(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			switch {
			case c < 0x20:
				dst = u4(dst, rune(c))
			case !e.python && (c == '<' || c == '>' || c == '&'):
				dst = u4(dst, rune(c))
			case e.python && c == 0x7f:
				dst = u4(dst, rune(c))
			case c < 0x80:
				dst = append(dst, c)
			default:
				r, n := utf8.DecodeRuneInString(s[i:])
				switch {
				case e.python && r >= 0x10000:
					r -= 0x10000
					dst = u4(dst, 0xD800+(r>>10))
					dst = u4(dst, 0xDC00+(r&0x3FF))
				case e.python || r == 0x2028 || r == 0x2029:
					dst = u4(dst, r)
				default:
					dst = append(dst, s[i:i+n]...)
				}
				i += n
				continue
			}
		}
		i++
	}
	return append(dst, '"')
}
