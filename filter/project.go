package filter

import "github.com/itchyny/gojq"

// project finds the top-level keys of an input object that an expression
// can see, when it sees nothing else of it: it reads .key with literal
// keys, and the object itself only ever goes out whole as a result (as
// select does). Then the other values of a line need not be built: a
// result that is the object itself is written as the line's text, and
// any other result is made of those keys' values alone. It returns nil
// when the expression may see more, by a deliberately narrow reading of
// the expression: anything not understood here means "all".
//
// The walk tracks, for every sub-expression, whether its . may be the
// input object (dot). Only where dot holds can the input be seen, so a
// sub-expression whose . is something else (the right side of .a | …, the
// update of a reduce) needs nothing, provided no variable holds the input:
// binding the input to a variable (. as $x, reduce . as $x) needs all.
func project(q *gojq.Query) map[string]bool {
	p := &projector{keys: map[string]bool{}}
	p.query(q, true, true)
	if p.all {
		return nil
	}
	return p.keys
}

type projector struct {
	keys map[string]bool
	all  bool
}

// need marks the whole input as needed when . may be the input.
func (p *projector) need(dot bool) {
	if dot {
		p.all = true
	}
}

// query walks q. dot tells whether . may be the input object there; out
// whether q's results go out as they are or into the right side of a
// pipe (which is walked with that in mind), rather than into an
// operation, a variable or a constructed value. It returns whether q may
// yield the input object itself.
func (p *projector) query(q *gojq.Query, dot, out bool) bool {
	if q == nil || p.all {
		return false
	}
	if len(q.FuncDefs) > 0 || len(q.Imports) > 0 || q.Meta != nil {
		// Closures and modules: not followed.
		p.need(true)
		return false
	}
	if q.Term != nil {
		return p.term(q.Term, dot, out)
	}
	if len(q.Patterns) > 0 {
		// term as $x | body: $x holds the term's values (never the input:
		// walked as an operand), and body's . is the same as the term's.
		p.query(q.Left, dot, false)
		p.patterns(q.Patterns, dot)
		return p.query(q.Right, dot, out)
	}
	switch q.Op {
	case gojq.OpPipe:
		yields := p.query(q.Left, dot, true)
		return p.query(q.Right, yields, out)
	case gojq.OpComma, gojq.OpAlt:
		l := p.query(q.Left, dot, out)
		r := p.query(q.Right, dot, out)
		return l || r
	case gojq.OpEq, gojq.OpNe, gojq.OpGt, gojq.OpLt, gojq.OpGe, gojq.OpLe,
		gojq.OpAnd, gojq.OpOr, gojq.OpAdd, gojq.OpSub, gojq.OpMul, gojq.OpDiv, gojq.OpMod:
		p.query(q.Left, dot, false)
		p.query(q.Right, dot, false)
		return false
	}
	// Assignments and updates work on paths of . as a whole.
	p.need(dot)
	p.query(q.Left, dot, false)
	p.query(q.Right, dot, false)
	return false
}

// patterns walks destructuring patterns: key expressions need all.
func (p *projector) patterns(ps []*gojq.Pattern, dot bool) {
	for _, pt := range ps {
		if pt == nil {
			continue
		}
		p.patterns(pt.Array, dot)
		for _, o := range pt.Object {
			if o.KeyQuery != nil || (o.KeyString != nil && len(o.KeyString.Queries) > 0) {
				p.need(dot)
			}
			p.patterns([]*gojq.Pattern{o.Val}, dot)
		}
	}
}

// whole is the input itself reaching a place: fine as a result, not as
// an operand.
func (p *projector) whole(dot, out bool) bool {
	if dot && !out {
		p.all = true
	}
	return dot
}

func (p *projector) term(t *gojq.Term, dot, out bool) bool {
	// With suffixes, the base's results go into them, which tell what
	// they do with the input object.
	baseOut := out || len(t.SuffixList) > 0
	var yields bool
	switch t.Type {
	case gojq.TermTypeIdentity:
		yields = dot
	case gojq.TermTypeIndex:
		p.index(t.Index, dot, dot)
	case gojq.TermTypeNull, gojq.TermTypeTrue, gojq.TermTypeFalse, gojq.TermTypeNumber, gojq.TermTypeBreak:
	case gojq.TermTypeString:
		p.str(t.Str, dot)
	case gojq.TermTypeFormat:
		if t.Str == nil {
			p.whole(dot, false) // @csv and the like format .
		} else {
			p.str(t.Str, dot)
		}
	case gojq.TermTypeArray:
		if t.Array != nil {
			p.query(t.Array.Query, dot, false)
		}
	case gojq.TermTypeObject:
		p.object(t.Object, dot)
	case gojq.TermTypeUnary:
		p.term(t.Unary.Term, dot, false)
	case gojq.TermTypeIf:
		p.query(t.If.Cond, dot, false)
		yields = p.query(t.If.Then, dot, baseOut)
		for _, e := range t.If.Elif {
			p.query(e.Cond, dot, false)
			yields = p.query(e.Then, dot, baseOut) || yields
		}
		if t.If.Else != nil {
			yields = p.query(t.If.Else, dot, baseOut) || yields
		} else {
			yields = dot || yields // no else: .
		}
	case gojq.TermTypeTry:
		yields = p.query(t.Try.Body, dot, baseOut)
		// The handler's . is the error, which never is the input: an
		// error made of the input needs all where it is raised.
		p.query(t.Try.Catch, false, baseOut)
	case gojq.TermTypeReduce:
		p.query(t.Reduce.Query, dot, false)
		p.patterns(t.Reduce.Patterns, dot)
		p.query(t.Reduce.Start, dot, false)
		p.query(t.Reduce.Update, false, false)
	case gojq.TermTypeForeach:
		p.query(t.Foreach.Query, dot, false)
		p.patterns(t.Foreach.Patterns, dot)
		p.query(t.Foreach.Start, dot, false)
		p.query(t.Foreach.Update, false, false)
		p.query(t.Foreach.Extract, false, false)
	case gojq.TermTypeLabel:
		yields = p.query(t.Label.Body, dot, baseOut)
	case gojq.TermTypeQuery:
		yields = p.query(t.Query, dot, baseOut)
	case gojq.TermTypeFunc:
		yields = p.fn(t.Func, dot, baseOut)
	default:
		// .. and anything new
		p.need(dot)
		return false
	}
	for _, s := range t.SuffixList {
		switch {
		case s.Optional:
		case s.Iter:
			p.need(yields)
			yields = false
		case s.Index != nil:
			// An index's own expressions see the term's ., not the
			// value indexed: .c[.k] reads .k of the input.
			p.index(s.Index, yields, dot)
			yields = false
		default:
			p.need(dot)
		}
	}
	return yields && p.whole(dot, out)
}

// index walks an index applied to a value that may be the input (on)
// and whose expressions are evaluated where . may be the input (dot).
// A literal key of the input is recorded; any other index of the input
// needs all of it.
func (p *projector) index(ix *gojq.Index, on, dot bool) {
	if ix == nil {
		p.need(on)
		return
	}
	if !ix.IsSlice && ix.Start == nil && ix.End == nil {
		switch {
		case ix.Str == nil:
			if on {
				p.keys[ix.Name] = true
			}
			return
		case len(ix.Str.Queries) == 0:
			if on {
				p.keys[ix.Str.Str] = true
			}
			return
		}
	}
	p.need(on)
	p.str(ix.Str, dot)
	p.query(ix.Start, dot, false)
	p.query(ix.End, dot, false)
}

func (p *projector) str(s *gojq.String, dot bool) {
	if s == nil {
		return
	}
	for _, q := range s.Queries {
		p.query(q, dot, false)
	}
}

func (p *projector) object(o *gojq.Object, dot bool) {
	if o == nil {
		return
	}
	for _, kv := range o.KeyVals {
		switch {
		case kv.Val != nil:
			p.str(kv.KeyString, dot)
			p.query(kv.KeyQuery, dot, false)
			p.query(kv.Val, dot, false)
		case kv.Key != "" && kv.Key[0] == '$':
			// {$x}: a variable
		case kv.Key != "" && kv.Key[0] != '@':
			if dot {
				p.keys[kv.Key] = true // {id} is {id: .id}
			}
		case kv.Key == "" && kv.KeyQuery == nil && kv.KeyString != nil && len(kv.KeyString.Queries) == 0:
			if dot {
				p.keys[kv.KeyString.Str] = true
			}
		default:
			p.need(dot)
			p.str(kv.KeyString, dot)
			p.query(kv.KeyQuery, dot, false)
		}
	}
}

// fn walks a call. Variables and functions that ignore . are fine;
// select yields . itself; anything else applied to the input needs all
// of it. A call where . is not the input sees the input nowhere: its
// arguments are evaluated on that . or on values made from it.
func (p *projector) fn(f *gojq.Func, dot, out bool) bool {
	if len(f.Name) > 0 && f.Name[0] == '$' {
		return false
	}
	if !dot {
		return false
	}
	switch {
	case f.Name == "select" && len(f.Args) == 1:
		p.query(f.Args[0], dot, false)
		return true
	case f.Name == "error" && len(f.Args) == 1:
		p.query(f.Args[0], dot, false)
		return false
	case len(f.Args) == 0 && (f.Name == "empty" || f.Name == "null" || f.Name == "true" || f.Name == "false" ||
		f.Name == "input_line_number" || f.Name == "input_filename" || f.Name == "now" || f.Name == "env" ||
		f.Name == "halt"):
		return false
	}
	p.all = true
	return false
}
