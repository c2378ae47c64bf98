package access

import (
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// readKeys fills what Query and Scan share: Attributes from the projection
// and filter, Select, ReturnConsumedCapacity.
func readKeys(ch *Check, o *protocol.ReadOptions, n *names) {
	n.projection(o.ProjectionExpression)
	n.condition(expr.Filter, o.FilterExpression)
	n.all(o.AttributesToGet)
	ch.Keys[KeyAttributes] = n.values()
	ch.Keys[KeySelect] = []string{readSelectOf(o)}
	ch.Keys[KeyConsumedCapacity] = orDefault(o.ReturnConsumedCapacity, noneValue)
}

// readSelectOf is the Select a Query or Scan runs with: the request's, or
// the API's default: SPECIFIC_ATTRIBUTES with a projection, otherwise
// ALL_ATTRIBUTES on a table and ALL_PROJECTED_ATTRIBUTES on an index.
func readSelectOf(o *protocol.ReadOptions) string {
	switch {
	case o.Select != nil:
		return *o.Select
	case o.ProjectionExpression != nil || o.AttributesToGet != nil:
		return specificAttributes
	case o.IndexName != nil:
		return allProjected
	}
	return allAttributes
}

func query(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.QueryInput)
	if !ok {
		return nil, ErrInputType
	}
	t := resolve(r.TableName, c)
	ch := t.check(actionPrefix+"Query", str(r.IndexName))
	n := newNames(r.ExpressionAttributeNames, r.ExpressionAttributeValues)
	kc := n.condition(expr.KeyCondition, r.KeyConditionExpression)
	legacy(n, r.KeyConditions)
	legacy(n, r.QueryFilter)
	ch.Keys[KeyLeadingKeys] = queryLeading(r, kc, &t)
	readKeys(&ch, &r.ReadOptions, n)
	return []Check{ch}, nil
}

// queryLeading is the partition a Query reads: the value its key
// condition gives each partition attribute of the table or index queried.
func queryLeading(r *protocol.QueryInput, kc expr.Cond, t *target) []string {
	parts, ok := partitionOf(t, str(r.IndexName))
	var l leading
	if !ok {
		l.unbounded()
		return l.values()
	}
	for _, name := range parts {
		v, found := keyEquality(kc, name)
		if !found {
			v, found = legacyEquality(r.KeyConditions, name)
		}
		l.value(v, found)
	}
	return l.values()
}

// partitionOf names the partition attributes of the table or index.
func partitionOf(t *target, index string) ([]string, bool) {
	if !t.known {
		return nil, false
	}
	if index == "" {
		return t.schema.Partition, len(t.schema.Partition) > 0
	}
	ix, ok := t.schema.Indexes[index]
	return ix.Partition, ok && len(ix.Partition) > 0
}

// keyEquality finds name = :v among the key condition's conjuncts.
func keyEquality(c expr.Cond, name string) (attr.Value, bool) {
	switch c := c.(type) {
	case *expr.AndCond:
		if v, ok := keyEquality(c.L, name); ok {
			return v, true
		}
		return keyEquality(c.R, name)
	case *expr.CompareCond:
		if c.Op != "=" {
			return attr.Value{}, false
		}
		if isPath(c.L, name) {
			return valueOf(c.R)
		}
		if isPath(c.R, name) {
			return valueOf(c.L)
		}
	}
	return attr.Value{}, false
}

func isPath(o expr.Operand, name string) bool {
	p, ok := o.(*expr.PathOperand)
	return ok && len(p.Path) == 1 && !p.Path[0].IsIndex && p.Path[0].Name == name
}

func valueOf(o expr.Operand) (attr.Value, bool) {
	v, ok := o.(*expr.ValueOperand)
	if !ok {
		return attr.Value{}, false
	}
	return v.Value, true
}

// legacyEquality reads a KeyConditions EQ on name.
func legacyEquality(kc map[string]protocol.Condition, name string) (attr.Value, bool) {
	cond, ok := kc[name]
	if !ok || str(cond.ComparisonOperator) != "EQ" || len(cond.AttributeValueList) != 1 {
		return attr.Value{}, false
	}
	return cond.AttributeValueList[0], true
}

// scan reads every partition, so it has no dynamodb:LeadingKeys (doc.go
// says what that means for policies).
func scan(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.ScanInput)
	if !ok {
		return nil, ErrInputType
	}
	t := resolve(r.TableName, c)
	ch := t.check(actionPrefix+"Scan", str(r.IndexName))
	n := newNames(r.ExpressionAttributeNames, r.ExpressionAttributeValues)
	legacy(n, r.ScanFilter)
	readKeys(&ch, &r.ReadOptions, n)
	return []Check{ch}, nil
}
