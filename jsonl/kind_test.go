package jsonl

import "testing"

func TestKindNamesRoundTrip(t *testing.T) {
	for k := KindString; k <= KindNull; k++ {
		if got, ok := KindNamed(k.String()); !ok || got != k {
			t.Errorf("KindNamed(%q) = %v, %v", k, got, ok)
		}
	}
	for _, name := range []string{"", "any", "int64", "String"} {
		if k, ok := KindNamed(name); ok {
			t.Errorf("KindNamed(%q) = %v, want none", name, k)
		}
	}
}

func TestKindOfJSONText(t *testing.T) {
	for text, want := range map[string]Kind{
		`"s"`: KindString, `{}`: KindObject, `[1]`: KindArray, `true`: KindBoolean, `false`: KindBoolean,
		`null`: KindNull, `-1`: KindNumber, `0.5`: KindNumber, `12`: KindNumber, ``: KindAny, `x`: KindAny,
	} {
		if got := KindOf(text); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", text, got, want)
		}
	}
}
