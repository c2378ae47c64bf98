package server

import (
	"context"
	"reflect"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/exports"
	"github.com/sortkeydb/sortkey/internal/imports"
	"github.com/sortkeydb/sortkey/internal/partiql"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// opFunc decodes a request body and runs the operation, shown to the
// observer when ob is not nil, with the faults inj decides when it is not
// nil.
type opFunc func(ctx context.Context, body []byte, ob *observing, inj *injecting) (any, error)

// operation is one entry of the op table: how to run it, and the wire
// struct its body decodes into, which a test holds to the AWS SDK's input
// shape so that no member the SDK can send goes unheeded.
type operation struct {
	run   opFunc
	input reflect.Type
}

// op adapts an engine method to an operation: decode into a fresh input,
// call.
func op[I, O any](fn func(context.Context, *I) (*O, error)) operation {
	run := func(ctx context.Context, body []byte, ob *observing, inj *injecting) (any, error) {
		in := new(I)
		if err := protocol.Decode(body, in); err != nil {
			return nil, err
		}
		if err := authorize(ctx, in); err != nil {
			return nil, err
		}
		if inj != nil {
			return inj.run(ctx, in, ob, func(ctx context.Context) (any, error) { return answer(fn(ctx, in)) })
		}
		if ob != nil {
			return ob.run(in, func() (any, error) { return answer(fn(ctx, in)) })
		}
		return fn(ctx, in)
	}
	return operation{run: run, input: reflect.TypeFor[I]()}
}

// operations is the table of every operation sortkey serves. An operation
// not listed here answers UnknownOperationException.
func operations(e *engine.Engine, im *imports.Manager, ex *exports.Manager) map[string]operation {
	pq := partiql.New(e, engine.TransactionCanceled)
	return map[string]operation{
		"CreateTable":          op(e.CreateTable),
		"DescribeTable":        op(e.DescribeTable),
		"DeleteTable":          op(e.DeleteTable),
		"ListTables":           op(e.ListTables),
		"UpdateTable":          op(e.UpdateTable),
		"TagResource":          op(e.TagResource),
		"UntagResource":        op(e.UntagResource),
		"ListTagsOfResource":   op(e.ListTagsOfResource),
		"DescribeLimits":       op(e.DescribeLimits),
		"PutResourcePolicy":    op(e.PutResourcePolicy),
		"GetResourcePolicy":    op(e.GetResourcePolicy),
		"DeleteResourcePolicy": op(e.DeleteResourcePolicy),
		describeEndpointsOp:    op(describeEndpoints),
		// Legacy global tables (legacyglobal.go).
		"DescribeGlobalTable":         op(describeGlobalTable),
		"DescribeGlobalTableSettings": op(describeGlobalTableSettings),
		"UpdateGlobalTable":           op(updateGlobalTable),
		"ListGlobalTables":            op(listGlobalTables),
		"PutItem":                     op(e.PutItem),
		"GetItem":                     op(e.GetItem),
		"DeleteItem":                  op(e.DeleteItem),
		"UpdateItem":                  op(e.UpdateItem),
		"Query":                       op(e.Query),
		"Scan":                        op(e.Scan),
		"SearchVectors":               op(e.SearchVectors),
		"TransactWriteItems":          op(e.TransactWriteItems),
		"TransactGetItems":            op(e.TransactGetItems),
		"UpdateTimeToLive":            op(e.UpdateTimeToLive),
		"DescribeTimeToLive":          op(e.DescribeTimeToLive),
		"BatchGetItem":                op(e.BatchGetItem),
		"CreateBackup":                op(e.CreateBackup),
		"DescribeBackup":              op(e.DescribeBackup),
		"DeleteBackup":                op(e.DeleteBackup),
		"ListBackups":                 op(e.ListBackups),
		"RestoreTableFromBackup":      op(e.RestoreTableFromBackup),
		"UpdateContinuousBackups":     op(e.UpdateContinuousBackups),
		"DescribeContinuousBackups":   op(e.DescribeContinuousBackups),
		"RestoreTableToPointInTime":   op(e.RestoreTableToPointInTime),
		"BatchWriteItem":              op(e.BatchWriteItem),
		"ExecuteStatement":            op(pq.ExecuteStatement),
		"BatchExecuteStatement":       op(pq.BatchExecuteStatement),
		"ExecuteTransaction":          op(pq.ExecuteTransaction),
		"ImportTable":                 op(im.ImportTable),
		"DescribeImport":              op(im.DescribeImport),
		"ListImports":                 op(im.ListImports),
		"ExportTableToPointInTime":    op(ex.ExportTableToPointInTime),
		"DescribeExport":              op(ex.DescribeExport),
		"ListExports":                 op(ex.ListExports),
	}
}

// streamOperations is the DynamoDB Streams API, served on the same
// endpoint under its own X-Amz-Target prefix.
func streamOperations(e *engine.Engine) map[string]operation {
	return map[string]operation{
		"ListStreams":      op(e.ListStreams),
		"DescribeStream":   op(e.DescribeStream),
		"GetShardIterator": op(e.GetShardIterator),
		"GetRecords":       op(e.GetRecords),
	}
}

// describeEndpointsOp is the operation whose context carries the Host
// the request was sent to (hostKey).
const describeEndpointsOp = "DescribeEndpoints"

// describeEndpoints names the endpoint the client reached, so endpoint
// discovery leads a client back to this server rather than to AWS.
func describeEndpoints(ctx context.Context, _ *protocol.Empty) (*protocol.DescribeEndpointsOutput, error) {
	host, _ := ctx.Value(hostKey{}).(string)
	return &protocol.DescribeEndpointsOutput{Endpoints: []protocol.Endpoint{{Address: host, CachePeriodInMinutes: 1440}}}, nil
}

// Decode decodes body as a request of operation op (an X-Amz-Target
// operation name, of DynamoDB or DynamoDB Streams), into the struct the
// server would hand the engine.
func (h *Handler) Decode(op string, body []byte) (any, error) {
	o, ok := h.ops[op]
	if !ok {
		if o, ok = h.streamOps[op]; !ok {
			return nil, apierr.New(apierr.UnknownOperation, "")
		}
	}
	in := reflect.New(o.input).Interface()
	if err := protocol.Decode(body, in); err != nil {
		return nil, err
	}
	return in, nil
}
