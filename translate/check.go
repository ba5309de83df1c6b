package translate

import (
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
)

// typeErr checks that v, when present and not null, is of the kind want
// (KindAny: any).
func typeErr(ev *event, key string, v gjson.Result, want jsonl.Kind) *jsonl.Diagnostic {
	if !v.Exists() || v.Type == gjson.Null || want == jsonl.KindAny {
		return nil
	}
	ok := false
	switch want {
	case jsonl.KindString:
		ok = v.Type == gjson.String
	case jsonl.KindBoolean:
		ok = v.Type == gjson.True || v.Type == gjson.False
	case jsonl.KindNumber:
		ok = v.Type == gjson.Number
	case jsonl.KindInteger:
		ok = v.Type == gjson.Number && isInteger(v.Raw)
	case jsonl.KindObject:
		ok = v.IsObject()
	case jsonl.KindArray:
		ok = v.IsArray()
	}
	if ok {
		return nil
	}
	return ev.diag("%s", model.WrongType(ev.typ+"."+key, want.String(), v))
}

func isInteger(raw string) bool {
	return raw != "" && !strings.ContainsAny(raw, ".eE")
}

// jsonType names a value as every wrong-typed field's diagnostic does.
func jsonType(v gjson.Result) string { return model.Got(v) }

func clip(s string) string { return clipTo(s, 32) }

// clipTo shortens s to at most max bytes, "..." included, cutting between
// characters.
func clipTo(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max - 3
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
