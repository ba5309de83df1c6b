package event

import "testing"

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
