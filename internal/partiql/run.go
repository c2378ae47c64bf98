package partiql

import (
	"context"
	"encoding/base64"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// run executes a plan and shapes the answer as ExecuteStatement's.
func (x *Executor) run(ctx context.Context, p *Plan) (*protocol.ExecuteStatementOutput, error) {
	out, err := x.runPlan(ctx, p)
	if err == nil && p.Paths != nil {
		flattenItems(out, p.Paths)
	}
	return out, err
}

func (x *Executor) runPlan(ctx context.Context, p *Plan) (*protocol.ExecuteStatementOutput, error) {
	switch {
	case p.Get != nil:
		return x.get(ctx, p.Get)
	case p.Query != nil:
		return page(x.e.Query(ctx, p.Query))
	case p.Scan != nil:
		return page(x.e.Scan(ctx, p.Scan))
	case p.Put != nil:
		return x.put(ctx, p.Put)
	case p.Update != nil:
		out, err := x.e.UpdateItem(ctx, p.Update)
		if err != nil {
			return nil, err
		}
		return written(out.Attributes, out.ConsumedCapacity), nil
	}
	out, err := x.e.DeleteItem(ctx, p.Delete)
	if err != nil {
		return nil, err
	}
	return written(out.Attributes, out.ConsumedCapacity), nil
}

func (x *Executor) get(ctx context.Context, in *protocol.GetItemInput) (*protocol.ExecuteStatementOutput, error) {
	out, err := x.e.GetItem(ctx, in)
	if err != nil {
		return nil, err
	}
	res := &protocol.ExecuteStatementOutput{ItemsJSON: out.ItemJSON, ConsumedCapacity: out.ConsumedCapacity}
	if out.Item != nil {
		res.Items = []attr.Item{out.Item}
	}
	if out.Item != nil || out.ItemJSON != nil {
		res.Count = 1
	}
	return res, nil
}

// page answers a Query or Scan page; the key to go on from travels as an
// opaque NextToken.
func page(out *protocol.ReadOutput, err error) (*protocol.ExecuteStatementOutput, error) {
	if err != nil {
		return nil, err
	}
	res := &protocol.ExecuteStatementOutput{ItemsJSON: out.ItemsJSON, ConsumedCapacity: out.ConsumedCapacity,
		Count: out.Count, ScannedCount: out.ScannedCount}
	if out.Items != nil && out.ItemsJSON == nil {
		res.Items = *out.Items
	}
	if len(out.LastEvaluatedKey) > 0 {
		raw, _ := out.LastEvaluatedKey.MarshalJSON()
		res.NextToken = ptr(base64.RawURLEncoding.EncodeToString(raw))
	}
	return res, nil
}

// put runs INSERT's PutItem; its condition failing means the key exists.
func (x *Executor) put(ctx context.Context, in *protocol.PutItemInput) (*protocol.ExecuteStatementOutput, error) {
	out, err := x.e.PutItem(ctx, in)
	if errAs(err, apierr.ConditionalCheckFailed) {
		return nil, apierr.New(apierr.DuplicateItem, "%s", msgDuplicate)
	}
	if err != nil {
		return nil, err
	}
	return written(nil, out.ConsumedCapacity), nil
}

// written answers a write: the RETURNING item, if any.
func written(attrs attr.Item, cc *protocol.ConsumedCapacity) *protocol.ExecuteStatementOutput {
	res := &protocol.ExecuteStatementOutput{ConsumedCapacity: cc}
	if len(attrs) > 0 {
		res.Items = []attr.Item{attrs}
	}
	return res
}
