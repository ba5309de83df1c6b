package otel

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// pdataOf reads td back with the Collector's own decoder, from its
// OTLP/JSON.
func pdataOf(t *testing.T, td *Traces) ptrace.Traces {
	t.Helper()
	var u ptrace.JSONUnmarshaler
	p, err := u.UnmarshalTraces(td.AppendJSON(nil))
	if err != nil {
		t.Fatalf("not OTLP/JSON: %v\n%s", err, td.AppendJSON(nil))
	}
	return p
}

// asPdata builds td again with the Collector's pdata, field by field.
func asPdata(td *Traces) ptrace.Traces {
	p := ptrace.NewTraces()
	put := func(m pcommon.Map, a Attributes) {
		for _, kv := range a {
			switch v := kv.Value; v.Kind {
			case StrValue:
				m.PutStr(kv.Key, v.Str)
			case IntValue:
				m.PutInt(kv.Key, v.Int)
			case DoubleValue:
				m.PutDouble(kv.Key, v.Double)
			case BoolValue:
				m.PutBool(kv.Key, v.Bool)
			}
		}
	}
	for _, rs := range td.Resources {
		prs := p.ResourceSpans().AppendEmpty()
		put(prs.Resource().Attributes(), rs.Attributes)
		for _, ss := range rs.Scopes {
			pss := prs.ScopeSpans().AppendEmpty()
			pss.Scope().SetName(ss.Name)
			pss.Scope().SetVersion(ss.Version)
			for _, s := range ss.Spans {
				ps := pss.Spans().AppendEmpty()
				ps.SetTraceID(pcommon.TraceID(s.TraceID))
				ps.SetSpanID(pcommon.SpanID(s.SpanID))
				ps.SetParentSpanID(pcommon.SpanID(s.ParentSpanID))
				ps.SetName(s.Name)
				ps.SetKind(ptrace.SpanKind(s.Kind))
				ps.SetStartTimestamp(pcommon.Timestamp(s.Start))
				ps.SetEndTimestamp(pcommon.Timestamp(s.End))
				put(ps.Attributes(), s.Attributes)
				for _, e := range s.Events {
					pe := ps.Events().AppendEmpty()
					pe.SetTimestamp(pcommon.Timestamp(e.Time))
					pe.SetName(e.Name)
					put(pe.Attributes(), e.Attributes)
				}
				ps.Status().SetMessage(s.StatusMessage)
				ps.Status().SetCode(ptrace.StatusCode(s.StatusCode))
			}
		}
	}
	return p
}

// randomTraces makes traces of every shape zevo's can take: empty and
// set fields, strings with quotes, backslashes, control characters,
// invalid UTF-8 and other scripts, ints and doubles of every size.
func randomTraces(r *rand.Rand) *Traces {
	strs := []string{"", "a", `q"uote`, `back\slash`, "tab\tnl\ncr\r", "\x00\x01\x1f\x7f", "ünï ✓ 日本", "bad \xff\xfe utf8", "<&>", "\u2028\u2029", strings.Repeat("long ", 40)}
	str := func() string { return strs[r.IntN(len(strs))] }
	doubles := []float64{0, 1, -1, 0.5, 0.000088, 0.147376, 1e-7, 1.5e-300, 1e21, 1e20, 123456789.125, -2.5e-6, math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)}
	ints := []int64{0, 1, -1, 127, 128, 1 << 40, math.MaxInt64, math.MinInt64}
	attrs := func() Attributes {
		var a Attributes
		for range r.IntN(5) {
			key := str()
			switch r.IntN(4) {
			case 0:
				a.PutStr(key, str())
			case 1:
				a.PutInt(key, ints[r.IntN(len(ints))])
			case 2:
				a.PutDouble(key, doubles[r.IntN(len(doubles))])
			case 3:
				a.PutBool(key, r.IntN(2) == 0)
			}
		}
		return a
	}
	id := func(b []byte) {
		if r.IntN(4) > 0 {
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
		}
	}
	times := []uint64{0, 1, 1780480800005000000, math.MaxUint64}
	td := &Traces{}
	for range r.IntN(3) {
		rs := &ResourceSpans{Attributes: attrs()}
		for range r.IntN(3) {
			ss := &ScopeSpans{Name: str(), Version: str()}
			for range r.IntN(4) {
				s := &Span{Name: str(), Kind: int32(r.IntN(3)), Start: times[r.IntN(len(times))], End: times[r.IntN(len(times))],
					Attributes: attrs(), StatusMessage: str(), StatusCode: int32(r.IntN(3))}
				id(s.TraceID[:])
				id(s.SpanID[:])
				id(s.ParentSpanID[:])
				for range r.IntN(3) {
					s.Events = append(s.Events, &SpanEvent{Time: times[r.IntN(len(times))], Name: str(), Attributes: attrs()})
				}
				ss.Spans = append(ss.Spans, s)
			}
			rs.Scopes = append(rs.Scopes, ss)
		}
		td.Resources = append(td.Resources, rs)
	}
	return td
}

// TestOTLPEncodingsAsPdata: both encodings write, byte for byte, what the
// Collector's pdata writes of the same traces.
func TestOTLPEncodingsAsPdata(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		td := randomTraces(r)
		p := asPdata(td)
		var jm ptrace.JSONMarshaler
		want, err := jm.MarshalTraces(p)
		if err != nil {
			// pdata refuses nothing zevo writes but NaN and infinities
			// it writes as strings: an error is a test's own mistake.
			t.Fatal(err)
		}
		if got := td.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("trace %d: OTLP/JSON\n got %s\nwant %s", i, got, want)
		}
		var pm ptrace.ProtoMarshaler
		wantProto, err := pm.MarshalTraces(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := Proto(td); !bytes.Equal(got, wantProto) {
			t.Fatalf("trace %d: protobuf\n got %x\nwant %x", i, got, wantProto)
		}
	}
}

// TestAttributesSetAgainKeepTheirPlace: setting a key again replaces its
// value where it is, as pdata's map does (a span's order is its output's).
func TestAttributesSetAgainKeepTheirPlace(t *testing.T) {
	var a Attributes
	a.PutStr("a", "1")
	a.PutInt("b", 2)
	a.PutBool("a", true)
	if len(a) != 2 || a[0].Key != "a" || a[0].Value.Kind != BoolValue || !a[0].Value.Bool || a[1].Key != "b" {
		t.Fatalf("%+v", a)
	}
	if v, ok := a.Get("b"); !ok || v.AsString() != "2" {
		t.Fatalf("b: %+v %v", v, ok)
	}
}
