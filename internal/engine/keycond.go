package engine

import (
	"maps"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// keyCond is a Query's key condition reduced to what storage needs.
type keyCond struct {
	hash []attr.Value // the partition key's values, one per HASH attribute
	// eq holds the values of the leading sort attributes a multi-attribute
	// key's condition holds equal; sortOp applies to the next one.
	eq       []attr.Value
	sortOp   string       // "" (none), "=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"
	sortVals []attr.Value // one operand, or two for BETWEEN
}

// The key condition errors, as the service words them.
const (
	msgKeyMissed    = "Query condition missed key schema element: %s"
	msgKeyUnsupport = "Query key condition not supported"
	msgKeyTwice     = "KeyConditionExpressions must only contain one condition per key"
	msgKeyNested    = "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes"
	msgKeyType      = "One or more parameter values were invalid: Condition parameter type does not match schema type"
	msgKeyIndexable = "Attempted conditional constraint is not an indexable operation"
	msgKeyGap       = "RANGE key attributes %s must have equality conditions specified in the query because a condition is present on key attribute %s"
	// msgKeyHashEq refuses a multi-attribute partition key without an
	// equality on each attribute. AWS pins only "HASH … equality" (facts
	// 18); the words follow msgKeyGap's.
	msgKeyHashEq = "HASH key attributes %s must have equality conditions specified in the query"
)

// keyTerm is one conjunct of a key condition: an attribute, the operator
// applied to it (already flipped when the value was written first) and its
// value operands.
type keyTerm struct {
	name string
	op   string
	vals []*expr.ValueOperand
}

// flipped is the operator seen from the other side: :v < k is k > :v.
var flipped = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

// analyzeKeyCond checks a parsed KeyConditionExpression (or translated
// KeyConditions) against the key schema of the table or index queried.
// Checks run in the service's order (nested paths were refused before the
// table was looked up): the shape of each term, the partition key's
// presence, the other terms, then the values' types.
func analyzeKeyCond(c expr.Cond, key keySchema) (keyCond, error) {
	var conds []expr.Cond
	flattenAnd(c, &conds)
	terms := make([]keyTerm, 0, len(conds))
	for _, x := range conds {
		t, err := termOf(x)
		if err != nil {
			return keyCond{}, err
		}
		terms = append(terms, t)
	}
	hash, sort, err := assignTerms(terms, key)
	if err != nil {
		return keyCond{}, err
	}
	return buildKeyCond(hash, sort, key)
}

// keyNotNested refuses a key condition on a document path below the top
// level: key attributes are top-level, and DynamoDB says so before it
// looks at the table.
func keyNotNested(c expr.Cond) error {
	if a, ok := c.(*expr.AndCond); ok {
		if err := keyNotNested(a.L); err != nil {
			return err
		}
		return keyNotNested(a.R)
	}
	if nestedPath(c) {
		return apierr.Validationf(msgKeyNested)
	}
	return nil
}

// flattenAnd lists the conjuncts of c, left to right.
func flattenAnd(c expr.Cond, out *[]expr.Cond) {
	if a, ok := c.(*expr.AndCond); ok {
		flattenAnd(a.L, out)
		flattenAnd(a.R, out)
		return
	}
	if c != nil {
		*out = append(*out, c)
	}
}

// nestedPath reports whether any path operand of c goes below the top level.
func nestedPath(c expr.Cond) bool {
	for _, op := range condOperands(c) {
		if p, ok := op.(*expr.PathOperand); ok && len(p.Path) > 1 {
			return true
		}
	}
	return false
}

// condOperands lists the operands of a simple condition.
func condOperands(c expr.Cond) []expr.Operand {
	switch c := c.(type) {
	case *expr.CompareCond:
		return []expr.Operand{c.L, c.R}
	case *expr.BetweenCond:
		return []expr.Operand{c.X, c.Lo, c.Hi}
	case *expr.FuncCond:
		return c.Args
	case *expr.InCond:
		return append([]expr.Operand{c.X}, c.List...)
	}
	return nil
}

// termOf reduces one conjunct to attribute, operator and values. The parser
// refuses IN, OR, NOT, <> and functions other than begins_with in an
// expression, so those reach here only from legacy KeyConditions.
func termOf(c expr.Cond) (keyTerm, error) {
	switch c := c.(type) {
	case *expr.CompareCond:
		return compareTerm(c)
	case *expr.BetweenCond:
		name, ok := pathName(c.X)
		lo, okLo := c.Lo.(*expr.ValueOperand)
		hi, okHi := c.Hi.(*expr.ValueOperand)
		if ok && okLo && okHi {
			return keyTerm{name: name, op: "BETWEEN", vals: []*expr.ValueOperand{lo, hi}}, nil
		}
	case *expr.FuncCond:
		if c.Func != "begins_with" {
			return keyTerm{}, apierr.Validationf(msgKeyIndexable)
		}
		if len(c.Args) != 2 {
			break
		}
		name, ok := pathName(c.Args[0])
		v, okV := c.Args[1].(*expr.ValueOperand)
		if ok && okV {
			return keyTerm{name: name, op: "begins_with", vals: []*expr.ValueOperand{v}}, nil
		}
	case *expr.InCond, *expr.NotCond:
		return keyTerm{}, apierr.Validationf(msgKeyIndexable)
	}
	return keyTerm{}, apierr.Validationf(msgKeyUnsupport)
}

// compareTerm reads k op :v or :v op k; anything else is not a key condition.
func compareTerm(c *expr.CompareCond) (keyTerm, error) {
	op, ok := flipped[c.Op]
	if !ok {
		return keyTerm{}, apierr.Validationf(msgKeyIndexable)
	}
	if name, ok := pathName(c.L); ok {
		if v, ok := c.R.(*expr.ValueOperand); ok {
			return keyTerm{name: name, op: c.Op, vals: []*expr.ValueOperand{v}}, nil
		}
	}
	if name, ok := pathName(c.R); ok {
		if v, ok := c.L.(*expr.ValueOperand); ok {
			return keyTerm{name: name, op: op, vals: []*expr.ValueOperand{v}}, nil
		}
	}
	return keyTerm{}, apierr.Validationf(msgKeyUnsupport)
}

func pathName(o expr.Operand) (string, bool) {
	p, ok := o.(*expr.PathOperand)
	if !ok || len(p.Path) != 1 || p.Path[0].IsIndex {
		return "", false
	}
	return p.Path[0].Name, true
}

// assignTerms finds the terms of the partition key's attributes and of the
// sort key's, each in schema order (a sort attribute without a term is nil).
func assignTerms(terms []keyTerm, key keySchema) (hash, sort []*keyTerm, err error) {
	byName := make(map[string]*keyTerm, len(terms))
	for i := range terms {
		if byName[terms[i].name] != nil {
			return nil, nil, apierr.Validationf(msgKeyTwice)
		}
		byName[terms[i].name] = &terms[i]
	}
	slots := make([]*keyTerm, len(key.hashes)+len(key.rngs)) // one allocation for both
	hash = slots[:len(key.hashes)]
	for i, a := range key.hashes {
		if hash[i] = byName[a.name]; hash[i] == nil {
			return nil, nil, hashNotEqual(key, msgKeyMissed, a.name)
		}
	}
	if sort, err = sortTerms(byName, key, slots[len(key.hashes):]); err != nil {
		return nil, nil, err
	}
	for _, h := range hash {
		if h.op != "=" {
			return nil, nil, hashNotEqual(key, msgKeyUnsupport)
		}
	}
	return hash, sort, checkSortPrefix(sort, key)
}

// hashNotEqual is the refusal of a partition-key attribute without an
// equality: for a multi-attribute partition key it names every HASH
// attribute (facts 18, rule 16), else it is the single-key text given.
func hashNotEqual(key keySchema, single string, args ...any) error {
	if len(key.hashes) < 2 {
		return apierr.Validationf(single, args...)
	}
	names := make([]string, len(key.hashes))
	for i, a := range key.hashes {
		names[i] = a.name
	}
	return apierr.Validationf(msgKeyHashEq, strings.Join(names, ", "))
}

// sortTerms fills sort with the sort attributes' terms and cuts it after
// the last one given, refusing a term on an attribute outside the key.
func sortTerms(byName map[string]*keyTerm, key keySchema, sort []*keyTerm) ([]*keyTerm, error) {
	found := len(key.hashes)
	for i, a := range key.rngs {
		if sort[i] = byName[a.name]; sort[i] != nil {
			found++
		}
	}
	if found != len(byName) {
		return nil, apierr.Validationf(msgKeyUnsupport)
	}
	for len(sort) > 0 && sort[len(sort)-1] == nil {
		sort = sort[:len(sort)-1]
	}
	return sort, nil
}

// checkSortPrefix refuses a sort attribute without an equality before the
// last one given: a multi-attribute sort key is read left to right.
func checkSortPrefix(sort []*keyTerm, key keySchema) error {
	for i := 0; i+1 < len(sort); i++ {
		if sort[i] == nil || sort[i].op != "=" {
			return apierr.Validationf(msgKeyGap, key.rngs[i].name, nextTerm(sort, i).name)
		}
	}
	return nil
}

// nextTerm is the first term after sort[i]; one exists, since the last
// element of sort is never nil.
func nextTerm(sort []*keyTerm, i int) *keyTerm {
	for _, t := range sort[i+1:] {
		if t != nil {
			return t
		}
	}
	return nil
}

// buildKeyCond checks the values' types against the schema.
func buildKeyCond(hash, sort []*keyTerm, key keySchema) (keyCond, error) {
	var kc keyCond
	vals := make([]attr.Value, len(hash)+max(len(sort)-1, 0)) // one allocation for hash and eq
	for i, h := range hash {
		if h.vals[0].Value.Kind() != key.hashes[i].kind {
			return keyCond{}, apierr.Validationf(msgKeyType)
		}
		vals[i] = h.vals[0].Value
	}
	kc.hash = vals[:len(hash)]
	if len(sort) == 0 {
		return kc, nil
	}
	last := len(sort) - 1
	for i, t := range sort[:last] {
		if t.vals[0].Value.Kind() != key.rngs[i].kind {
			return keyCond{}, apierr.Validationf(msgKeyType)
		}
		vals[len(hash)+i] = t.vals[0].Value
	}
	if last > 0 {
		kc.eq = vals[len(hash):]
	}
	return kc, finalSortTerm(&kc, sort[last], key.rngs[last])
}

// finalSortTerm sets kc's condition on the last sort attribute given.
func finalSortTerm(kc *keyCond, t *keyTerm, a keyAttr) error {
	if t.op == "begins_with" {
		if err := beginsWithOperand(t.vals[0]); err != nil {
			return err
		}
	}
	for _, v := range t.vals {
		if v.Value.Kind() != a.kind {
			return apierr.Validationf(msgKeyType)
		}
		kc.sortVals = append(kc.sortVals, v.Value)
	}
	kc.sortOp = t.op
	return nil
}

// beginsWithOperand refuses a begins_with operand that is not a string or
// binary: an expression's value has a placeholder name, a legacy one none.
// (A Query refuses an expression's earlier, in expr.ValidateCond, before it
// looks up the table.)
func beginsWithOperand(v *expr.ValueOperand) error {
	k := v.Value.Kind()
	switch {
	case k == attr.S || k == attr.B:
		return nil
	case v.Name == "":
		return apierr.Validationf(msgArgumentType, "BEGINS_WITH", k)
	}
	return expr.OperandType(expr.KeyCondition, "begins_with", k.String())
}

// legacyConditions translates KeyConditions / QueryFilter / ScanFilter
// (ANDed, or ORed when op is "OR") into a condition tree; nil map -> nil, nil.
// Attributes are visited in name order so errors are deterministic.
func legacyConditions(m map[string]protocol.Condition, op *string) (expr.Cond, error) {
	var out expr.Cond
	for _, name := range slices.Sorted(maps.Keys(m)) {
		c := m[name]
		if c.ComparisonOperator == nil {
			return nil, apierr.Validationf(msgArgumentCount, "null")
		}
		p := &expr.PathOperand{Path: expr.Path{{Name: name}}}
		cond, err := comparison(p, *c.ComparisonOperator, c.AttributeValueList)
		if err != nil {
			return nil, err
		}
		out = combine(out, cond, op != nil && *op == "OR")
	}
	return out, nil
}
