package partiql

import (
	"strings"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
)

// cond := andCond {OR andCond}
func (p *parser) cond() expr.Cond {
	defer p.nest()()
	c := p.andCond()
	for p.accept("or") {
		c = &expr.OrCond{L: c, R: p.andCond()}
	}
	return c
}

// andCond := notCond {AND notCond}
func (p *parser) andCond() expr.Cond {
	c := p.notCond()
	for p.accept("and") {
		c = &expr.AndCond{L: c, R: p.notCond()}
	}
	return c
}

// notCond := NOT notCond | predicate
func (p *parser) notCond() expr.Cond {
	if p.accept("not") {
		defer p.nest()()
		return &expr.NotCond{X: p.notCond()}
	}
	return p.predicate()
}

// condFuncs are the functions that yield a truth value.
var condFuncs = map[string]bool{"begins_with": true, "contains": true, "attribute_type": true}

// predicate := '(' cond ')' | condFunc '(' operand {',' operand} ')' | operand tail
func (p *parser) predicate() expr.Cond {
	if p.accept("(") {
		c := p.cond()
		p.expect(")")
		return c
	}
	t := p.peek()
	if t.kind == tIdent && condFuncs[strings.ToLower(t.text)] && p.toks[p.i+1].is("(") {
		p.i += 2
		return &expr.FuncCond{Func: strings.ToLower(t.text), Args: p.args(), Pos: t.pos}
	}
	if t.is("exists") {
		p.fail(existsOutside())
	}
	return p.tail(p.operand())
}

// args := operand {',' operand} ')'
func (p *parser) args() []expr.Operand {
	args := []expr.Operand{p.operand()}
	for p.accept(",") {
		args = append(args, p.operand())
	}
	p.expect(")")
	return args
}

// compareOps are the comparison operators, != spelled as <>.
var compareOps = map[string]string{"=": "=", "<>": "<>", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

// tail := cmp operand | BETWEEN operand AND operand | [NOT] IN list | IS [NOT] (MISSING | NULL)
func (p *parser) tail(x expr.Operand) expr.Cond {
	t := p.advance()
	switch {
	case t.kind == tPunct && compareOps[t.text] != "":
		return &expr.CompareCond{Op: compareOps[t.text], L: x, R: p.operand()}
	case t.is("between"):
		lo := p.operand()
		p.expect("and")
		return &expr.BetweenCond{X: x, Lo: lo, Hi: p.operand()}
	case t.is("in"):
		return &expr.InCond{X: x, List: p.inList()}
	case t.is("not") && p.accept("in"):
		return &expr.NotCond{X: &expr.InCond{X: x, List: p.inList()}}
	case t.is("is"):
		return p.isCond(x)
	}
	p.fail(malformed(msgTerm))
	return nil
}

// inList := '[' operand {',' operand} ']' | '(' operand {',' operand} ')'
func (p *parser) inList() []expr.Operand {
	closer := "]"
	if p.accept("(") {
		closer = ")"
	} else {
		p.expect("[")
	}
	list := []expr.Operand{p.operand()}
	for p.accept(",") {
		list = append(list, p.operand())
	}
	p.expect(closer)
	return list
}

// isCond := [NOT] (MISSING | NULL), after IS. MISSING is the expression
// language's attribute_not_exists; NULL, as in PartiQL, holds for a NULL
// value and for a missing attribute alike.
func (p *parser) isCond(x expr.Operand) expr.Cond {
	not := p.accept("not")
	path, ok := x.(*expr.PathOperand)
	if !ok {
		p.fail(malformed(msgTerm))
	}
	var c expr.Cond
	switch {
	case p.accept("missing"):
		c = call("attribute_not_exists", path)
	case p.accept("null"):
		c = &expr.OrCond{L: call("attribute_not_exists", path), R: call("attribute_type", path, valueOf(attr.Value{S: ptr("NULL")}))}
	default:
		p.fail(malformed(msgTerm))
	}
	if not {
		return &expr.NotCond{X: c}
	}
	return c
}

func call(fn string, args ...expr.Operand) *expr.FuncCond {
	return &expr.FuncCond{Func: fn, Args: args}
}

func valueOf(v attr.Value) *expr.ValueOperand { return &expr.ValueOperand{Value: v} }

func ptr[T any](v T) *T { return &v }

// operand := term {('+' | '-') term}
func (p *parser) operand() expr.Operand {
	x := p.term()
	for p.peek().is("+") || p.peek().is("-") {
		op := p.advance()
		x = &expr.ArithOperand{Op: op.text[0], L: x, R: p.term(), Pos: op.pos}
	}
	return x
}

// operandFuncs are the functions that yield a value.
var operandFuncs = map[string]bool{"size": true, "list_append": true, "if_not_exists": true, "set_add": true, "set_delete": true}

// term := operandFunc '(' args | path | value
func (p *parser) term() expr.Operand {
	t := p.peek()
	if t.kind == tIdent && operandFuncs[strings.ToLower(t.text)] && p.toks[p.i+1].is("(") {
		p.i += 2
		return &expr.CallOperand{Func: strings.ToLower(t.text), Args: p.args(), Pos: t.pos}
	}
	if t.kind == tQuoted || (t.kind == tIdent && !keywords[strings.ToLower(t.text)]) {
		return &expr.PathOperand{Path: p.path(), Pos: t.pos}
	}
	return &expr.ValueOperand{Value: p.value(), Pos: t.pos}
}
