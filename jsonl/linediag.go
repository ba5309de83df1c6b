package jsonl

import "strconv"

// NonFiniteMessage is the warning for a bare NaN, Infinity or -Infinity
// read as null.
func NonFiniteMessage(tok string) string {
	return "bare " + tok + " is not JSON (Python writes a non-finite float so); read as null"
}

// DuplicateMessage is the warning for a top-level key that occurs twice.
func DuplicateMessage(key string) string {
	return "duplicate key " + Quote(key) + " (the last one is used)"
}

// Quote renders a value from the input for a diagnostic: quoted, escaped
// (no control or format character reaches the terminal), and clipped.
func Quote(s string) string {
	const max = 60
	r := []rune(s)
	if len(r) > max {
		return strconv.Quote(string(r[:max-3])) + "..."
	}
	return strconv.Quote(s)
}
