package filter

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
)

// stdDecode is encoding/json's reading of one value, numbers kept as
// spelled: the reference for the fast decoder.
func stdDecode(t testing.TB, b []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, false // more than one value, or garbage
	}
	return v, true
}

func decodeOne(b []byte) (any, bool, error) {
	var d decoder
	d.reset(b)
	if !d.more() {
		return nil, false, &syntaxError{"empty", 0}
	}
	v, _, err := d.next()
	if err != nil {
		return nil, false, err
	}
	if d.more() {
		return nil, false, &syntaxError{"more than one value", d.pos}
	}
	return v, d.exact, nil
}

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	valid := []string{
		`{}`, `[]`, `""`, `0`, `-0`, `1.5e-3`, `18446744073709551617`, `true`, `false`, `null`,
		`{"type": "text", "content": "caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t"}`,
		`{"a":[1,[2,[3,{"b":null}]]],"c":{"d":{}}}`,
		`  {"k" : "v" , "n" : [ ] }  `,
		`"é – 日本"`,
		`"\u00e9\u0000"`,
		`{"dup": 1, "dup": 2}`,
		`"lone \ud800 surrogate"`,
	}
	for _, s := range valid {
		want, ok := stdDecode(t, []byte(s))
		if !ok {
			t.Fatalf("bad test: %s", s)
		}
		got, _, err := decodeOne([]byte(s))
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", s, got, want)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	bad := map[string]string{
		`{"a": 1`:                  "not valid JSON at byte 8: the line ends inside a value",
		`{"a" 1}`:                  "not valid JSON at byte 6: unexpected '1'",
		`{a: 1}`:                   "not valid JSON at byte 2: unexpected 'a'",
		`[1, 2`:                    "not valid JSON at byte 6: the line ends inside a value",
		`[1 2]`:                    "not valid JSON at byte 4: unexpected '2'",
		`"abc`:                     "not valid JSON at byte 5: the line ends inside a value",
		`"a\qb"`:                   `not valid JSON at byte 3: invalid escape "\\q" in a string`,
		`"\u12G4"`:                 `not valid JSON at byte 2: invalid escape "\\u12G4" in a string`,
		"\"a\tb\"":                 "not valid JSON at byte 3: control character U+0009 in a string (it must be escaped)",
		`01`:                       "not valid JSON at byte 2: unexpected '1'",
		`1.`:                       "not valid JSON at byte 3: the line ends inside a value",
		`-`:                        "not valid JSON at byte 2: the line ends inside a value",
		`1e`:                       "not valid JSON at byte 3: the line ends inside a value",
		`tru`:                      "not valid JSON at byte 4: the line ends inside a value",
		`nul`:                      "not valid JSON at byte 4: the line ends inside a value",
		`{"a":1}}`:                 "not valid JSON at byte 8: unexpected '}'",
		`1x`:                       "not valid JSON at byte 2: 'x' after the end of the value",
		`@`:                        "not valid JSON at byte 1: unexpected '@'",
		"\x00":                     "not valid JSON at byte 1: unexpected U+0000",
		`{"a":1,}`:                 "not valid JSON at byte 8: unexpected '}'",
		`[1,]`:                     "not valid JSON at byte 4: unexpected ']'",
		strings.Repeat("[", 10001): "not valid JSON at byte 10001: nested deeper than 10000 levels",
	}
	for s, want := range bad {
		var d decoder
		d.reset([]byte(s))
		var err error
		for err == nil && d.more() {
			_, _, err = d.next()
		}
		if err == nil {
			t.Errorf("%q: no error", s)
			continue
		}
		if got := err.Error(); got != want {
			t.Errorf("%q: got %q, want %q", s, got, want)
		}
		if _, ok := stdDecode(t, []byte(s)); ok {
			t.Errorf("%q: encoding/json accepts it", s)
		}
	}
}

func TestDecodeExact(t *testing.T) {
	for s, want := range map[string]bool{
		`{"a": 1.50, "b": "\u00e9"}`: true,
		`{"a": 1, "a": 2}`:           false,
		`{"a": NaN}`:                 false,
		`[Infinity, -Infinity]`:      false,
		"\"\xff\"":                   false,
		`"\ud800"`:                   false,
	} {
		_, exact, err := decodeOne([]byte(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if exact != want {
			t.Errorf("%s: exact %v, want %v", s, exact, want)
		}
	}
	v, _, _ := decodeOne([]byte(`[NaN, -Infinity]`))
	a := v.([]any)
	if f, ok := a[0].(float64); !ok || !math.IsNaN(f) {
		t.Errorf("NaN read as %#v", a[0])
	}
	if f, ok := a[1].(float64); !ok || !math.IsInf(f, -1) {
		t.Errorf("-Infinity read as %#v", a[1])
	}
}

// A string skipped for a projection is read as one decoded: the same
// lines are accepted, with the same message for the others, and the
// same lines are not exact (invalid UTF-8, a lone surrogate). The bodies
// put escapes, bad bytes and the closing quote at every place around the
// edges of the 16-byte blocks the skip scans.
func TestSkipStringAsDecode(t *testing.T) {
	pieces := []string{`\n`, `\"`, `\\`, `\\"`, `\/`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\ud800x`, `\u12`, `\x`, `\`,
		"é", "\xff", "\xe2\x80", "\x01", "\t\\\"\\\\", "日本"}
	decode := func(line string, want map[string]bool) (bool, string) {
		var d decoder
		d.reset([]byte(line))
		d.want = want
		_, _, err := d.next()
		if err != nil {
			return false, err.Error()
		}
		return d.exact, ""
	}
	n := 0
	for pad := 0; pad < 36; pad++ {
		for _, p := range pieces {
			for _, after := range []string{"", "abc", `\"x`, `\\`} {
				line := `{"a":1,"b":"` + strings.Repeat("x", pad) + p + after + `"}`
				wantExact, wantErr := decode(line, nil)
				gotExact, gotErr := decode(line, map[string]bool{"a": true})
				if gotExact != wantExact || gotErr != wantErr {
					t.Fatalf("%q: skipped: exact %v, error %q; decoded: exact %v, error %q", line, gotExact, gotErr, wantExact, wantErr)
				}
				if wantErr != "" {
					n++
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no line was rejected: the bodies do not test the errors")
	}
}

// FuzzDecode checks the decoder against encoding/json: every value
// encoding/json reads, it reads the same; it accepts nothing else but
// Python's NaN and infinities.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x",null]}`, `"\ud83d\ude00"`, `1e5`, `{"a":NaN}`, `[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 4096 {
			return
		}
		want, stdOK := stdDecode(t, b)
		got, _, err := decodeOne(b)
		if stdOK && err != nil {
			t.Fatalf("%q: encoding/json reads it, decoder says %v", b, err)
		}
		if stdOK && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %#v\nwant %#v", b, got, want)
		}
		if err == nil && !stdOK && !bytes.Contains(b, []byte("NaN")) && !bytes.Contains(b, []byte("Infinity")) {
			t.Fatalf("%q: decoder accepts what encoding/json rejects", b)
		}
	})
}
