package partiql

import (
	"strings"

	"github.com/sortkeydb/sortkey/internal/expr"
)

// returning maps UPDATE's RETURNING forms to ReturnValues.
var returning = map[[2]string]string{
	{"all", "old"}: "ALL_OLD", {"modified", "old"}: "UPDATED_OLD",
	{"all", "new"}: "ALL_NEW", {"modified", "new"}: "UPDATED_NEW",
}

// updateStmt := target clause {clause} WHERE cond [RETURNING (ALL|MODIFIED) (OLD|NEW) '*']
func (p *parser) updateStmt() *Statement {
	st := &Statement{Kind: Update, Update: &expr.Update{}}
	st.Table, _ = p.target(false)
	p.noAlias()
	p.clause(st.Update)
	for !p.accept("where") {
		p.clause(st.Update)
	}
	st.Where = p.cond()
	if p.accept("returning") {
		st.Returning = returning[[2]string{lower(p.advance()), lower(p.advance())}]
		p.expect("*")
		if st.Returning == "" {
			p.fail(malformed(msgTerm))
		}
	}
	return st
}

// clause := SET action {',' action} | REMOVE path {',' path}
func (p *parser) clause(u *expr.Update) {
	switch {
	case p.accept("set"):
		p.setAction(u)
		for p.accept(",") {
			p.setAction(u)
		}
	case p.accept("remove"):
		u.Remove = append(u.Remove, p.path())
		for p.accept(",") {
			u.Remove = append(u.Remove, p.path())
		}
	default:
		p.fail(malformed(msgTerm))
	}
}

// setAction := path '=' operand. set_add(path, set) and
// set_delete(path, set) on the path being set become the expression
// language's ADD and DELETE, which is what they mean.
func (p *parser) setAction(u *expr.Update) {
	path := p.path()
	p.expect("=")
	v := p.operand()
	c, ok := v.(*expr.CallOperand)
	if !ok || (c.Func != "set_add" && c.Func != "set_delete") {
		u.Set = append(u.Set, expr.SetAction{Path: path, Value: v})
		return
	}
	set := setArg(c, path)
	if set == nil {
		p.fail(malformed(msgUnsupport + c.Func + " whose first argument is not the path set"))
	}
	if c.Func == "set_add" {
		u.Add = append(u.Add, expr.AddAction{Path: path, Value: set})
	} else {
		u.Delete = append(u.Delete, expr.DeleteAction{Path: path, Value: set})
	}
}

// setArg returns set_add's or set_delete's set when its first argument is
// path; nil otherwise.
func setArg(c *expr.CallOperand, path expr.Path) *expr.ValueOperand {
	if len(c.Args) != 2 {
		return nil
	}
	target, ok := c.Args[0].(*expr.PathOperand)
	set, isValue := c.Args[1].(*expr.ValueOperand)
	if !ok || !isValue || target.Path.String() != path.String() {
		return nil
	}
	return set
}

func lower(t token) string {
	if t.kind != tIdent {
		return ""
	}
	return strings.ToLower(t.text)
}
