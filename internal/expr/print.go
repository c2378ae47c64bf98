package expr

import (
	"strconv"
	"strings"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// Printed is a tree printed back as expression text, with the
// ExpressionAttributeNames and ExpressionAttributeValues the text refers to.
// NewAttrs(p.Names, p.Values) parses Text back to an equal tree (positions
// aside). Names and Values are nil when the text uses none.
type Printed struct {
	Text   string
	Names  map[string]string
	Values attr.Item
}

// FormatCond prints a condition, with parentheses only where precedence
// needs them.
func FormatCond(c Cond) Printed {
	var pr printer
	pr.cond(c, precOr)
	return pr.done()
}

// FormatUpdate prints an update expression, clauses in the order SET,
// REMOVE, ADD, DELETE.
func FormatUpdate(u *Update) Printed {
	var pr printer
	pr.update(u)
	return pr.done()
}

func (pr *printer) update(u *Update) {
	pr.clause("SET", len(u.Set), func(i int) { pr.path(u.Set[i].Path); pr.WriteString(" = "); pr.operand(u.Set[i].Value) })
	pr.clause("REMOVE", len(u.Remove), func(i int) { pr.path(u.Remove[i]) })
	pr.clause("ADD", len(u.Add), func(i int) { pr.path(u.Add[i].Path); pr.WriteByte(' '); pr.value(u.Add[i].Value) })
	pr.clause("DELETE", len(u.Delete), func(i int) { pr.path(u.Delete[i].Path); pr.WriteByte(' '); pr.value(u.Delete[i].Value) })
}

// Printer prints several trees for one request: a Query's key condition,
// filter and projection share its ExpressionAttributeNames and
// ExpressionAttributeValues, so their placeholders must not collide.
type Printer struct{ pr printer }

func (p *Printer) Cond(c Cond) string { return p.print(func() { p.pr.cond(c, precOr) }) }

func (p *Printer) Update(u *Update) string { return p.print(func() { p.pr.update(u) }) }

func (p *Printer) Projection(proj Projection) string {
	return p.print(func() { p.pr.list(len(proj), func(i int) { p.pr.path(proj[i]) }) })
}

// Names and Values are the placeholders every text printed so far uses;
// nil when none.
func (p *Printer) Names() map[string]string { return p.pr.names }
func (p *Printer) Values() attr.Item        { return p.pr.values }

func (p *Printer) print(f func()) string {
	p.pr.Reset()
	f()
	return p.pr.String()
}

// FormatProjection prints a projection expression.
func FormatProjection(proj Projection) Printed {
	var pr printer
	pr.list(len(proj), func(i int) { pr.path(proj[i]) })
	return pr.done()
}

// String renders a path as an expression writes it, names unquoted:
// a.b[3].c. It is meant for messages and debugging; FormatCond and friends
// produce text that parses back.
func (p Path) String() string {
	var b strings.Builder
	for i, e := range p {
		switch {
		case e.IsIndex:
			b.WriteString("[" + strconv.Itoa(e.Index) + "]")
		case i > 0:
			b.WriteString("." + e.Name)
		default:
			b.WriteString(e.Name)
		}
	}
	return b.String()
}

// printer accumulates text and the placeholders it needs.
type printer struct {
	strings.Builder
	names  map[string]string // placeholder -> attribute name
	byName map[string]string // attribute name -> placeholder
	values attr.Item
}

func (pr *printer) done() Printed {
	return Printed{Text: pr.String(), Names: pr.names, Values: pr.values}
}

// clause prints keyword and n actions, if there are any.
func (pr *printer) clause(keyword string, n int, action func(int)) {
	if n == 0 {
		return
	}
	if pr.Len() > 0 {
		pr.WriteByte(' ')
	}
	pr.WriteString(keyword + " ")
	pr.list(n, action)
}

// list prints n items separated by commas.
func (pr *printer) list(n int, item func(int)) {
	for i := range n {
		if i > 0 {
			pr.WriteString(", ")
		}
		item(i)
	}
}

// Precedence levels, loosest first.
const (
	precOr = iota
	precAnd
	precNot
	precPrimary
)

func precedence(c Cond) int {
	switch c.(type) {
	case *OrCond:
		return precOr
	case *AndCond:
		return precAnd
	case *NotCond:
		return precNot
	}
	return precPrimary
}

// cond prints c, in parentheses if it binds looser than min.
func (pr *printer) cond(c Cond, min int) {
	if precedence(c) < min {
		pr.WriteByte('(')
		defer pr.WriteByte(')')
	}
	switch c := c.(type) {
	case *OrCond:
		pr.binary(c.L, " OR ", c.R, precOr)
	case *AndCond:
		pr.binary(c.L, " AND ", c.R, precAnd)
	case *NotCond:
		pr.WriteString("NOT ")
		pr.cond(c.X, precNot)
	default:
		pr.primary(c)
	}
}

// binary prints a left-associative operator at level prec.
func (pr *printer) binary(l Cond, op string, r Cond, prec int) {
	pr.cond(l, prec)
	pr.WriteString(op)
	pr.cond(r, prec+1)
}

// primary prints a comparison or a function condition.
func (pr *printer) primary(c Cond) {
	switch c := c.(type) {
	case *CompareCond:
		pr.operand(c.L)
		pr.WriteString(" " + c.Op + " ")
		pr.operand(c.R)
	case *BetweenCond:
		pr.operand(c.X)
		pr.WriteString(" BETWEEN ")
		pr.operand(c.Lo)
		pr.WriteString(" AND ")
		pr.operand(c.Hi)
	case *InCond:
		pr.operand(c.X)
		pr.WriteString(" IN (")
		pr.operands(c.List)
		pr.WriteByte(')')
	case *FuncCond:
		pr.call(c.Func, c.Args)
	}
}

// operand prints one operand.
func (pr *printer) operand(o Operand) {
	switch o := o.(type) {
	case *PathOperand:
		pr.path(o.Path)
	case *ValueOperand:
		pr.value(o)
	case *CallOperand:
		pr.call(o.Func, o.Args)
	case *ArithOperand:
		pr.operand(o.L)
		pr.WriteString(" " + string(o.Op) + " ")
		pr.operand(o.R)
	}
}

func (pr *printer) operands(list []Operand) {
	pr.list(len(list), func(i int) { pr.operand(list[i]) })
}

func (pr *printer) call(name string, args []Operand) {
	pr.WriteString(name + "(")
	pr.operands(args)
	pr.WriteByte(')')
}

// path prints a document path, plain names as they are and any other name
// (reserved, a keyword, or with characters an identifier cannot have) as a
// #placeholder.
func (pr *printer) path(p Path) {
	for i, e := range p {
		switch {
		case e.IsIndex:
			pr.WriteString("[" + strconv.Itoa(e.Index) + "]")
			continue
		case i > 0:
			pr.WriteByte('.')
		}
		pr.WriteString(pr.nameFor(e.Name))
	}
}

// nameFor returns how to write attribute name n.
func (pr *printer) nameFor(n string) string {
	if isPlainName(n) {
		return n
	}
	if ph, ok := pr.byName[n]; ok {
		return ph
	}
	if pr.names == nil {
		pr.names, pr.byName = map[string]string{}, map[string]string{}
	}
	ph := "#n" + strconv.Itoa(len(pr.names))
	pr.names[ph], pr.byName[n] = n, ph
	return ph
}

// isPlainName reports whether n can be written without a placeholder.
func isPlainName(n string) bool {
	if n == "" || !isLetter(n[0]) || keywordKind(n) != tokIdent || isReserved(n) {
		return false
	}
	return isPlaceholder("#"+n, '#')
}

// value prints a value's placeholder, naming one if the tree has none.
func (pr *printer) value(v *ValueOperand) {
	if pr.values == nil {
		pr.values = attr.Item{}
	}
	name := v.Name
	if !isPlaceholder(name, ':') {
		name = ":v" + strconv.Itoa(len(pr.values))
	}
	pr.values[name] = v.Value
	pr.WriteString(name)
}
