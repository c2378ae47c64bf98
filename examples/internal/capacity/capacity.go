// Package capacity meters the capacity a DynamoDB client's requests
// consume, so that an example's tests can check that two forms of one
// access pattern (native and PartiQL) cost the same.
package capacity

import (
	"context"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// Meter adds up the CapacityUnits its client's responses report.
type Meter struct {
	mu    sync.Mutex
	units float64
}

// Metered returns a copy of c that asks every request for
// ReturnConsumedCapacity TOTAL, and the meter that sums the answers. The
// store under test is unchanged: only its client is.
func Metered(c *dynamodb.Client) (*dynamodb.Client, *Meter) {
	m := &Meter{}
	return MeteredBy(c, m), m
}

// MeteredBy is Metered with a meter of the caller's, so that several
// clients (a back end's and its users') add up on one meter.
func MeteredBy(c *dynamodb.Client, m *Meter) *dynamodb.Client {
	return dynamodb.New(c.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
			return s.Initialize.Add(m, middleware.Before)
		})
	})
}

// Take returns the capacity units consumed since the last Take.
func (m *Meter) Take() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	u := m.units
	m.units = 0
	return u
}

// ID names the middleware.
func (m *Meter) ID() string { return "capacity.Meter" }

// HandleInitialize sets ReturnConsumedCapacity on the operations an
// example uses and adds up what they report.
func (m *Meter) HandleInitialize(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (
	middleware.InitializeOutput, middleware.Metadata, error) {
	const total = types.ReturnConsumedCapacityTotal
	switch p := in.Parameters.(type) {
	case *dynamodb.GetItemInput:
		p.ReturnConsumedCapacity = total
	case *dynamodb.QueryInput:
		p.ReturnConsumedCapacity = total
	case *dynamodb.ScanInput:
		p.ReturnConsumedCapacity = total
	case *dynamodb.PutItemInput:
		p.ReturnConsumedCapacity = total
	case *dynamodb.UpdateItemInput:
		p.ReturnConsumedCapacity = total
	case *dynamodb.DeleteItemInput:
		p.ReturnConsumedCapacity = total
	case *dynamodb.ExecuteStatementInput:
		p.ReturnConsumedCapacity = total
	case *dynamodb.TransactWriteItemsInput:
		p.ReturnConsumedCapacity = total
	case *dynamodb.TransactGetItemsInput:
		p.ReturnConsumedCapacity = total
	case *dynamodb.BatchGetItemInput:
		p.ReturnConsumedCapacity = total
	case *dynamodb.BatchWriteItemInput:
		p.ReturnConsumedCapacity = total
	case *dynamodb.BatchExecuteStatementInput:
		p.ReturnConsumedCapacity = total
	case *dynamodb.ExecuteTransactionInput:
		p.ReturnConsumedCapacity = total
	}
	out, md, err := next.HandleInitialize(ctx, in)
	var used []types.ConsumedCapacity
	one := func(c *types.ConsumedCapacity) {
		if c != nil {
			used = append(used, *c)
		}
	}
	switch r := out.Result.(type) {
	case *dynamodb.GetItemOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.QueryOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.ScanOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.PutItemOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.UpdateItemOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.DeleteItemOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.ExecuteStatementOutput:
		one(r.ConsumedCapacity)
	case *dynamodb.TransactWriteItemsOutput:
		used = append(used, r.ConsumedCapacity...)
	case *dynamodb.TransactGetItemsOutput:
		used = append(used, r.ConsumedCapacity...)
	case *dynamodb.BatchGetItemOutput:
		used = append(used, r.ConsumedCapacity...)
	case *dynamodb.BatchWriteItemOutput:
		used = append(used, r.ConsumedCapacity...)
	case *dynamodb.BatchExecuteStatementOutput:
		used = append(used, r.ConsumedCapacity...)
	case *dynamodb.ExecuteTransactionOutput:
		used = append(used, r.ConsumedCapacity...)
	}
	m.mu.Lock()
	for _, c := range used {
		if c.CapacityUnits != nil {
			m.units += *c.CapacityUnits
		}
	}
	m.mu.Unlock()
	return out, md, err
}

// Same fails the test unless the PartiQL form of an access pattern
// consumed what its native form did, and the native form consumed
// something (a meter that reads nothing proves nothing).
func Same(t testing.TB, what string, native, partiql float64) {
	t.Helper()
	if native == 0 || partiql != native {
		t.Fatalf("%s: PartiQL consumed %v capacity units, the native call %v", what, partiql, native)
	}
}
