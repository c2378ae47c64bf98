package vector

import (
	"errors"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
)

// The refusals of a SearchConditionExpression. msgHashRequired and
// msgComparator are DynamoDB's documented texts, msgValueType is the text
// DynamoDB gives a Query whose key condition has a value of the wrong type;
// the others are sortkey's own wording, in DynamoDB's style, because the
// documentation gives none.
const (
	msgHashRequired = "SearchConditionExpression must be provided when SearchSchema has a HASH key"
	msgComparator   = "Invalid comparator used in SearchConditionExpression"
	msgValueType    = "One or more parameter values were invalid: Condition parameter type does not match schema type"
	msgHashMissing  = "SearchConditionExpression must contain an equality condition on the SearchSchema HASH key attribute: %s"
	msgHashTwice    = "SearchConditionExpression must only contain one condition on the SearchSchema HASH key attribute: %s"
	msgNotInSchema  = prefixSearch + "Attribute is not part of the SearchSchema of the vector index; attribute name: %s"
	msgNested       = prefixSearch + "SearchConditionExpression cannot have conditions on nested attributes"
	msgOperands     = prefixSearch + "A condition must compare an attribute with an expression attribute value"

	// The expression parser knows Query's and Scan's parameters, not this
	// one: it parses the condition as a filter, and renamed gives its
	// messages this parameter's name, as DynamoDB names the parameter at
	// fault ("Invalid FilterExpression: ...").
	prefixSearch = "Invalid SearchConditionExpression: "
	prefixFilter = "Invalid FilterExpression: "
)

// Schema is a vector index's search schema: Hash is the HASH attribute ("" when none),
// Filters the INLINE_FILTER attributes; Types maps each of these names to its declared
// AttributeDefinitions type ("S", "N" or "B").
type Schema struct {
	Hash    string
	Filters []string
	Types   map[string]string
}

// has reports whether a search condition may name attribute name.
func (s *Schema) has(name string) bool {
	return name == s.Hash || slices.Contains(s.Filters, name)
}

// Condition is a parsed SearchConditionExpression: equalities that must all
// hold. A nil *Condition is the absent expression and matches everything.
type Condition struct {
	terms []term
	hash  *attr.Value // the HASH attribute's value, pointing into terms
}

// term is one equality: the attribute called name equals val.
type term struct {
	name string
	val  attr.Value
}

// HashValue is the HASH attribute's value the condition pins (nil when the schema has no HASH).
// The caller must not modify it.
func (c *Condition) HashValue() *attr.Value {
	if c == nil {
		return nil
	}
	return c.hash
}

// Filters reports whether the condition has terms besides the HASH one:
// only then does matching an entry need its attributes (the HASH value
// already chose the entries read).
func (c *Condition) Filters() bool {
	if c == nil {
		return false
	}
	if c.hash != nil {
		return len(c.terms) > 1
	}
	return len(c.terms) > 0
}

// Match reports whether an index entry (the item as projected, which holds every search-schema
// attribute it has) satisfies the condition. A nil *Condition matches everything. An entry
// without one of the condition's attributes does not match: an equality cannot hold on a value
// that is not there.
func (c *Condition) Match(it attr.Item) bool {
	if c == nil {
		return true
	}
	for i := range c.terms {
		v, ok := it[c.terms[i].name]
		if !ok || !attr.Equal(&v, &c.terms[i].val) {
			return false
		}
	}
	return true
}

// ParseCondition parses a SearchConditionExpression (text nil when absent) whose request has
// no other expression using names and values, and checks it against the index's search schema.
// Checks run in the order DynamoDB runs Query's: the expression's syntax, names and values,
// the unused names and values, then (needing the index) its shape against the schema.
func ParseCondition(text *string, names map[string]string, values attr.Item, s Schema) (*Condition, error) {
	a := expr.NewAttrs(names, values)
	tree, err := ParseTree(a, text)
	if err != nil {
		return nil, err
	}
	if err := a.CheckUnused(); err != nil {
		return nil, err
	}
	return CheckTree(tree, s)
}

// ParseTree is the first half of ParseCondition, for a request whose ProjectionExpression shares
// the ExpressionAttributeNames: it parses text (nil when absent: nil tree) recording in a which
// names and values it used. Parse the projection with the same a, call a.CheckUnused, then
// CheckTree.
func ParseTree(a *expr.Attrs, text *string) (expr.Cond, error) {
	if text == nil {
		return nil, nil
	}
	c, err := a.ParseCondition(expr.Filter, *text)
	if err != nil {
		return nil, renamed(err)
	}
	return c, nil
}

// renamed gives a parser error about the filter the condition was parsed
// as the name of the parameter it came from.
func renamed(err error) error {
	var e *apierr.Error
	if !errors.As(err, &e) || !strings.HasPrefix(e.Message, prefixFilter) {
		return err
	}
	r := *e
	r.Message = prefixSearch + strings.TrimPrefix(e.Message, prefixFilter)
	return &r
}

// CheckTree is the second half of ParseCondition: it checks a parsed condition (nil when the
// request has none) against the schema, in the order Query checks a key condition: every
// conjunct's form (operator, operands, top-level path), then their attributes against the
// schema, then the HASH attribute's presence, then the values' types.
func CheckTree(tree expr.Cond, s Schema) (*Condition, error) {
	if tree == nil {
		if s.Hash != "" {
			return nil, apierr.Validationf(msgHashRequired)
		}
		return nil, nil
	}
	c := &Condition{}
	if err := c.addTerms(tree); err != nil {
		return nil, err
	}
	if err := c.checkNames(&s); err != nil {
		return nil, err
	}
	if err := c.pinHash(s.Hash); err != nil {
		return nil, err
	}
	if err := c.checkTypes(s.Types); err != nil {
		return nil, err
	}
	return c, nil
}

// addTerms appends the conjuncts of x, left to right, as terms.
func (c *Condition) addTerms(x expr.Cond) error {
	if and, ok := x.(*expr.AndCond); ok {
		if err := c.addTerms(and.L); err != nil {
			return err
		}
		return c.addTerms(and.R)
	}
	t, err := termOf(x)
	if err != nil {
		return err
	}
	c.terms = append(c.terms, t)
	return nil
}

// termOf reads one conjunct: an equality between a top-level attribute and
// a value, either way round. Every other operator, OR, NOT and every
// function (also size() as an operand) is a comparator DynamoDB does not
// take here.
func termOf(x expr.Cond) (term, error) {
	cmp, ok := x.(*expr.CompareCond)
	if !ok || cmp.Op != "=" || isCall(cmp.L) || isCall(cmp.R) {
		return term{}, apierr.Validationf(msgComparator)
	}
	p, v, ok := pathAndValue(cmp)
	switch {
	case !ok:
		return term{}, apierr.Validationf(msgOperands)
	case len(p.Path) > 1:
		return term{}, apierr.Validationf(msgNested)
	}
	return term{name: p.Path[0].Name, val: v.Value}, nil
}

// checkNames refuses the first term, in the order written, on an attribute
// the index does not hold as a search attribute.
func (c *Condition) checkNames(s *Schema) error {
	for i := range c.terms {
		if !s.has(c.terms[i].name) {
			return apierr.Validationf(msgNotInSchema, c.terms[i].name)
		}
	}
	return nil
}

func isCall(o expr.Operand) bool {
	_, ok := o.(*expr.CallOperand)
	return ok
}

// pathAndValue returns a comparison's path and value operands, whichever
// side each is on; ok is false unless there is one of each.
func pathAndValue(c *expr.CompareCond) (*expr.PathOperand, *expr.ValueOperand, bool) {
	if p, ok := c.L.(*expr.PathOperand); ok {
		v, ok := c.R.(*expr.ValueOperand)
		return p, v, ok
	}
	p, ok := c.R.(*expr.PathOperand)
	v, ok2 := c.L.(*expr.ValueOperand)
	return p, v, ok && ok2
}

// pinHash finds the one term on the HASH attribute: an index with a HASH
// key is split by its value, so a search names exactly one.
func (c *Condition) pinHash(hash string) error {
	if hash == "" {
		return nil
	}
	for i := range c.terms {
		if c.terms[i].name != hash {
			continue
		}
		if c.hash != nil {
			return apierr.Validationf(msgHashTwice, hash)
		}
		c.hash = &c.terms[i].val
	}
	if c.hash == nil {
		return apierr.Validationf(msgHashMissing, hash)
	}
	return nil
}

// checkTypes refuses a value whose type is not its attribute's declared
// one: no entry could ever match it. A name missing from types has no
// declared type, so every value is refused.
func (c *Condition) checkTypes(types map[string]string) error {
	for i := range c.terms {
		want := attr.KindOf(types[c.terms[i].name])
		if want == attr.Invalid || c.terms[i].val.Kind() != want {
			return apierr.Validationf(msgValueType)
		}
	}
	return nil
}
