package filter

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

func strInput(name, s string) Input {
	return Input{Name: name, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(s)), nil }}
}

func run(t *testing.T, opt Options, in ...Input) (string, string, Stats) {
	t.Helper()
	f, err := Compile(opt)
	if err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	st, err := f.Run(in, &out, &errw)
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), errw.String(), st
}

// bigInput has n lines; every bad-th line (when bad > 0) is not JSON.
func bigInput(n, bad int) (string, string, string) {
	var in, wantOut, wantErr strings.Builder
	for i := 1; i <= n; i++ {
		if bad > 0 && i%bad == 0 {
			fmt.Fprintf(&in, "{\"i\": %d,\n", i)
			fmt.Fprintf(&wantErr, "big:%d: not valid JSON at byte %d: the line ends inside a value\n", i, len(fmt.Sprint(i))+8)
			continue
		}
		fmt.Fprintf(&in, "{\"type\": \"tool_call\", \"i\": %d, \"pad\": \"%s\"}\n", i, strings.Repeat("x", i%97))
		fmt.Fprintf(&wantOut, "%d\n", i)
	}
	return in.String(), wantOut.String(), wantErr.String()
}

func TestParallelKeepsOrderAndReportsBadLines(t *testing.T) {
	in, wantOut, wantErr := bigInput(20000, 777)
	for _, workers := range []int{1, 2, 4} {
		opt := Options{Expr: "select(.type == \"tool_call\") | .i", Workers: workers}
		out, errs, st := run(t, opt, strInput("big", in))
		if out != wantOut {
			t.Errorf("workers %d: output differs (%d bytes, want %d)", workers, len(out), len(wantOut))
		}
		if errs != wantErr {
			t.Errorf("workers %d: diagnostics:\n%s\nwant:\n%s", workers, errs, wantErr)
		}
		if st.Lines != 20000 || st.Bad != 20000/777 || st.Values != 20000-20000/777 {
			t.Errorf("workers %d: stats %+v", workers, st)
		}
	}
}

func TestPassThroughIsByteExact(t *testing.T) {
	in, _, _ := bigInput(3000, 0)
	in += "{\"b\": 18446744073709551617, \"a\": 1.10, \"s\": \"\\u00e9\\/\"}\n"
	for _, workers := range []int{1, 2} {
		out, errs, _ := run(t, Options{Expr: "select(.a != 2)", Workers: workers}, strInput("x", in))
		if out != in || errs != "" {
			t.Errorf("workers %d: output is not the input (stderr %q)", workers, errs)
		}
	}
}

// gojq must not change a value in place, or writing the input's bytes
// for a result that is the same map would be wrong.
func TestChangedValueIsNotPassedThrough(t *testing.T) {
	in := "{\"b\": 1, \"a\": 2}\n"
	out, _, _ := run(t, Options{Expr: ". as $x | (.a = 5), $x, (.b |= . + 1), del(.a), $x"}, strInput("x", in))
	want := "{\"a\":5,\"b\":1}\n{\"b\": 1, \"a\": 2}\n{\"a\":2,\"b\":2}\n{\"b\":1}\n{\"b\": 1, \"a\": 2}\n"
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestHaltStopsInOrder(t *testing.T) {
	in, _, _ := bigInput(10000, 0)
	out, _, st := run(t, Options{Expr: "if .i == 5000 then halt_error(7) else .i end", Workers: 2}, strInput("x", in))
	var want strings.Builder
	for i := 1; i < 5000; i++ {
		fmt.Fprintf(&want, "%d\n", i)
	}
	if out != want.String() {
		t.Errorf("output after halt: %d bytes, want %d", len(out), want.Len())
	}
	if !st.Halted || st.HaltCode != 7 {
		t.Errorf("stats %+v", st)
	}
}

func TestFailFastStopsAtFirstError(t *testing.T) {
	in, _, _ := bigInput(10000, 0)
	out, errs, st := run(t, Options{Expr: "if .i == 4321 then error(\"boom\") else .i end", Workers: 2, FailFast: true}, strInput("x", in))
	if !strings.HasSuffix(out, "\n4320\n") || strings.Contains(out, "\n4322\n") {
		t.Errorf("output does not stop at line 4321: ...%s", out[max(0, len(out)-20):])
	}
	if errs != "x:4321: error: boom\n" || !st.Stopped || st.Errors != 1 {
		t.Errorf("stderr %q, stats %+v", errs, st)
	}
}

func TestLongLine(t *testing.T) {
	long := strings.Repeat("é", 3<<20)
	in := "{\"a\": 1}\n{\"content\": \"" + long + "\"}\n{\"a\": 2}\n"
	out, errs, _ := run(t, Options{Expr: ".content | length", Workers: 2}, strInput("x", in))
	if out != "0\n3145728\n0\n" || errs != "" {
		t.Errorf("got %q, stderr %q", out, errs)
	}
}

// LineGrows hears of a long line's buffer growing, before the line is
// filtered, in parallel and in serial, and not of short lines.
func TestLineGrows(t *testing.T) {
	long := strings.Repeat("x", 3<<20)
	in := "{\"a\": 1}\n{\"content\": \"" + long + "\"}\n{\"a\": 2}\n{\"a\": 3}\n"
	for _, expr := range []string{".content | length", "[., input] | length"} { // parallel, serial
		var caps []int
		opt := Options{Expr: expr, Workers: 2, LineGrows: func(c int) { caps = append(caps, c) }}
		out, errs, _ := run(t, opt, strInput("x", in))
		if errs != "" || out == "" {
			t.Fatalf("%s: got %q, stderr %q", expr, out, errs)
		}
		if len(caps) == 0 || caps[len(caps)-1] < len(long) {
			t.Fatalf("%s: capacities %v for a line of %d bytes", expr, caps, len(long))
		}
		caps = nil
		run(t, opt, strInput("x", "{\"a\": 1}\n"))
		if len(caps) != 0 {
			t.Fatalf("%s: a short line grew the buffer: %v", expr, caps)
		}
	}
}

func TestSerialChosenWhenNeeded(t *testing.T) {
	for expr, par := range map[string]bool{
		".a":                              true,
		"select(.type == \"input\")":      false, // a false alarm is allowed
		".input":                          true,
		". as $inputs | $inputs":          true,
		"[., input]":                      false,
		"first(inputs)":                   false,
		"debug":                           false,
		"debug(\"x\")":                    false,
		"stderr":                          false,
		"input_line_number":               true,
		"input_filename | ascii_downcase": true,
	} {
		f, err := Compile(Options{Expr: expr, Workers: 2})
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if f.Parallel() != par {
			t.Errorf("%s: parallel %v, want %v", expr, f.Parallel(), par)
		}
	}
	for _, opt := range []Options{{Expr: ".", Workers: 2, NullInput: true}, {Expr: ".", Workers: 2, Slurp: true}, {Expr: "debug", Workers: 1}} {
		f, _ := Compile(opt)
		if f.Parallel() {
			t.Errorf("%+v runs in parallel", opt)
		}
	}
}

func TestCompileErrorPlace(t *testing.T) {
	for expr, want := range map[string]string{
		"select(.a ==)":        "compile error at 1:13: unexpected token \")\"\n    select(.a ==)\n                ^",
		".a |\n  nosuch":       "compile error at 2:3: function not defined: nosuch/0\n      nosuch\n      ^",
		"[$x, $xs]":            "compile error at 1:2: variable not defined: $x\n    [$x, $xs]\n     ^",
		"\"café\" | foo(1; 2)": "compile error at 1:10: function not defined: foo/2\n    \"café\" | foo(1; 2)\n             ^",
	} {
		_, err := Compile(Options{Expr: expr})
		var ce *CompileError
		if !errors.As(err, &ce) {
			t.Fatalf("%q: %v", expr, err)
		}
		if ce.Error() != want {
			t.Errorf("%q:\n%s\nwant:\n%s", expr, ce.Error(), want)
		}
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("broken pipe")
}

func TestWriteErrorStops(t *testing.T) {
	in, _, _ := bigInput(200000, 0)
	for _, workers := range []int{1, 2} {
		f, err := Compile(Options{Expr: ".", Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		w := &failWriter{}
		_, err = f.Run([]Input{strInput("x", in)}, w, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "broken pipe") {
			t.Errorf("workers %d: error %v", workers, err)
		}
		if w.n != 1 {
			t.Errorf("workers %d: %d writes after the first failure", workers, w.n-1)
		}
	}
}

// signalWriter reports each write on a channel.
type signalWriter struct {
	buf   bytes.Buffer
	wrote chan string
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	w.wrote <- string(p)
	return len(p), nil
}

// A line read from a pipe is answered before the next line arrives, in
// the parallel path as well: output waits for nothing when input is idle.
func TestLiveness(t *testing.T) {
	for _, tc := range []struct {
		opt  Options
		line string
		want string
	}{
		{Options{Expr: ".a", Workers: 2}, "{\"a\": 1}\n", "1\n"},
		{Options{Expr: ".a", Workers: 1}, "{\"a\": 1}\n", "1\n"},
		{Options{Expr: "inputs | .a", Workers: 2, NullInput: true}, "{\"a\": 1}\n", "1\n"},
	} {
		pr, pw := io.Pipe()
		f, err := Compile(tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		w := &signalWriter{wrote: make(chan string, 100)}
		done := make(chan error)
		go func() {
			_, err := f.Run([]Input{{Name: "pipe", Open: func() (io.ReadCloser, error) { return pr, nil }}}, w, io.Discard)
			done <- err
		}()
		for i := 0; i < 3; i++ {
			if _, err := pw.Write([]byte(tc.line)); err != nil {
				t.Fatal(err)
			}
			select {
			case got := <-w.wrote:
				if got != tc.want {
					t.Errorf("%+v: wrote %q, want %q", tc.opt, got, tc.want)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("%+v: line %d not written while input is idle", tc.opt, i+1)
			}
		}
		pw.Close()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

func TestEvalPlaces(t *testing.T) {
	f, err := Compile(Options{Expr: "[input_filename, input_line_number, .a]", Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	for i, name := range []string{"run.jsonl", "<stdin>"} {
		if stop, err := f.Eval([]byte(`{"a": 1}`), name, i+7, &out, &errw); stop || err != nil {
			t.Fatal(stop, err)
		}
	}
	if want := "[\"run.jsonl\",7,1]\n[\"<stdin>\",8,1]\n"; out.String() != want || errw.Len() != 0 {
		t.Errorf("got %q, stderr %q", out.String(), errw.String())
	}
}
