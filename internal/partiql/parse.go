package partiql

import (
	"errors"
	"strconv"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
)

// Kind is what a statement does.
type Kind uint8

const (
	Select Kind = iota + 1
	Insert
	Update
	Delete
	Exists // EXISTS(SELECT ...), a ConditionCheck in ExecuteTransaction
)

// Statement is a parsed statement. Conditions, paths and updates are the
// expression package's trees, with the literals and parameters already in
// them as values.
type Statement struct {
	Kind       Kind
	Table      string
	Index      string          // SELECT from "T"."I"
	Projection expr.Projection // nil for SELECT *
	Where      expr.Cond
	OrderBy    expr.Path // nil when none
	Descending bool
	Item       attr.Item    // INSERT's VALUE
	Update     *expr.Update // UPDATE's SET and REMOVE
	Returning  string       // UPDATE and DELETE: a ReturnValues value, or ""
}

// maxDepth caps the nesting of conditions and literals, so a hostile
// statement cannot exhaust the stack.
const maxDepth = 32

// keywords cannot be names unless double-quoted.
var keywords = map[string]bool{
	"select": true, "from": true, "where": true, "and": true, "or": true, "not": true,
	"between": true, "in": true, "is": true, "missing": true, "null": true, "true": true,
	"false": true, "insert": true, "into": true, "value": true, "update": true, "set": true,
	"remove": true, "delete": true, "returning": true, "order": true, "by": true, "as": true,
	"asc": true, "desc": true,
}

// parser walks the token list. Errors unwind by panic to Parse, which
// keeps every production a few lines long.
type parser struct {
	toks   []token
	i      int
	params []attr.Value
	used   int // ? placeholders bound so far
	depth  int
	where  []string // the literal's path to the value being read, for number errors
}

// failure carries an error from a production up to Parse.
type failure struct{ err *apierr.Error }

// Parse parses one statement and binds its ? placeholders to params, in
// order.
func Parse(src string, params []attr.Value) (*Statement, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	return parseTokens(toks, params)
}

// parseTokens is Parse of a statement already split into tokens, which it
// only reads, so that one token list may serve many calls.
func parseTokens(toks []token, params []attr.Value) (st *Statement, err error) {
	p := &parser{toks: toks, params: params}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			st, err = nil, f.err
		}
	}()
	return p.statement(), nil
}

func (p *parser) fail(err *apierr.Error) { panic(failure{err}) }

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// accept consumes the next token if it is s.
func (p *parser) accept(s string) bool {
	if p.peek().is(s) {
		p.i++
		return true
	}
	return false
}

// expect consumes s or fails.
func (p *parser) expect(s string) {
	if !p.accept(s) {
		p.fail(malformed(msgTerm))
	}
}

// nest guards one level of recursion; the caller defers the returned func.
func (p *parser) nest() func() {
	if p.depth++; p.depth > maxDepth {
		p.fail(apierr.Validationf("%s", msgNesting))
	}
	return func() { p.depth-- }
}

// statement := (select | insert | update | delete) EOF
func (p *parser) statement() *Statement {
	var st *Statement
	switch t := p.advance(); {
	case t.is("select"):
		st = p.selectStmt()
	case t.is("insert"):
		st = p.insertStmt()
	case t.is("update"):
		st = p.updateStmt()
	case t.is("delete"):
		st = p.deleteStmt()
	case t.is("exists"):
		st = p.existsStmt()
	default:
		p.fail(malformed(msgTerm))
	}
	if p.peek().kind != tEOF {
		p.fail(malformed(msgTrailing))
	}
	if p.used != len(p.params) {
		p.fail(apierr.Validationf("%s", msgParams))
	}
	return st
}

// selectStmt := projection FROM target [WHERE cond] [ORDER BY path [ASC|DESC]]
func (p *parser) selectStmt() *Statement {
	st := &Statement{Kind: Select, Projection: p.projection()}
	p.expect("from")
	st.Table, st.Index = p.target(true)
	p.noAlias()
	if p.accept("where") {
		st.Where = p.cond()
	}
	if p.accept("order") {
		p.expect("by")
		st.OrderBy = p.path()
		if st.Descending = p.accept("desc"); !st.Descending {
			p.accept("asc")
		}
	}
	return st
}

// existsStmt := '(' SELECT select ')'
func (p *parser) existsStmt() *Statement {
	p.expect("(")
	p.expect("select")
	st := p.selectStmt()
	p.expect(")")
	st.Kind = Exists
	return st
}

// projection := '*' | path {',' path}
func (p *parser) projection() expr.Projection {
	if p.accept("*") {
		return nil
	}
	proj := expr.Projection{p.path()}
	for p.accept(",") {
		proj = append(proj, p.path())
	}
	return proj
}

// target := name ['.' name], the table and, when allowed, an index.
func (p *parser) target(index bool) (table, idx string) {
	table = p.name()
	if index && p.accept(".") {
		idx = p.name()
	}
	return table, idx
}

// noAlias refuses FROM "T" t and FROM "T" AS t.
func (p *parser) noAlias() {
	t := p.peek()
	if t.is("as") || t.kind == tQuoted || (t.kind == tIdent && !keywords[strings.ToLower(t.text)]) {
		p.fail(apierr.Validationf("%s", msgAlias))
	}
}

// name := identifier | "quoted identifier"
func (p *parser) name() string {
	t := p.advance()
	if t.kind == tQuoted || (t.kind == tIdent && !keywords[strings.ToLower(t.text)]) {
		return t.text
	}
	p.fail(malformed(msgTerm))
	return ""
}

// path := name {'.' name | '[' integer ']'}
func (p *parser) path() expr.Path {
	path := expr.Path{{Name: p.name()}}
	for {
		switch {
		case p.accept("."):
			path = append(path, expr.PathElem{Name: p.name()})
		case p.accept("["):
			path = append(path, expr.PathElem{Index: p.index(), IsIndex: true})
			p.expect("]")
		default:
			return path
		}
	}
}

// index reads a list index: a non-negative integer.
func (p *parser) index() int {
	t := p.advance()
	n, err := strconv.Atoi(t.text)
	if t.kind != tNumber || err != nil || n < 0 {
		p.fail(malformed(msgTerm))
	}
	return n
}

// insertStmt := INTO target VALUE map
func (p *parser) insertStmt() *Statement {
	p.expect("into")
	st := &Statement{Kind: Insert}
	st.Table, _ = p.target(false)
	p.expect("value")
	v := p.value()
	if v.M == nil {
		p.fail(malformed(msgTerm))
	}
	st.Item = v.M
	return st
}

// deleteStmt := FROM target WHERE cond [RETURNING ALL OLD '*']
func (p *parser) deleteStmt() *Statement {
	p.expect("from")
	st := &Statement{Kind: Delete}
	st.Table, _ = p.target(false)
	p.noAlias()
	p.expect("where")
	st.Where = p.cond()
	if p.accept("returning") {
		p.expect("all")
		p.expect("old")
		p.expect("*")
		st.Returning = "ALL_OLD"
	}
	return st
}

// errAs reports whether err is an API error with code c.
func errAs(err error, c apierr.Code) bool {
	var ae *apierr.Error
	return errors.As(err, &ae) && ae.Code == c
}
