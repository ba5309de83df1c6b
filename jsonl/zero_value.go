package jsonl

import "github.com/zevo/zevo/redact"

// AppendStrValue appends to dst the value Str(key, s) adds to o: the
// marker under a sensitive key, else s redacted, in o's style. It lets an
// encoder write a line whose other members it rendered before (Zero's
// text deltas: the rest of the line is the same for the whole run)
// without building the object.
func (o *Object) AppendStrValue(dst []byte, key, s string) []byte {
	if o.Sensitive(key) {
		return AppendString(dst, redact.Marker, o.Style)
	}
	if o.Redact != nil && len(s) <= memoText {
		return o.memoString(dst, s)
	}
	return o.AppendTextValue(dst, s)
}

// Sensitive reports whether o writes the marker for any value under key.
func (o *Object) Sensitive(key string) bool {
	return o.Redact != nil && o.sensitiveKey(key)
}

// AppendTextValue is AppendStrValue of a text that seldom repeats (a
// model's delta) under a key that is not Sensitive (the caller asked
// once): neither the key nor the table of short strings Str remembers is
// looked up, which would cost more than it saves.
func (o *Object) AppendTextValue(dst []byte, s string) []byte {
	if o.Redact != nil {
		s = o.Redact.String(s)
	}
	return AppendString(dst, s, o.Style)
}
