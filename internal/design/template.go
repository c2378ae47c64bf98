package design

import (
	"errors"
	"regexp"
	"strings"
	"sync"
)

// Template is a key value as the design writes it: literal text with
// {variable} placeholders, e.g. "U#{userId}#O". A template without
// placeholders is a constant ("U").
type Template string

// Part is one piece of a template: literal text, or a variable's name.
type Part struct {
	Literal string
	Var     string
}

var (
	errUnclosed  = errors.New(`"{" without a closing "}"`)
	errUnopened  = errors.New(`"}" without an opening "{"`)
	errEmptyVar  = errors.New("a {} placeholder needs a variable name")
	errAdjacent  = errors.New("two placeholders in a row cannot be told apart: put literal text between them")
	errNestedVar = errors.New(`a placeholder cannot hold "{"`)
)

// Parts splits t into literal text and placeholders.
func (t Template) Parts() ([]Part, error) {
	var out []Part
	s := string(t)
	for s != "" {
		open := strings.IndexByte(s, '{')
		if close := strings.IndexByte(s, '}'); close >= 0 && (open < 0 || close < open) {
			return nil, errUnopened
		}
		if open < 0 {
			return append(out, Part{Literal: s}), nil
		}
		if open > 0 {
			out = append(out, Part{Literal: s[:open]})
		}
		name, rest, ok := strings.Cut(s[open+1:], "}")
		switch {
		case !ok:
			return nil, errUnclosed
		case name == "":
			return nil, errEmptyVar
		case strings.ContainsRune(name, '{'):
			return nil, errNestedVar
		case len(out) > 0 && out[len(out)-1].Var != "":
			return nil, errAdjacent
		}
		out = append(out, Part{Var: name})
		s = rest
	}
	return out, nil
}

// Vars are the names of t's placeholders, in order.
func (t Template) Vars() []string {
	parts, _ := t.Parts()
	var out []string
	for _, p := range parts {
		if p.Var != "" {
			out = append(out, p.Var)
		}
	}
	return out
}

// Prefix is the literal text before t's first placeholder: every value
// of t begins with it.
func (t Template) Prefix() string {
	s, _, _ := strings.Cut(string(t), "{")
	return s
}

// Constant reports whether t has no placeholders.
func (t Template) Constant() bool { return !strings.ContainsRune(string(t), '{') }

// Match reports whether value is one t can produce, and the value each
// placeholder then takes (a placeholder stands for one or more
// characters).
func (t Template) Match(value string) (map[string]string, bool) {
	re, vars := t.compiled()
	if re == nil {
		return nil, false
	}
	m := re.FindStringSubmatch(value)
	if m == nil {
		return nil, false
	}
	out := make(map[string]string, len(vars))
	for i, v := range vars {
		out[v] = m[i+1]
	}
	return out, true
}

// Matches is Match without the placeholders' values.
func (t Template) Matches(value string) bool {
	re, _ := t.compiled()
	return re != nil && re.MatchString(value)
}

type compiledTemplate struct {
	re   *regexp.Regexp
	vars []string
}

var compiledTemplates sync.Map // Template -> *compiledTemplate

// compiled is t as an anchored regular expression, built once; nil for a
// template that does not parse.
func (t Template) compiled() (*regexp.Regexp, []string) {
	if c, ok := compiledTemplates.Load(t); ok {
		return c.(*compiledTemplate).re, c.(*compiledTemplate).vars
	}
	c := &compiledTemplate{}
	if parts, err := t.Parts(); err == nil {
		var b strings.Builder
		b.WriteString("^")
		for _, p := range parts {
			if p.Var != "" {
				b.WriteString("(.+?)")
				c.vars = append(c.vars, p.Var)
			} else {
				b.WriteString(regexp.QuoteMeta(p.Literal))
			}
		}
		b.WriteString("$")
		c.re = regexp.MustCompile(b.String())
	}
	compiledTemplates.Store(t, c)
	return c.re, c.vars
}
