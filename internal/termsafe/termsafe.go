// Package termsafe writes text from the input so that a terminal shows it
// as the text it is: the one escaping of every place zevo shows such text
// (transcripts, tables, diagnostics, file names in messages).
package termsafe

import (
	"unicode/utf8"
)

// Append appends s to dst so that it shows on a terminal as the text it
// is and nothing else: every control character that could move the cursor,
// change the title, open a link, recolour the screen or reorder text (C0
// and C1 controls, DEL, ESC and so every CSI and OSC sequence, bidi
// embeddings, overrides and isolates, line and paragraph separators, bytes
// that are not UTF-8) is written as a visible escape such as \x1b or
// \u202e. With newlines, "\n" (and "\r\n") is kept as a line break and tab
// is kept; otherwise they are escaped too. mark, if not nil, wraps each
// escape (to colour it).
func Append(dst []byte, s string, newlines bool, mark func(dst []byte, esc string) []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			// Fast path: printable ASCII.
			j := i + 1
			for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f {
				j++
			}
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch {
		case r == utf8.RuneError && size == 1:
			esc = `\x` + hex2(c)
		case newlines && r == '\n':
			dst = append(dst, '\n')
		case newlines && r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF line end: the CR moves nothing that the LF does not.
		case newlines && r == '\t':
			dst = append(dst, '\t')
		case r < 0x20 || r == 0x7f:
			esc = shortEscape(r)
		case r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
			r == 0x200e, r == 0x200f, r == 0x061c,
			r == 0x2028, r == 0x2029:
			esc = `\u` + hex4(r)
		default:
			dst = append(dst, s[i:i+size]...)
		}
		if esc != "" {
			if mark != nil {
				dst = mark(dst, esc)
			} else {
				dst = append(dst, esc...)
			}
		}
		i += size
	}
	return dst
}

// String returns s made safe for a terminal on one line (see Append).
func String(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return string(Append(nil, s, false, nil))
		}
	}
	return s // printable ASCII, the usual file name: nothing to copy
}

func shortEscape(r rune) string {
	switch r {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\t':
		return `\t`
	case '\n':
		return `\n`
	case '\v':
		return `\v`
	case '\f':
		return `\f`
	case '\r':
		return `\r`
	}
	return `\x` + hex2(byte(r))
}

const hexDigits = "0123456789abcdef"

func hex2(b byte) string { return string([]byte{hexDigits[b>>4], hexDigits[b&15]}) }

func hex4(r rune) string {
	return string([]byte{hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15]})
}
