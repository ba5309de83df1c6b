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
