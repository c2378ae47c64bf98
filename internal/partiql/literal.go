package partiql

import (
	"strconv"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
)

// value := string | ['-'] number | TRUE | FALSE | NULL | '?' | list | map | set
func (p *parser) value() attr.Value {
	defer p.nest()()
	t := p.advance()
	switch {
	case t.kind == tString:
		return attr.Value{S: ptr(t.text)}
	case t.kind == tNumber:
		return p.number(t.text)
	case t.is("-") && p.peek().kind == tNumber:
		return p.number("-" + p.advance().text)
	case t.is("true"), t.is("false"):
		return attr.Value{BOOL: ptr(t.is("true"))}
	case t.is("null"):
		return attr.Value{NULL: ptr(true)}
	case t.is("?"):
		return p.param()
	}
	return p.collection(t)
}

// collection := '[' [value {',' value}] ']' | '{' [entry {',' entry}] '}' | '<<' value {',' value} '>>'
func (p *parser) collection(t token) attr.Value {
	switch {
	case t.is("["):
		return attr.Value{L: p.values("]")}
	case t.is("{"):
		return attr.Value{M: p.entries()}
	case t.is("<<"):
		return p.set(p.values(">>"))
	}
	p.fail(malformed(msgTerm))
	return attr.Value{}
}

// values reads values separated by commas up to closer.
func (p *parser) values(closer string) []attr.Value {
	list := []attr.Value{}
	if p.accept(closer) {
		return list
	}
	for {
		p.where = append(p.where, "["+strconv.Itoa(len(list))+"]")
		list = append(list, p.value())
		p.where = p.where[:len(p.where)-1]
		if !p.accept(",") {
			break
		}
	}
	p.expect(closer)
	return list
}

// entries := [string ':' value {',' string ':' value}] '}'
func (p *parser) entries() map[string]attr.Value {
	m := map[string]attr.Value{}
	if p.accept("}") {
		return m
	}
	for {
		k := p.advance()
		if k.kind != tString {
			p.fail(malformed(msgTerm))
		}
		p.expect(":")
		p.where = append(p.where, "."+k.text)
		m[k.text] = p.value()
		p.where = p.where[:len(p.where)-1]
		if !p.accept(",") {
			p.expect("}")
			return m
		}
	}
}

// set builds a string, number or binary set from its members.
func (p *parser) set(members []attr.Value) attr.Value {
	var v attr.Value
	for _, m := range members {
		switch {
		case m.S != nil && v.NS == nil && v.BS == nil:
			v.SS = append(v.SS, *m.S)
		case m.N != nil && v.SS == nil && v.BS == nil:
			v.NS = append(v.NS, *m.N)
		case m.B != nil && v.SS == nil && v.NS == nil:
			v.BS = append(v.BS, m.B)
		default:
			p.fail(apierr.Validationf("%s", msgSetMixed))
		}
	}
	return v
}

// number checks a numeric literal as DynamoDB stores numbers. An exponent
// too long to convert is malformed with nothing after the colon; a number
// out of range names where it sits in the literal, as DynamoDB does
// ("under root.a[1]").
func (p *parser) number(text string) attr.Value {
	if e := strings.IndexAny(text, "eE"); e >= 0 && len(strings.TrimLeft(text[e+1:], "+-0")) > 9 {
		p.fail(malformed(""))
	}
	n, err := attr.NormalizeNumber(text)
	if err != nil {
		p.fail(apierr.Validationf("%s under root%s", err.Error(), strings.Join(p.where, "")))
	}
	return attr.Value{N: &n}
}

// param binds the next ? to the next parameter; a missing one is the
// count mismatch, found here so binding never reads past the list.
func (p *parser) param() attr.Value {
	if p.used >= len(p.params) {
		p.fail(apierr.Validationf("%s", msgParams))
	}
	p.used++
	v := p.params[p.used-1]
	if v.N != nil {
		if _, err := attr.NormalizeNumber(*v.N); err != nil {
			p.fail(apierr.Validationf("%s%s", msgParamNumber, *v.N))
		}
	}
	return v
}
