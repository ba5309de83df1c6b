package translate

import (
	"strings"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/protocol"
)

// EvoScientist's and Zero's markers of a cut tool output, and each as
// every encoder spells it in JSON (the newline as \n).
var (
	evoTruncated     = protocol.EvoSci.Truncated
	zeroTruncated    = protocol.ZeroV2.Truncated
	evoTruncatedRaw  = strings.ReplaceAll(evoTruncated, "\n", `\n`)
	zeroTruncatedRaw = strings.ReplaceAll(zeroTruncated, "\n", `\n`)
)

// truncated reports whether a tool output ends with either producer's marker.
func truncated(v gjson.Result) bool {
	return stringHasSuffix(v, evoTruncated, evoTruncatedRaw) || stringHasSuffix(v, zeroTruncated, zeroTruncatedRaw)
}

// stringHasSuffix reports whether the JSON string v ends with suffix, an
// ASCII text whose only newline is its first byte; rawSuffix is suffix as
// every encoder spells it (the newline as \n).
func stringHasSuffix(v gjson.Result, suffix, rawSuffix string) bool {
	if v.Type != gjson.String || len(v.Raw) < 2 {
		return false
	}
	body := v.Raw[1 : len(v.Raw)-1]
	if strings.HasSuffix(body, rawSuffix) {
		// unless the backslash of \n is itself escaped (\\n)
		bs := 0
		for j := len(body) - len(rawSuffix) - 1; j >= 0 && body[j] == '\\'; j-- {
			bs++
		}
		return bs%2 == 0
	}
	// Another spelling of the suffix needs \u or \/ within its last 6 bytes
	// per character.
	start := max(0, len(body)-6*len(suffix)-6)
	tail := body[start:]
	if !strings.Contains(tail, `\u`) && !strings.Contains(tail, `\/`) {
		return false
	}
	// Decode what follows the last newline, which must be in the tail.
	// The tail is read from the start of the run of backslashes it may
	// begin inside: there, every backslash begins an escape.
	for start > 0 && body[start-1] == '\\' {
		start--
	}
	after, nl := 0, false
	for j := start; j < len(body); j++ {
		if body[j] != '\\' {
			continue
		}
		switch {
		case body[j+1] == 'n':
			after, nl = j+2, true
			j++
		case body[j+1] == 'u' && (body[j+2:j+6] == "000a" || body[j+2:j+6] == "000A"):
			after, nl = j+6, true
			j += 5
		default:
			j++
		}
	}
	if !nl || len(body)-after > 6*len(suffix) {
		return false
	}
	return gjson.Parse(`"`+body[after:]+`"`).Str == suffix[1:]
}
