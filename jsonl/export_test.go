package jsonl

import "github.com/tidwall/gjson"

// MemberState is what a LineMember holds, for the tests outside the
// package that compare two splits of one line.
type MemberState struct {
	Raw          string
	Typ          gjson.Type
	Esc, Decoded bool
}

// StateOf is m's state.
func StateOf(m LineMember) MemberState {
	return MemberState{m.raw, m.typ, m.esc, m.decoded}
}
