package corpus

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects"
)

// A dialect without a generator, or none, is refused by name before a
// byte is written, and the message names the dialects that have one.
func TestNoGenerator(t *testing.T) {
	claude, _ := dialects.ByName("claude")
	for _, p := range []Protocol{claude, nil} {
		var b bytes.Buffer
		_, err := Write(&b, Options{Protocol: p, Size: 10})
		if err == nil || !strings.Contains(err.Error(), "dialects with a generator: ") || !strings.Contains(err.Error(), "zero") || !strings.Contains(err.Error(), "evosci") {
			t.Errorf("Write: err = %v, want one naming the dialects with a generator", err)
		}
		if err := WriteHuge(&b, p, 10); err == nil {
			t.Errorf("WriteHuge: no error")
		}
		if b.Len() != 0 {
			t.Errorf("wrote %d bytes without a generator", b.Len())
		}
	}
	if _, err := Write(new(bytes.Buffer), Options{Protocol: claude}); err == nil || !strings.Contains(err.Error(), "no generator for claude") {
		t.Errorf("err = %v, want one naming claude", err)
	}
	if _, err := Lookup("claude"); err == nil || !strings.Contains(err.Error(), "no generator for claude") {
		t.Errorf("Lookup(claude): err = %v", err)
	}
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), `no dialect "nope"`) {
		t.Errorf("Lookup(nope): err = %v", err)
	}
	for _, name := range []string{"zero", "evosci", "evoscientist"} {
		if p, err := Lookup(name); err != nil || p.Corpus == nil {
			t.Errorf("Lookup(%s) = %v, %v", name, p, err)
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, p := range []Protocol{EvoSci, Zero} {
		var a, b, c bytes.Buffer
		n, err := Write(&a, Options{Protocol: p, Size: 64 << 10, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		if n != int64(a.Len()) || n < 64<<10 {
			t.Fatalf("%s: returned %d, wrote %d, want >= %d", p, n, a.Len(), 64<<10)
		}
		Write(&b, Options{Protocol: p, Size: 64 << 10, Seed: 7})
		Write(&c, Options{Protocol: p, Size: 64 << 10, Seed: 8})
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: the same seed gave different corpora", p)
		}
		if bytes.Equal(a.Bytes(), c.Bytes()) {
			t.Errorf("%s: different seeds gave the same corpus", p)
		}
	}
}

// TestSerialization checks each line against the producer's own encoder:
// Python's json.dumps (type first, ASCII only, ", " and ": ") for
// EvoScientist, Go's encoding/json of a map for Zero.
func TestSerialization(t *testing.T) {
	types := map[Protocol]map[string]int{EvoSci: {}, Zero: {}}
	for _, p := range []Protocol{EvoSci, Zero} {
		var b bytes.Buffer
		if _, err := Write(&b, Options{Protocol: p, Size: 256 << 10, Seed: 3}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		for i, l := range lines {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("%s line %d: %v: %s", p, i+1, err, l)
			}
			typ, _ := m["type"].(string)
			types[p][typ]++
			if p == EvoSci {
				if !strings.HasPrefix(l, `{"type": `) {
					t.Fatalf("%s line %d: type is not first: %s", p, i+1, l)
				}
				for _, c := range []byte(l) {
					if c >= 0x80 {
						t.Fatalf("%s line %d: non-ASCII byte: %s", p, i+1, l)
					}
				}
				continue
			}
			// Zero re-marshals a generic map: exactly encoding/json's bytes.
			want, _ := json.Marshal(m)
			if string(want) != l {
				t.Fatalf("%s line %d:\n got %s\nwant %s", p, i+1, l, want)
			}
			for k, v := range m {
				if v == "" || v == false && k != "truncated" && k != "permissionGranted" && k != "recoverable" && k != "redacted" || v == nil {
					t.Fatalf("%s line %d: empty field %q not omitted", p, i+1, k)
				}
			}
		}
	}
	for p, want := range map[Protocol][]string{
		EvoSci: {"thinking", "text", "tool_call", "tool_result", "usage_stats", "done", "subagent_text"},
		Zero:   {"run_start", "reasoning", "text", "tool_call", "tool_result", "usage", "final", "run_end", "permission_request"},
	} {
		for _, typ := range want {
			if types[p][typ] == 0 {
				t.Errorf("%s corpus has no %s event: %v", p, typ, types[p])
			}
		}
	}
}

func TestHuge(t *testing.T) {
	for _, p := range []Protocol{EvoSci, Zero} {
		var b bytes.Buffer
		if err := WriteHuge(&b, p, 1<<20); err != nil {
			t.Fatal(err)
		}
		if bytes.Count(b.Bytes(), []byte("\n")) != 1 || b.Len() < 1<<20 {
			t.Fatalf("%s: want one line of at least 1 MiB, got %d bytes", p, b.Len())
		}
		if !json.Valid(bytes.TrimSpace(b.Bytes())) {
			t.Fatalf("%s: not valid JSON", p)
		}
	}
}
