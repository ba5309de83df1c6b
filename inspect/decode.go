// Package inspect checks, summarizes and renders Zero and EvoScientist
// stream-json logs: the logic behind zevo validate, stats and view.
package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/zevo/zevo/jsonl"
)

// Protocol is the protocol of a stream, or of one line.
type Protocol int

const (
	Auto      Protocol = iota // detect from the first event
	Zero                      // Zero output events, schema version 2
	Zero1                     // Zero output events, schema version 1
	ZeroInput                 // Zero input events (message, prompt)
	EvoSci                    // EvoScientist events
)

var protocolNames = [...]string{"auto", "zero", "zero@1", "zero-input", "evosci"}

func (p Protocol) String() string { return protocolNames[p] }

// ParseProtocol reads a protocol name as the CLI spells it.
func ParseProtocol(s string) (Protocol, error) {
	switch s {
	case "zero@2":
		return Zero, nil
	case "evoscientist":
		return EvoSci, nil
	}
	for i, n := range protocolNames {
		if n == s {
			return Protocol(i), nil
		}
	}
	return Auto, fmt.Errorf("unknown protocol %q (want auto, zero, zero@1, zero-input or evosci)", s)
}

// isZero reports a Zero output protocol.
func (p Protocol) isZero() bool { return p == Zero || p == Zero1 }

// detect names the protocol of one decoded event: Zero events carry
// schemaVersion, input events are typed message or prompt.
func detect(obj map[string]any) Protocol {
	sv, ok := obj["schemaVersion"]
	if !ok {
		return EvoSci
	}
	if t, _ := obj["type"].(string); t == "message" || t == "prompt" {
		return ZeroInput
	}
	if n, ok := sv.(json.Number); ok && n.String() == "1" {
		return Zero1
	}
	return Zero
}

// nonFinite is a bare NaN, Infinity or -Infinity found in a line.
type nonFinite struct {
	token string
	path  string // where it was, as a field path ("args.x")
}

// sentinel starts the string that stands in for a non-finite number while
// the line is decoded; no producer writes a string starting with NUL.
const sentinel = "\x00zevo-nonfinite-"

// decodeLine decodes one line with numbers kept exactly (json.Number, so
// integers of any size survive). Python's bare NaN, Infinity and -Infinity
// (EvoScientist writes them inside args) are not JSON; they are reported in
// nf and decoded as null, so the rest of the line can still be checked.
func decodeLine(b []byte) (v any, nf []nonFinite, err error) {
	v, err = decodeStrict(b)
	if err == nil {
		return v, nil, nil
	}
	fixed, tokens := replaceNonFinite(b)
	if len(tokens) == 0 {
		return nil, nil, err
	}
	v, ferr := decodeStrict(fixed)
	if ferr != nil {
		return nil, nil, err
	}
	found := map[int]string{}
	v = unmark(v, "", found)
	for i, tok := range tokens {
		nf = append(nf, nonFinite{token: tok, path: found[i]})
	}
	return v, nf, nil
}

func decodeStrict(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	// Only the end of the line may follow: another value, or bytes that
	// are not JSON at all (trailing garbage, a NUL), make the line bad.
	switch _, err := dec.Token(); {
	case err == nil:
		return nil, errors.New("more than one JSON value on the line")
	case err != io.EOF:
		return nil, err
	}
	return v, nil
}

// replaceNonFinite replaces bare NaN, Infinity and -Infinity outside strings
// by numbered sentinel strings.
func replaceNonFinite(b []byte) ([]byte, []string) { return replaceNonFiniteAs(b, false) }

// replaceNonFiniteAs replaces them by sentinels, or with asText by strings
// holding the token ("NaN"), for display.
func replaceNonFiniteAs(b []byte, asText bool) ([]byte, []string) {
	var tokens []string
	out, _ := jsonl.ReplaceNonFinite(b, func(dst []byte, tok string, n int) []byte {
		tokens = append(tokens, tok)
		if asText {
			return append(append(append(dst, '"'), tok...), '"')
		}
		dst = append(dst, `"\u0000zevo-nonfinite-`...)
		dst = strconv.AppendInt(dst, int64(n), 10)
		return append(dst, '"')
	})
	return out, tokens
}

// unmark replaces sentinels by nil, recording each one's path.
func unmark(v any, path string, found map[int]string) any {
	switch x := v.(type) {
	case string:
		if n, ok := strings.CutPrefix(x, sentinel); ok {
			if i, err := strconv.Atoi(n); err == nil {
				found[i] = path
				return nil
			}
		}
	case map[string]any:
		for k, e := range x {
			x[k] = unmark(e, joinPath(path, k), found)
		}
	case []any:
		for i, e := range x {
			x[i] = unmark(e, path+"["+strconv.Itoa(i)+"]", found)
		}
	}
	return v
}

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

// jsonError describes why a line is not JSON, with its column.
func jsonError(b []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("not valid JSON: %s (column %d)", se.Error(), se.Offset)
	}
	var ue *json.UnmarshalTypeError
	if errors.As(err, &ue) {
		return "not valid JSON: " + ue.Error()
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return "not valid JSON: the line ends inside a value"
	}
	return "not valid JSON: " + err.Error()
}

// quote renders a value from the input for a diagnostic: quoted, escaped
// (no control or format character reaches the terminal), and clipped.
func quote(s string) string {
	const max = 60
	r := []rune(s)
	if len(r) > max {
		return strconv.Quote(string(r[:max-3])) + "..."
	}
	return strconv.Quote(s)
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
