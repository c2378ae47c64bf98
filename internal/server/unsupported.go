package server

import (
	"log/slog"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// unsupportedOps are DynamoDB's operations that sortkey does not serve:
// legacy global tables' CreateGlobalTable and UpdateGlobalTableSettings,
// Kinesis destinations,
// contributor insights, auto scaling and bulk operations. A call
// of one says so (apierr.Unsupported) rather than answering as if the
// operation did not exist. TestUnservedOperationsAreUnknown holds the list
// to the AWS SDK's operations, so one new in the SDK is noticed.
var unsupportedOps = map[string]bool{
	"CancelBulkOperation": true, "CreateGlobalTable": true,
	"DescribeBulkOperation":               true,
	"DescribeContributorInsights":         true,
	"DescribeKinesisStreamingDestination": true,
	"DescribeTableReplicaAutoScaling":     true, "DisableKinesisStreamingDestination": true,
	"EnableKinesisStreamingDestination": true,
	"ListBulkOperations":                true, "ListContributorInsights": true,
	"StartBulkPutItems":         true,
	"UpdateContributorInsights": true,
	"UpdateGlobalTableSettings": true, "UpdateKinesisStreamingDestination": true,
	"UpdateTableReplicaAutoScaling": true,
}

// unknownOperation is the answer to a DynamoDB target name that sortkey
// does not serve: Unsupported for an operation DynamoDB has, logged once
// per operation, DynamoDB's bare UnknownOperationException otherwise.
func (h *Handler) unknownOperation(name string, dynamo bool) *apierr.Error {
	if !dynamo || !unsupportedOps[name] {
		return apierr.New(apierr.UnknownOperation, "")
	}
	if _, seen := h.warned.LoadOrStore(name, true); !seen {
		slog.Warn("unsupported DynamoDB operation called", "op", name)
	}
	return apierr.Unsupported(name)
}
