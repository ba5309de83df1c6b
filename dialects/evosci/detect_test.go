package evosci

import (
	"testing"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/event"
	"github.com/zevo/zevo/event/eventtest"
)

// detectByField is Detect as a plain reading of both fields: the
// reference Detect (the type first) must agree with.
func detectByField(line []byte) event.Certainty {
	r := gjson.GetManyBytes(line, "type", "schemaVersion")
	if r[1].Exists() || r[0].Type != gjson.String || !isType(r[0].Str) {
		return event.No
	}
	return event.Maybe
}

// Detect decides as the plain reading does on every JSON object line of
// testdata/ (every dialect's) and on lines with keys written twice,
// fields of other types and escaped keys.
func TestDetectAgreesWithFieldByFieldReading(t *testing.T) {
	for _, l := range eventtest.DetectCases(t, "../../testdata") {
		want := detectByField(l)
		if got := Dialect.Detect(l); got != want {
			t.Errorf("%s: %v, the plain reading %v", l, got, want)
		}
		el := event.ReadLine(l)
		if got := Dialect.DetectLine(&el); got != want {
			t.Errorf("%s: typed %v, the plain reading %v", l, got, want)
		}
	}
}
