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

// query walks q. dot tells whether . may be the input object there; out
// whether q's results go out as they are (or into the right side of a
// pipe, which is walked on its own), rather than into an operation. It
// returns whether q may yield the input object itself.
func (p *projector) query(q *gojq.Query, dot, out bool) bool {
	if q == nil || p.all {
		return false
	}
	if len(q.FuncDefs) > 0 || len(q.Imports) > 0 || q.Meta != nil || len(q.Patterns) > 0 {
		p.all = true
		return false
	}
	if q.Term != nil {
		return p.term(q.Term, dot, out)
	}
	switch q.Op {
	case gojq.OpPipe:
		yields := p.query(q.Left, dot, true)
		return p.query(q.Right, dot && yields, out)
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
	// assignments and updates work on . as a whole
	if dot {
		p.all = true
	}
	p.query(q.Left, dot, false)
	p.query(q.Right, dot, false)
	return false
}

// whole is . itself reaching a place: fine as a result, not as an operand.
func (p *projector) whole(dot, out bool) bool {
	if dot && !out {
		p.all = true
	}
	return dot
}

func (p *projector) term(t *gojq.Term, dot, out bool) bool {
	// Suffixes (.a.b, .[0], .[]) work on the term's result; the first
	// suffix of . itself works on the input object.
	suffixes := t.SuffixList
	termOut := out && len(suffixes) == 0
	var yields bool
	switch t.Type {
	case gojq.TermTypeIdentity:
		if len(suffixes) > 0 {
			if !p.index(suffixes[0].Index, dot) {
				return false
			}
			suffixes = suffixes[1:]
			termOut = false // the field's value, not the input
			yields = false
			break
		}
		yields = p.whole(dot, out)
	case gojq.TermTypeIndex:
		p.index(t.Index, dot)
	case gojq.TermTypeNull, gojq.TermTypeTrue, gojq.TermTypeFalse, gojq.TermTypeNumber:
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
		yields = p.query(t.If.Then, dot, termOut)
		for _, e := range t.If.Elif {
			p.query(e.Cond, dot, false)
			yields = p.query(e.Then, dot, termOut) || yields
		}
		if t.If.Else != nil {
			yields = p.query(t.If.Else, dot, termOut) || yields
		} else {
			yields = p.whole(dot, termOut) || yields // no else: .
		}
	case gojq.TermTypeQuery:
		yields = p.query(t.Query, dot, termOut)
	case gojq.TermTypeFunc:
		yields = p.fn(t.Func, dot, termOut)
	default:
		// .., try, reduce, foreach, label, break
		if dot {
			p.all = true
		}
		return false
	}
	for _, s := range suffixes {
		if s.Index != nil {
			p.index(s.Index, false) // on a value already built
		}
	}
	if len(suffixes) > 0 {
		return false
	}
	return yields
}

// index records .key on . when . may be the input; any other index of the
// input needs all of it. It reports whether it understood the index.
func (p *projector) index(ix *gojq.Index, dot bool) bool {
	if ix == nil {
		if dot {
			p.all = true // .[] on the input
		}
		return false
	}
	switch {
	case ix.Name != "" && ix.Start == nil && ix.End == nil && !ix.IsSlice:
		if dot {
			p.keys[ix.Name] = true
		}
		return true
	case ix.Str != nil && len(ix.Str.Queries) == 0 && ix.Start == nil && ix.End == nil && !ix.IsSlice:
		if dot {
			p.keys[ix.Str.Str] = true
		}
		return true
	}
	if dot {
		p.all = true
	}
	p.query(ix.Start, false, false)
	p.query(ix.End, false, false)
	return false
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
			if kv.KeyString != nil {
				p.str(kv.KeyString, dot)
			}
			p.query(kv.KeyQuery, dot, false)
			p.query(kv.Val, dot, false)
		case kv.Key != "" && kv.Key[0] == '$':
			// {$x}: a variable
		case kv.Key != "":
			if dot {
				p.keys[kv.Key] = true // {id} is {id: .id}
			}
		case kv.KeyString != nil && len(kv.KeyString.Queries) == 0:
			if dot {
				p.keys[kv.KeyString.Str] = true
			}
		default:
			if dot {
				p.all = true
			}
		}
	}
}

// fn walks a call. Variables and functions that ignore . are fine;
// select yields . itself; anything else applied to the input needs all
// of it.
func (p *projector) fn(f *gojq.Func, dot, out bool) bool {
	if len(f.Name) > 0 && f.Name[0] == '$' {
		return false
	}
	switch {
	case f.Name == "select" && len(f.Args) == 1:
		p.query(f.Args[0], dot, false)
		return p.whole(dot, out)
	case f.Name == "error" && len(f.Args) == 1:
		p.query(f.Args[0], dot, false)
		return false
	case len(f.Args) == 0 && (f.Name == "empty" || f.Name == "null" || f.Name == "true" || f.Name == "false" ||
		f.Name == "input_line_number" || f.Name == "input_filename" || f.Name == "now" || f.Name == "env"):
		return false
	}
	if dot {
		p.all = true
		return false
	}
	for _, a := range f.Args {
		p.query(a, false, false)
	}
	return false
}
