package translate

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/protocol"
)

// The key cache answers as lookupKey does, whatever the order of keys,
// their collisions in the slots, or the cache being full.
func TestKeyCacheAsLookup(t *testing.T) {
	keys := []string{"", "type", "runId", "token", "apiKey", "delta", "x", "api_key", "block", "violation", "grant", "meta", "Authorization"}
	for i := 0; i < 3*maxKeyCache; i += 7 {
		keys = append(keys, fmt.Sprintf("k%dtoken", i), fmt.Sprintf("f%d", i))
	}
	for _, sh := range []*shape{nil, zeroV2Event(), zeroV1Event()} {
		for _, rd := range []bool{false, true} {
			c := keyCache{shape: sh, rd: rd}
			for round := 0; round < 2; round++ {
				for i, k := range keys {
					// a fresh copy, as a key read from a line
					key := string(append([]byte(nil), k...))
					if got, want := c.get(key), lookupKey(key, sh, rd); got != want {
						t.Fatalf("key %q (#%d, round %d): cache %+v, lookup %+v", key, i, round, got, want)
					}
				}
			}
		}
	}
}

// The kind table answers as protocol.ZeroFieldKind does.
func TestKindTableAsZeroFieldKind(t *testing.T) {
	names := []string{"", "x", "colour", "role", "images"}
	for _, p := range []*protocol.Protocol{protocol.ZeroV2, protocol.ZeroV1, protocol.ZeroInput, protocol.EvoSci} {
		for _, f := range p.Envelope {
			names = append(names, f.Name)
		}
		for _, e := range p.Events {
			for _, f := range e.Fields {
				names = append(names, f.Name)
			}
		}
	}
	for _, n := range names {
		want, ok := protocol.ZeroFieldKind(n)
		if !ok {
			want = jsonl.KindAny
		}
		if got := zeroFieldKinds.get(n); got != want {
			t.Errorf("%q: table %v, protocol %v", n, got, want)
		}
	}
}

// A sorted event's fields come out in the order of sort.Strings, keys
// sharing their first 8 bytes or more, empty, and up to 16 of them (the
// positions' sort) or more (the other).
func TestSortedFieldsInKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	parts := []string{"", "a", "b", "permissi", "onGrant", "onMode", "schemaVe", "rsion", "é", "\x00", "~"}
	var o out
	for range 3000 {
		o.reset(jsonl.GoStyle, nil, true)
		seen := map[string]bool{}
		var keys []string
		for range 1 + rng.IntN(20) {
			k := parts[rng.IntN(len(parts))] + parts[rng.IntN(len(parts))] + parts[rng.IntN(len(parts))]
			if seen[k] {
				continue
			}
			seen[k] = true
			keys = append(keys, k)
			o.int(k, 1)
		}
		sort.Strings(keys)
		var want []byte
		want = append(want, '{')
		for i, k := range keys {
			if i > 0 {
				want = append(want, ',')
			}
			want = jsonl.AppendString(want, k, jsonl.GoStyle)
			want = append(want, ":1"...)
		}
		want = append(want, '}')
		if got := o.appendTo(nil); string(got) != string(want) {
			t.Fatalf("keys %q:\n got %s\nwant %s", keys, got, want)
		}
	}
}

// plainlyOfKind is a shortcut of typeErr: whenever it says a value is of
// its kind, typeErr finds nothing wrong, for every kind and value shape.
func TestPlainlyOfKindAsTypeErr(t *testing.T) {
	values := []string{`"s"`, `"\u0041"`, `""`, `true`, `false`, `null`, `0`, `-1.5`, `1e400`, `12345678901234567890`, `{}`, `{"a":1}`, `[]`, `[1]`}
	shortcuts := 0
	for _, v := range values {
		var d protocol.Decoder
		var o protocol.Object
		if err := d.Decode([]byte(`{"k":`+v+`}`), &o); err != nil {
			t.Fatal(err)
		}
		m := o.Members()[0]
		ev := &event{Object: o, typ: "x"}
		for k := jsonl.KindAny + 1; k <= jsonl.KindArray; k++ {
			if !plainlyOfKind(m, k) {
				continue
			}
			shortcuts++
			if d := typeErr(ev, "k", m.Value(), k); d != nil {
				t.Errorf("%s as %s: plainly of its kind, but typeErr says %v", v, k, d)
			}
		}
	}
	// strings 3, booleans 2, objects 2, arrays 2 as their kinds; null as
	// the two number kinds.
	if shortcuts != 11 {
		t.Fatalf("%d shortcuts taken, want 11", shortcuts)
	}
}
