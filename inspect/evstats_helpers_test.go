package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"testing"

	"github.com/zevo/zevo/dialects"
	evt "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/pricing"
)

// summarizeEvents is stats' reading of data (EventSummarizer): every
// line through dialects.NewInput.
func summarizeEvents(t testing.TB, data []byte, name string) *FileStats {
	return summarizeEventsWith(t, data, name, nil)
}

func summarizeEventsWith(t testing.TB, data []byte, name string, invalid func(int, error)) *FileStats {
	s := NewEventSummarizer(name, dialects.NewInput(evt.DecodeOptions{}))
	s.Invalid = invalid
	lr := jsonl.NewReader(bytes.NewReader(data), name, nil)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s.Line(l)
	}
	return s.End()
}

// statsStreams are testdata's Zero and EvoScientist streams.
func statsStreams(t testing.TB) []string {
	var files []string
	for _, g := range []string{"translate/*.jsonl", "inspect/*.jsonl", "golden/*/*.jsonl", "hostile/*.jsonl"} {
		m, err := filepath.Glob(filepath.Join("..", "testdata", g))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 50 {
		t.Fatalf("only %d streams found", len(files))
	}
	sort.Strings(files)
	return files
}

func statsJSON(t testing.TB, f *FileStats) any {
	Pricing{Tables: []*pricing.Table{pricing.Snapshot()}}.Apply([]*FileStats{f})
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// jsonDiff lists the paths where a and b differ.
func jsonDiff(path string, a, b any, out *[]string) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		ks := make([]string, 0, len(keys))
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			jsonDiff(path+"."+k, x[k], y[k], out)
		}
		return
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			break
		}
		for i := range x {
			jsonDiff(fmt.Sprintf("%s[%d]", path, i), x[i], y[i], out)
		}
		return
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		*out = append(*out, fmt.Sprintf("%s: %v → %v", path, clipAny(a), clipAny(b)))
	}
}

func clipAny(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}
