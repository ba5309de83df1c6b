package filter

import (
	"strconv"
	"strings"
)

// withLoc spells jq's $__loc__ (which gojq lacks) as the object it
// stands for, {"file": file, "line": N}, N being the line of the
// expression it is on. Strings and comments are left alone; {$__loc__}
// becomes {"__loc__": {…}}.
func withLoc(expr, file string) string {
	const loc = "$__loc__"
	if !strings.Contains(expr, loc) {
		return expr
	}
	var b strings.Builder
	line := 1
	prev := byte(0) // the last byte written that is not white space
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case c == '\n':
			line++
		case c == '"':
			j := i + 1
			for j < len(expr) && expr[j] != '"' {
				if expr[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(expr))
			line += strings.Count(expr[i:j], "\n")
			b.WriteString(expr[i:j])
			i, prev = j-1, '"'
			continue
		case c == '#':
			j := strings.IndexByte(expr[i:], '\n')
			if j < 0 {
				j = len(expr) - i
			}
			b.WriteString(expr[i : i+j])
			i += j - 1
			continue
		case strings.HasPrefix(expr[i:], loc) && !wordByte(at(expr, i+len(loc))):
			obj := `{"file":` + strconv.Quote(file) + `,"line":` + strconv.Itoa(line) + `}`
			next := strings.TrimLeft(expr[i+len(loc):], " \t\r\n")
			if prev == '{' || prev == ',' && strings.HasPrefix(next, "}") {
				obj = `"__loc__":` + obj
			}
			b.WriteString(obj)
			i += len(loc) - 1
			prev = '}'
			continue
		}
		b.WriteByte(c)
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			prev = c
		}
	}
	return b.String()
}

func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
