package event

import (
	"errors"
	"testing"

	"github.com/tidwall/gjson"
)

// keyNames are names whose words Key compares apart: lengths of one to
// past sixteen, and names that differ from a field's only inside.
var keyNames = []string{
	"t", "ty", "typ", "typf", "tYpe", "types", "schemaVersioN", "schemaVersion", "schemaXersion",
	"schemaVersion2", "input_tokens_x", "aaaaaaaa", "aaaaaaab", "baaaaaaa", "aaaaXaaa",
	"aaaaaaaaaaaaaaaa", "aaaaaaaXaaaaaaaa", "aaaaaaaaaaaaaaaaa", "aaaaaaaaXaaaaaaaa",
	"permissionGranted", "permissionGrantex", "decisionReasons", "\x00\x00\x00\x00", "é", "éé",
}

// sameByKey fails the test where a lookup by Key answers otherwise than
// the lookup by its name, on line read each way a Line reads (checked,
// plainly, as it goes): two Lines read alike, one asked by name, the
// other by Key, key after key.
func sameByKey(t *testing.T, line []byte) {
	t.Helper()
	names := append(append([]string{}, lineKeys...), keyNames...)
	gjson.ParseBytes(line).ForEach(func(k, _ gjson.Result) bool {
		names = append(names, k.Str, k.Str+"x", "x"+k.Str)
		return len(names) < len(lineKeys)+len(keyNames)+60
	})
	for _, how := range []string{"checked", "plainly", "as it goes"} {
		read := func() *Line {
			l := ReadLine(line)
			switch how {
			case "checked":
				l.Check()
			case "plainly":
				l = PlainLine(line)
			}
			return &l
		}
		byName, byKey := read(), read()
		for _, name := range names {
			k := NewKey(name)
			if k.Name() != name {
				t.Fatalf("NewKey(%q).Name() = %q", name, k.Name())
			}
			if got, want := byKey.GetKey(k), byName.Get(name); got.Type != want.Type || got.Raw != want.Raw ||
				got.Str != want.Str || !sameNum(got.Num, want.Num) || got.Index != want.Index {
				t.Fatalf("%q read %s: GetKey(%q) = %#v, want %#v", line, how, name, got, want)
			}
			if raw, ok := byKey.RawKey(k); ok {
				if want := byName.Get(name).Raw; raw != want {
					t.Fatalf("%q read %s: RawKey(%q) = %q, want %q", line, how, name, raw, want)
				}
			} else if byKey.checked() && k.plain {
				t.Fatalf("%q read %s: RawKey(%q) not ok", line, how, name)
			}
			if s, typ := byKey.StrKey(k); true {
				if ws, wtyp := byName.Str(name); s != ws || typ != wtyp {
					t.Fatalf("%q read %s: StrKey(%q) = %q %v, want %q %v", line, how, name, s, typ, ws, wtyp)
				}
			}
			if got, want := byKey.KindKey(k), byName.Kind(name); got != want {
				t.Fatalf("%q read %s: KindKey(%q) = %v, want %v", line, how, name, got, want)
			}
			if got, want := byKey.HasKey(k), byName.Has(name); got != want {
				t.Fatalf("%q read %s: HasKey(%q) = %v, want %v", line, how, name, got, want)
			}
			s, ok := byKey.SpelledKey(k)
			if ws, wok := byName.Spelled(name); s != ws || ok != wok {
				t.Fatalf("%q read %s: SpelledKey(%q) = %q %v, want %q %v", line, how, name, s, ok, ws, wok)
			}
			for _, skip := range []bool{false, true} {
				var pk, pn Problems
				got, want := pk.TextKey(byKey, k, skip), pn.Text(byName, name, skip)
				if got != want || errText(pk.Err("t")) != errText(pn.Err("t")) {
					t.Fatalf("%q read %s: TextKey(%q, %v) = %q %v, want %q %v", line, how, name, skip,
						got, pk.Err("t"), want, pn.Err("t"))
				}
			}
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	var lenient *LenientError
	if errors.As(err, &lenient) {
		return "lenient: " + err.Error()
	}
	return err.Error()
}

// The lookups by Key are the lookups by name, on every line of
// testdata's streams and the tricky ones.
func TestKeyLookupsAreTheNames(t *testing.T) {
	lines := testdataLines(t)
	for _, l := range []string{
		`{"aaaaaaaa":1,"aaaaaaab":2,"aaaaXaaa":3,"aaaaaaaaaaaaaaaa":4,"aaaaaaaaXaaaaaaaa":5,"typf":6,"tYpe":7}`,
		`{"schemaXersion":1,"schemaVersion":2,"schemaVersioN":3}`, `{"schemaVersion":"\u0032"}`,
		`{"output":"a\nb","output":"c"}`, `{"type":"x","type":"y"}`, `{"é":"é","éé":1}`,
	} {
		lines = append(lines, []byte(l))
	}
	for _, line := range lines {
		sameByKey(t, line)
	}
}

func FuzzKeyLookupsAreTheNames(f *testing.F) {
	for _, l := range lineEdges {
		f.Add([]byte(l))
	}
	f.Add([]byte(`{"type":"tool_result","output":"a\u003cb","schemaVersion":2,"truncated":false}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if len(line) > 4<<10 {
			t.Skip() // each of a hundred names is looked up six ways
		}
		sameByKey(t, line)
	})
}
