package jsonl

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// QuoteChar shows the character at b[i] safely in a message about a line
// that is not JSON: printable ASCII quoted, anything else as U+XXXX.
func QuoteChar(b []byte, i int) string {
	r, _ := utf8.DecodeRune(b[i:])
	if r >= 0x20 && r < 0x7f {
		return strconv.QuoteRune(r)
	}
	return fmt.Sprintf("%U", r)
}
