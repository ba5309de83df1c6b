package filter

import (
	"bytes"
	"encoding/json"
	"slices"
)

// streamEvents appends to evs jq's --stream events of the value v, whose
// JSON text is raw: [path, leaf] for every scalar and empty container,
// and [path] after the last element of every other container, path
// being that element's. Objects are walked in the text's key order; when
// the text cannot be read token by token (a Python NaN), in the order of
// sorted keys.
func streamEvents(evs []any, v any, raw []byte) []any {
	if raw != nil {
		if out, ok := streamText(evs, raw); ok {
			return out
		}
	}
	return streamValue(evs, v, []any{}, true)
}

func copyPath(p []any) []any { return append([]any{}, p...) }

func streamValue(evs []any, v any, path []any, top bool) []any {
	switch x := v.(type) {
	case map[string]any:
		if len(x) > 0 {
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				evs = streamValue(evs, x[k], append(path, k), false)
			}
			return append(evs, []any{copyPath(append(path, keys[len(keys)-1]))})
		}
	case []any:
		if len(x) > 0 {
			for i, e := range x {
				evs = streamValue(evs, e, append(path, i), false)
			}
			return append(evs, []any{copyPath(append(path, len(x)-1))})
		}
	}
	return append(evs, []any{copyPath(path), v})
}

// streamText makes the events from the text, keeping its key order.
func streamText(evs []any, raw []byte) ([]any, bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	type frame struct {
		obj  bool
		next int // index of the next element of an array
		last any // key or index of the last element
	}
	var stack []*frame
	// path leads to the value being read; inside an object, between a
	// value and the next key, it leads to the object.
	path := []any{}
	done := func() { // the value at path is complete
		if len(stack) > 0 {
			path = path[:len(path)-1]
		}
	}
	for {
		tok, err := d.Token()
		if err != nil {
			return evs, len(stack) == 0 && len(evs) > 0
		}
		if n := len(stack); n > 0 {
			top := stack[n-1]
			if tok == json.Delim('}') || tok == json.Delim(']') {
				evs = append(evs, []any{copyPath(append(path, top.last))})
				stack = stack[:n-1]
				done()
				continue
			}
			if top.obj && len(path) == n-1 {
				path = append(path, tok.(string)) // a key: its value follows
				top.last = tok
				continue
			}
			if !top.obj {
				path = append(path, top.next)
				top.last = top.next
				top.next++
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if d.More() {
				stack = append(stack, &frame{obj: tok == json.Delim('{')})
				continue
			}
			d.Token() // the end of an empty container
			var empty any = map[string]any{}
			if tok == json.Delim('[') {
				empty = []any{}
			}
			evs = append(evs, []any{copyPath(path), empty})
		default:
			evs = append(evs, []any{copyPath(path), tok})
		}
		done()
	}
}
