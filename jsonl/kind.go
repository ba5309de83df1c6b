package jsonl

// Kind is the kind of a JSON value, as JSON Schema names it: the one
// enumeration of JSON kinds (field tables, mapping rules, type checks).
type Kind uint8

const (
	KindAny Kind = iota // any JSON value
	KindString
	KindBoolean
	KindInteger // a number without fraction or exponent
	KindNumber
	KindObject
	KindArray
	KindNull
)

var kindNames = [...]string{"any", "string", "boolean", "integer", "number", "object", "array", "null"}

func (k Kind) String() string { return kindNames[k] }

// KindNamed returns the kind JSON Schema's type name names ("string",
// "integer", "null", …; not "any"), or false.
func KindNamed(name string) (Kind, bool) {
	switch name { // a switch: handlers name the kinds of every event's fields
	case "string":
		return KindString, true
	case "boolean":
		return KindBoolean, true
	case "integer":
		return KindInteger, true
	case "number":
		return KindNumber, true
	case "object":
		return KindObject, true
	case "array":
		return KindArray, true
	case "null":
		return KindNull, true
	}
	return KindAny, false
}

// KindOf returns the kind of the JSON value text, read from its first
// byte (no white space before it): KindNumber for every number, and
// KindAny when text begins no value.
func KindOf(text string) Kind {
	if text == "" {
		return KindAny
	}
	switch c := text[0]; {
	case c == '"':
		return KindString
	case c == '{':
		return KindObject
	case c == '[':
		return KindArray
	case c == 't' || c == 'f':
		return KindBoolean
	case c == 'n':
		return KindNull
	case c == '-' || c >= '0' && c <= '9':
		return KindNumber
	}
	return KindAny
}
