package filter

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/zevo/zevo/jsonl"
)

// Values as jq reads them: spanning lines, several on a line, pretty
// printed; a bad value is reported where it starts and reading resumes at
// the next line that starts a value. The parallel and serial paths agree.
func TestValuesSpanningLines(t *testing.T) {
	for _, c := range []struct {
		name, in, out, errs string
	}{
		{"pretty object", "{\n  \"a\": 1,\n  \"b\": [\n    2,\n    3\n  ]\n}\n", "[1,[2,3]]\n", ""},
		{"pretty array of objects", "[\n{\"a\": 1},\n{\"a\": 2}\n]\n", "", "in:1: expected an object but got: array ([{\"a\":1},{\"a\":2}])\n"},
		{"several per line and across", "{\"a\": 1} {\"a\":\n2} 3\n", "[1,null]\n[2,null]\n", "in:1: expected an object but got: number (3)\n"},
		{"blank lines inside", "{\n\n\"a\": 1,\n\n\"b\": 2}\n", "[1,2]\n", ""},
		{"truncated line then JSONL", "{\"a\": 1,\n{\"a\": 2}\n", "[2,null]\n", "in:1: not valid JSON at byte 9: the line ends inside a value\n"},
		{"truncated array then JSONL", "[1, 2\n{\"a\": 3}\n", "[3,null]\n", "in:1: not valid JSON at byte 6: the line ends inside a value\n"},
		{"unterminated string", "{\"a\": \"x,\n{\"a\": 4}\n", "[4,null]\n", "in:1: not valid JSON at byte 10: the line ends inside a value\n"},
		{"error inside a pretty value", "{\n  \"a\": 1 x\n}\n{\"a\": 5}\n", "[5,null]\n", "in:1: not valid JSON at line 2, byte 10: unexpected 'x'\n"},
		{"a value on the next line", "{\"a\":\n{\"b\": 1}, \"b\": 2}\n", "[{\"b\":1},2]\n", ""},
		{"a value on the next line, cut", "{\"a\":\n{\"b\": 1}\n{\"a\": 7}\n", "[null,1]\n[7,null]\n", "in:1: not valid JSON at byte 6: the line ends inside a value\n"},
		{"a cut line, then a pretty value", "{\"a\": 1, \"b\":\n{\n  \"a\": 2\n}\n{\"a\": 3}\n", "[2,null]\n[3,null]\n", "in:1: not valid JSON at byte 14: the line ends inside a value\n"},
		{"a cut line, blank lines, a line", "{\"a\":\n\n \n{\"a\": 8}\n", "[8,null]\n", "in:1: not valid JSON at byte 6: the line ends inside a value\n"},
		{"two cut lines", "{\"a\":\n{\"a\": [\n{\"a\": 5}\n", "[5,null]\n", "in:1: not valid JSON at byte 6: the line ends inside a value\nin:2: not valid JSON at byte 8: the line ends inside a value\n"},
		{"cut at the end", "{\"a\": 6}\n{\n  \"a\": [1,\n", "[6,null]\n", "in:2: not valid JSON at line 3, byte 11: the line ends inside a value\n"},
	} {
		for _, expr := range []string{`[.a, .b]`, `[.a, .b] | input_line_number as $n | .`} {
			for _, opt := range []Options{{Expr: expr, Workers: 2}, {Expr: expr, NullInput: true}} {
				opt := opt
				if opt.NullInput {
					opt.Expr = "inputs | " + expr
				}
				out, errs, _ := run(t, opt, strInput("in", c.in))
				if c.name == "several per line and across" && opt.NullInput {
					// the error stops inputs
					continue
				}
				if out != c.out || errs != c.errs {
					t.Errorf("%s: %s: got\n%s%s\nwant\n%s%s", c.name, opt.Expr, out, errs, c.out, c.errs)
				}
			}
		}
	}
}

func TestRawInputKeepsCR(t *testing.T) {
	out, _, _ := run(t, Options{Expr: ".", RawInput: true, Workers: 2}, strInput("in", "a\r\n\nb"))
	if want := "\"a\\r\"\n\"\"\n\"b\"\n"; out != want {
		t.Errorf("-R: %q, want %q", out, want)
	}
	out, _, _ = run(t, Options{Expr: ".", RawInput: true, Slurp: true}, strInput("in", "a\r\n\nb"))
	if want := "\"a\\r\\n\\nb\"\n"; out != want {
		t.Errorf("-R -s: %q, want %q", out, want)
	}
	if strings.Contains(out, "\r") {
		t.Error("raw CR written")
	}
}

// BenchmarkUnits compares cutting JSONL into units with reading its lines
// alone: the cost of reading values as jq does on the JSONL fast path.
func BenchmarkUnits(b *testing.B) {
	var sb strings.Builder
	if err := writeCorpus(&sb, 8<<20, 3); err != nil {
		b.Fatal(err)
	}
	corpus := sb.String()
	for _, units := range []bool{false, true} {
		b.Run(fmt.Sprintf("units=%v", units), func(b *testing.B) {
			b.SetBytes(int64(len(corpus)))
			for b.Loop() {
				rd := jsonl.NewReader(strings.NewReader(corpus), "c", nil)
				u := newUnits(rd, false)
				n := 0
				for {
					var err error
					if units {
						_, err = u.next()
					} else {
						_, err = rd.Next()
					}
					if err != nil {
						break
					}
					n++
				}
				if n == 0 {
					b.Fatal("no lines")
				}
			}
		})
	}
}

// TestCutLineDoesNotSwallowTheNext: a line cut where a value is expected
// (after ":", ",", "[", "{", inside a string) is reported alone, as
// FILE:LINE, and the complete line after it is read alone: no value lost,
// in the middle of the input or at its end, on both paths.
func TestCutLineDoesNotSwallowTheNext(t *testing.T) {
	const next = `{"type":"run_start","n":2}`
	for _, c := range []struct{ name, cut string }{
		{"after colon", `{"type":"run_start","n":`},
		{"after comma in array", `{"type":"run_start","a":[1,`},
		{"after comma in object", `{"type":"run_start","n":1,`},
		{"after bracket", `{"type":"run_start","a":[`},
		{"after brace", `{"type":"run_start","a":{`},
		{"inside a string", `{"type":"run_start","a":"x`},
		{"bracket alone", `[`},
	} {
		wantErr := fmt.Sprintf("in:2: not valid JSON at byte %d: the line ends inside a value\n", len(c.cut)+1)
		for _, tail := range []string{"", "{\"type\":\"run_start\",\"n\":3}\n"} {
			in := "{\"type\":\"run_start\",\"n\":1}\n" + c.cut + "\n" + next + "\n" + tail
			wantOut := "1\n2\n"
			if tail != "" {
				wantOut += "3\n"
			}
			const expr = `select(.type=="run_start") | .n`
			for _, opt := range []Options{{Expr: expr, Workers: 2}, {Expr: "inputs | " + expr, NullInput: true}} {
				out, errs, st := run(t, opt, strInput("in", in))
				if out != wantOut || errs != wantErr {
					t.Errorf("%s (%d lines): %s: got\n%s%s\nwant\n%s%s", c.name, strings.Count(in, "\n"), opt.Expr, out, errs, wantOut, wantErr)
				}
				if lines := strings.Count(in, "\n"); st.Lines != lines {
					t.Errorf("%s: %s: %d lines counted, want %d", c.name, opt.Expr, st.Lines, lines)
				}
			}
		}
	}
}

// TestCutLineThenPauseLive: on a live input, a cut line and then a line
// that is JSON alone, then nothing for a while (a log that ends there for
// now): that line's value comes out without waiting for more input.
func TestCutLineThenPauseLive(t *testing.T) {
	for _, opt := range []Options{{Expr: ".a", Workers: 2}, {Expr: "inputs | .a", NullInput: true}} {
		f, err := Compile(opt)
		if err != nil {
			t.Fatal(err)
		}
		in, feed := io.Pipe()
		out, outw := io.Pipe()
		var errs bytes.Buffer
		done := make(chan struct{})
		go func() {
			defer close(done)
			f.Run([]Input{{Name: "in", Open: func() (io.ReadCloser, error) { return in, nil }}}, outw, &errs)
			outw.Close()
		}()
		go io.WriteString(feed, "{\"a\": 1, \"b\":\n{\"a\": 2}\n")
		lines := make(chan string)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		select {
		case l := <-lines:
			if l != "2" {
				t.Errorf("%s: got %q, want 2", opt.Expr, l)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s: the line after the cut one waits for more input", opt.Expr)
		}
		feed.Close()
		for range lines {
		}
		<-done
		if want := "in:1: not valid JSON at byte 14: the line ends inside a value\n"; errs.String() != want {
			t.Errorf("%s: stderr %q, want %q", opt.Expr, errs.String(), want)
		}
	}
}
