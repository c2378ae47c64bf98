package access

import "testing"

const okey = `"Key":{"pk":{"S":"o1"},"sk":{"N":"1"}}`

func TestGetItem(t *testing.T) {
	runCases(t, []tcase{
		{"whole item", "GetItem", `{"TableName":"Orders",` + okey + `}`, one(orders("GetItem", kv{
			KeyLeadingKeys: {"o1"}, KeyAttributes: {"pk", "sk"}, KeySelect: {"ALL_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}))},
		{"projection", "GetItem", `{"TableName":"Orders",` + okey + `,"ProjectionExpression":"#n, price.amount, tags[0]",
			"ExpressionAttributeNames":{"#n":"name"},"ReturnConsumedCapacity":"TOTAL"}`, one(orders("GetItem", kv{
			KeyLeadingKeys: {"o1"}, KeyAttributes: {"name", "pk", "price", "sk", "tags"}, KeySelect: {"SPECIFIC_ATTRIBUTES"},
			KeyConsumedCapacity: {"TOTAL"}}))},
		{"AttributesToGet", "GetItem", `{"TableName":"Orders",` + okey + `,"AttributesToGet":["b","a"]}`, one(orders("GetItem", kv{
			KeyLeadingKeys: {"o1"}, KeyAttributes: {"a", "b", "pk", "sk"}, KeySelect: {"SPECIFIC_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}))},
		{"table ARN", "GetItem", `{"TableName":"` + ordersArn + `",` + okey + `}`, one(orders("GetItem", kv{
			KeyLeadingKeys: {"o1"}, KeyAttributes: {"pk", "sk"}, KeySelect: {"ALL_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}))},
		{"number key normalized", "GetItem", `{"TableName":"Hash","Key":{"id":{"N":"01.50"}}}`, one(hash("GetItem", kv{
			KeyLeadingKeys: {"1.5"}, KeyAttributes: {"id"}, KeySelect: {"ALL_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}))},
		{"binary key as base64", "GetItem", `{"TableName":"Hash","Key":{"id":{"B":"AQI="}}}`, one(hash("GetItem", kv{
			KeyLeadingKeys: {"AQI="}, KeyAttributes: {"id"}, KeySelect: {"ALL_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}))},
		{"unknown table", "GetItem", `{"TableName":"Nope","Key":{"pk":{"S":"o1"}}}`, one(Check{Action: "dynamodb:GetItem",
			Resource: arnPrefix + "Nope", Table: "Nope", Keys: kv{KeyLeadingKeys: {U}, KeyAttributes: {"pk"},
				KeySelect: {"ALL_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}})},
		{"partition key missing", "GetItem", `{"TableName":"Orders","Key":{"sk":{"N":"1"}}}`, one(orders("GetItem", kv{
			KeyLeadingKeys: {U}, KeyAttributes: {"sk"}, KeySelect: {"ALL_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}))},
		{"partition key of no key type", "GetItem", `{"TableName":"Hash","Key":{"id":{"BOOL":true}}}`, one(hash("GetItem", kv{
			KeyLeadingKeys: {U}, KeyAttributes: {"id"}, KeySelect: {"ALL_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}))},
		{"bad projection", "GetItem", `{"TableName":"Orders",` + okey + `,"ProjectionExpression":"a,,b"}`, one(orders("GetItem", kv{
			KeyLeadingKeys: {"o1"}, KeyAttributes: {U, "pk", "sk"}, KeySelect: {"SPECIFIC_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}))},
		{"foreign ARN", "GetItem", `{"TableName":"arn:aws:dynamodb:eu-west-1:999999999999:table/X",` + okey + `}`, one(Check{
			Action: "dynamodb:GetItem", Resource: "arn:aws:dynamodb:eu-west-1:999999999999:table/X", Keys: kv{KeyLeadingKeys: {U},
				KeyAttributes: {"pk", "sk"}, KeySelect: {"ALL_ATTRIBUTES"}, KeyConsumedCapacity: {"NONE"}}})},
	})
}

func hash(action string, keys kv) Check {
	return Check{Action: "dynamodb:" + action, Resource: arnPrefix + "Hash", Table: "Hash", Keys: keys}
}

func TestWrites(t *testing.T) {
	runCases(t, []tcase{
		{"put", "PutItem", `{"TableName":"Orders","Item":{"pk":{"S":"o1"},"sk":{"N":"1"},"a":{"S":"x"},"b":{"N":"2"}},
			"ConditionExpression":"attribute_not_exists(#c)","ExpressionAttributeNames":{"#c":"c"},"ReturnValues":"ALL_OLD"}`,
			one(orders("PutItem", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"a", "b", "c", "pk", "sk"},
				KeyReturnValues: {"ALL_OLD"}, KeyConsumedCapacity: {"NONE"}}))},
		{"put with Expected", "PutItem", `{"TableName":"Orders","Item":{"pk":{"S":"o1"},"sk":{"N":"1"}},
			"Expected":{"x":{"Exists":false}},"ReturnConsumedCapacity":"INDEXES"}`,
			one(orders("PutItem", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"pk", "sk", "x"},
				KeyReturnValues: {"NONE"}, KeyConsumedCapacity: {"INDEXES"}}))},
		{"update expression", "UpdateItem", `{"TableName":"Orders",` + okey + `,
			"UpdateExpression":"SET a = b + :one, #l = list_append(#l, :v) REMOVE c ADD d :one DELETE e :s",
			"ConditionExpression":"f > :one","ExpressionAttributeNames":{"#l":"l"},
			"ExpressionAttributeValues":{":one":{"N":"1"},":v":{"L":[]},":s":{"SS":["x"]}}}`,
			one(orders("UpdateItem", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"a", "b", "c", "d", "e", "f", "l", "pk", "sk"},
				KeyReturnValues: {"NONE"}, KeyConsumedCapacity: {"NONE"}}))},
		{"AttributeUpdates", "UpdateItem", `{"TableName":"Orders",` + okey + `,
			"AttributeUpdates":{"g":{"Action":"PUT","Value":{"S":"1"}}},"ReturnValues":"UPDATED_NEW"}`,
			one(orders("UpdateItem", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"g", "pk", "sk"},
				KeyReturnValues: {"UPDATED_NEW"}, KeyConsumedCapacity: {"NONE"}}))},
		{"bad update expression", "UpdateItem", `{"TableName":"Orders",` + okey + `,"UpdateExpression":"SET"}`,
			one(orders("UpdateItem", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {U, "pk", "sk"},
				KeyReturnValues: {"NONE"}, KeyConsumedCapacity: {"NONE"}}))},
		{"delete", "DeleteItem", `{"TableName":"Orders",` + okey + `,"ReturnValues":"ALL_OLD","ReturnConsumedCapacity":"TOTAL"}`,
			one(orders("DeleteItem", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"pk", "sk"},
				KeyReturnValues: {"ALL_OLD"}, KeyConsumedCapacity: {"TOTAL"}}))},
	})
}

func TestTransactions(t *testing.T) {
	member := func(action string, pk string, attrs ...string) Check {
		return orders(action, kv{KeyLeadingKeys: {pk}, KeyAttributes: attrs, KeyReturnValues: {"NONE"},
			KeyConsumedCapacity: {"TOTAL"}, KeyEnclosingOperation: {"TransactWriteItems"}})
	}
	runCases(t, []tcase{
		{"write members", "TransactWriteItems", `{"ReturnConsumedCapacity":"TOTAL","TransactItems":[
			{"ConditionCheck":{"TableName":"Orders","Key":{"pk":{"S":"o1"},"sk":{"N":"1"}},"ConditionExpression":"attribute_exists(v)"}},
			{"Put":{"TableName":"Orders","Item":{"pk":{"S":"o2"},"sk":{"N":"1"},"a":{"S":"x"}}}},
			{"Update":{"TableName":"Orders","Key":{"pk":{"S":"o3"},"sk":{"N":"1"}},"UpdateExpression":"SET #w = :w",
				"ExpressionAttributeNames":{"#w":"w"},"ExpressionAttributeValues":{":w":{"S":"y"}}}},
			{"Delete":{"TableName":"Orders","Key":{"pk":{"S":"o4"},"sk":{"N":"1"}}}}]}`,
			[]Check{member("ConditionCheckItem", "o1", "pk", "sk", "v"), member("PutItem", "o2", "a", "pk", "sk"),
				member("UpdateItem", "o3", "pk", "sk", "w"), member("DeleteItem", "o4", "pk", "sk")}},
		{"get members", "TransactGetItems", `{"TransactItems":[
			{"Get":{"TableName":"Orders","Key":{"pk":{"S":"o1"},"sk":{"N":"1"}}}},
			{"Get":{"TableName":"Hash","Key":{"id":{"S":"h1"}},"ProjectionExpression":"q"}}]}`,
			[]Check{orders("GetItem", kv{KeyLeadingKeys: {"o1"}, KeyAttributes: {"pk", "sk"}, KeySelect: {"ALL_ATTRIBUTES"},
				KeyConsumedCapacity: {"NONE"}, KeyEnclosingOperation: {"TransactGetItems"}}),
				hash("GetItem", kv{KeyLeadingKeys: {"h1"}, KeyAttributes: {"id", "q"}, KeySelect: {"SPECIFIC_ATTRIBUTES"},
					KeyConsumedCapacity: {"NONE"}, KeyEnclosingOperation: {"TransactGetItems"}})}},
	})
}

func TestBatches(t *testing.T) {
	runCases(t, []tcase{
		{"get, one check per table", "BatchGetItem", `{"ReturnConsumedCapacity":"TOTAL","RequestItems":{
			"Orders":{"Keys":[{"pk":{"S":"o2"},"sk":{"N":"1"}},{"pk":{"S":"o1"},"sk":{"N":"2"}},{"pk":{"S":"o1"},"sk":{"N":"3"}}],
				"ProjectionExpression":"#a","ExpressionAttributeNames":{"#a":"a"}},
			"Hash":{"Keys":[{"id":{"S":"h1"}}]}}}`,
			[]Check{hash("BatchGetItem", kv{KeyLeadingKeys: {"h1"}, KeyAttributes: {"id"}, KeySelect: {"ALL_ATTRIBUTES"},
				KeyConsumedCapacity: {"TOTAL"}}),
				orders("BatchGetItem", kv{KeyLeadingKeys: {"o1", "o2"}, KeyAttributes: {"a", "pk", "sk"},
					KeySelect: {"SPECIFIC_ATTRIBUTES"}, KeyConsumedCapacity: {"TOTAL"}})}},
		{"write, one check per table", "BatchWriteItem", `{"RequestItems":{
			"Orders":[{"PutRequest":{"Item":{"pk":{"S":"o1"},"sk":{"N":"1"},"a":{"S":"x"}}}},
				{"DeleteRequest":{"Key":{"pk":{"S":"o2"},"sk":{"N":"2"}}}}],
			"Hash":[{"PutRequest":{"Item":{"id":{"N":"7"}}}}]}}`,
			[]Check{hash("BatchWriteItem", kv{KeyLeadingKeys: {"7"}, KeyAttributes: {"id"}, KeyConsumedCapacity: {"NONE"}}),
				orders("BatchWriteItem", kv{KeyLeadingKeys: {"o1", "o2"}, KeyAttributes: {"a", "pk", "sk"},
					KeyConsumedCapacity: {"NONE"}})}},
	})
}
