package event

import (
	"fmt"
	"strings"
	"testing"
)

// A key written twice reads as its last value, as the producers' own
// readers (Go's, Python's) read it, whatever reads the line after.
func TestInputReadsDuplicateKeysAsTheirLastValue(t *testing.T) {
	l := ReadLine([]byte(`{"type":"a","x":{"y":1},"type":"b","z":2,"x":[3]}`))
	if !l.Check() || !l.Dup() {
		t.Fatal("the duplicate key is not seen")
	}
	if got := string(l.LastWins()); got != `{"type":"b","x":[3],"z":2}` {
		t.Errorf("LastWins = %s", got)
	}
	for _, s := range []string{`{"a":1,"b":2}`, `{"ab":1,"ba":2,"cd":3}`, `{}`} {
		l := ReadLine([]byte(s))
		if !l.Check() || l.Dup() {
			t.Errorf("%s: a duplicate seen where there is none", s)
		}
	}
}

// A line of many keys is read in linear time (a million keys took
// minutes pair by pair), with the same last-value reading.
func TestManyKeysReadAsFewAre(t *testing.T) {
	var in, want strings.Builder
	in.WriteString(`{"type":"a"`)
	want.WriteString(`{"type":"b"`)
	for i := 0; i < 3*manyKeys; i++ {
		fmt.Fprintf(&in, `,"k%d":%d`, i, i)
		v := i
		if i == 7 {
			v = 99
		}
		fmt.Fprintf(&want, `,"k%d":%d`, i, v)
	}
	in.WriteString(`,"k7":99,"type":"b"}`)
	want.WriteString(`}`)
	l := ReadLine([]byte(in.String()))
	if !l.Check() || !l.Dup() {
		t.Fatal("the duplicate key is not seen")
	}
	if got := string(l.LastWins()); got != want.String() {
		t.Errorf("LastWins = %s\nwant %s", got, want.String())
	}
	l = ReadLine([]byte(want.String()))
	if !l.Check() || l.Dup() {
		t.Error("a duplicate seen where there is none")
	}
	var big strings.Builder
	big.WriteString(`{"type":"a"`)
	for i := 0; i < 200_000; i++ {
		fmt.Fprintf(&big, `,"k%d":%d`, i, i)
	}
	big.WriteString(`}`)
	l = ReadLine([]byte(big.String()))
	if !l.Check() || l.Dup() {
		t.Error("a duplicate seen among 200000 keys")
	}
}

// plainDup is Dup the reference way: every key through a set.
func plainDup(l *Line) bool {
	fs, ok := l.Fields()
	if !ok {
		return false
	}
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[string(f.Key)] {
			return true
		}
		seen[string(f.Key)] = true
	}
	return false
}

// Dup's shortcut (a bit per key, keys compared only when two share one)
// answers as a set of the keys does: on every line of testdata's
// streams, on each with its first key written again at its end (keys of
// one length, "type" and "name", among them), and on keys that differ
// in the middle alone.
func TestDupAsASetOfKeys(t *testing.T) {
	var lines []string
	for _, l := range testdataLines(t) {
		lines = append(lines, string(l))
	}
	lines = append(lines, `{"type":"a","name":"b","args":{},"type":"c"}`, `{"type":"a","name":"b","args":{}}`,
		`{"abxcd":1,"abycd":2}`, `{"abxcd":1,"abycd":2,"abxcd":3}`, `{"":1,"a":2}`, `{"":1,"a":2,"":3}`)
	for _, s := range lines {
		l := ReadLine([]byte(s))
		l.Check()
		if got, want := l.Dup(), plainDup(&l); got != want {
			t.Errorf("%s: Dup = %v, want %v", s, got, want)
		}
		if i := strings.IndexByte(s, ':'); i > 1 && strings.HasPrefix(s, `{"`) && strings.HasSuffix(s, "}") {
			again := s[:len(s)-1] + "," + s[1:i] + ":0}"
			l := ReadLine([]byte(again))
			// (A line with an escaped key is gjson's to read: no Dup.)
			l.Check()
			if _, ok := l.Fields(); ok && !l.Dup() {
				t.Errorf("%s: the key written again is not seen", again)
			}
		}
	}
}

func FuzzDupAsASetOfKeys(f *testing.F) {
	f.Add([]byte(`{"delta":"x","runId":"r","schemaVersion":2,"type":"text_delta","runId":"s"}`))
	f.Add([]byte(`{"type":"a","name":"b"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		l := ReadLine(line)
		l.Check()
		if got, want := l.Dup(), plainDup(&l); got != want {
			t.Errorf("%q: Dup = %v, want %v", line, got, want)
		}
	})
}

// Dup's answer is kept for the line it was asked of: a Line reset to
// another line, or to the same line's last-value reading, answers anew.
func TestDupAnswerBelongsToItsLine(t *testing.T) {
	var l Line
	l.Reset([]byte(`{"type":"a","type":"b"}`))
	if !l.Check() || !l.Dup() || !l.Dup() {
		t.Fatal("the duplicate key is not seen, or not twice")
	}
	l.Reset(l.LastWins())
	if !l.Check() || l.Dup() {
		t.Error("the last-value reading still answers as the line with the duplicate")
	}
	l.ReadOwned([]byte(`{"a":1,"a":2}`))
	if !l.Check() || !l.Dup() {
		t.Error("a line read owned after one without duplicates: its duplicate not seen")
	}
	l.Reset([]byte(`{"a":1,"a":2`)) // not an object: nothing to repeat
	if l.Check() || l.Dup() {
		t.Error("a broken line answered as one with a duplicate key")
	}
}
