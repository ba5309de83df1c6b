package filter

import "github.com/itchyny/gojq"

// fast evaluates, on an object, the few kinds of expression that most
// filtering of agent logs comes down to, without gojq:
//
//	.key.other                  a path of keys
//	.key.other // empty
//	select(COND)                COND: PATH == "text" (or !=, the string on
//	select(COND) | PATH         either side), joined with and, or
//
// gojq's run on one value builds an environment of several hundred bytes
// and a dozen objects, which costs more than these expressions do: on a
// log of small events, most of zevo jq's time. Whatever fast cannot decide
// exactly goes to gojq: a value that is not an object, a path through a
// value that is neither an object nor null (where jq reports an error),
// and every other expression. TestFastAsGojq and FuzzFastAsGojq compare
// the two on every kind of value.
type fast struct {
	op   fastOp
	cond *fastCond // fastSelect
	path []string  // fastPath, fastOrEmpty; after a select, its | PATH (nil: none)
}

type fastOp int

const (
	fastSelect fastOp = iota + 1
	fastPath
	fastOrEmpty
)

// fastCond is a comparison of a path with a text (op OpEq or OpNe), or
// two conditions joined (OpAnd, OpOr).
type fastCond struct {
	op   gojq.Operator
	path []string
	lit  string
	l, r *fastCond
}

// eval returns the result of the expression on obj and whether there is
// one; known is false when gojq must decide.
func (p *fast) eval(obj map[string]any) (x any, out, known bool) {
	switch p.op {
	case fastSelect:
		pass, known := p.cond.eval(obj)
		if !known || !pass {
			return nil, false, known
		}
		if p.path == nil {
			return obj, true, true
		}
		v, known := walk(obj, p.path)
		return v, known, known
	case fastOrEmpty:
		v, known := walk(obj, p.path)
		return v, v != nil && v != false, known
	}
	v, known := walk(obj, p.path)
	return v, known, known
}

func (c *fastCond) eval(obj map[string]any) (pass, known bool) {
	switch c.op {
	case gojq.OpAnd, gojq.OpOr:
		l, known := c.l.eval(obj)
		if !known {
			return false, false
		}
		if l == (c.op == gojq.OpOr) {
			return l, true // jq does not evaluate the right side
		}
		return c.r.eval(obj)
	}
	v, known := walk(obj, c.path)
	if !known {
		return false, false
	}
	s, ok := v.(string)
	return (ok && s == c.lit) != (c.op == gojq.OpNe), true
}

// walk follows path from obj: an absent key or a null gives null, as in
// jq; a value of another kind on the way is for gojq (an error there).
func walk(obj map[string]any, path []string) (any, bool) {
	var v any = obj
	for _, k := range path {
		switch m := v.(type) {
		case map[string]any:
			v = m[k]
		case nil:
		default:
			return nil, false
		}
	}
	return v, true
}

// compileFast returns the fast form of q, or nil when q is not one of the
// expressions fast knows exactly as written: an optional (?), an
// iteration, a slice, a definition, an import, an interpolation or a
// format makes it gojq's.
func compileFast(q *gojq.Query) *fast {
	if !bare(q) {
		return nil
	}
	switch q.Op {
	case gojq.OpPipe:
		sel := compileFast(q.Left)
		path := pathOf(q.Right)
		if sel == nil || sel.op != fastSelect || sel.path != nil || path == nil {
			return nil
		}
		sel.path = path
		return sel
	case gojq.OpAlt:
		if path := pathOf(q.Left); path != nil && isFunc(q.Right, "empty", 0) {
			return &fast{op: fastOrEmpty, path: path}
		}
		return nil
	}
	if path := pathOf(q); path != nil {
		return &fast{op: fastPath, path: path}
	}
	if !isFunc(q, "select", 1) {
		return nil
	}
	if c := condOf(q.Term.Func.Args[0]); c != nil {
		return &fast{op: fastSelect, cond: c}
	}
	return nil
}

// condOf is the condition q spells, or nil.
func condOf(q *gojq.Query) *fastCond {
	if !bare(q) {
		return nil
	}
	switch q.Op {
	case gojq.OpAnd, gojq.OpOr:
		l, r := condOf(q.Left), condOf(q.Right)
		if l == nil || r == nil {
			return nil
		}
		return &fastCond{op: q.Op, l: l, r: r}
	case gojq.OpEq, gojq.OpNe:
		path := pathOf(q.Left)
		s, lit := stringLiteral(q.Right)
		if path == nil || !lit {
			path = pathOf(q.Right)
			s, lit = stringLiteral(q.Left)
		}
		if path == nil || !lit {
			return nil
		}
		return &fastCond{op: q.Op, path: path, lit: s}
	}
	return nil
}

// bare reports whether q has no definitions, imports, bindings or
// metadata of its own.
func bare(q *gojq.Query) bool {
	return q != nil && q.Meta == nil && len(q.Imports) == 0 && len(q.FuncDefs) == 0 && len(q.Patterns) == 0
}

// term is q's term when q is a term alone.
func term(q *gojq.Query) *gojq.Term {
	if !bare(q) || q.Term == nil || q.Left != nil || q.Right != nil || q.Op != 0 {
		return nil
	}
	return q.Term
}

// pathOf is the keys of q when q is .key or .key.other… (a key may be
// written ."key"), nil otherwise.
func pathOf(q *gojq.Query) []string {
	t := term(q)
	if t == nil || t.Type != gojq.TermTypeIndex {
		return nil
	}
	k, ok := indexKey(t.Index)
	if !ok {
		return nil
	}
	path := []string{k}
	for _, s := range t.SuffixList {
		if s == nil || s.Iter || s.Optional {
			return nil
		}
		k, ok := indexKey(s.Index)
		if !ok {
			return nil
		}
		path = append(path, k)
	}
	return path
}

// indexKey is the key of .key or ."key".
func indexKey(ix *gojq.Index) (string, bool) {
	if ix == nil || ix.Start != nil || ix.End != nil || ix.IsSlice {
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
	if t == nil || t.Type != gojq.TermTypeString || t.Str == nil || len(t.SuffixList) > 0 {
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
	return t != nil && t.Type == gojq.TermTypeFunc && t.Func != nil && t.Func.Name == name &&
		len(t.Func.Args) == n && len(t.SuffixList) == 0
}
