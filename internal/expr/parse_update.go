package expr

import "strings"

// ParseUpdate parses an UpdateExpression.
// ValidateUpdate then checks the literal operands' types.
func (a *Attrs) ParseUpdate(s string) (*Update, error) {
	var u *Update
	err := a.run(UpdateKind, s, func(p *parser) { u = p.parseUpdate() })
	if err != nil {
		return nil, err
	}
	return u, nil
}

// parseUpdate parses the clauses of an update expression, each at most once,
// then checks that no two actions touch overlapping paths.
//
//	update ::= clause { clause } EOF
//	clause ::= SET set-action { ',' set-action }
//	         | REMOVE path { ',' path }
//	         | ADD path :placeholder { ',' path :placeholder }
//	         | DELETE path :placeholder { ',' path :placeholder }
func (p *parser) parseUpdate() *Update {
	u := &Update{}
	seen := map[tokKind]bool{}
	for {
		t := p.cur()
		if !t.kind.isClause() {
			p.syntaxError(p.i)
		}
		p.i++
		if seen[t.kind] {
			p.semantic(msgClauseTwice, strings.ToUpper(t.text))
		}
		seen[t.kind] = true
		p.parseClause(u, t.kind)
		if p.cur().kind == tokEOF {
			p.checkOverlaps()
			return u
		}
	}
}

// parseClause parses the comma-separated actions of one clause into u.
func (p *parser) parseClause(u *Update, k tokKind) {
	for {
		switch k {
		case tokSet:
			u.Set = append(u.Set, p.parseSetAction())
		case tokRemove:
			u.Remove = append(u.Remove, p.actionPath())
		case tokAdd:
			u.Add = append(u.Add, AddAction{Path: p.actionPath(), Value: p.actionValue()})
		case tokDelete:
			u.Delete = append(u.Delete, DeleteAction{Path: p.actionPath(), Value: p.actionValue()})
		}
		if !p.accept(tokComma) {
			return
		}
	}
}

// parseSetAction parses one SET action.
//
//	set-action ::= path '=' set-value
func (p *parser) parseSetAction() SetAction {
	path := p.actionPath()
	p.expect(tokEq)
	return SetAction{Path: path, Value: p.parseSetValue()}
}

// parseSetValue parses the value of a SET action: at most one + or -.
// Parentheses may wrap the whole value or either operand, as DynamoDB
// allows (SET c = (c - :v), SET c = ((c) + (:v))), but do not let a value
// hold a second + or -.
//
//	set-value ::= set-term [ ( '+' | '-' ) set-term ]
//	set-term  ::= '(' set-value ')' | operand
func (p *parser) parseSetValue() Operand {
	l := p.parseSetTerm(true)
	t := p.cur()
	if t.kind != tokPlus && t.kind != tokMinus {
		return l
	}
	if _, ok := l.(*ArithOperand); ok {
		p.syntaxError(p.i)
	}
	p.i++
	p.operator()
	return &ArithOperand{Op: t.text[0], L: l, R: p.parseSetTerm(false), Pos: t.pos}
}

// parseSetTerm parses an operand of a SET value, or a parenthesized one;
// arith says whether the parentheses may hold a + or - (only when nothing
// follows them that would make it a second one).
func (p *parser) parseSetTerm(arith bool) Operand {
	if !p.accept(tokLParen) {
		return p.parseOperand(ctxSet)
	}
	var v Operand
	if arith {
		v = p.parseSetValue()
	} else {
		v = p.parseSetTerm(false)
	}
	p.expect(tokRParen)
	return v
}

// actionPath parses the path an action writes, remembering it for the
// overlap check.
func (p *parser) actionPath() Path {
	path := p.parsePath()
	p.paths = append(p.paths, path)
	return path
}

// actionValue parses the :placeholder of an ADD or DELETE action.
func (p *parser) actionValue() *ValueOperand {
	return p.valueOperand(p.expect(tokValue))
}

// checkOverlaps records an error for the first two paths, in the order
// written, that overlap (one is a prefix of the other) or conflict (one
// indexes as a list what the other names as a map).
func (p *parser) checkOverlaps() {
	for j, b := range p.paths {
		for _, a := range p.paths[:j] {
			switch relate(a, b) {
			case overlap:
				p.semantic(msgPathsOverlap, pathText(a), pathText(b))
				return
			case conflict:
				p.semantic(msgPathsConflict, pathText(a), pathText(b))
				return
			}
		}
	}
}

// relation is how two document paths relate.
type relation uint8

const (
	disjoint relation = iota
	overlap
	conflict
)

// relate compares two paths element by element.
func relate(a, b Path) relation {
	for i := range min(len(a), len(b)) {
		switch {
		case a[i].IsIndex != b[i].IsIndex:
			return conflict
		case a[i] != b[i]:
			return disjoint
		}
	}
	return overlap
}
