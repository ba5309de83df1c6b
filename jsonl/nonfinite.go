package jsonl

import "bytes"

var nonFinite = [...][]byte{[]byte("NaN"), []byte("-Infinity"), []byte("Infinity")}

// ReplaceNonFinite replaces Python's bare NaN, Infinity and -Infinity
// outside strings (json.dumps writes them; they are not JSON) with what
// repl appends for the n-th token found. It returns b itself and 0 when
// there are none.
func ReplaceNonFinite(b []byte, repl func(dst []byte, tok string, n int) []byte) ([]byte, int) {
	var out []byte
	last, n := 0, 0
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
			continue
		}
		for _, tok := range nonFinite {
			if bytes.HasPrefix(b[i:], tok) {
				out = append(out, b[last:i]...)
				out = repl(out, string(tok), n)
				n++
				last = i + len(tok)
				i = last - 1
				break
			}
		}
	}
	if n == 0 {
		return b, 0
	}
	return append(out, b[last:]...), n
}
