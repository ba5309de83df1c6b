package inspect

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The general validator of the shipped schemas (draft 2020-12). It knows
// exactly the keywords those schemas use and refuses to compile any other,
// so a schema that starts using one fails its tests rather than being
// checked loosely. It is ours rather than a library's because a JSON
// Schema library compiles the drafts' meta-schemas in its package init,
// which every command, not only validate, would pay for at start-up; and
// because the diagnostics are worded from its findings, which a test
// checks against a reference implementation's.

// jsonSchema is one compiled schema node.
type jsonSchema struct {
	boolean   *bool // a schema written as true or false; nothing else is set
	types     jsonTypes
	hasConst  bool
	constant  any
	enum      []any
	enumTypes jsonTypes
	ref       *jsonSchema

	required   []string
	properties map[string]*jsonSchema
	noMore     bool        // additionalProperties: false
	more       *jsonSchema // additionalProperties as a schema

	items    *jsonSchema
	minItems int // -1 when absent

	minLength int // -1 when absent
	pattern   *regexp.Regexp

	minimum, maximum *big.Rat

	not                 *jsonSchema
	allOf, anyOf, oneOf []*jsonSchema
	ifThen, then        *jsonSchema
}

// jsonTypes is a set of JSON Schema types; the bit order is the order in
// which a type failure lists them.
type jsonTypes uint8

const (
	typeNull jsonTypes = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeArray
	typeObject
)

var typeNames = []string{"null", "boolean", "number", "integer", "string", "array", "object"}

func (t jsonTypes) names() []string {
	var out []string
	for i, n := range typeNames {
		if t&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// typeOf is the type of a decoded value; every number is a number (an
// integral one also satisfies "integer", see matches).
func typeOf(v any) jsonTypes {
	switch v.(type) {
	case nil:
		return typeNull
	case bool:
		return typeBoolean
	case json.Number, float64, int:
		return typeNumber
	case string:
		return typeString
	case []any:
		return typeArray
	case map[string]any:
		return typeObject
	}
	return 0
}

// The kinds of failure, each with what the diagnostics need.
type (
	kindRequired   struct{ Missing []string }
	kindAdditional struct{ Properties []string }
	kindType       struct {
		Got   string
		Want  []string
		Value any // the value of type Got, for the diagnostic
	}
	kindEnum struct {
		Got  any
		Want []any
	}
	kindConst     struct{ Got, Want any }
	kindMinimum   struct{ Got, Want *big.Rat }
	kindMaximum   struct{ Got, Want *big.Rat }
	kindMinLength struct{ Got, Want int }
	kindMinItems  struct{ Got, Want int }
	kindPattern   struct{ Got, Want string }
	kindNot       struct{}
	kindFalse     struct{}
	kindAnyOf     struct{}
	kindOneOf     struct{ Matched []int } // nil when none matched
	kindGroup     struct{}                // several failures of one node, or allOf
)

// schemaError is a failure of a value at loc (the path of property names
// and array indexes from the line's top). A group's causes hold the
// failures below it; a leaf has none.
type schemaError struct {
	loc    []string
	kind   any
	causes []*schemaError
}

func (e *schemaError) Error() string {
	var leaves []string
	var walk func(e *schemaError)
	walk = func(e *schemaError) {
		if len(e.causes) == 0 {
			leaves = append(leaves, fmt.Sprintf("/%s: %T%+v", strings.Join(e.loc, "/"), e.kind, e.kind))
		}
		for _, c := range e.causes {
			walk(c)
		}
	}
	walk(e)
	return "schema: " + strings.Join(leaves, "; ")
}

// Validate checks v, a value decoded with json.Decoder.UseNumber.
func (s *jsonSchema) Validate(v any) error {
	if e := s.check(v, nil); e != nil {
		return e
	}
	return nil
}

func (s *jsonSchema) check(v any, loc []string) *schemaError {
	leaf := func(k any) *schemaError { return &schemaError{loc: loc, kind: k} }
	if s.boolean != nil {
		if *s.boolean {
			return nil
		}
		return leaf(kindFalse{})
	}
	t := typeOf(v)
	// A failed type, const or enum is the node's only finding.
	if s.types != 0 && s.types&t == 0 && !(s.types&typeInteger != 0 && t == typeNumber && isInteger(v)) {
		return leaf(kindType{Got: typeNames[bitIndex(t)], Want: s.types.names(), Value: v})
	}
	if s.hasConst && !jsonEqual(v, s.constant) {
		return leaf(kindConst{Got: v, Want: s.constant})
	}
	if s.enum != nil && !s.inEnum(v, t) {
		return leaf(kindEnum{Got: v, Want: s.enum})
	}
	var errs []*schemaError
	add := func(e *schemaError) {
		if e != nil {
			errs = append(errs, e)
		}
	}
	if s.ref != nil {
		add(s.ref.check(v, loc))
	}
	switch x := v.(type) {
	case map[string]any:
		var missing, extra []string
		for _, name := range s.required {
			if _, ok := x[name]; !ok {
				missing = append(missing, name)
			}
		}
		if missing != nil {
			add(leaf(kindRequired{missing}))
		}
		for name, val := range x {
			if p, ok := s.properties[name]; ok {
				add(p.check(val, child(loc, name)))
			} else if s.more != nil {
				add(s.more.check(val, child(loc, name)))
			} else if s.noMore {
				extra = append(extra, name)
			}
		}
		if extra != nil {
			sort.Strings(extra)
			add(leaf(kindAdditional{extra}))
		}
	case []any:
		if s.minItems >= 0 && len(x) < s.minItems {
			add(leaf(kindMinItems{len(x), s.minItems}))
		}
		if s.items != nil {
			for i, item := range x {
				add(s.items.check(item, child(loc, strconv.Itoa(i))))
			}
		}
	case string:
		if s.minLength >= 0 {
			if n := utf8.RuneCountInString(x); n < s.minLength {
				add(leaf(kindMinLength{n, s.minLength}))
			}
		}
		if s.pattern != nil && !s.pattern.MatchString(x) {
			add(leaf(kindPattern{x, s.pattern.String()}))
		}
	}
	if t == typeNumber && (s.minimum != nil || s.maximum != nil) {
		if n, ok := toRat(v); ok {
			if s.minimum != nil && n.Cmp(s.minimum) < 0 {
				add(leaf(kindMinimum{n, s.minimum}))
			}
			if s.maximum != nil && n.Cmp(s.maximum) > 0 {
				add(leaf(kindMaximum{n, s.maximum}))
			}
		}
	}
	if s.not != nil && s.not.check(v, loc) == nil {
		add(leaf(kindNot{}))
	}
	if s.allOf != nil {
		var causes []*schemaError
		for _, sub := range s.allOf {
			if e := sub.check(v, loc); e != nil {
				causes = append(causes, e)
			}
		}
		if causes != nil {
			add(&schemaError{loc: loc, kind: kindGroup{}, causes: causes})
		}
	}
	if s.anyOf != nil {
		var causes []*schemaError
		for _, sub := range s.anyOf {
			e := sub.check(v, loc)
			if e == nil {
				causes = nil
				break
			}
			causes = append(causes, e)
		}
		if causes != nil {
			add(&schemaError{loc: loc, kind: kindAnyOf{}, causes: causes})
		}
	}
	if s.oneOf != nil {
		add(s.checkOneOf(v, loc))
	}
	if s.ifThen != nil && s.then != nil && s.ifThen.check(v, loc) == nil {
		add(s.then.check(v, loc))
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return &schemaError{loc: loc, kind: kindGroup{}, causes: errs}
}

func (s *jsonSchema) inEnum(v any, t jsonTypes) bool {
	if s.enumTypes&t == 0 {
		return false
	}
	for _, w := range s.enum {
		if jsonEqual(v, w) {
			return true
		}
	}
	return false
}

// checkOneOf fails when no subschema matches (with each one's failure) or
// when two do (naming the first two).
func (s *jsonSchema) checkOneOf(v any, loc []string) *schemaError {
	matched := -1
	var causes []*schemaError
	for i, sub := range s.oneOf {
		e := sub.check(v, loc)
		switch {
		case e != nil:
			causes = append(causes, e)
		case matched == -1:
			matched = i
		default:
			return &schemaError{loc: loc, kind: kindOneOf{Matched: []int{matched, i}}}
		}
	}
	if matched == -1 {
		return &schemaError{loc: loc, kind: kindOneOf{}, causes: causes}
	}
	return nil
}

// child is loc with one more token, never sharing loc's array.
func child(loc []string, tok string) []string {
	return append(loc[:len(loc):len(loc)], tok)
}

func bitIndex(t jsonTypes) int {
	for i := range typeNames {
		if t == 1<<i {
			return i
		}
	}
	return 0
}

func toRat(v any) (*big.Rat, bool) {
	return new(big.Rat).SetString(fmt.Sprint(v))
}

func isInteger(v any) bool {
	r, ok := toRat(v)
	return ok && r.IsInt()
}

// jsonEqual is JSON equality: numbers by value (1 equals 1.0), objects
// whatever their key order.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jsonEqual(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case nil, bool, string:
		return a == b
	}
	if typeOf(a) != typeNumber || typeOf(b) != typeNumber {
		return false
	}
	ra, ok1 := toRat(a)
	rb, ok2 := toRat(b)
	return ok1 && ok2 && ra.Cmp(rb) == 0
}

// schemaCompiler compiles the nodes of one schema document, each $ref
// target once.
type schemaCompiler struct {
	doc  map[string]any
	refs map[string]*jsonSchema
}

// compileJSONSchema compiles the node of doc (decoded with UseNumber) at
// ref: "#" for the whole document, "#/$defs/NAME" for a definition.
func (c *schemaCompiler) compileRef(ref string) (*jsonSchema, error) {
	if s, ok := c.refs[ref]; ok {
		return s, nil // compiled, or being compiled when the schema recurses
	}
	var node any = c.doc
	if ref != "#" {
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		defs, _ := c.doc["$defs"].(map[string]any)
		var found bool
		if node, found = defs[name]; !ok || !found || strings.ContainsAny(name, "/~%") {
			return nil, fmt.Errorf("$ref %q: not a definition of this schema", ref)
		}
	}
	s := &jsonSchema{}
	c.refs[ref] = s
	if err := c.fill(s, node); err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	return s, nil
}

func (c *schemaCompiler) compile(node any) (*jsonSchema, error) {
	s := &jsonSchema{}
	return s, c.fill(s, node)
}

func (c *schemaCompiler) compileAll(arg any) ([]*jsonSchema, error) {
	list, ok := arg.([]any)
	if !ok || len(list) == 0 {
		return nil, fmt.Errorf("want a non-empty array of schemas")
	}
	out := make([]*jsonSchema, len(list))
	for i, n := range list {
		var err error
		if out[i], err = c.compile(n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fill compiles node into s.
func (c *schemaCompiler) fill(s *jsonSchema, node any) error {
	s.minItems, s.minLength = -1, -1
	if b, ok := node.(bool); ok {
		s.boolean = &b
		return nil
	}
	obj, ok := node.(map[string]any)
	if !ok {
		return fmt.Errorf("a schema must be an object or a boolean")
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys) // so the first error is always the same one
	for _, kw := range keys {
		if err := c.keyword(s, kw, obj[kw]); err != nil {
			return fmt.Errorf("%s: %w", kw, err)
		}
	}
	return nil
}

func (c *schemaCompiler) keyword(s *jsonSchema, kw string, arg any) error {
	var err error
	switch kw {
	case "$schema", "$id", "$defs", "$comment", "title", "description", "contentEncoding":
		// Annotations: draft 2020-12 asserts none of them by default.
	case "type":
		names, ok := arg.([]any)
		if !ok {
			names = []any{arg}
		}
		for _, n := range names {
			i := slicesIndex(typeNames, n)
			if i < 0 {
				return fmt.Errorf("unknown type %v", n)
			}
			s.types |= 1 << i
		}
	case "const":
		s.hasConst, s.constant = true, arg
	case "enum":
		list, ok := arg.([]any)
		if !ok {
			return fmt.Errorf("want an array")
		}
		s.enum = list
		for _, v := range list {
			s.enumTypes |= typeOf(v)
		}
	case "$ref":
		ref, _ := arg.(string)
		s.ref, err = c.compileRef(ref)
	case "required":
		list, _ := arg.([]any)
		for _, n := range list {
			name, ok := n.(string)
			if !ok {
				return fmt.Errorf("want an array of strings")
			}
			s.required = append(s.required, name)
		}
	case "properties":
		props, ok := arg.(map[string]any)
		if !ok {
			return fmt.Errorf("want an object")
		}
		s.properties = make(map[string]*jsonSchema, len(props))
		for name, p := range props {
			if s.properties[name], err = c.compile(p); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
	case "additionalProperties":
		if b, ok := arg.(bool); ok {
			s.noMore = !b
		} else {
			s.more, err = c.compile(arg)
		}
	case "items":
		s.items, err = c.compile(arg)
	case "minItems":
		s.minItems, err = count(arg)
	case "minLength":
		s.minLength, err = count(arg)
	case "pattern":
		p, _ := arg.(string)
		s.pattern, err = regexp.Compile(p)
	case "minimum", "maximum":
		r, ok := toRat(arg)
		if !ok || typeOf(arg) != typeNumber {
			return fmt.Errorf("want a number")
		}
		if kw == "minimum" {
			s.minimum = r
		} else {
			s.maximum = r
		}
	case "not":
		s.not, err = c.compile(arg)
	case "allOf":
		s.allOf, err = c.compileAll(arg)
	case "anyOf":
		s.anyOf, err = c.compileAll(arg)
	case "oneOf":
		s.oneOf, err = c.compileAll(arg)
	case "if":
		s.ifThen, err = c.compile(arg)
	case "then":
		s.then, err = c.compile(arg)
	default:
		return fmt.Errorf("keyword not supported by zevo's validator")
	}
	return err
}

func count(arg any) (int, error) {
	n, err := strconv.Atoi(fmt.Sprint(arg))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want a non-negative integer")
	}
	return n, nil
}

func slicesIndex(names []string, v any) int {
	for i, n := range names {
		if n == v {
			return i
		}
	}
	return -1
}
