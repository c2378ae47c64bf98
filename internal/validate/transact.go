package validate

import (
	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// MaxTransactItems is the number of actions a transaction may hold.
const MaxTransactItems = 100

// TransactWriteItems checks a TransactWriteItems request: model
// constraints, then one action per entry, then each action's parameters
// and values, in request order.
func TransactWriteItems(in *protocol.TransactWriteItemsInput) error {
	if err := transactWriteModel(in); err != nil {
		return err
	}
	for i := range in.TransactItems {
		kind, a, err := TransactKind(&in.TransactItems[i])
		if err != nil {
			return err
		}
		if err := transactAction(kind, a); err != nil {
			return err
		}
	}
	return nil
}

// TransactKind returns the one action of an entry and its name.
func TransactKind(w *protocol.TransactWriteItem) (string, *protocol.TransactAction, error) {
	var kind string
	var a *protocol.TransactAction
	n := 0
	for _, c := range []struct {
		name string
		a    *protocol.TransactAction
	}{{"ConditionCheck", w.ConditionCheck}, {"Put", w.Put}, {"Delete", w.Delete}, {"Update", w.Update}} {
		if c.a != nil {
			kind, a = c.name, c.a
			n++
		}
	}
	if n != 1 {
		return "", nil, apierr.Validationf(msgTransactOneKind)
	}
	return kind, a, nil
}

func transactWriteModel(in *protocol.TransactWriteItemsInput) error {
	var v violations
	if v.present(in.TransactItems == nil, "transactItems") {
		v.count("'["+repeatName("TransactWriteItem", len(in.TransactItems))+"]'", len(in.TransactItems), "transactItems", 1, MaxTransactItems)
	}
	for i := range in.TransactItems {
		w := &in.TransactItems[i]
		actionModel(&v, w.ConditionCheck, item("transactItems", i)+".conditionCheck", "key", "conditionExpression")
		actionModel(&v, w.Put, item("transactItems", i)+".put", "item")
		actionModel(&v, w.Delete, item("transactItems", i)+".delete", "key")
		actionModel(&v, w.Update, item("transactItems", i)+".update", "key", "updateExpression")
	}
	v.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	v.enum(in.ReturnItemCollectionMetrics, "returnItemCollectionMetrics", collectionMetricSet)
	if in.ClientRequestToken != nil {
		v.length(*in.ClientRequestToken, "clientRequestToken", 1, 36)
	}
	return v.err()
}

// actionModel checks one action's required members; required names the
// members besides TableName that the action must have.
func actionModel(v *violations, a *protocol.TransactAction, member string, required ...string) {
	if a == nil {
		return
	}
	tableNameModel(v, a.TableName, member+".tableName")
	for _, r := range required {
		var missing bool
		switch r {
		case "key":
			missing = a.Key == nil
		case "item":
			missing = a.Item == nil
		case "conditionExpression":
			missing = a.ConditionExpression == nil
		case "updateExpression":
			missing = a.UpdateExpression == nil
		}
		v.present(missing, member+"."+r)
	}
	v.enum(a.ReturnValuesOnConditionCheckFailure, member+".returnValuesOnConditionCheckFailure", onConditionFailSet)
}

// transactAction applies the single-item operations' parameter rules to
// one action and validates its values.
func transactAction(kind string, a *protocol.TransactAction) error {
	o := a.WriteOptions()
	if err := usable(o, a.ConditionExpression != nil || a.UpdateExpression != nil, kind == "Update"); err != nil {
		return err
	}
	it := a.Key
	if kind == "Put" {
		it = a.Item
	}
	return writeValues(it, o)
}

// TransactGetItems checks a TransactGetItems request.
func TransactGetItems(in *protocol.TransactGetItemsInput) error {
	var v violations
	if v.present(in.TransactItems == nil, "transactItems") {
		v.count("'["+repeatName("TransactGetItem", len(in.TransactItems))+"]'", len(in.TransactItems), "transactItems", 1, MaxTransactItems)
	}
	for i, g := range in.TransactItems {
		member := item("transactItems", i) + ".get"
		if v.present(g.Get == nil, member) {
			tableNameModel(&v, g.Get.TableName, member+".tableName")
			v.present(g.Get.Key == nil, member+".key")
		}
	}
	v.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	if err := v.err(); err != nil {
		return err
	}
	for _, g := range in.TransactItems {
		if err := projectionParams(g.Get.ProjectionExpression, nil, g.Get.ExpressionAttributeNames); err != nil {
			return err
		}
		if err := values(g.Get.Key); err != nil {
			return err
		}
	}
	return nil
}

func repeatName(name string, n int) string {
	s := ""
	for i := range n {
		if i > 0 {
			s += ", "
		}
		s += name
	}
	return s
}
