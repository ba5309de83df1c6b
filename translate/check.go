package translate

import (
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// typeErr checks that v, when present and not null, has the JSON type want.
func typeErr(ev *event, key string, v gjson.Result, want string) *Diagnostic {
	if !v.Exists() || v.Type == gjson.Null || want == "" {
		return nil
	}
	ok := false
	switch want {
	case "string":
		ok = v.Type == gjson.String
	case "boolean":
		ok = v.Type == gjson.True || v.Type == gjson.False
	case "number":
		ok = v.Type == gjson.Number
	case "integer":
		ok = v.Type == gjson.Number && isInteger(v.Raw)
	case "int64":
		ok = kInt.holds(v)
		want = "an integer of at most 64 bits, as Zero's token counts (--unmapped keep writes it)"
	case "object":
		ok = v.IsObject()
	case "array":
		ok = v.IsArray()
	}
	if ok {
		return nil
	}
	return ev.diag("%s.%s: want %s, got %s", ev.typ, key, want, jsonType(v))
}

func isInteger(raw string) bool {
	return raw != "" && !strings.ContainsAny(raw, ".eE")
}

func jsonType(v gjson.Result) string {
	switch {
	case v.Type == gjson.String:
		return "string " + clip(v.Raw)
	case v.Type == gjson.Number:
		return "number " + clip(v.Raw)
	case v.Type == gjson.True || v.Type == gjson.False:
		return "boolean " + v.Raw
	case v.IsArray():
		return "array"
	case v.IsObject():
		return "object"
	}
	return "null"
}

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

// check validates several fields at once.
func check(ev *event, spec ...string) *Diagnostic {
	for i := 0; i+1 < len(spec); i += 2 {
		if d := typeErr(ev, spec[i], ev.Peek(spec[i]), spec[i+1]); d != nil {
			return d
		}
	}
	return nil
}
