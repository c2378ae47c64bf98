package access

import "testing"

func TestControlPlane(t *testing.T) {
	plain := func(action, arn, table string) []Check {
		return one(Check{Action: "dynamodb:" + action, Resource: arn, Table: table})
	}
	ordersOp := func(op string) tcase {
		return tcase{"table", op, `{"TableName":"Orders"}`, plain(op, ordersArn, "Orders")}
	}
	runCases(t, []tcase{
		{"new table", "CreateTable", `{"TableName":"New"}`, plain("CreateTable", arnPrefix+"New", "New")},
		{"tagged", "CreateTable", `{"TableName":"New","Tags":[{"Key":"k","Value":"v"}]}`, []Check{
			{Action: "dynamodb:CreateTable", Resource: arnPrefix + "New", Table: "New"},
			{Action: "dynamodb:TagResource", Resource: arnPrefix + "New", Table: "New"}}},
		{"with a resource policy", "CreateTable", `{"TableName":"New","ResourcePolicy":"{}"}`, []Check{
			{Action: "dynamodb:CreateTable", Resource: arnPrefix + "New", Table: "New"},
			{Action: "dynamodb:PutResourcePolicy", Resource: arnPrefix + "New", Table: "New"}}},
		ordersOp("DescribeTable"), ordersOp("UpdateTable"), ordersOp("DeleteTable"),
		ordersOp("DescribeTimeToLive"), ordersOp("UpdateTimeToLive"),
		{"by ARN", "DescribeTable", `{"TableName":"` + ordersArn + `"}`, plain("DescribeTable", ordersArn, "Orders")},
		{"no resource", "ListTables", `{}`, plain("ListTables", "*", "")},
		{"no resource", "DescribeLimits", `{}`, plain("DescribeLimits", "*", "")},
		{"no resource", "ListStreams", `{"TableName":"Orders"}`, plain("ListStreams", "*", "")},
		{"not authorised", "DescribeEndpoints", `{}`, []Check{}},
		{"table", "TagResource", `{"ResourceArn":"` + ordersArn + `","Tags":[{"Key":"k","Value":"v"}]}`,
			plain("TagResource", ordersArn, "Orders")},
		{"index", "UntagResource", `{"ResourceArn":"` + ordersArn + `/index/GSI1","TagKeys":["k"]}`,
			plain("UntagResource", ordersArn+"/index/GSI1", "Orders")},
		{"table", "ListTagsOfResource", `{"ResourceArn":"` + ordersArn + `"}`, plain("ListTagsOfResource", ordersArn, "Orders")},
		{"stream", "PutResourcePolicy", `{"ResourceArn":"` + streamArn + `","Policy":"{}"}`,
			plain("PutResourcePolicy", streamArn, "")},
		{"table", "GetResourcePolicy", `{"ResourceArn":"` + ordersArn + `"}`, plain("GetResourcePolicy", ordersArn, "Orders")},
		{"table", "DeleteResourcePolicy", `{"ResourceArn":"` + ordersArn + `"}`, plain("DeleteResourcePolicy", ordersArn, "Orders")},
		{"stream", "DescribeStream", `{"StreamArn":"` + streamArn + `"}`, plain("DescribeStream", streamArn, "")},
		{"stream", "GetShardIterator", `{"StreamArn":"` + streamArn + `","ShardId":"s","ShardIteratorType":"LATEST"}`,
			plain("GetShardIterator", streamArn, "")},
		{"iterator's stream", "GetRecords", `{"ShardIterator":"iter-orders"}`, plain("GetRecords", streamArn, "")},
		{"unknown iterator", "GetRecords", `{"ShardIterator":"junk"}`, plain("GetRecords", "*", "")},
	})
}

// TestRestoreChecks: the restore action on the source, then read and write
// on the new table, as the guide to IAM with backup and restore asks.
func TestRestoreChecks(t *testing.T) {
	backupArn := ordersArn + "/backup/01"
	then := func(source Check) []Check {
		out := []Check{source}
		for _, op := range []string{"PutItem", "UpdateItem", "DeleteItem", "GetItem", "Query", "Scan", "BatchWriteItem"} {
			out = append(out, Check{Action: "dynamodb:" + op, Resource: arnPrefix + "New", Table: "New"})
		}
		return out
	}
	pitr := Check{Action: "dynamodb:RestoreTableToPointInTime", Resource: ordersArn, Table: "Orders"}
	runCases(t, []tcase{
		{"backup", "RestoreTableFromBackup", `{"BackupArn":"` + backupArn + `","TargetTableName":"New"}`,
			then(Check{Action: "dynamodb:RestoreTableFromBackup", Resource: backupArn})},
		{"source named", "RestoreTableToPointInTime", `{"SourceTableName":"Orders","TargetTableName":"New"}`, then(pitr)},
		{"source ARN", "RestoreTableToPointInTime", `{"SourceTableArn":"` + ordersArn + `","TargetTableName":"New"}`, then(pitr)},
	})
}
