package awscli

import (
	"strings"
	"unicode"
)

// kind is how the CLI reads a parameter's value.
type kind int

const (
	text    kind = iota // one word, as is
	number              // a whole number
	flag                // --name is true, --no-name false; no value
	jsonArg             // a structure, map or list: JSON
	names               // a list of strings: words, or a JSON list
)

// kinds are the request parameters of DynamoDB's data operations, as the
// API Reference types them.
var kinds = map[string]kind{
	"TableName": text, "IndexName": text, "Select": text, "ConditionalOperator": text,
	"ReturnConsumedCapacity": text, "ReturnItemCollectionMetrics": text, "ReturnValues": text,
	"ReturnValuesOnConditionCheckFailure": text, "ProjectionExpression": text, "FilterExpression": text,
	"KeyConditionExpression": text, "ConditionExpression": text, "UpdateExpression": text,
	"Statement": text, "NextToken": text, "ClientRequestToken": text,
	"Limit": number, "Segment": number, "TotalSegments": number,
	"ConsistentRead": flag, "ScanIndexForward": flag,
	"Key": jsonArg, "Item": jsonArg, "Expected": jsonArg, "AttributeUpdates": jsonArg, "KeyConditions": jsonArg,
	"QueryFilter": jsonArg, "ScanFilter": jsonArg, "ExclusiveStartKey": jsonArg, "ExpressionAttributeNames": jsonArg,
	"ExpressionAttributeValues": jsonArg, "RequestItems": jsonArg, "TransactItems": jsonArg, "Parameters": jsonArg,
	"Statements": jsonArg, "TransactStatements": jsonArg,
	"AttributesToGet": names,
}

// condition are the parameters of a conditional single-item write.
var condition = []string{"TableName", "Expected", "ConditionalOperator", "ReturnValues", "ReturnConsumedCapacity",
	"ReturnItemCollectionMetrics", "ConditionExpression", "ExpressionAttributeNames", "ExpressionAttributeValues",
	"ReturnValuesOnConditionCheckFailure"}

// parameters are each data operation's request parameters.
var parameters = map[string][]string{
	"GetItem": {"TableName", "Key", "AttributesToGet", "ConsistentRead", "ReturnConsumedCapacity",
		"ProjectionExpression", "ExpressionAttributeNames"},
	"PutItem":    append([]string{"Item"}, condition...),
	"UpdateItem": append([]string{"Key", "AttributeUpdates", "UpdateExpression"}, condition...),
	"DeleteItem": append([]string{"Key"}, condition...),
	"Query": {"TableName", "IndexName", "Select", "AttributesToGet", "Limit", "ConsistentRead", "KeyConditions",
		"QueryFilter", "ConditionalOperator", "ScanIndexForward", "ExclusiveStartKey", "ReturnConsumedCapacity",
		"ProjectionExpression", "FilterExpression", "KeyConditionExpression", "ExpressionAttributeNames",
		"ExpressionAttributeValues"},
	"Scan": {"TableName", "IndexName", "AttributesToGet", "Limit", "Select", "ScanFilter", "ConditionalOperator",
		"ExclusiveStartKey", "ReturnConsumedCapacity", "TotalSegments", "Segment", "ProjectionExpression",
		"FilterExpression", "ExpressionAttributeNames", "ExpressionAttributeValues", "ConsistentRead"},
	"BatchGetItem":       {"RequestItems", "ReturnConsumedCapacity"},
	"BatchWriteItem":     {"RequestItems", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics"},
	"TransactGetItems":   {"TransactItems", "ReturnConsumedCapacity"},
	"TransactWriteItems": {"TransactItems", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics", "ClientRequestToken"},
	"ExecuteStatement": {"Statement", "Parameters", "ConsistentRead", "NextToken", "ReturnConsumedCapacity", "Limit",
		"ReturnValuesOnConditionCheckFailure"},
	"BatchExecuteStatement": {"Statements", "ReturnConsumedCapacity"},
	"ExecuteTransaction":    {"TransactStatements", "ClientRequestToken", "ReturnConsumedCapacity"},
}

// paginated are the operations the CLI pages through: the limit and the
// start key the CLI itself would send are what, given by hand, turn its
// paging off.
var paginated = map[string]bool{"Query": true, "Scan": true}

// globals are the CLI's options that choose a profile or endpoint or
// shape the output: the engine the command runs on is the caller's, and
// the caller reads the answer itself. The value says whether one follows.
var globals = map[string]bool{
	"region": true, "endpoint-url": true, "output": true, "profile": true, "query": true,
	"color": true, "ca-bundle": true, "cli-read-timeout": true, "cli-connect-timeout": true,
	"cli-binary-format": true, "no-cli-pager": false, "no-verify-ssl": false, "no-sign-request": false,
	"debug": false, "cli-auto-prompt": false, "no-cli-auto-prompt": false,
}

// commands are the operations by their CLI command (get-item: GetItem),
// and options each operation's parameters by their option (table-name:
// TableName).
var commands, options = indexNames()

func indexNames() (map[string]string, map[string]map[string]string) {
	cmds, opts := map[string]string{}, map[string]map[string]string{}
	for op, params := range parameters {
		cmds[kebab(op)] = op
		opts[op] = map[string]string{}
		for _, p := range params {
			opts[op][kebab(p)] = p
		}
	}
	return cmds, opts
}

// kebab is the CLI's name for an API name: ScanIndexForward is
// scan-index-forward. No DynamoDB data parameter has an acronym in it.
func kebab(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
