package otel

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// The OTLP trace messages zevo writes, and their two encodings: OTLP/JSON
// and the protobuf of OTLP/HTTP. Only the fields zevo sets are here; each
// encoding writes them in the order and form the OpenTelemetry Collector's
// own Go encoder (pdata) writes, byte for byte (TestOTLPEncodingsAsPdata
// checks both against it), so a reader of either sees what a Collector
// would have sent. Every zevo command links this package; a library
// encoder cost each of them hundreds of thousands of instructions of
// initialisation.

// Traces is an ExportTraceServiceRequest, whose encodings are TracesData's.
type Traces struct {
	Resources []*ResourceSpans
}

// ResourceSpans are the spans of one resource (a zevo input), by scope.
type ResourceSpans struct {
	Attributes Attributes // the resource's
	Scopes     []*ScopeSpans
}

// ScopeSpans are the spans of one instrumentation scope.
type ScopeSpans struct {
	Name, Version string // the scope's
	Spans         []*Span
}

// TraceID and SpanID are OTLP's ids; all zeros is none.
type (
	TraceID [16]byte
	SpanID  [8]byte
)

// Span kinds and status codes, as OTLP numbers them.
const (
	SpanKindInternal = 1

	StatusCodeUnset = 0
	StatusCodeOK    = 1
	StatusCodeError = 2
)

// Span is one span.
type Span struct {
	TraceID       TraceID
	SpanID        SpanID
	ParentSpanID  SpanID
	Name          string
	Kind          int32
	Start, End    uint64 // nanoseconds since 1970; 0 is unknown
	Attributes    Attributes
	Events        []*SpanEvent
	StatusMessage string
	StatusCode    int32
}

// SpanEvent is an event of a span.
type SpanEvent struct {
	Time       uint64
	Name       string
	Attributes Attributes
}

// Nanos is t as OTLP writes a time.
func Nanos(t time.Time) uint64 { return uint64(t.UnixNano()) }

// Attributes are key-value pairs in the order first set; setting a key
// again replaces its value where it is.
type Attributes []Attribute

// Attribute is one key and its value: a string, an int, a double or a bool.
type Attribute struct {
	Key   string
	Value Value
}

// Value is an attribute's value; Kind says which field holds it.
type Value struct {
	Kind   ValueKind
	Str    string
	Int    int64
	Double float64
	Bool   bool
}

// ValueKind is the type of a Value.
type ValueKind uint8

const (
	StrValue ValueKind = iota + 1
	IntValue
	DoubleValue
	BoolValue
)

// Get returns the value of key.
func (a Attributes) Get(key string) (Value, bool) {
	for _, kv := range a {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return Value{}, false
}

func (a *Attributes) put(key string, v Value) {
	for i := range *a {
		if (*a)[i].Key == key {
			(*a)[i].Value = v
			return
		}
	}
	*a = append(*a, Attribute{key, v})
}

// PutStr, PutInt, PutDouble and PutBool set key.
func (a *Attributes) PutStr(key, v string)       { a.put(key, Value{Kind: StrValue, Str: v}) }
func (a *Attributes) PutInt(key string, v int64) { a.put(key, Value{Kind: IntValue, Int: v}) }
func (a *Attributes) PutDouble(key string, v float64) {
	a.put(key, Value{Kind: DoubleValue, Double: v})
}
func (a *Attributes) PutBool(key string, v bool) { a.put(key, Value{Kind: BoolValue, Bool: v}) }

// AsString is the value as text: a string as it is, a number or a bool
// as JSON writes it.
func (v Value) AsString() string {
	switch v.Kind {
	case StrValue:
		return v.Str
	case IntValue:
		return strconv.FormatInt(v.Int, 10)
	case DoubleValue:
		return string(appendDouble(nil, v.Double))
	case BoolValue:
		return strconv.FormatBool(v.Bool)
	}
	return ""
}

// JSON

// AppendJSON appends td as OTLP/JSON: fields in the messages' order, only
// those set (a span's status always), ids in hex, 64-bit integers as
// strings, enums as numbers.
func (td *Traces) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	if len(td.Resources) > 0 {
		b = append(b, `"resourceSpans":[`...)
		for i, rs := range td.Resources {
			if i > 0 {
				b = append(b, ',')
			}
			b = rs.appendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendJSONList appends, when there are items, open (a member's key and
// its "[") and the items, each written by write, comma-separated.
func appendJSONList[T any](b []byte, open string, items []T, write func(T, []byte) []byte) []byte {
	if len(items) == 0 {
		return b
	}
	b = append(b, open...)
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = write(items[i], b)
	}
	return append(b, ']')
}

func (rs *ResourceSpans) appendJSON(b []byte) []byte {
	b = append(b, `{"resource":{`...)
	b = rs.Attributes.appendJSONField(b, false)
	b = append(b, '}')
	b = appendJSONList(b, `,"scopeSpans":[`, rs.Scopes, (*ScopeSpans).appendJSON)
	return append(b, '}')
}

func (ss *ScopeSpans) appendJSON(b []byte) []byte {
	b = append(b, `{"scope":{`...)
	more := false
	b, more = appendStrField(b, more, "name", ss.Name)
	b, _ = appendStrField(b, more, "version", ss.Version)
	b = append(b, '}')
	b = appendJSONList(b, `,"spans":[`, ss.Spans, (*Span).appendJSON)
	return append(b, '}')
}

func (s *Span) appendJSON(b []byte) []byte {
	b = append(b, '{')
	more := false
	if s.TraceID != (TraceID{}) {
		b, more = appendStrField(b, more, "traceId", hex.EncodeToString(s.TraceID[:]))
	}
	if s.SpanID != (SpanID{}) {
		b, more = appendStrField(b, more, "spanId", hex.EncodeToString(s.SpanID[:]))
	}
	if s.ParentSpanID != (SpanID{}) {
		b, more = appendStrField(b, more, "parentSpanId", hex.EncodeToString(s.ParentSpanID[:]))
	}
	b, more = appendStrField(b, more, "name", s.Name)
	if s.Kind != 0 {
		b = appendKey(b, more, "kind")
		b, more = strconv.AppendInt(b, int64(s.Kind), 10), true
	}
	b, more = appendNanosField(b, more, "startTimeUnixNano", s.Start)
	b, more = appendNanosField(b, more, "endTimeUnixNano", s.End)
	if len(s.Attributes) > 0 {
		b, more = s.Attributes.appendJSONField(b, more), true
	}
	if len(s.Events) > 0 {
		b = appendKey(b, more, "events")
		b = append(b, '[')
		for i, e := range s.Events {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendJSON(b)
		}
		b, more = append(b, ']'), true
	}
	b = appendKey(b, more, "status")
	b = append(b, '{')
	m := false
	b, m = appendStrField(b, m, "message", s.StatusMessage)
	if s.StatusCode != 0 {
		b = appendKey(b, m, "code")
		b = strconv.AppendInt(b, int64(s.StatusCode), 10)
	}
	return append(b, "}}"...)
}

func (e *SpanEvent) appendJSON(b []byte) []byte {
	b = append(b, '{')
	more := false
	b, more = appendNanosField(b, more, "timeUnixNano", e.Time)
	b, more = appendStrField(b, more, "name", e.Name)
	if len(e.Attributes) > 0 {
		b = e.Attributes.appendJSONField(b, more)
	}
	return append(b, '}')
}

// appendJSONField appends "attributes":[…] when there are any.
func (a Attributes) appendJSONField(b []byte, more bool) []byte {
	if len(a) == 0 {
		return b
	}
	b = appendKey(b, more, "attributes")
	b = append(b, '[')
	for i, kv := range a {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		m := false
		b, m = appendStrField(b, m, "key", kv.Key)
		b = appendKey(b, m, "value")
		b = append(b, '{')
		switch v := kv.Value; v.Kind {
		case StrValue:
			b = appendJSONString(append(b, `"stringValue":`...), v.Str)
		case IntValue:
			b = append(strconv.AppendInt(append(b, `"intValue":"`...), v.Int, 10), '"')
		case DoubleValue:
			b = append(b, `"doubleValue":`...)
			switch {
			case math.IsNaN(v.Double):
				b = append(b, `"NaN"`...)
			case math.IsInf(v.Double, 1):
				b = append(b, `"Infinity"`...)
			case math.IsInf(v.Double, -1):
				b = append(b, `"-Infinity"`...)
			default:
				b = appendDouble(b, v.Double)
			}
		case BoolValue:
			b = strconv.AppendBool(append(b, `"boolValue":`...), v.Bool)
		}
		b = append(b, "}}"...)
	}
	return append(b, ']')
}

// appendDouble writes a finite double in its shortest form, with an
// exponent only below 1e-6 or from 1e21 (as JavaScript does).
func appendDouble(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	return strconv.AppendFloat(b, f, format, -1, 64)
}

func appendKey(b []byte, more bool, key string) []byte {
	if more {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

// appendStrField appends key and the string v, unless v is empty.
func appendStrField(b []byte, more bool, key, v string) ([]byte, bool) {
	if v == "" {
		return b, more
	}
	return appendJSONString(appendKey(b, more, key), v), true
}

// appendNanosField appends a time, unless it is 0, as a decimal string.
func appendNanosField(b []byte, more bool, key string, v uint64) ([]byte, bool) {
	if v == 0 {
		return b, more
	}
	b = appendKey(b, more, key)
	return append(strconv.AppendUint(append(b, '"'), v, 10), '"'), true
}

// appendJSONString quotes s: ", \ and control characters escaped (\n, \r,
// \t, else \u00XX), every other byte as it is.
func appendJSONString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Protobuf

// AppendProto appends td as the protobuf of an ExportTraceServiceRequest.
// As pdata does, a message's fields are written from the last number to
// the first (a repeated field's items in their order), and a span's ids
// and status, a resource and a scope are written even when empty.
func (td *Traces) AppendProto(b []byte) []byte {
	for _, rs := range td.Resources {
		b = appendMessage(b, 1, rs.appendProto)
	}
	return b
}

func (rs *ResourceSpans) appendProto(b []byte) []byte {
	for _, ss := range rs.Scopes {
		b = appendMessage(b, 2, ss.appendProto)
	}
	return appendMessage(b, 1, rs.Attributes.appendProto(1))
}

func (ss *ScopeSpans) appendProto(b []byte) []byte {
	for _, s := range ss.Spans {
		b = appendMessage(b, 2, s.appendProto)
	}
	return appendMessage(b, 1, func(b []byte) []byte {
		b = appendBytesField(b, 2, ss.Version)
		return appendBytesField(b, 1, ss.Name)
	})
}

func (s *Span) appendProto(b []byte) []byte {
	b = appendMessage(b, 15, func(b []byte) []byte {
		if s.StatusCode != 0 {
			b = appendVarintField(b, 3, uint64(s.StatusCode))
		}
		return appendBytesField(b, 2, s.StatusMessage)
	})
	for _, e := range s.Events {
		b = appendMessage(b, 11, e.appendProto)
	}
	b = s.Attributes.appendProto(9)(b)
	b = appendFixed64Field(b, 8, s.End)
	b = appendFixed64Field(b, 7, s.Start)
	if s.Kind != 0 {
		b = appendVarintField(b, 6, uint64(s.Kind))
	}
	b = appendBytesField(b, 5, s.Name)
	b = appendID(b, 4, s.ParentSpanID[:])
	b = appendID(b, 2, s.SpanID[:])
	return appendID(b, 1, s.TraceID[:])
}

func (e *SpanEvent) appendProto(b []byte) []byte {
	b = e.Attributes.appendProto(3)(b)
	b = appendBytesField(b, 2, e.Name)
	return appendFixed64Field(b, 1, e.Time)
}

// appendProto returns the writer of the attributes as the repeated
// KeyValue field number field.
func (a Attributes) appendProto(field int) func([]byte) []byte {
	return func(b []byte) []byte {
		for _, kv := range a {
			b = appendMessage(b, field, func(b []byte) []byte {
				b = appendMessage(b, 2, func(b []byte) []byte {
					switch v := kv.Value; v.Kind {
					case StrValue:
						b = appendTag(b, 1, 2)
						b = binary.AppendUvarint(b, uint64(len(v.Str)))
						b = append(b, v.Str...)
					case BoolValue:
						n := uint64(0)
						if v.Bool {
							n = 1
						}
						b = appendVarintField(b, 2, n)
					case IntValue:
						b = appendVarintField(b, 3, uint64(v.Int))
					case DoubleValue:
						b = appendTag(b, 4, 1)
						b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Double))
					}
					return b
				})
				return appendBytesField(b, 1, kv.Key)
			})
		}
		return b
	}
}

// appendID writes an id, as an empty field when it is all zeros.
func appendID(b []byte, field int, id []byte) []byte {
	for _, c := range id {
		if c != 0 {
			b = appendTag(b, field, 2)
			b = binary.AppendUvarint(b, uint64(len(id)))
			return append(b, id...)
		}
	}
	return append(appendTag(b, field, 2), 0)
}

func appendTag(b []byte, field, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wire))
}

// appendBytesField writes a string field, unless it is empty.
func appendBytesField(b []byte, field int, s string) []byte {
	if s == "" {
		return b
	}
	b = appendTag(b, field, 2)
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendVarintField(b []byte, field int, v uint64) []byte {
	return binary.AppendUvarint(appendTag(b, field, 0), v)
}

// appendFixed64Field writes a time, unless it is 0.
func appendFixed64Field(b []byte, field int, v uint64) []byte {
	if v == 0 {
		return b
	}
	return binary.LittleEndian.AppendUint64(appendTag(b, field, 1), v)
}

// appendMessage writes an embedded message: its tag, its length, then
// what body writes.
func appendMessage(b []byte, field int, body func([]byte) []byte) []byte {
	m := body(nil)
	b = appendTag(b, field, 2)
	b = binary.AppendUvarint(b, uint64(len(m)))
	return append(b, m...)
}
