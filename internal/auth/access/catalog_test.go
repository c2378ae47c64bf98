package access

import (
	"strings"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

const (
	arnPrefix = "arn:aws:dynamodb:us-east-1:123456789012:table/"
	ordersArn = arnPrefix + "Orders"
	streamArn = ordersArn + "/stream/2026-01-01T00:00:00.000"
)

// testCatalog is two tables: Orders (pk, sk; a GSI, an LSI, a
// multi-attribute GSI; a stream) and Hash (id only).
type testCatalog struct{}

var schemas = map[string]Schema{
	"Orders": {
		Partition: []string{"pk"}, Sort: "sk", StreamArn: streamArn,
		Indexes: map[string]IndexSchema{
			"GSI1":  {Partition: []string{"gpk"}, Sort: []string{"gsk"}},
			"LSI1":  {Partition: []string{"pk"}, Sort: []string{"lsk"}, Local: true},
			"Multi": {Partition: []string{"ma", "mb"}, Sort: []string{"mc"}},
		},
	},
	"Hash": {Partition: []string{"id"}},
}

func (testCatalog) Schema(t string) (Schema, bool) { s, ok := schemas[t]; return s, ok }
func (testCatalog) TableArn(t string) string       { return arnPrefix + t }

func (testCatalog) TableOfArn(arn string) (string, bool) {
	name, ok := strings.CutPrefix(arn, arnPrefix)
	return name, ok && name != "" && !strings.Contains(name, "/")
}

func (testCatalog) StreamOfIterator(it string) (string, bool) {
	return streamArn, it == "iter-orders"
}

// inputs makes the decoded request of each operation, as the server's op
// table does.
var inputs = map[string]func() any{
	"GetItem":                   func() any { return new(protocol.GetItemInput) },
	"PutItem":                   func() any { return new(protocol.PutItemInput) },
	"UpdateItem":                func() any { return new(protocol.UpdateItemInput) },
	"DeleteItem":                func() any { return new(protocol.DeleteItemInput) },
	"Query":                     func() any { return new(protocol.QueryInput) },
	"Scan":                      func() any { return new(protocol.ScanInput) },
	"SearchVectors":             func() any { return new(protocol.SearchVectorsInput) },
	"BatchGetItem":              func() any { return new(protocol.BatchGetItemInput) },
	"BatchWriteItem":            func() any { return new(protocol.BatchWriteItemInput) },
	"TransactWriteItems":        func() any { return new(protocol.TransactWriteItemsInput) },
	"TransactGetItems":          func() any { return new(protocol.TransactGetItemsInput) },
	"ExecuteStatement":          func() any { return new(protocol.ExecuteStatementInput) },
	"BatchExecuteStatement":     func() any { return new(protocol.BatchExecuteStatementInput) },
	"ExecuteTransaction":        func() any { return new(protocol.ExecuteTransactionInput) },
	"CreateTable":               func() any { return new(protocol.CreateTableInput) },
	"DescribeTable":             func() any { return new(protocol.DescribeTableInput) },
	"UpdateTable":               func() any { return new(protocol.UpdateTableInput) },
	"DeleteTable":               func() any { return new(protocol.DeleteTableInput) },
	"DescribeTimeToLive":        func() any { return new(protocol.DescribeTimeToLiveInput) },
	"UpdateTimeToLive":          func() any { return new(protocol.UpdateTimeToLiveInput) },
	"ListTables":                func() any { return new(protocol.ListTablesInput) },
	"DescribeLimits":            func() any { return new(protocol.Empty) },
	"DescribeEndpoints":         func() any { return new(protocol.Empty) },
	"TagResource":               func() any { return new(protocol.TagResourceInput) },
	"UntagResource":             func() any { return new(protocol.UntagResourceInput) },
	"ListTagsOfResource":        func() any { return new(protocol.ListTagsOfResourceInput) },
	"PutResourcePolicy":         func() any { return new(resourcePolicyInput) },
	"GetResourcePolicy":         func() any { return new(resourcePolicyInput) },
	"DeleteResourcePolicy":      func() any { return new(resourcePolicyInput) },
	"ListStreams":               func() any { return new(protocol.ListStreamsInput) },
	"DescribeStream":            func() any { return new(protocol.DescribeStreamInput) },
	"GetShardIterator":          func() any { return new(protocol.GetShardIteratorInput) },
	"GetRecords":                func() any { return new(protocol.GetRecordsInput) },
	"CreateBackup":              func() any { return new(protocol.CreateBackupInput) },
	"DescribeBackup":            func() any { return new(protocol.DescribeBackupInput) },
	"DeleteBackup":              func() any { return new(protocol.DeleteBackupInput) },
	"ListBackups":               func() any { return new(protocol.ListBackupsInput) },
	"RestoreTableFromBackup":    func() any { return new(protocol.RestoreTableFromBackupInput) },
	"UpdateContinuousBackups":   func() any { return new(protocol.UpdateContinuousBackupsInput) },
	"DescribeContinuousBackups": func() any { return new(protocol.DescribeContinuousBackupsInput) },
	"RestoreTableToPointInTime": func() any { return new(protocol.RestoreTableToPointInTimeInput) },
	"ExportTableToPointInTime":  func() any { return new(protocol.ExportTableToPointInTimeInput) },
	"DescribeExport":            func() any { return new(protocol.DescribeExportInput) },
	"ListExports":               func() any { return new(protocol.ListExportsInput) },
}

// resourcePolicyInput stands in for the resource-policy operations' wire
// structs, which protocol does not have yet: access reads them by field
// name.
type resourcePolicyInput struct {
	ResourceArn        *string
	Policy             *string
	ExpectedRevisionId *string
}
