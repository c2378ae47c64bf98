package access

import (
	"slices"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// itemKeys fills the keys every single-item check shares: the partition
// the key or item names, and the attributes collected.
func itemKeys(ch *Check, t *target, key attr.Item, n *names) {
	var l leading
	l.key(key, t)
	ch.Keys[KeyLeadingKeys] = l.values()
	n.item(key)
	ch.Keys[KeyAttributes] = n.values()
}

// readSelect is dynamodb:Select for a read without a Select parameter:
// SPECIFIC_ATTRIBUTES when it projects, else ALL_ATTRIBUTES (see doc.go).
func readSelect(projects bool) []string {
	if projects {
		return specificValue
	}
	return allValue
}

func getItem(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.GetItemInput)
	if !ok {
		return nil, ErrInputType
	}
	t := resolve(r.TableName, c)
	ch := t.check(actionPrefix+"GetItem", "")
	n := newNames(r.ExpressionAttributeNames, nil)
	n.projection(r.ProjectionExpression)
	n.all(r.AttributesToGet)
	itemKeys(&ch, &t, r.Key, n)
	ch.Keys[KeySelect] = readSelect(r.ProjectionExpression != nil || r.AttributesToGet != nil)
	ch.Keys[KeyConsumedCapacity] = orDefault(r.ReturnConsumedCapacity, noneValue)
	return []Check{ch}, nil
}

// write fills a single-item write's keys.
func write(ch *Check, t *target, key attr.Item, n *names, o *protocol.WriteOptions) {
	n.writeOptions(o)
	itemKeys(ch, t, key, n)
	ch.Keys[KeyReturnValues] = orDefault(o.ReturnValues, noneValue)
	ch.Keys[KeyConsumedCapacity] = orDefault(o.ReturnConsumedCapacity, noneValue)
}

func putItem(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.PutItemInput)
	if !ok {
		return nil, ErrInputType
	}
	t := resolve(r.TableName, c)
	ch := t.check(actionPrefix+"PutItem", "")
	write(&ch, &t, r.Item, newNames(r.ExpressionAttributeNames, r.ExpressionAttributeValues), &r.WriteOptions)
	return []Check{ch}, nil
}

func deleteItem(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.DeleteItemInput)
	if !ok {
		return nil, ErrInputType
	}
	t := resolve(r.TableName, c)
	ch := t.check(actionPrefix+"DeleteItem", "")
	write(&ch, &t, r.Key, newNames(r.ExpressionAttributeNames, r.ExpressionAttributeValues), &r.WriteOptions)
	return []Check{ch}, nil
}

func updateItem(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.UpdateItemInput)
	if !ok {
		return nil, ErrInputType
	}
	t := resolve(r.TableName, c)
	ch := t.check(actionPrefix+"UpdateItem", "")
	n := newNames(r.ExpressionAttributeNames, r.ExpressionAttributeValues)
	n.update(r.UpdateExpression)
	legacy(n, r.AttributeUpdates)
	write(&ch, &t, r.Key, n, &r.WriteOptions)
	return []Check{ch}, nil
}

// Transaction members are authorised as the item action they perform
// (transaction-apis-iam), marked by dynamodb:EnclosingOperation.
func transactWrite(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.TransactWriteItemsInput)
	if !ok {
		return nil, ErrInputType
	}
	out := make([]Check, 0, len(r.TransactItems))
	for i := range r.TransactItems {
		if ch, ok := transactMember(&r.TransactItems[i], c); ok {
			ch.Keys[KeyEnclosingOperation] = []string{"TransactWriteItems"}
			ch.Keys[KeyConsumedCapacity] = orDefault(r.ReturnConsumedCapacity, noneValue)
			out = append(out, ch)
		}
	}
	return out, nil
}

// transactMember describes one TransactWriteItems member; ok is false for
// a member with no action, which the engine refuses before any check
// would matter.
func transactMember(m *protocol.TransactWriteItem, c Catalog) (Check, bool) {
	action, a, key := actionPrefix+"ConditionCheckItem", m.ConditionCheck, attr.Item(nil)
	switch {
	case m.Put != nil:
		action, a = actionPrefix+"PutItem", m.Put
	case m.Update != nil:
		action, a = actionPrefix+"UpdateItem", m.Update
	case m.Delete != nil:
		action, a = actionPrefix+"DeleteItem", m.Delete
	case a == nil:
		return Check{}, false
	}
	key = a.Key
	if m.Put != nil {
		key = a.Item
	}
	t := resolve(a.TableName, c)
	ch := t.check(action, "")
	n := newNames(a.ExpressionAttributeNames, a.ExpressionAttributeValues)
	n.update(a.UpdateExpression)
	n.condition(expr.Condition, a.ConditionExpression)
	itemKeys(&ch, &t, key, n)
	ch.Keys[KeyReturnValues] = noneValue
	return ch, true
}

func transactGet(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.TransactGetItemsInput)
	if !ok {
		return nil, ErrInputType
	}
	out := make([]Check, 0, len(r.TransactItems))
	for _, m := range r.TransactItems {
		if m.Get == nil {
			continue
		}
		t := resolve(m.Get.TableName, c)
		ch := t.check(actionPrefix+"GetItem", "")
		n := newNames(m.Get.ExpressionAttributeNames, nil)
		n.projection(m.Get.ProjectionExpression)
		itemKeys(&ch, &t, m.Get.Key, n)
		ch.Keys[KeySelect] = readSelect(m.Get.ProjectionExpression != nil)
		ch.Keys[KeyConsumedCapacity] = orDefault(r.ReturnConsumedCapacity, noneValue)
		ch.Keys[KeyEnclosingOperation] = []string{"TransactGetItems"}
		out = append(out, ch)
	}
	return out, nil
}

// Batches are authorised per table under the batch action (the denial
// names dynamodb:BatchWriteItem on the member's table), one check per
// table whose multivalued keys are the union over its items: under
// ForAllValues that is the same verdict as one check per item.
func batchGet(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.BatchGetItemInput)
	if !ok {
		return nil, ErrInputType
	}
	out := make([]Check, 0, len(r.RequestItems))
	for _, name := range sortedKeys(r.RequestItems) {
		ka := r.RequestItems[name]
		t := resolve(&name, c)
		ch := t.check(actionPrefix+"BatchGetItem", "")
		n := newNames(ka.ExpressionAttributeNames, nil)
		n.projection(ka.ProjectionExpression)
		n.all(ka.AttributesToGet)
		var l leading
		for _, k := range ka.Keys {
			l.key(k, &t)
			n.item(k)
		}
		ch.Keys[KeyLeadingKeys] = l.values()
		ch.Keys[KeyAttributes] = n.values()
		ch.Keys[KeySelect] = readSelect(ka.ProjectionExpression != nil || ka.AttributesToGet != nil)
		ch.Keys[KeyConsumedCapacity] = orDefault(r.ReturnConsumedCapacity, noneValue)
		out = append(out, ch)
	}
	return out, nil
}

func batchWrite(_ string, in any, c Catalog) ([]Check, error) {
	r, ok := in.(*protocol.BatchWriteItemInput)
	if !ok {
		return nil, ErrInputType
	}
	out := make([]Check, 0, len(r.RequestItems))
	for _, name := range sortedKeys(r.RequestItems) {
		t := resolve(&name, c)
		ch := t.check(actionPrefix+"BatchWriteItem", "")
		n := newNames(nil, nil)
		var l leading
		for _, w := range r.RequestItems[name] {
			it := batchItem(w)
			l.key(it, &t)
			n.item(it)
		}
		ch.Keys[KeyLeadingKeys] = l.values()
		ch.Keys[KeyAttributes] = n.values()
		ch.Keys[KeyConsumedCapacity] = orDefault(r.ReturnConsumedCapacity, noneValue)
		out = append(out, ch)
	}
	return out, nil
}

// batchItem is a write request's item or key; nil for an empty request,
// whose partition is then unknown.
func batchItem(w protocol.WriteRequest) attr.Item {
	switch {
	case w.PutRequest != nil:
		return w.PutRequest.Item
	case w.DeleteRequest != nil:
		return w.DeleteRequest.Key
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
