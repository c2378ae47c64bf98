package partiql

import (
	"errors"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// Schema answers the key schema of a table, or of one of its indexes
// when index is not "", as Engine.KeySchema does.
type Schema func(table, index string) ([]protocol.KeySchemaElement, error)

// Planner plans statements into the native requests they run as, without
// running them: the Executor plans through one, and design coverage uses
// one to count a statement under the pattern of the request it runs as.
// It keeps parsed statements and read plans (cache.go), so planning a
// statement seen before costs little. Safe for concurrent use.
type Planner struct {
	schema Schema
	parsed cache
}

// NewPlanner returns a planner reading key schemas from schema.
func NewPlanner(schema Schema) *Planner { return &Planner{schema: schema} }

// Statement is the native request one statement runs as, alone
// (ExecuteStatement) or as one of a BatchExecuteStatement's. Read plans
// may share what they point to with the cache: neither may be changed.
func (p *Planner) Statement(statement string, params []attr.Value) (*Plan, error) {
	st, cached, err := p.parsed.parse(statement, params)
	if err != nil {
		return nil, err
	}
	k, err := p.keys(st)
	if err != nil {
		return nil, err
	}
	return cached.plan(st, k)
}

// Batch plans each statement of a BatchExecuteStatement as the executor
// does: a statement that cannot run has a nil plan and its error.
func (p *Planner) Batch(in *protocol.BatchExecuteStatementInput) ([]*Plan, []error) {
	plans, errs := make([]*Plan, len(in.Statements)), make([]error, len(in.Statements))
	for i, s := range in.Statements {
		plans[i], errs[i] = p.one(s, msgBatchKey)
		if errs[i] == nil && plans[i].Check != nil {
			plans[i], errs[i] = nil, existsOutside()
		}
	}
	return plans, errs
}

// errNoStatements is a transaction without statements, which validation
// refuses before any planning.
var errNoStatements = errors.New("partiql: a transaction needs statements")

// Transaction is the native request an ExecuteTransaction runs as, and
// that request's operation: TransactGetItems when every statement reads,
// else TransactWriteItems.
func (p *Planner) Transaction(in *protocol.ExecuteTransactionInput) (op string, native any, err error) {
	if err := validate.ExecuteTransaction(in); err != nil {
		return "", nil, err
	}
	plans, err := p.transaction(in)
	switch {
	case err != nil:
		return "", nil, err
	case len(plans) == 0:
		return "", nil, errNoStatements
	case plans[0].Get != nil:
		return "TransactGetItems", transactGetInput(plans, in), nil
	}
	return "TransactWriteItems", transactWriteInput(plans, in), nil
}

// Native is the operation a plan runs as and its request; an EXISTS's
// ConditionCheck, which runs only within TransactWriteItems, is
// "ConditionCheck" with its *protocol.TransactAction.
func (p *Plan) Native() (op string, in any) {
	switch {
	case p.Get != nil:
		return "GetItem", p.Get
	case p.Query != nil:
		return "Query", p.Query
	case p.Scan != nil:
		return "Scan", p.Scan
	case p.Put != nil:
		return "PutItem", p.Put
	case p.Update != nil:
		return "UpdateItem", p.Update
	case p.Delete != nil:
		return "DeleteItem", p.Delete
	}
	return "ConditionCheck", p.Check
}

// transaction plans every statement of a transaction; any failure is the
// request's.
func (p *Planner) transaction(in *protocol.ExecuteTransactionInput) ([]*Plan, error) {
	plans := make([]*Plan, len(in.TransactStatements))
	for i, s := range in.TransactStatements {
		pl, err := p.one(protocol.BatchStatementRequest{Statement: s.Statement, Parameters: s.Parameters}, msgTransactKey)
		if err != nil {
			return nil, err
		}
		plans[i] = pl
		options(pl, &protocol.ExecuteStatementInput{ReturnValuesOnConditionCheckFailure: s.ReturnValuesOnConditionCheckFailure})
	}
	return plans, sameKind(plans)
}

// one plans one statement of a batch or transaction; a read must name
// the whole key, or fails with keyMsg.
func (p *Planner) one(s protocol.BatchStatementRequest, keyMsg string) (*Plan, error) {
	st, cached, err := p.parsed.parse(deref(s.Statement), s.Parameters)
	if err != nil {
		return nil, err
	}
	k, err := p.keys(st)
	if err != nil {
		return nil, err
	}
	pl, err := cached.plan(st, k)
	if err == nil && st.Kind == Select && pl.Get == nil {
		return nil, refuse(keyMsg)
	}
	return pl, err
}

// keys reads the key schema of the table or index a statement names. An
// index keyed on several attributes per role is refused, as DynamoDB
// refuses it (after parsing, before the WHERE is looked at), and so is an
// index the table does not have.
func (p *Planner) keys(st *Statement) (keys, error) {
	schema, err := p.schema(st.Table, st.Index)
	switch {
	case err == nil && st.Index != "" && schema == nil:
		err = refuse(msgNoIndex)
	case err == nil && multiAttribute(schema):
		err = refuse(msgMultiKey)
	}
	return keysOf(schema), err
}
