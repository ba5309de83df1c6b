package jsonl

import "github.com/zevo/zevo/redact"

// AppendStrValue appends to dst the value Str(key, s) adds to o: the
// marker under a sensitive key, else s redacted, in o's style. It lets an
// encoder write a line whose other members it rendered before (Zero's
// text deltas: the rest of the line is the same for the whole run)
// without building the object.
func (o *Object) AppendStrValue(dst []byte, key, s string) []byte {
	return o.appendStrValue(dst, key, s, true)
}

// AppendTextValue is AppendStrValue of a text that seldom repeats (a
// model's delta): not looked up in, nor kept in, the table of short
// strings Str remembers, which would cost more than it saves.
func (o *Object) AppendTextValue(dst []byte, key, s string) []byte {
	return o.appendStrValue(dst, key, s, false)
}

func (o *Object) appendStrValue(dst []byte, key, s string, memo bool) []byte {
	if o.Redact != nil {
		if o.sensitiveKey(key) {
			return AppendString(dst, redact.Marker, o.Style)
		}
		if memo && len(s) <= memoText {
			return o.memoString(dst, s)
		}
		s = o.Redact.String(s)
	}
	return AppendString(dst, s, o.Style)
}
