package partiql

import (
	"context"
	"encoding/base64"
	"encoding/json"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// Engine is the part of the engine a statement runs on: the native
// operations, and the key schema a plan needs.
type Engine interface {
	KeySchema(table, index string) ([]protocol.KeySchemaElement, error)
	GetItem(context.Context, *protocol.GetItemInput) (*protocol.GetItemOutput, error)
	Query(context.Context, *protocol.QueryInput) (*protocol.ReadOutput, error)
	Scan(context.Context, *protocol.ScanInput) (*protocol.ReadOutput, error)
	PutItem(context.Context, *protocol.PutItemInput) (*protocol.PutItemOutput, error)
	UpdateItem(context.Context, *protocol.UpdateItemInput) (*protocol.UpdateItemOutput, error)
	DeleteItem(context.Context, *protocol.DeleteItemInput) (*protocol.DeleteItemOutput, error)
}

// Executor runs PartiQL statements on an engine.
type Executor struct {
	e        Engine
	tx       TransactEngine
	pl       Planner
	canceled func([]protocol.CancellationReason) error
}

// New returns an executor on an engine; canceled builds the engine's
// TransactionCanceledException from reasons.
func New[E interface {
	Engine
	TransactEngine
}](e E, canceled func([]protocol.CancellationReason) error) *Executor {
	x := &Executor{e: e, tx: e, canceled: canceled}
	x.pl.schema = e.KeySchema
	return x
}

// ExecuteStatement parses, plans and runs one statement.
func (x *Executor) ExecuteStatement(ctx context.Context, in *protocol.ExecuteStatementInput) (*protocol.ExecuteStatementOutput, error) {
	if err := validate.ExecuteStatement(in); err != nil {
		return nil, err
	}
	plan, err := x.pl.Statement(*in.Statement, in.Parameters)
	if err != nil {
		return nil, err
	}
	if plan.Check != nil {
		return nil, existsOutside()
	}
	if err := options(plan, in); err != nil {
		return nil, err
	}
	return x.run(ctx, plan)
}

// PlanStatement turns a parsed statement into the native request it runs
// as, given the key schema of the table (or index) it names.
func PlanStatement(st *Statement, k keys) (*Plan, error) {
	if err := inLimits(st.Where, k); err != nil {
		return nil, err
	}
	switch st.Kind {
	case Insert:
		return planInsert(st, k), nil
	case Update:
		return planUpdate(st, k)
	case Delete:
		return planDelete(st, k)
	case Exists:
		return planExists(st, k)
	}
	pl, err := planSelect(st, k)
	if err == nil && nested(st.Projection) {
		pl.Paths = st.Projection
	}
	return pl, err
}

// multiAttribute reports whether a key schema has more than one HASH or
// more than one RANGE attribute.
func multiAttribute(schema []protocol.KeySchemaElement) bool {
	n := map[string]int{}
	for _, e := range schema {
		n[deref(e.KeyType)]++
	}
	return n["HASH"] > 1 || n["RANGE"] > 1
}

func keysOf(schema []protocol.KeySchemaElement) keys {
	var k keys
	for _, e := range schema {
		if deref(e.KeyType) == "HASH" {
			k.partition = deref(e.AttributeName)
		} else {
			k.sort = deref(e.AttributeName)
		}
	}
	return k
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// options copies the request's members onto the plan's native request.
func options(p *Plan, in *protocol.ExecuteStatementInput) error {
	rcc, rv := in.ReturnConsumedCapacity, in.ReturnValuesOnConditionCheckFailure
	switch {
	case p.Get != nil:
		p.Get.ConsistentRead, p.Get.ReturnConsumedCapacity = in.ConsistentRead, rcc
	case p.Query != nil:
		return readOptionsFrom(&p.Query.ReadOptions, in)
	case p.Scan != nil:
		return readOptionsFrom(&p.Scan.ReadOptions, in)
	case p.Put != nil:
		p.Put.ReturnConsumedCapacity, p.Put.ReturnValuesOnConditionCheckFailure = rcc, rv
	case p.Update != nil:
		p.Update.ReturnConsumedCapacity, p.Update.ReturnValuesOnConditionCheckFailure = rcc, rv
	case p.Delete != nil:
		p.Delete.ReturnConsumedCapacity, p.Delete.ReturnValuesOnConditionCheckFailure = rcc, rv
	case p.Check != nil:
		p.Check.ReturnValuesOnConditionCheckFailure = rv
	}
	return nil
}

// readOptionsFrom sets consistency, capacity, limit and the page to start
// from on a Query or Scan.
func readOptionsFrom(o *protocol.ReadOptions, in *protocol.ExecuteStatementInput) error {
	o.ConsistentRead, o.ReturnConsumedCapacity, o.Limit = in.ConsistentRead, in.ReturnConsumedCapacity, in.Limit
	if in.NextToken == nil {
		return nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(*in.NextToken)
	if err != nil || json.Unmarshal(raw, &o.ExclusiveStartKey) != nil {
		return refuse(msgToken)
	}
	return nil
}
