package validate

import (
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

const (
	okKeyExpr = `"TableName":"tbl","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}`
	okKeyCond = `"TableName":"tbl","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}}`
)

func TestQuery(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"ok expression", `{` + okKeyExpr + `}`, ""},
		{"ok legacy", `{` + okKeyCond + `}`, ""},
		{"ok select count", `{` + okKeyExpr + `,"Select":"COUNT"}`, ""},
		{"ok specific", `{` + okKeyExpr + `,"Select":"SPECIFIC_ATTRIBUTES","ProjectionExpression":"a"}`, ""},
		{"ok projected on index", `{` + okKeyExpr + `,"Select":"ALL_PROJECTED_ATTRIBUTES","IndexName":"ix1"}`, ""},
		{"ok names with projection only", `{` + okKeyCond + `,"Select":"SPECIFIC_ATTRIBUTES","AttributesToGet":["a"]}`, ""},
		// facts 36.2: a missing TableName is a model violation, listed first.
		{"no table", `{"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`,
			"1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"},
		{"no table with model", `{"Select":"count",` + okKeyExpr[len(`"TableName":"tbl",`):] + `}`,
			"2 validation errors detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null; Value 'count' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"},
		{"limit zero", `{` + okKeyExpr + `,"Limit":0}`,
			"1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"limit before model", `{"TableName":"t",` + okKeyExpr[len(`"TableName":"tbl",`):] + `,"Select":"ALL","Limit":0}`,
			"1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"model, ten listed of all", `{"TableName":"t","IndexName":"i!","Select":"ALL","AttributesToGet":[],
			"ConditionalOperator":"XOR","ReturnConsumedCapacity":"ALL",
			"KeyConditions":{"pk":{"AttributeValueList":[{"S":"a"}]},"pk2":{"AttributeValueList":[{"S":"a"}]}},
			"QueryFilter":{"f":{"ComparisonOperator":"LIKE"},"g":{"ComparisonOperator":"LIKE"}}}`,
			"11 validation errors detected: " +
				"Value 't' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; " +
				"Value 'i!' at 'indexName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; " +
				"Value 'i!' at 'indexName' failed to satisfy constraint: Member must have length greater than or equal to 3; " +
				"Value 'ALL' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]; " +
				"Value '[]' at 'attributesToGet' failed to satisfy constraint: Member must have length greater than or equal to 1; " +
				"Value null at 'keyConditions.pk.member.comparisonOperator' failed to satisfy constraint: Member must not be null; " +
				"Value null at 'keyConditions.pk2.member.comparisonOperator' failed to satisfy constraint: Member must not be null; " +
				"Value 'LIKE' at 'queryFilter.f.member.comparisonOperator' failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]; " +
				"Value 'LIKE' at 'queryFilter.g.member.comparisonOperator' failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]; " +
				"Value 'XOR' at 'conditionalOperator' failed to satisfy constraint: Member must satisfy enum value set: [AND, OR]"},
		{"select rules before key condition", `{"TableName":"tbl","Select":"SPECIFIC_ATTRIBUTES"}`,
			"1 validation error detected: Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"},
		{"mixed", `{` + okKeyCond + `,"AttributesToGet":["a"],"QueryFilter":{},"FilterExpression":"a = :p","ProjectionExpression":"b"}`,
			"Can not use both expression and non-expression parameters in the same request: " +
				"Non-expression parameters: {AttributesToGet, QueryFilter} Expression parameters: {FilterExpression, ProjectionExpression}"},
		{"mixed key", `{` + okKeyExpr + `,"KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}}}`,
			"Can not use both expression and non-expression parameters in the same request: " +
				"Non-expression parameters: {KeyConditions} Expression parameters: {KeyConditionExpression}"},
		{"names without expression", `{` + okKeyCond + `,"ExpressionAttributeNames":{"#a":"a"}}`,
			"ExpressionAttributeNames can only be specified when using expressions"},
		{"values without expression", `{` + okKeyCond + `,"ExpressionAttributeValues":{":a":{"S":"a"}}}`,
			"ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null"},
		{"empty names", `{` + okKeyExpr + `,"ExpressionAttributeNames":{}}`, "ExpressionAttributeNames must not be empty"},
		{"empty values", `{"TableName":"tbl","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{}}`,
			"ExpressionAttributeValues must not be empty"},
		{"no key condition", `{"TableName":"tbl"}`,
			"Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."},
		{"three key conditions", `{"TableName":"tbl","KeyConditions":{"a":{"ComparisonOperator":"EQ"},"b":{"ComparisonOperator":"EQ"},"c":{"ComparisonOperator":"EQ"}}}`,
			"Conditions can be of length 1 or 2 only"},
		{"specific without projection", `{` + okKeyExpr + `,"Select":"SPECIFIC_ATTRIBUTES"}`,
			"1 validation error detected: Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"},
		{"all with projection", `{` + okKeyExpr + `,"Select":"ALL_ATTRIBUTES","ProjectionExpression":"a"}`,
			"1 validation error detected: Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES"},
		{"projected with projection", `{` + okKeyExpr + `,"Select":"ALL_PROJECTED_ATTRIBUTES","ProjectionExpression":"a","IndexName":"ix1"}`,
			"1 validation error detected: Cannot specify the ProjectionExpression when choosing to get ALL_PROJECTED_ATTRIBUTES"},
		{"count with attributes", `{` + okKeyCond + `,"Select":"COUNT","AttributesToGet":["a"]}`,
			"1 validation error detected: Cannot specify the AttributesToGet when choosing to get only the Count"},
		{"projected without index", `{` + okKeyExpr + `,"Select":"ALL_PROJECTED_ATTRIBUTES"}`,
			"1 validation error detected: ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"},
		{"bad expression value", `{"TableName":"tbl","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{}}}`,
			"ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes for key :p"},
		{"bad start key", `{` + okKeyExpr + `,"ExclusiveStartKey":{"pk":{"NULL":false}}}`,
			"One or more parameter values were invalid: Null attribute value types must have the value of true"},
		{"bad condition value", `{"TableName":"tbl","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a","N":"1"}]}}}`,
			"Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &protocol.QueryInput{}
			decode(t, tc.in, in)
			check(t, Query(in), tc.want)
		})
	}
}

func TestScan(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"ok", `{"TableName":"tbl"}`, ""},
		{"ok parallel", `{"TableName":"tbl","Segment":0,"TotalSegments":1}`, ""},
		{"ok filter", `{"TableName":"tbl","FilterExpression":"a = :a","ExpressionAttributeValues":{":a":{"N":"1"}}}`, ""},
		{"ok legacy filter", `{"TableName":"tbl","ScanFilter":{"a":{"ComparisonOperator":"NOT_NULL"}},"ConditionalOperator":"OR"}`, ""},
		{"model", `{"TableName":"tbl","Limit":0,"Segment":-1,"TotalSegments":0}`,
			"3 validation errors detected: " +
				"Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1; " +
				"Value '0' at 'totalSegments' failed to satisfy constraint: Member must have value greater than or equal to 1; " +
				"Value '-1' at 'segment' failed to satisfy constraint: Member must have value greater than or equal to 0"},
		{"model upper bounds", `{"TableName":"tbl","Segment":1000000,"TotalSegments":1000001}`,
			"2 validation errors detected: " +
				"Value '1000001' at 'totalSegments' failed to satisfy constraint: Member must have value less than or equal to 1000000; " +
				"Value '1000000' at 'segment' failed to satisfy constraint: Member must have value less than or equal to 999999"},
		{"mixed", `{"TableName":"tbl","ScanFilter":{"a":{"ComparisonOperator":"NULL"}},"ConditionalOperator":"AND","FilterExpression":"a = :a"}`,
			"Can not use both expression and non-expression parameters in the same request: " +
				"Non-expression parameters: {ConditionalOperator, ScanFilter} Expression parameters: {FilterExpression}"},
		{"values with projection only", `{"TableName":"tbl","ProjectionExpression":"a","ExpressionAttributeValues":{":a":{"N":"1"}}}`,
			"ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null"},
		{"names without expression", `{"TableName":"tbl","ExpressionAttributeNames":{"#a":"a"}}`,
			"ExpressionAttributeNames can only be specified when using expressions"},
		{"count with projection", `{"TableName":"tbl","Select":"COUNT","ProjectionExpression":"a"}`,
			"Cannot specify the ProjectionExpression when choosing to get only the Count"},
		{"projected without index", `{"TableName":"tbl","Select":"ALL_PROJECTED_ATTRIBUTES"}`,
			"ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"},
		{"segment alone", `{"TableName":"tbl","Segment":0}`,
			"The TotalSegments parameter is required but was not present in the request when Segment parameter is present"},
		{"total alone", `{"TableName":"tbl","TotalSegments":2}`,
			"The Segment parameter is required but was not present in the request when parameter TotalSegments is present"},
		{"segments before select", `{"TableName":"tbl","Segment":0,"Select":"SPECIFIC_ATTRIBUTES"}`,
			"The TotalSegments parameter is required but was not present in the request when Segment parameter is present"},
		{"select count", `{"TableName":"tbl","Select":"count"}`,
			"1 validation error detected: Value 'count' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"},
		{"no table", `{"Limit":0}`, // facts 36.2
			"2 validation errors detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null; Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"segment too large", `{"TableName":"tbl","Segment":5,"TotalSegments":5}`,
			"The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 5 is not less than TotalSegments: 5"},
		{"bad filter value", `{"TableName":"tbl","ScanFilter":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{"NULL":false}]}}}`,
			"One or more parameter values were invalid: Null attribute value types must have the value of true"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &protocol.ScanInput{}
			decode(t, tc.in, in)
			check(t, Scan(in), tc.want)
		})
	}
}

// check expects no error for want "", else a ValidationException saying want.
func check(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	wantMessage(t, err, apierr.Validation, want)
}
