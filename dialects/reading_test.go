package dialects

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zevo/zevo/event"
)

// streams are testdata's streams: translate/, inspect/, golden/,
// hostile/, captures/ and the rest, each split into its lines.
func streams(t testing.TB) map[string][][]byte {
	t.Helper()
	out := map[string][][]byte{}
	err := filepath.WalkDir(filepath.Join("..", "testdata"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[p] = bytes.Split(b, []byte("\n"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"translate", "inspect", "golden", "hostile", "captures"} {
		found := false
		for p := range out {
			found = found || strings.HasPrefix(p, filepath.Join("..", "testdata", dir))
		}
		if !found {
			t.Fatalf("no stream under testdata/%s", dir)
		}
	}
	return out
}

// decoded is what a decoder made of one line.
type decoded struct {
	Events []event.Event
	Err    string
}

// decodeEach decodes lines with a new decoder of d, each line read by
// read: the decoder's own reading (read nil), or the line as read gives it.
func decodeEach(d *event.Dialect, lines [][]byte, read func([]byte) event.Line) []decoded {
	dec := d.NewDecoder(event.DecodeOptions{})
	var out []decoded
	for i, line := range lines {
		var evs []event.Event
		var err error
		if read == nil {
			evs, err = dec.Decode(nil, line, i+1)
		} else {
			l := read(line)
			evs, err = dec.(event.LineDecoder).DecodeLine(nil, &l, i+1)
		}
		o := decoded{Events: evs}
		if err != nil {
			o.Err = err.Error()
		}
		out = append(out, o)
	}
	return append(out, decoded{Events: dec.End(nil)})
}

// lineDecoders are the dialects whose decoders read a line through
// event.Line's one pass.
func lineDecoders(t testing.TB) []*event.Dialect {
	var out []*event.Dialect
	for _, d := range All {
		if _, ok := d.NewDecoder(event.DecodeOptions{}).(event.LineDecoder); ok {
			out = append(out, d)
		}
	}
	if len(out) < 2 {
		t.Fatalf("only %d decoders read lines in one pass", len(out))
	}
	return out
}

// sameReadings fails the test where a decoder's one-pass reading of lines
// makes other events or diagnostics than plain gjson's reading of them.
func sameReadings(t *testing.T, name string, ds []*event.Dialect, lines [][]byte) {
	t.Helper()
	for _, d := range ds {
		fast := decodeEach(d, lines, nil)
		plain := decodeEach(d, lines, func(b []byte) event.Line {
			l := event.PlainLine(b)
			l.Check()
			return l
		})
		for i := range fast {
			if !reflect.DeepEqual(fast[i], plain[i]) {
				t.Fatalf("%s line %d, %s: read in one pass\n%+v\nread by gjson\n%+v", name, i+1, d.Name, fast[i], plain[i])
			}
		}
	}
}

// The decoders that read a line's fields in one pass make of every line
// of testdata's streams the events and diagnostics that plain gjson's
// reading of each field makes.
func TestDecodersReadAsGJSON(t *testing.T) {
	ds := lineDecoders(t)
	for name, lines := range streams(t) {
		sameReadings(t, name, ds, lines)
	}
}

func FuzzDecodersReadAsGJSON(f *testing.F) {
	for _, lines := range streams(f) {
		if b := bytes.Join(lines, []byte("\n")); len(b) < 1<<14 {
			f.Add(b)
		}
	}
	ds := lineDecoders(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		sameReadings(t, "input", ds, bytes.Split(data, []byte("\n")))
	})
}

// An input read through Check before each line (once for the check and
// the decoding) gives the events of one read without it.
func TestInputCheckedReadsAsUnchecked(t *testing.T) {
	type placed struct {
		Event  event.Event
		Closed bool
	}
	read := func(lines [][]byte, check bool) []placed {
		in := NewInput(event.DecodeOptions{})
		var out []placed
		fn := func(ev *event.Event, st event.Step) {
			p := placed{Closed: st.Closed != nil}
			if ev != nil {
				p.Event = *ev
			}
			out = append(out, p)
		}
		for i, line := range lines {
			if check {
				in.Check(line)
			}
			in.Line(line, i+1, fn)
		}
		in.End(fn)
		return out
	}
	n := 0
	for name, lines := range streams(t) {
		var objs [][]byte
		for _, l := range lines {
			if l := bytes.TrimSpace(l); len(l) > 0 && l[0] == '{' {
				objs = append(objs, l)
			}
		}
		a, b := read(objs, true), read(objs, false)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: checked first, %d events; not, %d", name, len(a), len(b))
		}
		n += len(a)
	}
	if n < 500 {
		t.Errorf("only %d events", n)
	}
}
