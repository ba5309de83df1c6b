package event

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/jsonl"
)

// lineKeys are the keys and paths the decoders look up, and paths a
// Line must leave to gjson (wildcards, queries, modifiers, escapes).
var lineKeys = []string{
	"type", "schemaVersion", "runId", "sessionId", "model", "apiModel", "cwd", "provider",
	"delta", "content", "name", "id", "args", "status", "output", "truncated", "reason",
	"decisionReason", "action", "permissionGranted", "sideEffect", "promptTokens",
	"completionTokens", "totalTokens", "costUsd", "text", "message", "code", "checkpoint",
	"exitCode", "success", "input_tokens", "output_tokens", "tool_call_id", "interrupt_id",
	"questions", "action_requests", "response", "instance_id", "subagent", "a", "b", "",
	"session_id", "tool_input", "model_call_id", "call_id", "timestamp_ms", "subtype",
	"block.reason", "violation.reason", "checkpoint.files", "checkpoint.sequence",
	"a.b", "a.b.c", "message.content", "usage.input_tokens", "questions.#.question",
	"questions.0", "args.command", "ty*e", "typ?", "type|@this", "@this", "#", "a\\.b",
	"type.", ".type", "a..b", "!true",
}

// lineCheck is the check every command made of a line before Check: a
// JSON object as gjson validates it, UTF-8, not too deep.
func lineCheck(b []byte) bool {
	t := bytes.TrimLeft(b, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && gjson.ValidBytes(b) && utf8.Valid(b) && !jsonl.TooDeep(b)
}

// sameAsGJSON fails the test where a Line reads line otherwise than gjson
// does: read as it goes (asked one key first, then all of them), read
// whole by Check, and read the reference way (PlainLine).
func sameAsGJSON(t *testing.T, line []byte) {
	t.Helper()
	keys := lineKeys
	gjson.ParseBytes(line).ForEach(func(k, _ gjson.Result) bool {
		keys = append(keys, k.Str, k.Str+".x")
		return len(keys) < len(lineKeys)+40
	})
	checked := ReadLine(line)
	if got, want := checked.Check(), lineCheck(line); got != want {
		t.Fatalf("%q: Check %v, want %v", line, got, want)
	}
	plain := PlainLine(line)
	lazy := ReadLine(line)
	for _, k := range keys {
		want := gjson.GetBytes(line, k)
		first := ReadLine(line)
		ways := []struct {
			how string
			l   *Line
		}{{"checked", &checked}, {"plainly", &plain}, {"asked first", &first}, {"as it goes", &lazy}}
		if !checked.Check() {
			ways = ways[:2] // read as it goes, a broken line is read as well as it can be
		}
		for _, c := range ways {
			got := c.l.Get(k)
			if got.Type != want.Type || got.Raw != want.Raw || got.Str != want.Str || !sameNum(got.Num, want.Num) ||
				got.Index != want.Index || got.Exists() != want.Exists() {
				t.Fatalf("%q read %s: Get(%q) = %#v, want %#v", line, c.how, k, got, want)
			}
			if s, typ := c.l.Str(k); s != want.Str || typ != want.Type {
				t.Fatalf("%q read %s: Str(%q) = %q %v", line, c.how, k, s, typ)
			}
			if typ := c.l.Kind(k); typ != want.Type {
				t.Fatalf("%q read %s: Kind(%q) = %v, want %v", line, c.how, k, typ, want.Type)
			}
			if k != "" && plainByte[k[0]] && !strings.ContainsAny(k, ".*?|#@\\!") && c.l.Has(k) != want.Exists() {
				t.Fatalf("%q read %s: Has(%q) = %v", line, c.how, k, !want.Exists())
			}
		}
	}
	want := gjson.GetBytes(line, "type")
	for _, l := range []*Line{&checked, &plain} {
		if typ, ok := l.Type(); ok != (want.Type == gjson.String) || typ != want.Str && ok {
			t.Fatalf("%q: Type() = %q %v, want %q", line, typ, ok, want.Str)
		}
		if got := l.IsObject(); got != gjson.ParseBytes(line).IsObject() {
			t.Fatalf("%q: IsObject %v", line, got)
		}
	}
}

func sameNum(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// testdataLines are the lines of every stream of testdata (those of huge
// files only up to a point), and edge cases.
func testdataLines(t testing.TB) [][]byte {
	t.Helper()
	var lines [][]byte
	err := filepath.WalkDir(filepath.Join("..", "testdata"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for n := 0; sc.Scan() && n < 2000; n++ {
			lines = append(lines, bytes.Clone(sc.Bytes()))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) < 500 {
		t.Fatalf("only %d lines", len(lines))
	}
	for _, l := range lineEdges {
		lines = append(lines, []byte(l))
	}
	return lines
}

var lineEdges = []string{
	`{"type":"text","type":1}`, `{"ty\u0070e":"x","type":"y"}`, `{"a":{"b":1},"a":{"b":2}}`,
	`{"a":"\u00e9\ud83d\ude00\ud800 \/ \\ \"","b":-0.5e-3,"c":[{"b":"x"}]}`,
	`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":tru}`, `{"a":nul}`, `{"a":"\x"}`,
	`{"a":"\u12"}`, "{\"a\":\"\x01\"}", "{\"a\":\"\xff\"}", "{\"a\":\"\xed\xa0\x80\"}",
	`{"a":[1,]}`, `{"a":{"b":1,}}`, `{"a":{,}}`, `{"a" 1}`, `{"a":1 "b":2}`, `{"a":1}}`,
	` {"a":1} `, "\t{\"a\":1}\r", "\x01{\"a\":1}", "\ufeff{\"a\":1}", `{"a":NaN}`,
	`{"a":[[[[[]]]]],"b":{"c":{"d":{}}}}`, strings.Repeat("[", 20000) + strings.Repeat("]", 20000),
	`{"a":` + strings.Repeat("[", jsonl.MaxDepth-1) + strings.Repeat("]", jsonl.MaxDepth-1) + `}`,
	`{"a":` + strings.Repeat("[", jsonl.MaxDepth) + strings.Repeat("]", jsonl.MaxDepth) + `}`,
	`{"type":"x","block":{"reason":"r"},"block":{"reason":"s"}}`, `{"block":"reason"}`,
	`{"questions":[{"question":"q1"},{"question":2},{"question":"q3"}]}`, `{"a.b":1,"a":{"b":2}}`,
	`{"session_ix":1,"tool_inpuT":2,"type":"x","call_ie":3}`, `{"session_id":1,"call_id":2}`,
	`{"":1,"a":""}`, `{"a":"b"`, `{"a":"b\`, `{`, `}`, `{}`, ``, `[]`, `"x"`, `1`, `null`,
}

// A Line reads every line of testdata's streams, and broken and tricky
// lines, as gjson reads it, whichever way it reads: so the decoders that
// read their fields through it make of each line what plain gjson makes.
func TestLineReadsAsGJSON(t *testing.T) {
	for _, line := range testdataLines(t) {
		sameAsGJSON(t, line)
	}
}

func FuzzLineReadsAsGJSON(f *testing.F) {
	for _, l := range lineEdges {
		f.Add([]byte(l))
	}
	f.Add([]byte(`{"type":"tool_call","args":{"a":[1,"\u0041"]},"schemaVersion":2}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		sameAsGJSON(t, line)
	})
}

// Input.Check reads a line once for the check and the decoding: a line
// given to Line right after is not read again, another one is.
func TestInputLineAfterCheck(t *testing.T) {
	d := &Dialect{Name: "t", DetectLine: func(l *Line) Certainty {
		if typ, _ := l.Type(); typ == "t" {
			return Sure
		}
		return No
	}, NewDecoder: func(DecodeOptions) Decoder { return &typeDecoder{} }}
	in := NewInput([]*Dialect{d}, d, DecodeOptions{})
	buf := []byte(`{"type":"t","n":1}`)
	if !in.Check(buf) {
		t.Fatal("Check refused a good line")
	}
	var got []string
	fn := func(ev *Event, _ Step) {
		if ev != nil {
			got = append(got, ev.Type+" "+ev.Text)
		}
	}
	in.Line(buf, 1, fn)
	copy(buf, `{"type":"t","n":2}`) // the same memory, another line, not checked
	in.Line(buf, 2, fn)
	if want := []string{"t 1", "t 2"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("events %q, want %q", got, want)
	}
}

// typeDecoder makes one event of each line: its type, and its n as Text.
type typeDecoder struct{}

func (typeDecoder) Decode(dst []Event, line []byte, num int) ([]Event, error) {
	l := ReadLine(line)
	return typeDecoder{}.DecodeLine(dst, &l, num)
}

func (typeDecoder) DecodeLine(dst []Event, l *Line, num int) ([]Event, error) {
	typ, _ := l.Type()
	return append(dst, Event{Type: typ, Text: l.Get("n").Raw, Line: num, Raw: l.Bytes}), nil
}

func (typeDecoder) End(dst []Event) []Event { return dst }

// Reset leaves nothing of the last line but its fields' room: every
// field of Line set (through reflection, so a field added later is
// covered) reads as a new Line's once Reset.
func TestResetForgets(t *testing.T) {
	var l Line
	l.Reset([]byte(`{"type":"x","a":1}`))
	l.Check()
	v := reflect.ValueOf(&l).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
		switch f.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int64:
			f.SetInt(3)
		case reflect.Uint64:
			f.SetUint(7)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.String:
			f.SetString("stale")
		case reflect.Slice:
			f.Set(reflect.ValueOf([]byte("stale")))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Struct: // fields: its List is kept, emptied; Read sets the rest
		default:
			t.Fatalf("field %s: set it here", v.Type().Field(i).Name)
		}
	}
	line := []byte(`{"b":2}`)
	l.Reset(line)
	if len(l.fields.List) != 0 || cap(l.fields.List) == 0 {
		t.Fatalf("fields: %+v, want none, their room kept", l.fields)
	}
	l.fields = jsonl.Members{}
	if want := ReadLine(line); !reflect.DeepEqual(l, want) {
		t.Fatalf("Reset left %+v, want %+v", l, want)
	}
}
