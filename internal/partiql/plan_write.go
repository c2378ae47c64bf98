package partiql

import (
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// partitionPath is the partition key as a path operand.
func partitionPath(k keys) *expr.PathOperand {
	return &expr.PathOperand{Path: expr.Path{{Name: k.partition}}}
}

// planInsert is a PutItem that must not find the key: the condition's
// failure is answered as DuplicateItemException by exec.
func planInsert(st *Statement, k keys) *Plan {
	var pr expr.Printer
	in := &protocol.PutItemInput{TableName: &st.Table, Item: st.Item}
	in.ConditionExpression = text(pr.Cond(call("attribute_not_exists", partitionPath(k))))
	in.ExpressionAttributeNames = pr.Names()
	return &Plan{Put: in}
}

// planUpdate is an UpdateItem of the key the WHERE pins, conditioned on
// the item existing (PartiQL's UPDATE never creates one) and on the rest
// of the WHERE.
func planUpdate(st *Statement, k keys) (*Plan, error) {
	key, rest := splitKey(conjuncts(st.Where), k)
	if key == nil {
		return nil, refuse(msgKeyEq)
	}
	var pr expr.Printer
	in := &protocol.UpdateItemInput{TableName: &st.Table, Key: key}
	in.UpdateExpression = text(pr.Update(st.Update))
	exists := call("attribute_exists", partitionPath(k))
	in.ConditionExpression = text(pr.Cond(and(append([]expr.Cond{exists}, rest...))))
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = pr.Names(), pr.Values()
	in.ReturnValues = text(st.Returning)
	return &Plan{Update: in}, nil
}

// planDelete is a DeleteItem of the key the WHERE pins. The rest of the
// WHERE is a condition on an item that exists; deleting a missing item
// succeeds, as on DynamoDB.
func planDelete(st *Statement, k keys) (*Plan, error) {
	key, rest := splitKey(conjuncts(st.Where), k)
	if key == nil {
		return nil, refuse(msgKeyEq)
	}
	var pr expr.Printer
	in := &protocol.DeleteItemInput{TableName: &st.Table, Key: key}
	if len(rest) > 0 {
		missing := call("attribute_not_exists", partitionPath(k))
		in.ConditionExpression = text(pr.Cond(&expr.OrCond{L: missing, R: and(rest)}))
	}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = pr.Names(), pr.Values()
	in.ReturnValues = text(st.Returning)
	return &Plan{Delete: in}, nil
}

// planExists is a ConditionCheck on the key the SELECT pins: the item must
// exist and meet the rest of the WHERE. DynamoDB requires the whole key on
// the table, as for the other reads of a transaction.
func planExists(st *Statement, k keys) (*Plan, error) {
	key, rest := splitKey(conjuncts(st.Where), k)
	if key == nil || st.Index != "" {
		return nil, refuse(msgTransactKey)
	}
	var pr expr.Printer
	exists := call("attribute_exists", partitionPath(k))
	in := &protocol.TransactAction{TableName: &st.Table, Key: key}
	in.ConditionExpression = text(pr.Cond(and(append([]expr.Cond{exists}, rest...))))
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = pr.Names(), pr.Values()
	return &Plan{Check: in}, nil
}
