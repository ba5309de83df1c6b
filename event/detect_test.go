package event

import (
	"testing"

	"github.com/tidwall/gjson"
)

// Line.Lacks is true only when no field of the line can be named key, however
// the line spells it; and it is true for the lines that plainly lack it.
func TestLacksOnlyWhenNoSpellingOfTheKeyIsThere(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`{"type":"text","content":"hi"}`, true},
		{`{"type":"text","schemaVersion":2}`, false},
		{`{"type":"text","content":"schemaVersion"}`, false}, // in a value: looked up
		{`{"type":"text","sch\u0065maVersion":2}`, false},
		{`{"type":"text","sch\u0065maVersion":2,"a":"\u001b"}`, false},
		{`{"type":"text","content":"\u2014 \u001b[0m \\u"}`, true},
		{`{"type":"text","content":"x\u00`, false}, // cut inside an escape: not sure
		{`{"type":"text","content":"\u0041"}`, false},
		{``, true},
	} {
		l := ReadLine([]byte(c.line))
		if got := l.Lacks("schemaVersion"); got != c.want {
			t.Errorf("%s: %v, want %v", c.line, got, c.want)
		}
		if l.Lacks("schemaVersion") && gjson.Get(c.line, "schemaVersion").Exists() {
			t.Errorf("%s: lacks a field gjson finds", c.line)
		}
	}
}

// A Detector reads a line's type once and gives it to every dialect that
// takes it (DetectLine), and asks the others with the line alone.
func TestDetectorGivesTheLineToDetectLine(t *testing.T) {
	var got []string
	typed := &Dialect{Name: "typed", DetectLine: func(l *Line) Certainty {
		typ, ok := l.Type()
		got = append(got, typ)
		if ok && typ == "mine" {
			return Sure
		}
		return No
	}, Detect: func([]byte) Certainty { t.Error("Detect asked of a typed dialect"); return No }}
	plain := &Dialect{Name: "plain", Detect: func(l []byte) Certainty {
		if string(l) == `{"type":"plain"}` {
			return Sure
		}
		return No
	}}
	d := NewDetector([]*Dialect{typed, typed, plain})
	for line, want := range map[string]*Dialect{`{"type":"mine"}`: typed, `{"type":"plain"}`: plain, `{"type":1}`: nil, `[]`: nil} {
		got = got[:0]
		if dl := d.Detect([]byte(line)); dl != want {
			t.Errorf("%s: %v, want %v", line, dl, want)
		}
		l := ReadLine([]byte(line))
		if typ, _ := l.Type(); len(got) == 0 || got[0] != typ {
			t.Errorf("%s: DetectTyped given %q", line, got)
		}
	}
}
