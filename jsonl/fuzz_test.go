package jsonl

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/zevo/zevo/redact"
)

// seedFiles returns the committed sample and hostile inputs, whole.
func seedFiles(t testing.TB) [][]byte {
	var out [][]byte
	for _, glob := range []string{"../testdata/translate/*", "../testdata/hostile/*"} {
		names, _ := filepath.Glob(glob)
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		t.Fatal("no seed files found")
	}
	return out
}

// wantLines is the reader's contract, written the slow way: split at \n,
// drop one CR before each \n, drop a BOM at the very start, and a last
// line without \n is a line unless it is empty.
func wantLines(data []byte) (lines [][]byte, lastNoNL bool) {
	data = bytes.TrimPrefix(data, bom)
	parts := bytes.Split(data, []byte("\n"))
	for i, p := range parts {
		if i == len(parts)-1 {
			if len(p) > 0 {
				lines = append(lines, p)
				lastNoNL = true
			}
			break
		}
		lines = append(lines, bytes.TrimSuffix(p, []byte("\r")))
	}
	return lines, lastNoNL
}

func FuzzReader(f *testing.F) {
	for _, b := range seedFiles(f) {
		f.Add(b, uint8(0))
	}
	f.Add([]byte("\xef\xbb\xbf{}\r\n\r\n\n{\"a\":1}"), uint8(1))
	f.Add([]byte("\r\r\n\xef\xbb\xbf\n"), uint8(2))
	f.Add([]byte("\xef\xbb\xbfa\r\n\nb\r\n{}"), uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		var r io.Reader = bytes.NewReader(data)
		if mode&1 != 0 {
			r = iotest.OneByteReader(r)
		}
		size := ReaderSize
		if mode&2 != 0 {
			size = 16 // every line over 16 bytes takes the long-line path
		}
		idles := 0
		lr := newReaderSize(r, "f", func() error { idles++; return nil }, size)
		want, lastNoNL := wantLines(data)
		var got [][]byte
		var last Line
		for {
			var l Line
			var err error
			if mode&4 != 0 {
				// NextInto, into a Line that holds the last one:
				// the same lines, each field written.
				l = last
				err = lr.NextInto(&l)
			} else {
				l, err = lr.Next()
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if l.Num != len(got)+1 || l.Name != "f" {
				t.Fatalf("line %d numbered %s", len(got)+1, l.Where())
			}
			got = append(got, bytes.Clone(l.Bytes))
			last = l
		}
		if len(got) != len(want) {
			t.Fatalf("%d lines, want %d", len(got), len(want))
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("line %d = %q, want %q", i+1, got[i], want[i])
			}
		}
		if len(got) > 0 && last.NoNewline != lastNoNL {
			t.Fatalf("last NoNewline = %v, want %v", last.NoNewline, lastNoNL)
		}
		if idles == 0 {
			t.Fatal("idle never called")
		}
		// Next after the end stays at the end.
		if _, err := lr.Next(); err != io.EOF {
			t.Fatalf("Next after EOF: %v", err)
		}
	})
}

// decodeTree decodes JSON keeping numbers as written.
func decodeTree(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("output %q is not JSON: %v", b, err)
	}
	if d.More() {
		t.Fatalf("output %q holds more than one value", b)
	}
	return v
}

// redactTree is Zero's redaction as Zero applies it: on the decoded value.
func redactTree(v any, rd *redact.Redactor) any {
	switch v := v.(type) {
	case string:
		return rd.String(v)
	case []any:
		for i := range v {
			v[i] = redactTree(v[i], rd)
		}
	case map[string]any:
		for k, x := range v {
			if redact.SensitiveKey(k) {
				v[k] = redact.Marker
			} else {
				v[k] = redactTree(x, rd)
			}
		}
	}
	return v
}

func FuzzAppendValue(f *testing.F) {
	for _, b := range seedFiles(f) {
		for _, line := range bytes.Split(b, []byte("\n")) {
			f.Add(line, uint8(0))
			f.Add(line, uint8(3))
		}
	}
	f.Add([]byte(`{"token": {"a": [1, "sk-abcdefghijklmnopqrstu"]}, "x": "Bearer abcdefghijklmnopqrstuvwx"}`), uint8(2))
	f.Add([]byte(`["\u0073k-abcdefghijklmnopqrstu", "api\u212aey=abcdefghijklmnop", "\ud800", -0, 1e400]`), uint8(3))
	f.Fuzz(func(t *testing.T, raw []byte, mode uint8) {
		st := GoStyle
		if mode&1 != 0 {
			st = PythonStyle
		}
		var rd *redact.Redactor
		if mode&2 != 0 {
			rd = &redact.Redactor{}
			if mode&4 != 0 {
				rd = redact.WithExtra()
			}
		}
		// The restyle of strings is the one before its fast paths, on
		// any bytes, from any place.
		restyleAgrees(t, raw, 0)
		restyleAgrees(t, raw, int(mode)%(len(raw)+1))
		out, err := AppendValue(nil, raw, st, rd)
		// On an error, callers drop what was appended.
		if plain, perr := appendValue(nil, raw, st, rd, false); (err == nil) != (perr == nil) || err == nil && !bytes.Equal(out, plain) {
			t.Fatalf("AppendValue(%q) = %q, %v; the plain path gives %q, %v", raw, out, err, plain, perr)
		}
		if !json.Valid(raw) {
			return // AppendValue's input is validated by its callers; it must only not panic
		}
		if err != nil {
			t.Fatalf("AppendValue(%q): %v", raw, err)
		}
		if !json.Valid(out) {
			t.Fatalf("AppendValue(%q) = %q, not JSON", raw, out)
		}
		if st == PythonStyle {
			for _, c := range out {
				if c >= 0x80 {
					t.Fatalf("Python style output %q holds non-ASCII", out)
				}
			}
		}
		want := decodeTree(t, raw)
		if rd != nil {
			want = redactTree(want, rd)
		}
		if got := decodeTree(t, out); !reflect.DeepEqual(got, want) {
			t.Fatalf("AppendValue(%q) = %q\n decodes to %#v\n want       %#v", raw, out, got, want)
		}
	})
}

// Every line of the seed files, in each style with and without redaction:
// the one-scan string path writes what the plain path writes.
func TestAppendValueOneScan(t *testing.T) {
	n := 0
	files := seedFiles(t)
	golden, _ := filepath.Glob("../testdata/golden/*/*.jsonl")
	for _, name := range golden {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	for _, b := range files {
		for _, line := range bytes.Split(b, []byte("\n")) {
			for _, st := range []Style{GoStyle, PythonStyle} {
				for _, rd := range []*redact.Redactor{nil, {}, redact.WithExtra()} {
					got, err := appendValue(nil, line, st, rd, true)
					want, werr := appendValue(nil, line, st, rd, false)
					if (err == nil) != (werr == nil) || err == nil && !bytes.Equal(got, want) {
						t.Fatalf("%q: one scan gives %q, %v; the plain path %q, %v", line, got, err, want, werr)
					}
					n++
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d cases", n)
	}
}

func TestTooDeep(t *testing.T) {
	deep := func(n int, open, close string) []byte {
		return []byte(strings.Repeat(open, n) + strings.Repeat(close, n))
	}
	for _, c := range []struct {
		b    []byte
		want bool
	}{
		{deep(MaxDepth, "[", "]"), false},
		{deep(MaxDepth+1, "[", "]"), true},
		{deep(MaxDepth+1, `{"a":`, "}"), true},
		{[]byte(`"` + strings.Repeat("[", 3*MaxDepth) + `"`), false}, // inside a string
		{[]byte(`["\"` + strings.Repeat("[", 3*MaxDepth) + `"]`), false},
		{[]byte(strings.Repeat("[]", 3*MaxDepth)), false}, // many, but shallow
		{[]byte(strings.Repeat("[", 100_000_000/100)), true},
	} {
		if got := TooDeep(c.b); got != c.want {
			t.Errorf("TooDeep(%.40q… %d bytes) = %v, want %v", c.b, len(c.b), got, c.want)
		}
		// the same limit as AppendValue's
		if _, err := AppendValue(nil, c.b, GoStyle, nil); (err == ErrDepth) != c.want {
			t.Errorf("AppendValue and TooDeep disagree on %.40q…: %v", c.b, err)
		}
	}
}
