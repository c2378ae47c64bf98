package partiql

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// BatchExecuteStatement runs up to 25 statements, each on its own as the
// native single-item operation, answering one response per statement in
// request order; a statement's failure is its response's Error, not an
// exception. All must be reads (each by its whole key) or all writes.
func (x *Executor) BatchExecuteStatement(ctx context.Context, in *protocol.BatchExecuteStatementInput) (*protocol.BatchExecuteStatementOutput, error) {
	if err := validate.BatchExecuteStatement(in); err != nil {
		return nil, err
	}
	plans, errs := x.planBatch(in)
	if err := sameKind(plans); err != nil {
		return nil, err
	}
	out := &protocol.BatchExecuteStatementOutput{Responses: make([]protocol.BatchStatementResponse, len(plans))}
	var cc capacities
	for i, p := range plans {
		out.Responses[i] = x.batchOne(ctx, p, errs[i], &cc)
	}
	out.ConsumedCapacity = cc.list
	return out, nil
}

// planBatch plans each statement with the request's options; a
// statement that fails has a nil plan and its error.
func (x *Executor) planBatch(in *protocol.BatchExecuteStatementInput) ([]*Plan, []error) {
	plans, errs := x.pl.Batch(in)
	for i, s := range in.Statements {
		if errs[i] == nil {
			errs[i] = options(plans[i], &protocol.ExecuteStatementInput{ConsistentRead: s.ConsistentRead,
				ReturnConsumedCapacity: in.ReturnConsumedCapacity, ReturnValuesOnConditionCheckFailure: s.ReturnValuesOnConditionCheckFailure})
		}
	}
	return plans, errs
}

// sameKind refuses a batch that mixes reads and writes.
func sameKind(plans []*Plan) error {
	reads, writes := 0, 0
	for _, p := range plans {
		switch {
		case p == nil:
		case p.Get != nil:
			reads++
		default:
			writes++
		}
	}
	if reads > 0 && writes > 0 {
		return refuse(msgBatchMixed)
	}
	return nil
}

// batchOne runs one planned statement and shapes its response.
func (x *Executor) batchOne(ctx context.Context, p *Plan, err error, cc *capacities) protocol.BatchStatementResponse {
	var out *protocol.ExecuteStatementOutput
	if err == nil {
		out, err = x.run(ctx, p)
	}
	if err != nil {
		return protocol.BatchStatementResponse{Error: batchError(err)}
	}
	cc.add(out.ConsumedCapacity)
	res := protocol.BatchStatementResponse{TableName: tableOf(p)}
	if p.Get != nil {
		res.Item = firstItem(out)
	}
	return res
}

// batchError is an exception as a statement's Error: its code without
// "Exception", with Validation and Throttling spelled as the enum has them.
func batchError(err error) *protocol.BatchStatementError {
	ae := apierr.Wrap(err)
	code := strings.TrimSuffix(string(ae.Code), "Exception")
	if code == "Validation" || code == "Throttling" {
		code += "Error"
	}
	e := &protocol.BatchStatementError{Code: code, Message: ae.Message}
	if it, ok := ae.Item.(attr.Item); ok {
		e.Item = it
	}
	return e
}

// firstItem is the item a by-key read found, or nil.
func firstItem(out *protocol.ExecuteStatementOutput) attr.Item {
	if len(out.Items) > 0 {
		return out.Items[0]
	}
	var it attr.Item
	if out.ItemsJSON != nil && json.Unmarshal(out.ItemsJSON, &it) != nil {
		return nil
	}
	return it
}

func tableOf(p *Plan) *string {
	switch {
	case p.Get != nil:
		return p.Get.TableName
	case p.Put != nil:
		return p.Put.TableName
	case p.Update != nil:
		return p.Update.TableName
	case p.Delete != nil:
		return p.Delete.TableName
	case p.Check != nil:
		return p.Check.TableName
	}
	return nil
}
