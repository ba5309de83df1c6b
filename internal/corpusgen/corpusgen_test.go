package corpusgen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/zevo/zevo/jsonl"
)

// Go's style is encoding/json's bytes of the same object as a map (keys
// sorted, <, > and & escaped, U+2028 and U+2029 escaped); Python's keeps
// the key order, writes ", " and ": ", and escapes every non-ASCII
// character, astral ones as surrogate pairs, as json.dumps does.
func TestStyles(t *testing.T) {
	o := Obj{"z", "<a&b> café 😀 \u2028 \x01 \"q\" \\ \t\n", "a", []any{1, int64(-2), true, nil, Obj{"y", false, "b", "x"}}}
	var goStyle, py bytes.Buffer
	if err := WriteLine(&goStyle, jsonl.GoStyle, o); err != nil {
		t.Fatal(err)
	}
	WriteLine(&py, jsonl.PythonStyle, o)
	want, _ := json.Marshal(map[string]any{"z": o[1], "a": []any{1, -2, true, nil, map[string]any{"y": false, "b": "x"}}})
	if got := strings.TrimSuffix(goStyle.String(), "\n"); got != string(want) {
		t.Errorf("Go style:\n got %s\nwant %s", got, want)
	}
	wantPy := `{"z": "<a&b> caf\u00e9 \ud83d\ude00 \u2028 \u0001 \"q\" \\ \t\n", "a": [1, -2, true, null, {"y": false, "b": "x"}]}` + "\n"
	if py.String() != wantPy {
		t.Errorf("Python style:\n got %s\nwant %s", py.String(), wantPy)
	}
}

// Output never ends inside a UTF-8 sequence, and ValidEnd tells one that
// does.
func TestOutputEndsOnARune(t *testing.T) {
	for _, s := range []string{"é"[:1], "日"[:2], "😀"[:3]} {
		if ValidEnd("ab" + s) {
			t.Errorf("ValidEnd(%q) = true", "ab"+s)
		}
	}
	for _, s := range []string{"", "ab", "é", "日", "😀"} {
		if !ValidEnd("ab" + s) {
			t.Errorf("ValidEnd(%q) = false", "ab"+s)
		}
	}
	var n int64
	_, err := Write(new(bytes.Buffer), jsonl.GoStyle, 0, 3, func(g *Gen, run int, cut bool) {
		for size := 1; size < 3000; size += 7 {
			if s := g.Output(size); len(s) > size || !ValidEnd(s) {
				t.Fatalf("Output(%d) = %d bytes, ends %q", size, len(s), s[max(0, len(s)-4):])
			}
			n++
		}
	})
	if err != nil || n == 0 {
		t.Fatalf("%v, %d outputs", err, n)
	}
}

// A run that writes nothing would never reach the size: an error, not a
// loop.
func TestRunWritingNothing(t *testing.T) {
	runs := 0
	_, err := Write(new(bytes.Buffer), jsonl.GoStyle, 10, 1, func(*Gen, int, bool) { runs++ })
	if err == nil || !strings.Contains(err.Error(), "run 1 wrote nothing") || runs != 1 {
		t.Fatalf("err = %v after %d runs", err, runs)
	}
}
