package jsonl

import "testing"

// TestLoneSurrogateKeptRoundTrip: AppendUnescapedKeep keeps a lone
// surrogate, which AppendString writes back as its escape in either
// style, while AppendUnescaped reads it as U+FFFD; a bad byte that is no
// kept surrogate is still written as U+FFFD.
func TestLoneSurrogateKeptRoundTrip(t *testing.T) {
	for _, c := range []struct{ body, goOut, pyOut string }{
		{`\ud800`, `"\ud800"`, `"\ud800"`},
		{`a\udfffb`, `"a\udfffb"`, `"a\udfffb"`},
		{`\ud83d\ude00\ud83d`, `"😀\ud83d"`, `"\ud83d\ude00\ud83d"`},
		{`\udc00\ud800`, `"\udc00\ud800"`, `"\udc00\ud800"`},
	} {
		text := string(AppendUnescapedKeep(nil, c.body))
		if got := string(AppendString(nil, text, GoStyle)); got != c.goOut {
			t.Errorf("%s: Go style %s, want %s", c.body, got, c.goOut)
		}
		if got := string(AppendString(nil, text, PythonStyle)); got != c.pyOut {
			t.Errorf("%s: Python style %s, want %s", c.body, got, c.pyOut)
		}
		if got := string(AppendUnescaped(nil, c.body)); got == text {
			t.Errorf("%s: AppendUnescaped kept the surrogate: %q", c.body, got)
		}
	}
	if got := string(AppendString(nil, "a\xffb\xed\xa0", GoStyle)); got != `"a\ufffdb\ufffd\ufffd"` {
		t.Errorf("bad bytes written %s, want each as \\ufffd", got)
	}
}
