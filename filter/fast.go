package filter

import "github.com/itchyny/gojq"

// fast evaluates, on an object, the three expressions that most filtering
// of agent logs comes down to, without gojq:
//
//	select(.key == "text")   (or !=, the string on either side)
//	select(.key == "text") | .other
//	.key
//	.key // empty
//
// gojq's run on one value builds an environment of several hundred bytes
// and a dozen objects, which costs more than these expressions do: on a
// log of small events, most of zevo jq's time. Any other value (not an
// object) still goes to gojq, and so does every other expression, with
// the same result: TestFastAsGojq compares the two paths on every kind of
// value.
type fast struct {
	op   fastOp
	key  string
	lit  string // the text select compares with
	ne   bool   // select(... != ...)
	then string // select(...) | .then, when not ""
}

type fastOp int

const (
	fastSelect fastOp = iota + 1
	fastIndex
	fastOrEmpty
)

// eval returns the result of the expression on obj, and false when there
// is none.
func (p *fast) eval(obj map[string]any) (any, bool) {
	v := obj[p.key] // absent: null, as in jq
	switch p.op {
	case fastSelect:
		s, ok := v.(string)
		if (ok && s == p.lit) == p.ne {
			return nil, false
		}
		if p.then != "" {
			return obj[p.then], true
		}
		return obj, true
	case fastOrEmpty:
		return v, v != nil && v != false
	}
	return v, true
}

// compileFast returns the fast form of q, or nil when q is not one of the
// expressions fast knows exactly as written: any suffix, definition,
// import, interpolation or format makes it gojq's.
func compileFast(q *gojq.Query) *fast {
	if q == nil || q.Meta != nil || len(q.Imports) > 0 || len(q.FuncDefs) > 0 || len(q.Patterns) > 0 {
		return nil
	}
	if q.Op == gojq.OpPipe {
		sel := compileFast(q.Left)
		k, ok := indexKey(q.Right)
		if sel == nil || sel.op != fastSelect || sel.then != "" || !ok {
			return nil
		}
		sel.then = k
		return sel
	}
	if q.Op == gojq.OpAlt {
		if k, ok := indexKey(q.Left); ok && isFunc(q.Right, "empty", 0) {
			return &fast{op: fastOrEmpty, key: k}
		}
		return nil
	}
	if k, ok := indexKey(q); ok {
		return &fast{op: fastIndex, key: k}
	}
	if !isFunc(q, "select", 1) {
		return nil
	}
	c := q.Term.Func.Args[0]
	if c.Op != gojq.OpEq && c.Op != gojq.OpNe || c.Meta != nil || len(c.FuncDefs) > 0 || len(c.Patterns) > 0 {
		return nil
	}
	k, ok := indexKey(c.Left)
	s, lit := stringLiteral(c.Right)
	if !ok || !lit {
		k, ok = indexKey(c.Right)
		s, lit = stringLiteral(c.Left)
	}
	if !ok || !lit {
		return nil
	}
	return &fast{op: fastSelect, key: k, lit: s, ne: c.Op == gojq.OpNe}
}

// term is q's term when q is a term alone.
func term(q *gojq.Query) *gojq.Term {
	if q == nil || q.Term == nil || q.Left != nil || q.Right != nil || q.Op != 0 ||
		q.Meta != nil || len(q.Imports) > 0 || len(q.FuncDefs) > 0 || len(q.Patterns) > 0 ||
		len(q.Term.SuffixList) > 0 {
		return nil
	}
	return q.Term
}

// indexKey is the key of q when q is .key (or ."key") alone.
func indexKey(q *gojq.Query) (string, bool) {
	t := term(q)
	if t == nil || t.Type != gojq.TermTypeIndex || t.Index == nil {
		return "", false
	}
	ix := t.Index
	if ix.Start != nil || ix.End != nil || ix.IsSlice {
		return "", false
	}
	if ix.Str != nil {
		return stringText(ix.Str)
	}
	return ix.Name, ix.Name != ""
}

// stringLiteral is the text of q when q is a plain string literal.
func stringLiteral(q *gojq.Query) (string, bool) {
	t := term(q)
	if t == nil || t.Type != gojq.TermTypeString || t.Str == nil {
		return "", false
	}
	return stringText(t.Str)
}

// stringText is the text of a string without interpolation.
func stringText(s *gojq.String) (string, bool) {
	return s.Str, len(s.Queries) == 0
}

// isFunc reports whether q is a call of the function name with n
// arguments, alone.
func isFunc(q *gojq.Query, name string, n int) bool {
	t := term(q)
	return t != nil && t.Type == gojq.TermTypeFunc && t.Func != nil && t.Func.Name == name && len(t.Func.Args) == n
}
