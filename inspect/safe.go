package inspect

import "github.com/zevo/zevo/internal/termsafe"

// AppendSafe appends s to dst so that it shows on a terminal as the text it
// is (see termsafe.Append, the one escaping zevo applies).
func AppendSafe(dst []byte, s string, newlines bool, mark func(dst []byte, esc string) []byte) []byte {
	return termsafe.Append(dst, s, newlines, mark)
}

// Safe returns s made safe for a terminal on one line.
func Safe(s string) string { return termsafe.String(s) }
