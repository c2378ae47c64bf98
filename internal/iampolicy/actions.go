package iampolicy

import (
	"fmt"
	"sort"
	"strings"
)

// dynamoDBActions are the action names of the dynamodb service prefix: every
// DynamoDB and DynamoDB Streams API action plus the IAM-only ones (PartiQL*,
// ConditionCheckItem, the ABAC and replica actions) from the Service
// Authorization Reference. Wildcard action names must match one of them.
var dynamoDBActions = []string{
	"BatchExecuteStatement", "BatchGetItem", "BatchWriteItem", "ConditionCheckItem",
	"CreateBackup", "CreateGlobalTable", "CreateGlobalTableWitness", "CreateTable", "CreateTableReplica",
	"DeleteBackup", "DeleteGlobalTableWitness", "DeleteItem", "DeleteResourcePolicy", "DeleteTable",
	"DeleteTableReplica", "DescribeBackup", "DescribeContinuousBackups", "DescribeContributorInsights",
	"DescribeEndpoints", "DescribeExport", "DescribeGlobalTable", "DescribeGlobalTableSettings",
	"DescribeImport", "DescribeKinesisStreamingDestination", "DescribeLimits", "DescribeReservedCapacity",
	"DescribeReservedCapacityOfferings", "DescribeStream", "DescribeTable", "DescribeTableReplicaAutoScaling",
	"DescribeTimeToLive", "DisableKinesisStreamingDestination", "EnableKinesisStreamingDestination",
	"ExecuteStatement", "ExecuteTransaction", "ExportTableToPointInTime", "GetAbacStatus", "GetItem",
	"GetRecords", "GetResourcePolicy", "GetShardIterator", "ImportTable", "ListBackups",
	"ListContributorInsights", "ListExports", "ListGlobalTables", "ListImports", "ListStreams",
	"ListTables", "ListTagsOfResource", "PartiQLDelete", "PartiQLInsert", "PartiQLSelect", "PartiQLUpdate",
	"PurchaseReservedCapacityOfferings", "PutItem", "PutResourcePolicy", "Query",
	"RestoreTableFromAwsBackup", "RestoreTableFromBackup", "RestoreTableToPointInTime", "Scan", "SearchVectors",
	"StartAwsBackupJob", "TagResource", "TransactGetItems", "TransactWriteItems", "UntagResource",
	"UpdateAbacStatus", "UpdateContinuousBackups", "UpdateContributorInsights", "UpdateGlobalTable",
	"UpdateGlobalTableSettings", "UpdateGlobalTableVersion", "UpdateItem", "UpdateKinesisStreamingDestination",
	"UpdateTable", "UpdateTableReplicaAutoScaling", "UpdateTimeToLive",
}

// DynamoDBActions returns the known dynamodb action names, sorted.
func DynamoDBActions() []string {
	out := append([]string(nil), dynamoDBActions...)
	sort.Strings(out)
	return out
}

// knownDynamoDBAction reports whether the action-name pattern (after
// "dynamodb:") matches at least one real action.
func knownDynamoDBAction(name string) bool {
	p := compilePattern(name, true, false)
	var buf [maxStackToks]rtok
	toks, _ := p.resolve(nil, &buf)
	for _, a := range dynamoDBActions {
		if glob(toks, a, true) {
			return true
		}
	}
	return false
}

// validAction checks "*" or "vendor:name": the vendor is letters, digits
// and hyphens (no wildcards), the name letters, digits and wildcards.
func validAction(a string) (vendor, name string, err error) {
	if a == "*" {
		return "", "", nil
	}
	vendor, name, ok := strings.Cut(a, ":")
	if !ok || vendor == "" {
		return "", "", &Error{msgVendor}
	}
	if !allBytes(vendor, isVendorByte) || name == "" || !allBytes(name, isActionByte) {
		return "", "", &Error{fmt.Sprintf(msgActionName, a)}
	}
	return strings.ToLower(vendor), name, nil
}

func isVendorByte(c byte) bool {
	return c == '-' || ('0' <= c && c <= '9') || ('a' <= lowerASCII(c) && lowerASCII(c) <= 'z')
}

func isActionByte(c byte) bool {
	return isVendorByte(c) || c == '*' || c == '?' || c == '_'
}

func allBytes(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}
