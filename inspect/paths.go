// Package inspect checks, summarizes and renders agents' stream-json
// logs, every dialect's through the event model: the logic behind zevo
// validate, stats and view.
package inspect

import (
	"sort"
	"strconv"
)

func joinPath(path, key string) string {
	if !isPlainKey(key) {
		key = "[" + strconv.Quote(key) + "]"
		return path + key
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// isPlainKey reports a key that reads unambiguously in a dotted path.
func isPlainKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if !(c == '_' || c == '-' || c == '@' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
