package filter

import (
	"errors"
	"strings"
)

// Output says how results are written, as jq's output options do. It is
// shared by zevo jq and translate --jq.
type Output struct {
	Raw      bool // write strings without quotes (-r)
	Join     bool // like Raw, and no newline after each result (-j)
	Raw0     bool // like Raw, and a NUL instead of the newline (--raw-output0)
	Seq      bool // RFC 7464: an RS before each JSON result (--seq)
	ASCII    bool // escape every non-ASCII character (-a)
	SortKeys bool // sort keys even of values written as they were read (-S)

	// Layout. Neither Compact nor Pretty: one result per line, compact,
	// and a value passed through (., select) written as it was read
	// unless it spans lines. Compact: every result compact, passed
	// through values too (-c). Pretty: jq's multi-line layout, Indent
	// spaces (1 to 7) or a tab (Tab) per level.
	Compact bool
	Pretty  bool
	Indent  int
	Tab     bool
	// Colors, when not nil, colours JSON results (-C).
	Colors *Palette
}

// Palette holds the escape sequences of jq's colours: null, false, true,
// numbers, strings, arrays, objects, object keys.
type Palette [8]string

const (
	colNull = iota
	colFalse
	colTrue
	colNumber
	colString
	colArray
	colObject
	colKey
)

// DefaultPalette is jq's (1.7.1 and later) default: JQ_COLORS
// 0;90:0;39:0;39:0;39:0;32:1;39:1;39:1;34.
var DefaultPalette = Palette{"\x1b[0;90m", "\x1b[0;39m", "\x1b[0;39m", "\x1b[0;39m", "\x1b[0;32m", "\x1b[1;39m", "\x1b[1;39m", "\x1b[1;34m"}

const colReset = "\x1b[0m"

// ParseColors reads a JQ_COLORS value: up to eight colon-separated SGR
// codes (digits and semicolons) replacing the defaults in order.
func ParseColors(spec string) (*Palette, error) {
	p := DefaultPalette
	if spec == "" {
		return &p, nil
	}
	parts := strings.Split(spec, ":")
	if len(parts) > len(p) {
		return nil, errors.New("more than 8 colours")
	}
	for i, c := range parts {
		if len(c) > 12 || strings.Trim(c, "0123456789;") != "" {
			return nil, errors.New("invalid colour " + c)
		}
		if c != "" || i < len(parts)-1 {
			p[i] = "\x1b[" + c + "m"
		}
	}
	return &p, nil
}
