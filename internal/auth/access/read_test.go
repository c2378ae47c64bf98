package access

import "testing"

func TestQuery(t *testing.T) {
	runCases(t, []tcase{
		{"table", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p AND sk > :s",
			"ExpressionAttributeValues":{":p":{"S":"o1"},":s":{"N":"1"}}}`,
			one(orders("Query", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"pk", "sk"}, KeySelect: {"ALL_ATTRIBUTES"},
				KeyConsumedCapacity: {"NONE"}}))},
		{"global index", "Query", `{"TableName":"Orders","IndexName":"GSI1",
			"KeyConditionExpression":"begins_with(gsk, :x) AND gpk = :g","FilterExpression":"#st = :a",
			"ExpressionAttributeNames":{"#st":"status"},
			"ExpressionAttributeValues":{":g":{"S":"g1"},":x":{"S":"2026"},":a":{"S":"open"}}}`,
			one(onIndex("Query", "GSI1", kv{KeyLeadingKeys: {"g1"}, KeyAttributes: {"gpk", "gsk", "status"},
				KeySelect: {"ALL_PROJECTED_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}))},
		{"local index, projected", "Query", `{"TableName":"Orders","IndexName":"LSI1","KeyConditionExpression":"pk = :p",
			"ProjectionExpression":"lsk, z","ExpressionAttributeValues":{":p":{"S":"o1"}},"ReturnConsumedCapacity":"INDEXES"}`,
			one(onIndex("Query", "LSI1", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"lsk", "pk", "z"},
				KeySelect: {"SPECIFIC_ATTRIBUTES"}, KeyConsumedCapacity: {"INDEXES"}}))},
		{"multi-attribute partition key", "Query", `{"TableName":"Orders","IndexName":"Multi",
			"KeyConditionExpression":"mb = :b AND ma = :a","ExpressionAttributeValues":{":a":{"S":"a1"},":b":{"N":"2"}}}`,
			one(onIndex("Query", "Multi", kv{KeyLeadingKeys: {"2", "a1"}, KeyAttributes: {"ma", "mb"},
				KeySelect: {"ALL_PROJECTED_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}))},
		{"multi-attribute partition key, one missing", "Query", `{"TableName":"Orders","IndexName":"Multi",
			"KeyConditionExpression":"ma = :a","ExpressionAttributeValues":{":a":{"S":"a1"}}}`,
			one(onIndex("Query", "Multi", kv{KeyLeadingKeys: {U, "a1"}, KeyAttributes: {"ma"},
				KeySelect: {"ALL_PROJECTED_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}))},
		{"legacy KeyConditions", "Query", `{"TableName":"Orders","Select":"COUNT",
			"KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"o1"}]}},
			"QueryFilter":{"q":{"ComparisonOperator":"NOT_NULL"}}}`,
			one(orders("Query", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"pk", "q"}, KeySelect: {"COUNT"},
				KeyConsumedCapacity: {"NONE"}}))},
		{"no partition equality", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk > :p",
			"ExpressionAttributeValues":{":p":{"S":"o1"}}}`,
			one(orders("Query", kv{KeyLeadingKeys: {U}, KeyAttributes: {"pk"}, KeySelect: {"ALL_ATTRIBUTES"},
				KeyConsumedCapacity: {"NONE"}}))},
		{"unknown index", "Query", `{"TableName":"Orders","IndexName":"Nope","KeyConditionExpression":"pk = :p",
			"ExpressionAttributeValues":{":p":{"S":"o1"}}}`,
			one(onIndex("Query", "Nope", kv{KeyLeadingKeys: {U}, KeyAttributes: {"pk"},
				KeySelect: {"ALL_PROJECTED_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}))},
		{"AttributesToGet", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p","AttributesToGet":["t"],
			"ExpressionAttributeValues":{":p":{"S":"o1"}}}`,
			one(orders("Query", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"pk", "t"}, KeySelect: {"SPECIFIC_ATTRIBUTES"},
				KeyConsumedCapacity: {"NONE"}}))},
	})
}

func TestScan(t *testing.T) {
	runCases(t, []tcase{
		{"table", "Scan", `{"TableName":"Orders","FilterExpression":"a = :a","ExpressionAttributeValues":{":a":{"S":"x"}}}`,
			one(orders("Scan", kv{KeyAttributes: {"a"}, KeySelect: {"ALL_ATTRIBUTES"},
				KeyConsumedCapacity: {"NONE"}}))},
		{"index, legacy filter", "Scan", `{"TableName":"Orders","IndexName":"GSI1","ReturnConsumedCapacity":"TOTAL",
			"ScanFilter":{"b":{"ComparisonOperator":"NULL"}}}`,
			one(onIndex("Scan", "GSI1", kv{KeyAttributes: {"b"}, KeySelect: {"ALL_PROJECTED_ATTRIBUTES"},
				KeyConsumedCapacity: {"TOTAL"}}))},
		{"projected", "Scan", `{"TableName":"Orders","ProjectionExpression":"c","Select":"SPECIFIC_ATTRIBUTES"}`,
			one(orders("Scan", kv{KeyAttributes: {"c"}, KeySelect: {"SPECIFIC_ATTRIBUTES"},
				KeyConsumedCapacity: {"NONE"}}))},
	})
}
