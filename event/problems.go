package event

import (
	"bytes"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Problems collects what is wrong with one line's fields as a decoder
// reads them: the line still gives its events, with the bad fields left
// zero, and Err words them for the line.
type Problems struct {
	Dialect string // names the messages: "zero: tool_call: ..."
	list    []string
	past    *big.Int // the last count past int64 (TakePast)
}

// Add notes one problem.
func (p *Problems) Add(s string) { p.list = append(p.list, s) }

// Err is the line's diagnostic, typ its event type; nil without problems.
func (p *Problems) Err(typ string) error {
	if len(p.list) == 0 {
		return nil
	}
	if typ == "" {
		typ = "event"
	}
	return fmt.Errorf("%s: %s: %s", p.Dialect, typ, strings.Join(p.list, "; "))
}

// TakePast is the count past int64 that the last Count reported, exact.
func (p *Problems) TakePast() *big.Int {
	b := p.past
	p.past = nil
	return b
}

// Str is a string field; "" when absent or null, a problem when of
// another type.
func (p *Problems) Str(v *Line, key string) string {
	s, typ := v.Str(key)
	switch typ {
	case gjson.String:
		return s
	case gjson.Null:
		return ""
	}
	p.Add(key + " is not a string")
	return ""
}

// Count is a token count: an integer from 0 to 2^63-1. has, when not
// nil, gets bit when the count is stated. A count of 2^63 or more is a
// problem, kept exact for TakePast (stats still counts it).
func (p *Problems) Count(v *Line, key string, has *Has, bit Has) int64 {
	f := v.Get(key)
	if !f.Exists() || f.Type == gjson.Null {
		return 0
	}
	n, err := strconv.ParseInt(f.Raw, 10, 64) // "-0" is 0
	if f.Type != gjson.Number || err != nil || n < 0 {
		p.Add(key + " " + Clip(f.Raw) + " is not a token count")
		p.past = pastInt64(f.Raw)
		return 0
	}
	if has != nil {
		*has |= bit
	}
	return n
}

// pastInt64 is raw, an integer of 2^63 or more, exact; nil for any other
// value.
func pastInt64(raw string) *big.Int {
	var n big.Int
	if _, ok := n.SetString(raw, 10); ok && !n.IsInt64() && n.Sign() > 0 {
		return &n
	}
	return nil
}

// Clip shortens a raw value for a message.
func Clip(raw string) string {
	if len(raw) > 40 {
		raw = raw[:40] + "…"
	}
	return string(bytes.ToValidUTF8([]byte(raw), []byte("?")))
}
