package expr

import (
	"slices"
	"strconv"
	"strings"
)

// parser is a recursive-descent parser over the tokens of one expression.
// Syntax errors and exceeded limits stop it at once (fail panics with a
// bailout that run recovers); every other error is recorded in err and the
// parse goes on, so that a later syntax error still wins, as in DynamoDB.
type parser struct {
	src   string
	toks  []token
	i     int // index of the current token
	a     *Attrs
	kind  Kind
	ops   int   // operators and functions so far
	err   error // first non-syntax error
	paths []Path
	// closing pairs parentheses, for the redundant-parentheses check;
	// nil until an expression has "((".
	closing []int
}

// ParseCondition parses a ConditionExpression, FilterExpression or
// KeyConditionExpression; kind says which, for error messages and for the
// operators a key condition may not use. The tree is well-formed and fully
// resolved; ValidateCond then checks the literal operands' types.
func (a *Attrs) ParseCondition(kind Kind, s string) (Cond, error) {
	var c Cond
	err := a.run(kind, s, func(p *parser) { c = p.parseCondition() })
	if err != nil {
		return nil, err
	}
	return c, nil
}

// run checks the expression's size, scans it and runs parse over it.
func (a *Attrs) run(kind Kind, s string, parse func(*parser)) (err error) {
	if a.err != nil {
		return a.err
	}
	p := &parser{src: s, a: a, kind: kind}
	if len(s) > maxExprSize {
		return p.errorf(msgTooLarge, len(s))
	}
	if strings.TrimLeft(s, " \t\r\n") == "" {
		return p.errorf(msgEmpty)
	}
	p.toks = scan(s)
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			err = b.err
		}
	}()
	parse(p)
	return p.err
}

// cur is the current token; peek(n) the one n tokens further (tokEOF past the end).
func (p *parser) cur() token { return p.toks[p.i] }

func (p *parser) peek(n int) token { return p.toks[min(p.i+n, len(p.toks)-1)] }

// accept consumes the current token if it is of kind k.
func (p *parser) accept(k tokKind) bool {
	if p.toks[p.i].kind != k {
		return false
	}
	p.i++
	return true
}

// expect consumes a token of kind k or stops with a syntax error.
func (p *parser) expect(k tokKind) token {
	t := p.toks[p.i]
	if t.kind != k {
		p.syntaxError(p.i)
	}
	p.i++
	return t
}

// operator counts one operator or function against DynamoDB's limit.
func (p *parser) operator() {
	if p.ops++; p.ops == maxOperators+1 {
		p.semantic(msgOperators, p.ops)
	}
}

// keyOperator refuses an operator a KeyConditionExpression may not use.
func (p *parser) keyOperator(op string) {
	if p.kind == KeyCondition {
		p.semanticRaw(msgKeyOperator, op)
	}
}

// parseCondition parses a whole condition expression.
//
//	expression ::= condition EOF
func (p *parser) parseCondition() Cond {
	c := p.parseOr()
	p.expect(tokEOF)
	return c
}

// parseOr parses a disjunction; OR binds loosest and associates left.
//
//	condition ::= conjunction { OR conjunction }
func (p *parser) parseOr() Cond {
	c := p.parseAnd()
	for p.cur().kind == tokOr {
		p.keyOperator("OR")
		p.i++
		p.operator()
		c = &OrCond{L: c, R: p.parseAnd()}
	}
	return c
}

// parseAnd parses a conjunction.
//
//	conjunction ::= negation { AND negation }
func (p *parser) parseAnd() Cond {
	c := p.parseNot()
	for p.accept(tokAnd) {
		p.operator()
		c = &AndCond{L: c, R: p.parseNot()}
	}
	return c
}

// parseNot parses a negation.
//
//	negation ::= NOT negation | primary
func (p *parser) parseNot() Cond {
	if p.cur().kind != tokNot {
		return p.parsePrimary()
	}
	p.keyOperator("NOT")
	p.i++
	p.operator()
	return &NotCond{X: p.parseNot()}
}

// parsePrimary parses a parenthesized condition, a function that yields a
// truth value, or a comparison. There is no cap on nesting: DynamoDB
// limits operators, not parentheses, and the 4 KB size limit bounds the
// recursion to a few thousand frames.
//
//	primary ::= '(' condition ')' | function | comparison
func (p *parser) parsePrimary() Cond {
	if p.accept(tokLParen) {
		p.redundant()
		c := p.parseOr()
		p.expect(tokRParen)
		return c
	}
	x := p.operand(ctxCond, true)
	if call, ok := x.(*CallOperand); ok && !p.cur().kind.isComparison() {
		p.checkCall(call, ctxCond, true)
		return &FuncCond{Func: call.Func, Args: call.Args, Pos: call.Pos}
	}
	if call, ok := x.(*CallOperand); ok {
		p.checkCall(call, ctxCond, false)
	}
	return p.parseComparison(x)
}

// redundant refuses a parenthesized condition whose parentheses hold
// nothing but another parenthesized condition, "((a = :v))", as DynamoDB
// does; it is called just after the outer '('.
func (p *parser) redundant() {
	if p.cur().kind != tokLParen {
		return
	}
	if end := p.matching(p.i); end >= 0 && p.toks[end+1].kind == tokRParen {
		p.semantic(msgRedundantParens)
	}
}

// matching returns the index of the ')' that closes the '(' at token i, or
// -1 when it is not closed. The pairs are found once, in one pass, on the
// first "((" of the expression.
func (p *parser) matching(i int) int {
	if p.closing == nil {
		p.closing = pairParens(p.toks)
	}
	return p.closing[i]
}

// pairParens maps each '(' token's index to its ')' token's index (-1 when
// unclosed); other entries are -1.
func pairParens(toks []token) []int {
	closing := make([]int, len(toks))
	var open []int
	for i, t := range toks {
		closing[i] = -1
		switch {
		case t.kind == tokLParen:
			open = append(open, i)
		case t.kind == tokRParen && len(open) > 0:
			closing[open[len(open)-1]] = i
			open = open[:len(open)-1]
		}
	}
	return closing
}

// isComparison reports whether k continues an operand into a comparison.
func (k tokKind) isComparison() bool { return k.isComparator() || k == tokBetween || k == tokIn }

// parseComparison parses the rest of a comparison after its first operand.
//
//	comparison ::= operand comparator operand
//	             | operand BETWEEN operand AND operand
//	             | operand IN '(' operand { ',' operand } ')'
//	comparator ::= '=' | '<>' | '<' | '<=' | '>' | '>='
func (p *parser) parseComparison(x Operand) Cond {
	t := p.cur()
	switch {
	case t.kind == tokBetween:
		return p.parseBetween(x)
	case t.kind == tokIn:
		return p.parseIn(x)
	case !t.kind.isComparator():
		p.syntaxError(p.i)
	case t.kind == tokNe:
		p.keyOperator(t.text)
	}
	p.i++
	p.operator()
	return &CompareCond{Op: t.text, L: x, R: p.parseOperand(ctxCond)}
}

// parseBetween parses BETWEEN operand AND operand.
func (p *parser) parseBetween(x Operand) Cond {
	p.i++
	p.operator()
	lo := p.parseOperand(ctxCond)
	p.expect(tokAnd)
	return &BetweenCond{X: x, Lo: lo, Hi: p.parseOperand(ctxCond)}
}

// parseIn parses IN '(' operand { ',' operand } ')'.
func (p *parser) parseIn(x Operand) Cond {
	p.keyOperator("IN")
	p.i++
	p.operator()
	p.expect(tokLParen)
	list := p.parseOperands(ctxCond)
	p.expect(tokRParen)
	if len(list) > maxInOperands {
		p.semantic(msgInOperands, len(list))
	}
	return &InCond{X: x, List: list}
}

// parseOperands parses a comma-separated list of one or more operands.
func (p *parser) parseOperands(c context) []Operand {
	list := []Operand{p.parseOperand(c)}
	for p.accept(tokComma) {
		list = append(list, p.parseOperand(c))
	}
	return list
}

// context is where an operand appears: in a condition or in a SET action.
type context uint8

const (
	ctxCond context = iota
	ctxSet
)

// parseOperand parses an operand and checks that a function used as one is
// allowed there.
func (p *parser) parseOperand(c context) Operand { return p.operand(c, false) }

// operand parses a path, a value or a function call; top leaves the check of
// a call to the caller, which knows whether it is used as a condition.
//
//	operand ::= path | :placeholder | function
func (p *parser) operand(c context, top bool) Operand {
	t := p.cur()
	switch {
	case t.kind == tokValue:
		p.i++
		return p.valueOperand(t)
	case t.kind == tokIdent && p.peek(1).kind == tokLParen:
		call := p.parseCall(c)
		if !top {
			p.checkCall(call, c, false)
		}
		return call
	}
	return &PathOperand{Path: p.parsePath(), Pos: t.pos}
}

// parseCall parses a function call; its name is checked by checkCall.
//
//	function ::= identifier '(' operand { ',' operand } ')'
func (p *parser) parseCall(c context) *CallOperand {
	t := p.cur()
	p.i += 2
	p.operator()
	args := p.parseOperands(c)
	p.expect(tokRParen)
	return &CallOperand{Func: t.text, Args: args, Pos: t.pos}
}

// parsePath parses a document path.
//
//	path ::= name { '.' name | '[' index ']' }
func (p *parser) parsePath() Path {
	path := Path{p.pathName()}
	for {
		switch {
		case p.accept(tokDot):
			path = append(path, p.pathName())
		case p.accept(tokLBrack):
			path = append(path, p.pathIndex())
		default:
			if len(path) > maxPathDepth {
				p.semantic(msgDepth, len(path))
			}
			return path
		}
	}
}

// pathIndex parses a list index after '['. One past int32 is out of the
// allowable range: DynamoDB accepts a[999] and refuses a[99999999999999],
// and where between them its limit lies is not known.
//
//	index ::= digit { digit }
func (p *parser) pathIndex() PathElem {
	t := p.cur()
	if t.kind != tokNumber {
		p.syntaxError(p.i)
	}
	n, err := strconv.ParseInt(t.text, 10, 32)
	if err != nil {
		p.semantic(msgIndexRange, t.text)
	}
	p.i++
	p.expect(tokRBrack)
	return PathElem{Index: int(n), IsIndex: true}
}

// funcInfo describes one of DynamoDB's functions.
type funcInfo struct {
	nargs  int
	cond   bool // yields a truth value: usable only as a whole condition
	update bool // if_not_exists and list_append: usable only in SET values
	path   bool // the first argument must be a document path
	value  bool // the second argument must be a :placeholder
	twoOf  bool // the two arguments must not be the same path
}

// funcs are the functions, by their case-sensitive names.
var funcs = map[string]funcInfo{
	"attribute_exists":     {nargs: 1, cond: true, path: true},
	"attribute_not_exists": {nargs: 1, cond: true, path: true},
	"attribute_type":       {nargs: 2, cond: true, value: true},
	"begins_with":          {nargs: 2, cond: true},
	"contains":             {nargs: 2, cond: true, twoOf: true},
	"size":                 {nargs: 1},
	"if_not_exists":        {nargs: 2, update: true, path: true},
	"list_append":          {nargs: 2, update: true},
}

// checkCall checks a call's name, where it is used (in context c, and as a
// whole condition when asCond), its number of arguments and their kinds.
func (p *parser) checkCall(call *CallOperand, c context, asCond bool) {
	f, ok := funcs[call.Func]
	switch {
	case !ok:
		p.semantic(msgBadFunc, call.Func)
	case !p.allowed(f, call.Func, c, asCond):
	case len(call.Args) != f.nargs:
		p.semantic(msgOperandCount, call.Func, len(call.Args))
	case f.path && !isPath(call.Args[0]):
		p.semantic(msgNeedsPath, call.Func)
	case f.value && !isValue(call.Args[1]):
		p.semantic(msgNeedsValue, call.Func)
	case f.twoOf && samePath(call.Args[0], call.Args[1]):
		p.semantic(msgSameOperands, call.Func)
	}
}

func isValue(o Operand) bool {
	_, ok := o.(*ValueOperand)
	return ok
}

// samePath reports whether two operands are the same document path, after
// #names are resolved: contains(a, #a) with #a for "a" is refused too.
func samePath(a, b Operand) bool {
	pa, ok := a.(*PathOperand)
	pb, ok2 := b.(*PathOperand)
	return ok && ok2 && slices.Equal(pa.Path, pb.Path)
}

// allowed reports whether function name may be used where it is, recording
// the error when it may not.
func (p *parser) allowed(f funcInfo, name string, c context, asCond bool) bool {
	switch {
	case c == ctxSet && !f.update:
		p.semantic(msgFuncInUpdate, name)
	case c == ctxSet:
		return true
	case p.kind == KeyCondition && !(asCond && name == "begins_with"):
		p.semanticRaw(msgKeyOperator, name)
	case f.update || f.cond != asCond:
		p.semantic(msgFuncThisWay, name)
	default:
		return true
	}
	return false
}

func isPath(o Operand) bool {
	_, ok := o.(*PathOperand)
	return ok
}
